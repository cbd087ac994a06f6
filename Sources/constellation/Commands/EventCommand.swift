import ArgumentParser
import ConstellationModel
import Foundation

struct EventCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event",
        abstract: "Create an event, join one, or show one; its organizers see how it grew, its figures and its network.",
        discussion: """
            An event is named by its slug (rustconf-2026) or its id. Its organizer gets a join code \
            (XXXX-XXXX) to give attendees; `constellation show --event SLUG` shows a code that makes \
            whoever scans it an attendee too. `growth`, `summary`, `view`, `export` and `open` are for its organizers; \
            anyone else gets exit 65 (not_an_organizer), like every other refusal by the server.
            """,
        subcommands: [
            Create.self, Edit.self, Join.self, Show.self, Growth.self, Summary.self, View.self, Export.self, Open.self, Links.self,
            Invite.self,
            Invitations.self, Answer.self, Organizers.self, StepDown.self, Code.self, RotateCode.self, Visibility.self, OnWall.self,
            Badge.self, PrintBadge.self, Badges.self, Leave.self, PurgeDate.self, Purge.self, Record.self, Report.self,
        ]
    )

    struct Create: SessionCommand {
        static let configuration = CommandConfiguration(abstract: "Create an event; you become its organizer.")

        @OptionGroup var options: GlobalOptions

        @Option(help: "The event's name, e.g. \"RustConf 2026\".")
        var name: String

        @Option(help: "Its short address: 3 to 64 lowercase letters, digits and hyphens, e.g. rustconf-2026.")
        var slug: String

        @Option(help: "When it starts: 2026-05-01T09:00 (in --time-zone) or with an offset, 2026-05-01T09:00:00+02:00.")
        var starts: String

        @Option(help: "When it ends, written like --starts.")
        var ends: String

        @Option(help: "Its IANA time zone, e.g. Europe/Paris.")
        var timeZone: String = "UTC"

        func validate() throws {
            guard let zone = TimeZone(identifier: timeZone) else { throw ValidationError("'\(timeZone)' is not a time zone") }
            guard EventCommand.date(starts, in: zone) != nil else { throw ValidationError("--starts '\(starts)' is not a date and time") }
            guard EventCommand.date(ends, in: zone) != nil else { throw ValidationError("--ends '\(ends)' is not a date and time") }
        }

        func run(in session: Session) async throws {
            let zone = TimeZone(identifier: timeZone)!
            let created = try await session.client.createEvent(
                NewEvent(
                    name: name, slug: slug, startsAt: EventCommand.date(starts, in: zone)!, endsAt: EventCommand.date(ends, in: zone)!,
                    timeZone: timeZone))
            if options.json { return try Terminal.printJSON(created) }
            Terminal.print(
                """
                Created \(created.event.name) (\(created.event.slug)), \(EventCommand.dates(of: created.event)).
                Join code: \(created.joinCode). It is shown only now: attendees run `constellation event join \(created.event.slug) --code \(created.joinCode)`.
                """)
        }
    }

    struct Join: SessionCommand {
        static let configuration = CommandConfiguration(abstract: "Join an event as an attendee with its join code.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Option(help: "The join code an organizer gave you (XXXX-XXXX; case and hyphen do not matter).")
        var code: String

        @Flag(help: "Let the event's organizers see your name (by default they see a pseudonym).")
        var named = false

        func run(in session: Session) async throws {
            var membership = try await session.client.joinEvent(event, code: code)
            if named && membership.visibility != .named {
                _ = try await session.client.setEventVisibility(.named, at: event)
                membership = MyEvent(event: membership.event, role: membership.role, joinedAt: membership.joinedAt, visibility: .named)
            }
            if options.json { return try Terminal.printJSON(membership) }
            Terminal.print(
                "You are \(membership.role == .organizer ? "an organizer" : "an attendee") of \(membership.event.name). "
                    + "Show your code for it with `constellation show --event \(membership.event.slug)`.")
            Terminal.print(Visibility.sentence(membership.visibility, at: membership.event))
        }
    }

    struct Visibility: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Choose how an event's organizers see you: by name, or by a pseudonym (the default).",
            discussion: "Without a choice, says which it is now. Only the organizers' views change: your connections always see your name.")

        enum Choice: String, ExpressibleByArgument, CaseIterable { case named, pseudonymous }

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Argument(help: "named or pseudonymous.")
        var choice: Choice?

        func run(in session: Session) async throws {
            let visibility: EventVisibility
            let found: Event
            if let choice {
                visibility = try await session.client.setEventVisibility(EventVisibility(rawValue: choice.rawValue)!, at: event).visibility
                found = try await session.client.event(event)
            } else {
                let mine = try await EventCommand.membership(of: event, in: session)
                (visibility, found) = (mine.visibility, mine.event)
            }
            if options.json { return try Terminal.printJSON(EventPrivacyOutput(eventId: found.id, visibility: visibility)) }
            Terminal.print(Self.sentence(visibility, at: found))
        }

        /// What `event visibility --json` prints.
        struct EventPrivacyOutput: Encodable {
            let eventId: UUID
            let visibility: EventVisibility
        }

        static func sentence(_ visibility: EventVisibility, at event: Event) -> String {
            switch visibility {
            case .named:
                "\(event.name)'s organizers see you by name (`constellation event visibility \(event.slug) pseudonymous` hides it)."
            case .pseudonymous:
                "\(event.name)'s organizers see you by a pseudonym (`constellation event visibility \(event.slug) named` shows your name)."
            }
        }
    }

    struct Code: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show an event's join code and join link (organizers only).",
            discussion: """
                The link is what the join poster's and the wall's QR code open. An event made before join codes \
                could be shown again has none to show (exit 65, join_code_unknown) until `rotate-code` gives it one.
                """)

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        func run(in session: Session) async throws {
            let code = try await EventCommand.asOrganizer(of: event) { try await session.client.joinCode(of: event) }
            if options.json { return try Terminal.printJSON(code) }
            Terminal.print("Join code: \(code.joinCode)\nJoin link: \(code.link)")
        }
    }

    struct RotateCode: SessionCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-code",
            abstract: "Replace an event's join code (organizers only): the old one stops working at once.",
            discussion: "For joining and for registering through the event alike; people already in stay in.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        func run(in session: Session) async throws {
            let rotated = try await EventCommand.asOrganizer(of: event) { try await session.client.rotateJoinCode(of: event) }
            if options.json { return try Terminal.printJSON(rotated) }
            Terminal.print("The new join code: \(rotated.joinCode). The old one no longer works.")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show an event's name and dates.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        func run() async throws {
            try await reportingErrors {
                let session = try Session(options: options, credentials: .optional)
                let event = try await session.client.event(event)
                if options.json { return try Terminal.printJSON(event) }
                Terminal.print("\(event.name) (\(event.slug))\n\(EventCommand.dates(of: event))\nid: \(event.id)")
            }
        }
    }

    /// ISO 8601 with an offset, or a local date and time (`2026-05-01T09:00[:00]`) in `zone`.
    static func date(_ text: String, in zone: TimeZone) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        for pattern in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.dateFormat = pattern
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    /// "2026-05-01 09:00 – 2026-05-01 18:00 Europe/Paris", in the event's own time zone.
    static func dates(of event: Event) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: event.timeZone) ?? .gmt
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return "\(formatter.string(from: event.startsAt)) – \(formatter.string(from: event.endsAt)) \(event.timeZone)"
    }
}
