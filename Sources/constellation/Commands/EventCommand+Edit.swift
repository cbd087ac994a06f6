import ArgumentParser
import Client
import ConstellationModel
import Foundation

extension EventCommand {
    struct Edit: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change an event's name, dates or time zone (organizers only); its slug stays, so printed posters keep working.",
            discussion: """
                What is left out stays as it is. The start moves while it has not come; the end while the event has not ended \
                (--ends now ends it now), never before now, and an event lasts at most 31 days. Badges and walls follow the \
                new dates. A purge date left at its default moves with the end; one chosen with `event purge-date --set` stays \
                unless --purge-on moves it too. If another organizer changed the event meanwhile, nothing changes: run it again.
                """)

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Option(help: "Its new name.")
        var name: String?

        @Option(help: "A new start: 2026-05-01T09:00 (in the event's time zone, or --time-zone's) or with an offset.")
        var starts: String?

        @Option(help: "A new end, written like --starts, or now.")
        var ends: String?

        @Option(help: "Its new IANA time zone, e.g. Europe/Paris; --starts and --ends are read in it.")
        var timeZone: String?

        @Option(help: "A new purge date, written like --starts.")
        var purgeOn: String?

        func validate() throws {
            guard name != nil || starts != nil || ends != nil || timeZone != nil || purgeOn != nil else {
                throw ValidationError("give at least one of --name, --starts, --ends, --time-zone and --purge-on")
            }
            if let timeZone, TimeZone(identifier: timeZone) == nil { throw ValidationError("'\(timeZone)' is not a time zone") }
        }

        func run(in session: Session) async throws {
            let client = session.client
            let (current, etag) = try await client.taggedEvent(event)
            let zone = TimeZone(identifier: timeZone ?? current.timeZone) ?? .gmt
            func date(_ text: String?, _ option: String) throws -> Date? {
                guard let text else { return nil }
                if option == "--ends" && text == "now" { return Date() }
                guard let date = EventCommand.date(text, in: zone) else {
                    throw ValidationError("\(option) '\(text)' is not a date and time")
                }
                return date
            }
            let changes = EventChangeRequest(
                name: name, startsAt: try date(starts, "--starts"), endsAt: try date(ends, "--ends"), timeZone: timeZone,
                purgeOn: try date(purgeOn, "--purge-on"))
            guard let etag else { throw CommandFailure.data("the server gave no version of \(event) to change") }
            let changed: Event
            do {
                changed = try await EventCommand.asOrganizer(of: event) { try await client.changeEvent(event, changes, ifMatch: etag) }
            } catch let error as ClientError where error.is(.eventChanged) {
                throw CommandFailure.data(
                    "another organizer changed \(event) meanwhile: nothing changed; run the command again [event_changed]")
            }
            if options.json { return try Terminal.printJSON(changed) }
            Terminal.print("\(changed.name) (\(changed.slug)), \(EventCommand.dates(of: changed)).")
        }
    }
}
