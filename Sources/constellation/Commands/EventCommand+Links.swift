import ArgumentParser
import ConstellationModel
import Foundation

extension EventCommand {
    struct Links: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "List an event's live view links, extend one, or revoke one or all (organizers only).",
            discussion: """
                Each link `event open` makes is listed with its id, who made it, until when it is live and until \
                when it may be extended (the event's end). `--extend ID` keeps a link open longer without a new \
                one (its open pages go on); `--until` says until when (RFC 3339, or a local date and time in the \
                event's zone), the latest allowed unless given. `--revoke ID` or `--revoke-all` ends links at once: \
                their open pages say so.
                """)

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Option(help: ArgumentHelp("Extend this link (its id, as listed).", valueName: "id"))
        var extend: UUID?

        @Option(help: ArgumentHelp("Until when to extend it: 2026-05-01T18:00 (in the event's zone) or with an offset.", valueName: "time"))
        var until: String?

        @Option(help: ArgumentHelp("Revoke this link (its id, as listed).", valueName: "id"))
        var revoke: UUID?

        @Flag(help: "Revoke every live link of the event.")
        var revokeAll = false

        func validate() throws {
            if [extend != nil, revoke != nil, revokeAll].filter({ $0 }).count > 1 {
                throw ValidationError("Give one of --extend, --revoke and --revoke-all.")
            }
            if until != nil, extend == nil { throw ValidationError("--until goes with --extend.") }
            if let until, EventCommand.date(until, in: .gmt) == nil {
                throw ValidationError("--until: \(until) is not a date and time (2026-05-01T18:00, or with an offset).")
            }
        }

        func run(in session: Session) async throws {
            let client = session.client
            if revoke != nil || revokeAll {
                let count = try await EventCommand.asOrganizer(of: event) { try await client.revokeViewLinks(of: event, id: revoke) }
                if options.json { return try Terminal.printJSON(ViewLinksRevoked(revoked: count)) }
                return Terminal.print(
                    "\(count) link\(count == 1 ? "" : "s") revoked: the pages open through \(count == 1 ? "it" : "them") say so.")
            }
            let links = try await EventCommand.asOrganizer(of: event) { try await client.viewLinks(of: event) }.items
            if let extend {
                guard let link = links.first(where: { $0.id == extend }) else {
                    throw CommandFailure.data(
                        "\(event) has no live view link \(extend.uuidString.lowercased()) (see `constellation event links \(event)`)")
                }
                let shown = try await client.event(event)
                var target = link.longestUntil
                if let until {
                    guard let date = EventCommand.date(until, in: TimeZone(identifier: shown.timeZone) ?? .gmt) else {
                        throw CommandFailure.data("--until: \(until) is not a date and time in \(shown.timeZone)")
                    }
                    target = date
                }
                let extended = try await client.extendViewLink(extend, of: event, until: target)
                if options.json { return try Terminal.printJSON(extended) }
                return Terminal.print("The link is live until \(Self.time(extended.expiresAt, in: shown)).")
            }
            if options.json { return try Terminal.printJSON(ViewLinkList(items: links)) }
            guard !links.isEmpty else {
                return Terminal.print("\(event) has no live view link (`constellation event open \(event)` makes one).")
            }
            let shown = try await client.event(event)
            for link in links {
                Terminal.print(
                    "\(link.id.uuidString.lowercased())  \(link.showsNames ? "live page" : "wall     ")  by \(link.createdByName), "
                        + "until \(Self.time(link.expiresAt, in: shown)) (at most \(Self.time(link.longestUntil, in: shown))), "
                        + "\(link.screens) screen\(link.screens == 1 ? "" : "s")")
            }
        }

        /// `date` as `2026-05-01 18:00` in `event`'s zone.
        static func time(_ date: Date, in event: Event) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: event.timeZone) ?? .gmt
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            return formatter.string(from: date)
        }
    }
}
