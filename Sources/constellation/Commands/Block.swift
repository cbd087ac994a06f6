import ArgumentParser
import ConstellationModel
import Foundation

/// `block PROFILE_ID`, `block --list` and `unblock PROFILE_ID`.
struct BlockCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "block",
        abstract: "Block someone: your connection goes, and neither of you can connect with the other.",
        discussion:
            "Give their profile id, as `connections --json` shows it. `block --list` shows whom you blocked; `unblock` lifts a block.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The profile id of the person to block.")
    var profileId: String?

    @Flag(help: "List the people you blocked instead.")
    var list = false

    func validate() throws {
        switch (profileId, list) {
        case (nil, false): throw ValidationError("give the profile id of the person to block, or --list")
        case (.some, true): throw ValidationError("give a profile id or --list, not both")
        case (.some(let text), false): guard UUID(uuidString: text) != nil else { throw ValidationError("'\(text)' is not a profile id") }
        case (nil, true): break
        }
    }

    func run(in session: Session) async throws {
        guard let id = profileId.flatMap(UUID.init(uuidString:)) else {
            let blocks = try await session.client.allBlocks()
            if options.json { return try Terminal.printJSON(BlockList(items: blocks, nextCursor: nil)) }
            if blocks.isEmpty { return Terminal.print("You have not blocked anyone.") }
            for block in blocks { Terminal.print("\(block.profile.displayName)  \(block.profile.id.uuidString.lowercased())") }
            return
        }
        let block = try await session.client.block(id)
        if options.json { return try Terminal.printJSON(block) }
        Terminal.print("You blocked \(block.profile.displayName): you are not connected, and neither of you can scan the other's code.")
    }
}

struct Unblock: SessionCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lift a block.",
        discussion: "You can connect again by scanning a fresh code; the connection the block removed does not come back by itself.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The profile id of the person to unblock.")
    var profileId: String

    func validate() throws {
        guard UUID(uuidString: profileId) != nil else { throw ValidationError("'\(profileId)' is not a profile id") }
    }

    /// What `unblock --json` prints.
    struct Output: Encodable { let unblocked: UUID }

    func run(in session: Session) async throws {
        let id = UUID(uuidString: profileId)!
        try await session.client.unblock(id)
        if options.json { return try Terminal.printJSON(Output(unblocked: id)) }
        Terminal.print("You unblocked \(id.uuidString.lowercased()). Scan a fresh code to connect again.")
    }
}
