import ArgumentParser
import ConstellationModel
import Foundation
import Graph
import Server
import Store
import Tokens

/// `constellation-server import sociopatterns FILE --event SLUG`: a SocioPatterns contact file
/// becomes an event with a new organizer, whose API key is printed (once).
struct ImportSocioPatterns: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sociopatterns",
        abstract: "Load a SocioPatterns contact file (t i j) as a new event and print its organizer's API key.",
        discussion: """
            Every person id becomes a profile and an attendee, every pair a connection made at the event \
            at its first contact. The earliest contact happens at --start, and a row at t at \
            start + (t - t_first); without --start, t is UNIX time. The file is read whole before \
            anything is written, and everything is written in one transaction: a bad line (exit 65) or a \
            slug already taken (exit 73) leaves the database as it was. The event's join code is not \
            shown: rotate it (POST /v1/events/{event}/join-code) to let people join.
            """
    )

    @OptionGroup var common: CommonOptions

    @Argument(help: "The contact file: 't i j' per line (t in seconds, i and j person ids).", completion: .file())
    var file: String

    @Option(help: "The new event's slug (3 to 64 lowercase letters, digits and hyphens).")
    var event: String

    @Option(help: "When the earliest contact happens (RFC 3339, e.g. 2009-06-29T08:00:00Z); default: t is UNIX time.")
    var start: Timestamp?

    @Option(help: "The event's name (default: the slug).")
    var name: String?

    @Option(help: "The event's IANA time zone.")
    var timeZone = "UTC"

    @Option(
        help: ArgumentHelp(
            "When the event's personal data goes (RFC 3339); default: CONSTELLATION_PURGE_AFTER_DAYS after the import.",
            discussion: "From now to CONSTELLATION_PURGE_LONGEST_DAYS after the import, never before the event's end."))
    var purgeOn: Timestamp?

    @Flag(help: "Print {\"eventId\", \"organizerKey\"} as JSON.")
    var json = false

    func run() async throws {
        try await CommandFailure.reporting {
            let logger = try common.logger(defaultLevel: "warning")
            let key = try APIKey.generate()
            let environment = ProcessInfo.processInfo.environment
            let settings = try ServerConfiguration(environment: environment)
            let contacts = try contactImport(from: try read(), start: start?.date, organizerKeyHash: key.hash, settings: settings)
            let setup = try DatabaseSetup(environment: environment, dataDirectory: common.dataDirectory(environment), logger: logger)
            let migrations = try setup.migrationsDirectory()
            let progress = ImportProgress()
            let clock = ContinuousClock()
            let (imported, elapsed) = try await setup.withDatabase(maximumConnections: 1, sharingRunningServer: true) { database in
                try await Migrator(directory: migrations, logger: logger).migrate(database)
                let began = clock.now
                do {
                    let imported = try await EventRepository(database: database).importContacts(contacts) {
                        progress.report(written: $0, total: $1)
                    }
                    return (imported.event, clock.now - began)
                } catch StoreError.slugTaken {
                    throw CommandFailure.cannotCreate(
                        "an event with the slug \(contacts.event.slug) exists already; choose another --event")
                }
            }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            progress.finish(
                "imported \(contacts.pairs.count.grouped) connections among \(contacts.people.count.grouped) people "
                    + "in \(String(format: "%.2f", seconds)) s (\(Int(Double(contacts.pairs.count) / max(seconds, 1e-6)).grouped) connections/s)"
            )
            try output(imported, organizerKey: key.key)
        }
    }

    /// The file's text parsed as tij: 66 when it cannot be read, 65 for a malformed line.
    private func read() throws -> ParsedGraph {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            var folder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &folder) else {
                throw CommandFailure.noInput("no such file: \(file)")
            }
            throw CommandFailure.noInput(
                folder.boolValue ? "\(file) is a folder, not a file" : "cannot read \(file): \(error.localizedDescription)")
        }
        do {
            return try EdgeListParser.parse(bytes: [UInt8](data), format: .tij)
        } catch {
            throw CommandFailure.data("\(file): \(error)")
        }
    }

    /// The event, its people and pairs, with times moved to `start` if given; the event's fields
    /// checked as `POST /v1/events` checks them (65 when they fail).
    private func contactImport(
        from parsed: ParsedGraph, start: Date?, organizerKeyHash: [UInt8], settings: ServerConfiguration
    ) throws -> ContactImport {
        guard let firstContacts = parsed.firstContacts, !firstContacts.isEmpty, let times = parsed.times else {
            throw CommandFailure.data("\(file): no contact between two people")
        }
        // In floating point: the file's first and last times may be any two integers (their difference
        // overflows `Int`); what is not a sane date is refused below.
        func date(_ time: Int) -> Date {
            start.map { $0.addingTimeInterval(Double(time) - Double(times.lowerBound)) } ?? Date(timeIntervalSince1970: Double(time))
        }
        guard RFC3339.accepted.contains(date(times.lowerBound)), RFC3339.accepted.contains(date(times.upperBound)) else {
            throw CommandFailure.data(
                "\(file): its times \(times.lowerBound)…\(times.upperBound) are not dates between 1970 and 9999"
                    + (start == nil ? " (UNIX seconds; or give --start)" : " from --start"))
        }
        let fields: NewEvent
        do {
            // The last contact's second is part of the event, which must last more than nothing.
            fields = try EventFields.check(
                NewEvent(
                    name: name ?? event, slug: event, startsAt: date(times.lowerBound),
                    endsAt: date(times.upperBound).addingTimeInterval(1), timeZone: timeZone),
                dates: RFC3339.accepted, horizon: settings.eventHorizon)
        } catch let refusal as any ProblemConvertible {
            throw CommandFailure.data("the event would not be valid: \(refusal.problem.detail ?? refusal.problem.title)")
        }
        let eventId = UUID()
        return ContactImport(
            eventId: eventId, event: fields, purgeOn: try purgeDate(endingAt: fields.endsAt, settings: settings),
            organizerName: "Organizer",
            organizerKeyHash: organizerKeyHash,
            people: parsed.graph.ids.map { "Person \($0)" },
            pairs: firstContacts.map { ContactImport.Pair(a: Int($0.a), b: Int($0.b), firstAt: date($0.time)) })
    }

    /// `--purge-on`, checked (64 outside its bounds), or the default: counted from the import.
    private func purgeDate(endingAt end: Date, settings: ServerConfiguration) throws -> Date {
        let now = Date()
        guard let chosen = purgeOn?.date else { return settings.defaultPurgeDate(endingAt: end, now: now) }
        let latest = max(end, now).addingTimeInterval(
            Double(settings.offlineGrace.components.seconds + settings.purgeLongest.components.seconds))
        let earliest = max(end.addingTimeInterval(Double(settings.offlineGrace.components.seconds)), now)
        guard chosen >= earliest, chosen <= latest else {
            throw ValidationError(
                "--purge-on must be between now (and the event's end and the offline grace) and \(ISO8601DateFormatter().string(from: latest)) "
                    + "(CONSTELLATION_PURGE_LONGEST_DAYS)")
        }
        return chosen
    }

    private func output(_ event: Event, organizerKey: String) throws {
        if json {
            struct Imported: Encodable {
                let eventId: UUID
                let organizerKey: String
            }
            let data = try JSONEncoder.constellation.encode(Imported(eventId: event.id, organizerKey: organizerKey))
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(
                """
                Imported \(event.name) (\(event.slug)) as event \(event.id.uuidString.lowercased()).
                Its organizer's API key, shown this once: \(organizerKey)
                """)
        }
    }
}

/// A date-time given as RFC 3339 on the command line (`2009-06-29T08:00:00Z`, `…T10:00:00+02:00`).
struct Timestamp: ExpressibleByArgument {
    let date: Date

    init?(argument: String) {
        guard let date = try? Date.ISO8601FormatStyle().parse(argument) else { return nil }
        self.date = date
    }
}
