import ArgumentParser
import Client
import ConstellationModel
import Foundation

extension EventCommand {
    struct PurgeDate: SessionCommand {
        static let configuration = CommandConfiguration(
            commandName: "purge-date", abstract: "When an event's personal data goes, and moving that date (organizers only).",
            discussion: """
                On its purge date an event's attendees, their choices and its pairs are removed by the server, by itself; its \
                name, dates and figures stay (`event record`), and so do the people's connections, which are theirs. The \
                date may move between the event's end and the offline grace (or now) and the server's longest keeping.
                """)

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Option(help: "A new purge date: 2027-01-31T00:00 (in the event's time zone) or with an offset.")
        var set: String?

        /// `date` in the event's time zone, named.
        static func time(_ date: Date, in zone: TimeZone) -> String {
            "\(EventCommand.localTime(date, in: zone)) \(zone.identifier)"
        }

        func run(in session: Session) async throws {
            let client = session.client
            let details = try await client.event(event)
            let zone = TimeZone(identifier: details.timeZone) ?? .gmt
            let date: ConstellationModel.PurgeDate
            if let set {
                guard let chosen = EventCommand.date(set, in: zone) else { throw ValidationError("--set '\(set)' is not a date and time") }
                date = try await EventCommand.asOrganizer(of: event) { try await client.movePurgeDate(of: event, to: chosen) }
            } else {
                date = try await EventCommand.asOrganizer(of: event) { try await client.purgeDate(of: event) }
            }
            if options.json { return try Terminal.printJSON(date) }
            if let purgedAt = date.purgedAt {
                return Terminal.print(
                    "\(details.name) was purged on \(Self.time(purgedAt, in: zone)); its record stays (`constellation event record \(event)`)."
                )
            }
            Terminal.print(
                "\(details.name)'s attendees, their choices and its pairs are purged on \(Self.time(date.purgeOn, in: zone)).\n"
                    + "The date may move from \(Self.time(date.earliest, in: zone)) to \(Self.time(date.latest, in: zone)): --set DATE.")
        }
    }

    struct Purge: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Purge an event now, before its date, once its codes no longer redeem (organizers only).",
            discussion: """
                Removes, for good, who attended and their choices (how organizers saw them, badges, names on the wall), the \
                event's pairs, invitations, view links (open walls go dark) and join code. Stays: the event's name and dates, \
                its figures (`event record`), and everyone's connections. Asks for --yes.
                """)

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Flag(help: "Yes: remove the event's attendees, their choices, its pairs, invitations and view links now.")
        var yes = false

        func validate() throws {
            guard yes else {
                throw ValidationError(
                    "Purging removes the event's attendees, their choices, its pairs, invitations and view links for good "
                        + "(its figures and everyone's connections stay): run `constellation event purge \(event) --yes` if you mean it.")
            }
        }

        func run(in session: Session) async throws {
            let client = session.client
            let details = try await client.event(event)
            let purged = try await EventCommand.asOrganizer(of: event) { try await client.purge(event, confirming: details.slug) }
            if options.json { return try Terminal.printJSON(purged) }
            Terminal.print(
                "\(details.name) is purged: its attendees, their choices and its pairs are going now. "
                    + "Its figures stay: constellation event record \(details.slug)")
        }
    }

    struct Record: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "What an event leaves behind: its figures, with no one in them, before and after its purge (organizers only).")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Option(help: "The growth's buckets: 5m, 15m, 1h or 1d.")
        var bucket = "1h"

        func run(in session: Session) async throws {
            let client = session.client
            let details = try await client.event(event)
            let record = try await EventCommand.asOrganizer(of: event) { try await client.record(of: event, bucket: bucket) }
            if options.json { return try Terminal.printJSON(record) }
            let zone = TimeZone(identifier: details.timeZone) ?? .gmt
            let state = record.purged ? "purged; the figures as its purge kept them" : "the figures as they are now"
            Summary.printTable(title: "\(details.name) (\(details.slug)): \(state)", rows: Summary.rows(record.figures, zone: zone))
        }
    }

    struct Report: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write an event's report (organizers only): one HTML page to print or save as PDF.",
            discussion: """
                Its figures, its growth as charts, its constellation (nobody labelled) and its top connectors among those who \
                chose to be named. After the purge, made from its record alone.
                """)

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Option(help: "The language of the report's words: one the server writes (en, de, …).")
        var language = "en"

        @Option(name: [.short, .long], help: "Write to this file.", completion: .file())
        var output: String

        func run(in session: Session) async throws {
            let client = session.client
            let html = try await EventCommand.asOrganizer(of: event) { try await client.report(of: event, language: language) }
            try OutputFile.write(html, to: output)
            if options.json { return try Terminal.printJSON(["report": output]) }
            Terminal.print("Wrote the report of \(event) to \(output): open it in a browser to read, print or save as PDF.")
        }
    }

    struct Leave: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Leave an event you attend: your membership, your choices there and its pairs you are in go.",
            discussion: """
                Your connections stay: they are yours, and your network still shows them. The event's figures and picture no \
                longer count you. An organizer steps down first (`event step-down`). You can join again with its code.
                """)

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        func run(in session: Session) async throws {
            do {
                try await session.client.leave(event)
            } catch {  // Not `catch … where`: with it, Swift 6.3.1's MandatoryAllocBoxToStack never ended on this module.
                guard error.is(.organizerCannotLeave) else { throw error }
                throw CommandFailure.data(
                    "you organize \(event): step down first (constellation event step-down \(event) --yes) [organizer_cannot_leave]")
            }
            if options.json { return try Terminal.printJSON(["left": event]) }
            Terminal.print("You left \(event). Your connections stay.")
        }
    }
}
