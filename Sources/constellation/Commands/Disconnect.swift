import ArgumentParser
import ConstellationModel
import Foundation

struct Disconnect: SessionCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove your connection with someone.",
        discussion: "Give their profile id, as `connections --json` shows it. You can connect again later by scanning a fresh code.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The profile id of the person to disconnect from.")
    var profileId: String

    func validate() throws {
        guard UUID(uuidString: profileId) != nil else { throw ValidationError("'\(profileId)' is not a profile id") }
    }

    /// What `disconnect --json` prints.
    struct Output: Encodable { let disconnected: UUID }

    func run(in session: Session) async throws {
        let id = UUID(uuidString: profileId)!
        let name = try? await session.client.profile(id: id).displayName
        try await session.client.disconnect(from: id)
        if options.json { return try Terminal.printJSON(Output(disconnected: id)) }
        Terminal.print("You are no longer connected with \(name ?? id.uuidString).")
    }
}
