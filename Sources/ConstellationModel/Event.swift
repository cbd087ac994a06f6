import Foundation

/// The public face of an event: what anyone may see (`GET /v1/events/{event}`), no members, no join code.
public struct Event: Codable, Sendable, Equatable, Hashable {
    public let id: UUID
    /// Lowercase letters, digits and hyphens, 3…64 characters; addresses the event like its id.
    public let slug: String
    public let name: String
    public let startsAt: Date
    public let endsAt: Date
    /// An IANA zone name, e.g. `Europe/Paris`.
    public let timeZone: String
    /// When the event's personal data goes: who attended, their choices, its pairs (the people's
    /// connections stay). Its organizers move it (`PUT /v1/events/{event}/purge-date`).
    public let purgeOn: Date
    /// When the purge began, nil before: from then on the event's pictures, figures and exports
    /// answer 410 `event_purged`, and only its record is left (`GET /v1/events/{event}/record`).
    public let purgedAt: Date?

    public init(
        id: UUID, slug: String, name: String, startsAt: Date, endsAt: Date, timeZone: String, purgeOn: Date, purgedAt: Date? = nil
    ) {
        self.id = id
        self.slug = slug
        self.name = name
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.timeZone = timeZone
        self.purgeOn = purgeOn
        self.purgedAt = purgedAt
    }

    /// Names are 1…120 characters (Unicode code points, as PostgreSQL counts) after trimming.
    public static let nameLimit = 120
    /// Slugs are 3…64 characters.
    public static let slugLength = 3...64
    /// The longest an event may last.
    public static let maximumDuration: TimeInterval = 31 * 86_400
}

/// `POST /v1/events`: create an event; the caller becomes its organizer.
public struct NewEvent: Codable, Sendable {
    public var name: String
    public var slug: String
    public var startsAt: Date
    public var endsAt: Date
    public var timeZone: String

    public init(name: String, slug: String, startsAt: Date, endsAt: Date, timeZone: String) {
        self.name = name
        self.slug = slug
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.timeZone = timeZone
    }
}

/// `PATCH /v1/events/{event}`: what its organizers change (each field left out stays as it is;
/// the slug never changes, so that printed posters keep working). `purgeOn` moves the purge date
/// in the same change (else a date left at its default moves with the end, and a chosen one stays).
public struct EventChangeRequest: Codable, Sendable, Equatable {
    public var name: String?
    public var startsAt: Date?
    public var endsAt: Date?
    public var timeZone: String?
    public var purgeOn: Date?

    public init(name: String? = nil, startsAt: Date? = nil, endsAt: Date? = nil, timeZone: String? = nil, purgeOn: Date? = nil) {
        self.name = name
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.timeZone = timeZone
        self.purgeOn = purgeOn
    }

    /// Whether it changes anything at all.
    public var isEmpty: Bool { name == nil && startsAt == nil && endsAt == nil && timeZone == nil && purgeOn == nil }
}

/// The answer to `POST /v1/events` (201): the event and its join code, shown in clear this once
/// (the server keeps a hash; `POST /v1/events/{event}/join-code` makes a new one).
public struct CreatedEvent: Codable, Sendable {
    public let event: Event
    public let joinCode: String

    public init(event: Event, joinCode: String) {
        self.event = event
        self.joinCode = joinCode
    }
}

/// An event's join code now (`GET /v1/events/{event}/join-code`), or the new one a rotation made
/// (`POST`, after which the old one no longer works).
public struct EventJoinCode: Codable, Sendable, Equatable {
    public let eventId: UUID
    public let joinCode: String
    /// The join link a phone's camera opens: `BASE/#join=SLUG&code=CODE`.
    public let link: String

    public init(eventId: UUID, joinCode: String, link: String) {
        self.eventId = eventId
        self.joinCode = joinCode
        self.link = link
    }
}

/// What a member is at an event.
public enum EventRole: String, Codable, Sendable, Equatable {
    case organizer
    case attendee
}

/// One person's membership of an event (`POST /v1/events/{event}/organizers`).
public struct EventMember: Codable, Sendable, Equatable {
    public let eventId: UUID
    public let profileId: UUID
    public let role: EventRole
    public let joinedAt: Date

    public init(eventId: UUID, profileId: UUID, role: EventRole, joinedAt: Date) {
        self.eventId = eventId
        self.profileId = profileId
        self.role = role
        self.joinedAt = joinedAt
    }
}

/// `PUT /v1/events/{event}/purge-date`: move the event's purge date, within the bounds
/// `GET /v1/events/{event}/purge-date` gives.
public struct NewPurgeDate: Codable, Sendable {
    public var purgeOn: Date

    public init(purgeOn: Date) {
        self.purgeOn = purgeOn
    }
}

/// `GET /v1/events/{event}/purge-date`: when the event is purged, and the earliest and latest
/// dates its organizers may choose (the end and the offline grace, or now if later; and the
/// server's longest keeping after the end, or after the event's import).
public struct PurgeDate: Codable, Sendable, Equatable {
    public let eventId: UUID
    public let purgeOn: Date
    public let purgedAt: Date?
    public let earliest: Date
    public let latest: Date

    public init(eventId: UUID, purgeOn: Date, purgedAt: Date?, earliest: Date, latest: Date) {
        self.eventId = eventId
        self.purgeOn = purgeOn
        self.purgedAt = purgedAt
        self.earliest = earliest
        self.latest = latest
    }
}

/// `POST /v1/events/{event}/purge`: purge the event now, before its date (once its end and the
/// offline grace have passed). `confirm` must be the event's slug: it names what goes.
public struct PurgeRequest: Codable, Sendable {
    public var confirm: String

    public init(confirm: String) {
        self.confirm = confirm
    }
}

/// `GET /v1/events/{event}/badge-requests`: how many attendees asked for a printed badge.
public struct BadgeRequests: Codable, Sendable, Equatable {
    public let count: Int

    public init(count: Int) {
        self.count = count
    }
}

/// An event I belong to and my role there (`GET /v1/me/events`, `POST /v1/events/{event}/join`).
public struct MyEvent: Codable, Sendable, Equatable {
    public let event: Event
    public let role: EventRole
    public let joinedAt: Date
    /// How the event's organizers see me there (`PATCH /v1/events/{event}/me` changes it).
    public let visibility: EventVisibility
    /// Whether I asked the organizers to print my badge (`PATCH /v1/events/{event}/me` changes it).
    public let printsBadge: Bool
    /// Whether the event's walls label me by name (`PATCH /v1/events/{event}/me` changes it).
    public let onWall: Bool

    public init(
        event: Event, role: EventRole, joinedAt: Date, visibility: EventVisibility, printsBadge: Bool = false, onWall: Bool = false
    ) {
        self.event = event
        self.role = role
        self.joinedAt = joinedAt
        self.visibility = visibility
        self.printsBadge = printsBadge
        self.onWall = onWall
    }
}

/// `GET /v1/me/events`: the events I belong to, the latest start first, a page at a time.
public typealias MyEvents = Page<MyEvent>

/// `POST /v1/events/{event}/organizers`: make a profile an organizer of the event.
public struct NewOrganizer: Codable, Sendable {
    public var profileId: UUID

    public init(profileId: UUID) {
        self.profileId = profileId
    }
}

/// `POST /v1/events/{event}/join`: join as an attendee with the event's join code
/// (`XXXX-XXXX`; case and the hyphen do not matter).
public struct JoinRequest: Codable, Sendable {
    public var code: String

    public init(code: String) {
        self.code = code
    }
}

/// `POST /v1/tokens` with a body: a token for an event (`eventId`: its id or slug).
public struct TokenRequest: Codable, Sendable {
    public var eventId: String?

    public init(eventId: String? = nil) {
        self.eventId = eventId
    }
}
