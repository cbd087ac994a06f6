import ArgumentParser
import ConstellationModel

struct Connections: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the people you are connected with, newest first.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "Show at most this many.")
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        try await reportingErrors {
            let session = try Session(options: options)
            try await session.catchUp()
            var items: [Connection] = []
            var cursor: String?
            repeat {
                let page = try await session.client.connections(limit: min(200, limit.map { $0 - items.count } ?? 200), cursor: cursor)
                items += page.items
                cursor = page.nextCursor
            } while cursor != nil && items.count < (limit ?? .max)
            if options.json { return try Terminal.printJSON(items) }
            guard !items.isEmpty else { return Terminal.print("No connections yet: `constellation scan` someone's code.") }
            for connection in items {
                let peer = connection.peer
                Terminal.print("\(peer.displayName)\(peer.headline.map { " — \($0)" } ?? "")  (\(connection.connectedAt.formatted(date: .abbreviated, time: .shortened)))")
            }
        }
    }
}
