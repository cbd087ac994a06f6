import ArgumentParser
import ConstellationModel

struct Connections: SessionCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the people you are connected with, newest first, with your notes and tags.",
        discussion: """
            `--search` finds text in their names and headlines and in your notes and tags; `--tag` and `--event`             narrow the list. `--csv` and `--vcard` give all of them as a file to open in a spreadsheet or an address book.
            """)

    @OptionGroup var options: GlobalOptions

    @Option(help: "Show at most this many.")
    var limit: Int?

    @Option(help: "Only those whose name, headline, or your note or tags hold this text.")
    var search: String?

    @Option(help: "Only those you gave this tag.")
    var tag: String?

    @Option(help: "Only those you met at this event (its slug or id).")
    var event: String?

    @Flag(help: "All your connections as CSV (RFC 4180).")
    var csv = false

    @Flag(help: "All your connections as vCard 4.0 cards, one per person (RFC 6350).")
    var vcard = false

    @Option(
        name: [.short, .long], help: "With --csv or --vcard: write to this file (readable by you only) instead of stdout.",
        completion: .file())
    var output: String?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if csv && vcard { throw ValidationError("give --csv or --vcard, not both") }
        if (csv || vcard) && (limit != nil || options.json || search != nil || tag != nil || event != nil) {
            throw ValidationError("--csv and --vcard export every connection: drop --limit, --search, --tag, --event and --json")
        }
        if output != nil && !(csv || vcard) { throw ValidationError("--output needs --csv or --vcard") }
    }

    func run(in session: Session) async throws {
        if csv || vcard {
            let bytes = try await session.client.exportConnections(format: csv ? "csv" : "vcard")
            try OutputFile.write(bytes, to: output)
            if let output { Terminal.note("Wrote your connections to \(output).") }
            return
        }
        var items: [Connection] = []
        var cursor: String?
        repeat {
            let page = try await session.client.connections(
                limit: min(200, limit.map { $0 - items.count } ?? 200), cursor: cursor, search: search, tag: tag, event: event)
            items += page.items
            cursor = page.nextCursor
        } while cursor != nil && items.count < (limit ?? .max)
        if options.json { return try Terminal.printJSON(items) }
        guard !items.isEmpty else {
            let narrowed = search != nil || tag != nil || event != nil
            return Terminal.print(narrowed ? "No connection fits." : "No connections yet: `constellation scan` someone's code.")
        }
        for connection in items {
            let peer = connection.peer
            let met =
                connection.connectedAt.formatted(date: .abbreviated, time: .shortened)
                + (connection.eventName.map { " at \($0)" } ?? "")
            let tags = (connection.tags ?? []).map { "#\($0)" }.joined(separator: " ")
            Terminal.print("\(peer.displayName)\(peer.headline.map { " — \($0)" } ?? "")  (\(met))\(tags.isEmpty ? "" : "  \(tags)")")
            Self.printCard(of: connection)
            if let note = connection.note {
                Terminal.print(
                    note.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }.joined(separator: "\n"))
            }
        }
    }

    /// What the other person shares on their card, a line an entry, indented under their name.
    static func printCard(of connection: Connection) {
        for entry in connection.card ?? [] {
            Terminal.print("    \(entry.kind.rawValue)\(entry.label.map { " (\($0))" } ?? ""): \(entry.value)")
        }
    }
}
