import ConstellationModel
import Foundation
import Store

/// Checks and tidies the fields of a new event, or of an event's change: every rule the database
/// holds, and the ones it cannot. Shared by `POST /v1/events`, `PATCH /v1/events/{event}` and
/// `constellation-server import`.
package enum EventFields {
    static let nameText = UserText(field: "name", minimum: 1, maximum: Event.nameLimit)

    /// The checked input: a tidied name, and a slug, zone and dates as given. Its dates must lie in
    /// `dates`: an event's (years 2000 to 2199) for the API; an import of a recording may pass
    /// `RFC3339.accepted`, since recordings count UNIX seconds from 1970. It starts at most
    /// `horizon` after `now` (`CONSTELLATION_EVENT_HORIZON_DAYS`): everything an event's dates
    /// bound (its purge date, view links, badge codes) is then bounded from now too.
    package static func check(_ input: NewEvent, dates: Range<Date> = eventDates, horizon: Duration, now: Date = Date()) throws -> NewEvent
    {
        NewEvent(
            name: try nameText.check(input.name), slug: try slug(input.slug),
            startsAt: try startsAt(date(input.startsAt, "startsAt", in: dates), within: horizon, of: now),
            endsAt: try endsAt(date(input.endsAt, "endsAt", in: dates), after: input.startsAt), timeZone: try timeZone(input.timeZone))
    }

    /// What `input` makes of `current` at `now`, by creation's rules and the calendar's: the start
    /// moves only while it has not come, to now or later; the end moves while the event has not
    /// ended, to now or later (a minute's leeway: "end it now" from a phone whose clock is behind
    /// ends it now). A purge date left at its default moves with the end (`defaultPurgeDate`);
    /// one an organizer chose stays unless `input` moves it.
    package static func changes(
        _ input: EventChangeRequest, to current: Event, purgeOnChosen: Bool, now: Date, horizon: Duration,
        defaultPurgeDate: (Date) -> Date
    ) throws -> EventChanges {
        guard !input.isEmpty else {
            throw Problem.validation(
                "give at least one of name, startsAt, endsAt, timeZone and purgeOn",
                FieldError("", .required, fields: ["name", "startsAt", "endsAt", "timeZone", "purgeOn"]))
        }
        var startsAt = current.startsAt
        if let asked = input.startsAt, asked != current.startsAt {
            try refuseMoving("startsAt", current.startsAt, what: "start", ifCameBy: now)
            startsAt = try Self.startsAt(notBefore(now, date(asked, "startsAt", in: eventDates), "startsAt"), within: horizon, of: now)
        }
        var endsAt = current.endsAt
        if let asked = input.endsAt, asked != current.endsAt {
            try refuseMoving("endsAt", current.endsAt, what: "end", ifCameBy: now)
            endsAt = try notBefore(now, date(asked, "endsAt", in: eventDates), "endsAt")
        }
        endsAt = try Self.endsAt(endsAt, after: startsAt)
        let purgeOn: Date
        if let asked = input.purgeOn {
            purgeOn = asked
        } else if !purgeOnChosen && endsAt != current.endsAt {
            purgeOn = defaultPurgeDate(endsAt)
        } else {
            purgeOn = current.purgeOn
        }
        return EventChanges(
            name: try input.name.map(nameText.check) ?? current.name, startsAt: startsAt, endsAt: endsAt,
            timeZone: try input.timeZone.map(timeZone) ?? current.timeZone, purgeOn: purgeOn,
            purgeOnChosen: purgeOnChosen || input.purgeOn != nil)
    }

    /// A start or an end that has come stays where it is.
    private static func refuseMoving(_ field: String, _ date: Date, what: String, ifCameBy now: Date) throws {
        guard date <= now else { return }
        throw Problem.validation(
            "the event's \(what) has come (\(ISO8601Seconds.string(date))): it stays",
            FieldError("/\(field)", .dateRange, earliest: date, latest: date))
    }

    /// `date` if it has not passed, now if it passed less than a minute ago.
    private static func notBefore(_ now: Date, _ date: Date, _ field: String) throws -> Date {
        guard date >= now.addingTimeInterval(-60) else {
            throw InvalidDate(
                field: field, expected: "a date-time from now on (\(ISO8601Seconds.string(now)))", within: now..<eventDates.upperBound)
        }
        return max(date, now)
    }

    /// At most `horizon` after `now`: a date further ahead would keep its people's data as long beyond the purge rules.
    static func startsAt(_ startsAt: Date, within horizon: Duration, of now: Date) throws -> Date {
        let latest = now.addingTimeInterval(TimeInterval(horizon.components.seconds))
        guard startsAt <= latest else {
            throw InvalidDate(
                field: "startsAt",
                expected: "a date-time at most \(horizon.components.seconds / 86_400) days from now, by \(ISO8601Seconds.string(latest)) "
                    + "(an event is created at most that far ahead)",
                within: eventDates.lowerBound..<latest)
        }
        return startsAt
    }

    /// The instants an event's dates may take through the API: years 2000 to 2199 (an earlier or later one is a typo).
    package static let eventDates = Date(timeIntervalSince1970: 946_684_800)..<Date(timeIntervalSince1970: 7_258_118_400)

    static func date(_ date: Date, _ field: String, in dates: Range<Date>) throws -> Date {
        guard dates.contains(date) else {
            throw InvalidDate(
                field: field,
                expected:
                    "a date-time from \(ISO8601Seconds.string(dates.lowerBound)) to before \(ISO8601Seconds.string(dates.upperBound))",
                within: dates)
        }
        return date
    }

    /// 3…64 lowercase ASCII letters, digits and hyphens, starting and ending with a letter or digit,
    /// and not shaped like a UUID (events are addressed by either).
    static func slug(_ slug: String) throws -> String {
        let bytes = Array(slug.utf8)
        let allowed = bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
        guard Event.slugLength.contains(bytes.count), allowed, bytes.first != 0x2D, bytes.last != 0x2D else {
            throw Problem.validation(
                "slug must be \(Event.slugLength.lowerBound) to \(Event.slugLength.upperBound) lowercase letters (a-z), digits and hyphens, "
                    + "starting and ending with a letter or digit, e.g. rustconf-2026",
                FieldError("/slug", .format, minimum: Event.slugLength.lowerBound, maximum: Event.slugLength.upperBound, format: "slug"))
        }
        guard UUID(uuidString: slug) == nil else {
            throw Problem.validation("slug must not have the shape of a UUID", FieldError("/slug", .format, format: "slug"))
        }
        return slug
    }

    /// An IANA time zone name this server knows (`Europe/Paris`, `UTC`), exactly as listed.
    static func timeZone(_ name: String) throws -> String {
        guard name.utf8.count <= 64, knownTimeZones.contains(name) else {
            throw Problem.validation(
                "timeZone must be an IANA time zone name such as Europe/Paris or UTC", FieldError("/timeZone", .format, format: "time_zone")
            )
        }
        return name
    }

    /// After `startsAt`, and at most `Event.maximumDuration` after it.
    static func endsAt(_ endsAt: Date, after startsAt: Date) throws -> Date {
        guard endsAt > startsAt else {
            throw Problem.validation("endsAt must be after startsAt", FieldError("/endsAt", .after, other: "/startsAt"))
        }
        guard endsAt.timeIntervalSince(startsAt) <= Event.maximumDuration else {
            let days = Int(Event.maximumDuration / 86_400)
            throw Problem.validation(
                "an event lasts at most \(days) days", FieldError("/endsAt", .after, maximum: days, other: "/startsAt"))
        }
        return endsAt
    }

    private static let knownTimeZones = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC"])
}
