import ArgumentParser
import Client
import ConstellationModel

/// `constellation me card`: my contact card, entry by entry, each for my connections or for nobody.
struct CardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card",
        abstract: "Show or change your contact card: what your connections see of you besides your name.",
        discussion: """
            Each entry (an email address, a phone number in international form, a link, your organization \
            or role) is for your connections (--share) or for nobody but you (the default). Your connections \
            see what is shared, as it is now, in their lists and exports; nobody else ever does.
            """,
        subcommands: [Show.self, Add.self, Remove.self, Share.self],
        defaultSubcommand: Show.self
    )

    /// Prints `card` as numbered entries (the numbers `remove` and `share` take).
    static func print(_ card: ContactCard, json: Bool) throws {
        if json { return try Terminal.printJSON(card) }
        guard !card.entries.isEmpty else {
            return Terminal.print("Your card is empty: `constellation me card add email you@example.org --share`.")
        }
        for (index, entry) in card.entries.enumerated() {
            let label = entry.label.map { " (\($0))" } ?? ""
            let audience = entry.audience == .connections ? "your connections" : "only you"
            Terminal.print("\(index + 1). \(entry.kind.rawValue)\(label): \(entry.value)  — seen by \(audience)")
        }
    }

    /// The card with `change` applied to its entries, sent as a whole (only if no other device
    /// changed it in between) and printed as the server keeps it.
    static func change(in session: Session, json: Bool, _ change: (inout [ContactEntry]) throws -> Void) async throws {
        var (card, etag) = try await session.client.taggedCard()
        try change(&card.entries)
        do {
            try print(try await session.client.replaceCard(card, ifMatch: etag), json: json)
        } catch ClientError.problem(let problem) where problem.known == .cardChanged {
            throw CommandFailure.data("your card changed on another device just now: see `constellation me card`, then try again")
        }
    }

    /// The index of entry `number` (as `show` numbers them) in `entries`.
    static func index(_ number: Int, in entries: [ContactEntry]) throws -> Int {
        guard number >= 1, entries.indices.contains(number - 1) else {
            throw CommandFailure.data("there is no entry \(number): your card has \(entries.count) (see `constellation me card`)")
        }
        return number - 1
    }

    struct Show: SessionCommand {
        static let configuration = CommandConfiguration(abstract: "Show your card, numbered, with who sees each entry.")
        @OptionGroup var options: GlobalOptions

        func run(in session: Session) async throws {
            try CardCommand.print(try await session.client.card(), json: options.json)
        }
    }

    struct Add: SessionCommand {
        static let configuration = CommandConfiguration(abstract: "Add an entry: email, phone, link, organization or role.")
        @OptionGroup var options: GlobalOptions

        @Argument(help: "email, phone, link, organization or role.")
        var kind: ContactEntry.Kind

        @Argument(help: "The address, the number (+4930123456), the link (https://…), or the text.")
        var value: String

        @Option(help: "A label: work, home, mobile, linkedin …")
        var label: String?

        @Flag(help: "Show it to your connections (by default, nobody but you sees it).")
        var share = false

        func run(in session: Session) async throws {
            try await CardCommand.change(in: session, json: options.json) { entries in
                entries.append(ContactEntry(kind: kind, label: label, value: value, audience: share ? .connections : .nobody))
            }
        }
    }

    struct Remove: SessionCommand {
        static let configuration = CommandConfiguration(abstract: "Remove entry N (as `me card` numbers them).")
        @OptionGroup var options: GlobalOptions

        @Argument(help: "The entry's number.")
        var number: Int

        func run(in session: Session) async throws {
            try await CardCommand.change(in: session, json: options.json) { entries in
                entries.remove(at: try CardCommand.index(number, in: entries))
            }
        }
    }

    struct Share: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show entry N to your connections, or with --nobody keep it for you only.")
        @OptionGroup var options: GlobalOptions

        @Argument(help: "The entry's number.")
        var number: Int

        @Flag(help: "Keep it for you only: your connections no longer see it.")
        var nobody = false

        func run(in session: Session) async throws {
            try await CardCommand.change(in: session, json: options.json) { entries in
                entries[try CardCommand.index(number, in: entries)].audience = nobody ? .nobody : .connections
            }
        }
    }
}

extension ContactEntry.Kind: ExpressibleByArgument {}
