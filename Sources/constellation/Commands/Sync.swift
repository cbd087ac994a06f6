import ArgumentParser
import ConstellationModel

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Send the scans saved while offline.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await reportingErrors {
            let session = try Session(options: options)
            let results = try await session.syncQueue()
            if options.json { return try Terminal.printJSON(results) }
            guard !results.isEmpty else { return Terminal.print("Nothing to sync.") }
            for result in results {
                switch result.status {
                case "connected", "already_connected":
                    let name = result.redemption?.connection.peer.displayName ?? "?"
                    Terminal.print(result.status == "connected" ? "Connected with \(name)." : "Already connected with \(name).")
                case "refused":
                    Terminal.print("Refused: \(result.message ?? "") [\(result.code ?? "")]")
                default:
                    Terminal.print("Still pending: \(result.message ?? "")")
                }
            }
            let pending = results.filter { $0.status == "pending" }
            if pending.contains(where: { ["invalid_credentials", "missing_credentials"].contains($0.code) }) {
                throw CommandFailure.credentials(
                    "the server no longer knows this CLI's key; the scans stay queued: run `constellation register` again to send them")
            }
            if !pending.isEmpty { throw CommandFailure.unavailable("some scans could not be sent; they stay queued") }
        }
    }
}
