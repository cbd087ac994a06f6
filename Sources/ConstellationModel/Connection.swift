import Foundation

/// `POST /v1/connections`: redeem a scanned token.
public struct RedeemRequest: Codable, Sendable, Equatable {
    public var token: String
    /// When the token was scanned, for a scan queued offline; absent for a live scan.
    public var scannedAt: Date?
    /// A client-chosen id for a queued scan, echoed back.
    public var clientNonce: String?

    public init(token: String, scannedAt: Date? = nil, clientNonce: String? = nil) {
        self.token = token
        self.scannedAt = scannedAt
        self.clientNonce = clientNonce
    }
}

/// A connection as one of its two people sees it: the other person, when and at which event they
/// first met, and, in my own lists, my private note and tags.
public struct Connection: Codable, Sendable, Equatable {
    public let id: Int64
    public let peer: Profile
    public let connectedAt: Date
    public let eventId: UUID?
    /// The name of the event where they first met (in my lists).
    public let eventName: String?
    /// My private note on this connection (in my lists): no one else ever sees it.
    public let note: String?
    /// My private tags on this connection (in my lists; nil elsewhere).
    public let tags: [String]?
    /// The entries of the other person's contact card meant for their connections, as they are now
    /// (in my lists).
    public var card: [ContactEntry]?

    public init(
        id: Int64, peer: Profile, connectedAt: Date, eventId: UUID?, eventName: String? = nil, note: String? = nil, tags: [String]? = nil,
        card: [ContactEntry]? = nil
    ) {
        self.id = id
        self.peer = peer
        self.connectedAt = connectedAt
        self.eventId = eventId
        self.eventName = eventName
        self.note = note
        self.tags = tags
        self.card = card
    }

    /// Notes are at most 2,000 characters; a connection has at most 20 tags of at most 40 characters.
    public static let noteLimit = 2_000
    public static let tagLimit = 40
    public static let tagsLimit = 20
}

/// `PATCH /v1/me/connections/{profileId}`: my note (an empty note clears it) and/or my tags (the
/// whole set; [] clears them). Absent fields stay.
public struct ConnectionNoteChanges: Codable, Sendable {
    public var note: String?
    public var tags: [String]?

    public init(note: String? = nil, tags: [String]? = nil) {
        self.note = note
        self.tags = tags
    }
}

/// The answer to `POST /v1/connections` (201 when the connection is new, 200 when it existed).
public struct Redemption: Codable, Sendable, Equatable {
    public let connection: Connection
    /// Whether this redemption created the connection.
    public let created: Bool
    public let clientNonce: String?

    public init(connection: Connection, created: Bool, clientNonce: String?) {
        self.connection = connection
        self.created = created
        self.clientNonce = clientNonce
    }
}

/// `GET /v1/me/connections`: newest first, with a cursor for the next page.
public struct ConnectionPage: Codable, Sendable {
    public let items: [Connection]
    public let nextCursor: String?

    public init(items: [Connection], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}
