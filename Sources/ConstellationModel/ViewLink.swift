import Foundation

/// One of an event's live view links (`GET /v1/events/{event}/view-tokens`): who made it, when, until
/// when (`expiresAt`, which an organizer may move up to `longestUntil`, what its token allows), whether it
/// shows names, and how many screens it may light. The token itself is shown once, when it is made.
public struct ViewLink: Codable, Sendable, Equatable {
    /// The token's id: what `DELETE /v1/events/{event}/view-tokens/{id}` revokes.
    public let id: UUID
    public let eventId: UUID
    /// The organizer who made it; the link dies when they stop organizing the event.
    public let createdBy: UUID
    public let createdByName: String
    public let showsNames: Bool
    /// How many screens it may light at once: its live streams (and graph requests running).
    public let screens: Int
    public let createdAt: Date
    public let expiresAt: Date
    /// The latest `expiresAt` may become (`PATCH`): the event's end, or the first expiry if that is later.
    public let longestUntil: Date

    public init(
        id: UUID, eventId: UUID, createdBy: UUID, createdByName: String, showsNames: Bool, screens: Int, createdAt: Date, expiresAt: Date,
        longestUntil: Date
    ) {
        self.id = id
        self.eventId = eventId
        self.createdBy = createdBy
        self.createdByName = createdByName
        self.showsNames = showsNames
        self.screens = screens
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.longestUntil = longestUntil
    }
}

/// The body of `PATCH /v1/events/{event}/view-tokens/{id}`: the link's new expiry.
public struct ViewLinkChange: Codable, Sendable, Equatable {
    public let expiresAt: Date

    public init(expiresAt: Date) {
        self.expiresAt = expiresAt
    }
}

/// An event's live view links, newest first.
public typealias ViewLinkList = Items<ViewLink>

/// What `DELETE /v1/events/{event}/view-tokens` revoked.
public struct ViewLinksRevoked: Codable, Sendable, Equatable {
    public let revoked: Int

    public init(revoked: Int) {
        self.revoked = revoked
    }
}
