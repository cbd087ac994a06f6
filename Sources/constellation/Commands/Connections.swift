import ArgumentParser
import ConstellationModel

struct Connections: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the people you are connected with, newest first.",
        discussion: "`--csv` and `--vcard` give all of them as a file to open in a spreadsheet or an address book.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "Show at most this many.")
    var limit: Int?

    @Flag(help: "All your connections as CSV (RFC 4180).")
    var csv = false

    @Flag(help: "All your connections as vCard 4.0 cards, one per person (RFC 6350).")
    var vcard = false

    @Option(name: [.short, .long], help: "With --csv or --vcard: write to this file (readable by you only) instead of stdout.")
    var output: String?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if csv && vcard { throw ValidationError("give --csv or --vcard, not both") }
        if (csv || vcard) && (limit != nil || options.json) { throw ValidationError("--csv and --vcard export every connection: drop --limit and --json") }
        if output != nil && !(csv || vcard) { throw ValidationError("--output needs --csv or --vcard") }
    }

    func run() async throws {
        try await reportingErrors {
            let session = try Session(options: options)
            try await session.catchUp()
            if csv || vcard {
                let bytes = try await session.client.exportConnections(format: csv ? "csv" : "vcard")
                try OutputFile.write(bytes, to: output)
                if let output { Terminal.note("Wrote your connections to \(output).") }
                return
            }
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
