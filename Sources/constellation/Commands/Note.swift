import ArgumentParser
import ConstellationModel
import Foundation

/// `note` and `tag`: my private follow-up on a connection, seen by no one else.
struct Note: SessionCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a private note on a connection (only you ever see it).",
        discussion: "PERSON is their profile id or their name (enough of it to tell them apart). An empty note clears it.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Their profile id, or their name.")
    var person: String

    @Argument(help: "The note (\"\" clears it).")
    var text: String

    func run(in session: Session) async throws {
        let connection = try await session.connection(named: person)
        let noted = try await session.client.annotate(connection.peer.id, ConnectionNoteChanges(note: text))
        if options.json { return try Terminal.printJSON(noted) }
        Terminal.print(noted.note == nil ? "Cleared your note on \(noted.peer.displayName)." : "Noted on \(noted.peer.displayName).")
    }
}

struct Tag: SessionCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tag a connection privately (only you ever see your tags).",
        discussion: "`connections --tag TAG` lists the people with a tag. PERSON is their profile id or their name.")

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Their profile id, or their name.")
    var person: String

    @Argument(help: "The tags to add (or, with --remove, to remove).")
    var tags: [String]

    @Flag(help: "Remove these tags instead of adding them.")
    var remove = false

    func validate() throws {
        if tags.isEmpty { throw ValidationError("give at least one tag") }
    }

    func run(in session: Session) async throws {
        let connection = try await session.connection(named: person)
        let current = connection.tags ?? []
        let changed =
            remove
            ? current.filter { tag in !tags.contains { $0.caseInsensitiveCompare(tag) == .orderedSame } }
            : current + tags
        let tagged = try await session.client.annotate(connection.peer.id, ConnectionNoteChanges(tags: changed))
        if options.json { return try Terminal.printJSON(tagged) }
        let list = tagged.tags ?? []
        Terminal.print("\(tagged.peer.displayName): \(list.isEmpty ? "no tags" : list.joined(separator: ", "))")
    }
}

extension Session {
    /// My connection with `person`: a profile id, or a name that only one of my connections has
    /// (whole, or as a part no one else's has), compared without regard to case.
    func connection(named person: String) async throws -> Connection {
        let wanted = person.trimmingCharacters(in: .whitespaces)
        let id = UUID(uuidString: wanted)
        var matches: [Connection] = []
        var cursor: String?
        repeat {
            let page = try await client.connections(limit: 200, cursor: cursor, search: id == nil ? wanted : nil)
            matches += page.items.filter { id == nil ? $0.peer.displayName.localizedCaseInsensitiveContains(wanted) : $0.peer.id == id }
            cursor = page.nextCursor
        } while cursor != nil && (id == nil || matches.isEmpty)
        let exact = matches.filter {
            $0.peer.displayName.compare(wanted, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame
        }
        if exact.count == 1 { return exact[0] }
        switch matches.count {
        case 1: return matches[0]
        case 0:
            throw CommandFailure.data(
                "you have no connection \(id == nil ? "named" : "with id") '\(wanted)': see `constellation connections`")
        default:
            let names = matches.prefix(5).map { "\($0.peer.displayName) (\($0.peer.id.uuidString.lowercased()))" }.joined(separator: ", ")
            throw CommandFailure.data(
                "'\(wanted)' fits \(matches.count) of your connections (\(names)); give more of the name or the profile id")
        }
    }
}
