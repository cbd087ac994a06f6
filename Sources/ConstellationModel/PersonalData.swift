import Foundation

/// `GET /v1/me/export`: everything the server keeps about me, in one document. Secrets are not
/// in it (API keys are kept only as hashes, and those stay out too), nor anyone else's private data:
/// peers appear with their public fields only.
public struct PersonalData: Codable, Sendable, Equatable {
    /// The export format's version.
    public let version: Int
    public let exportedAt: Date
    public let profile: Profile
    public let profileUpdatedAt: Date
    /// Tokens issued before this instant were revoked by `POST /v1/me/qr/reset`; nil: never reset.
    public let tokensValidFrom: Date?
    public let apiKeys: [APIKey]
    public let connections: [Connection]
    /// The tokens I scanned (redeemed), live or synced from an offline queue.
    public let redemptions: [Redemption]
    /// My tokens that someone redeemed, and how many people did.
    public let tokens: [Token]
    /// The people I blocked.
    public let blocks: [Block]
    /// My contact card, every entry with its audience (nil in an export from a server before cards).
    public let card: [ContactEntry]?
    /// The events I belong to, my role and choices at each, and when each forgets my attendance
    /// (`event.purgeOn`; nil in an export from a server before purge dates).
    public let events: [MyEvent]?

    public init(
        exportedAt: Date, profile: Profile, profileUpdatedAt: Date, tokensValidFrom: Date?, apiKeys: [APIKey],
        connections: [Connection], redemptions: [Redemption], tokens: [Token], blocks: [Block], card: [ContactEntry] = [],
        events: [MyEvent] = []
    ) {
        version = 1
        self.exportedAt = exportedAt
        self.profile = profile
        self.profileUpdatedAt = profileUpdatedAt
        self.tokensValidFrom = tokensValidFrom
        self.apiKeys = apiKeys
        self.connections = connections
        self.redemptions = redemptions
        self.tokens = tokens
        self.blocks = blocks
        self.card = card
        self.events = events
    }

    /// An API key's metadata; the key itself was shown once and only its hash is kept.
    public struct APIKey: Codable, Sendable, Equatable {
        public let id: UUID
        public let name: String?
        public let createdAt: Date
        public let lastUsedAt: Date?
        public let revokedAt: Date?

        public init(id: UUID, name: String?, createdAt: Date, lastUsedAt: Date?, revokedAt: Date?) {
            self.id = id
            self.name = name
            self.createdAt = createdAt
            self.lastUsedAt = lastUsedAt
            self.revokedAt = revokedAt
        }
    }

    /// A connection: the peer's public fields, when, at which event, through which token, and my
    /// note and tags on it.
    public struct Connection: Codable, Sendable, Equatable {
        public let id: Int64
        public let peer: Profile
        public let connectedAt: Date
        public let eventId: UUID?
        public let tokenId: String
        public let note: String?
        public let tags: [String]

        public init(id: Int64, peer: Profile, connectedAt: Date, eventId: UUID?, tokenId: String, note: String?, tags: [String]) {
            self.id = id
            self.peer = peer
            self.connectedAt = connectedAt
            self.eventId = eventId
            self.tokenId = tokenId
            self.note = note
            self.tags = tags
        }
    }

    /// A token I redeemed: whose, when I scanned it, when the server received it, my nonce.
    public struct Redemption: Codable, Sendable, Equatable {
        public let tokenId: String
        public let connectionId: Int64
        /// The token's owner.
        public let peerId: UUID
        /// Whether this redemption created the connection (false: we were already connected).
        public let createdConnection: Bool
        public let scannedAt: Date
        public let redeemedAt: Date
        public let clientNonce: String?

        public init(
            tokenId: String, connectionId: Int64, peerId: UUID, createdConnection: Bool, scannedAt: Date, redeemedAt: Date,
            clientNonce: String?
        ) {
            self.tokenId = tokenId
            self.connectionId = connectionId
            self.peerId = peerId
            self.createdConnection = createdConnection
            self.scannedAt = scannedAt
            self.redeemedAt = redeemedAt
            self.clientNonce = clientNonce
        }
    }

    /// One of my tokens and how many people redeemed it.
    public struct Token: Codable, Sendable, Equatable {
        public let tokenId: String
        public let uses: Int
        public let expiresAt: Date

        public init(tokenId: String, uses: Int, expiresAt: Date) {
            self.tokenId = tokenId
            self.uses = uses
            self.expiresAt = expiresAt
        }
    }
}
