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

/// A connection as one of its two people sees it: the other person and when they met.
public struct Connection: Codable, Sendable, Equatable {
    public let id: Int64
    public let peer: Profile
    public let connectedAt: Date
    public let eventId: UUID?

    public init(id: Int64, peer: Profile, connectedAt: Date, eventId: UUID?) {
        self.id = id
        self.peer = peer
        self.connectedAt = connectedAt
        self.eventId = eventId
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
