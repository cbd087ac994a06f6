import Foundation

/// `POST /v1/events/{event}/view-tokens`: `{"wall": true}` for a projector's link, which shows
/// only those who chose the wall by name, nobody by pseudonym; `screens`, how many screens it may
/// light at once (1 to 50, 4 unless given). No body: a link for the organizer, for 4 screens.
public struct ViewTokenRequest: Codable, Sendable {
    public let wall: Bool?
    public let screens: Int?

    public init(wall: Bool? = nil, screens: Int? = nil) {
        self.wall = wall
        self.screens = screens
    }

    /// How many screens a link may light unless its maker says otherwise, and at most.
    public static let defaultScreens = 4
    public static let screenRange = 1...50
}

/// An organizer's view token: read-only access to one event's live constellation until `expiresAt`.
public struct IssuedViewToken: Codable, Sendable {
    /// `v4.public.…`, sent as `Authorization: Bearer` by the live page.
    public let token: String
    public let expiresAt: Date
    public let eventId: UUID
    /// Whether named attendees appear by name (false for a wall link).
    public let showsNames: Bool
    /// How many screens it may light at once.
    public let screens: Int
    /// The live page with the token in its fragment: `/events/{slug}/live#view=TOKEN` (`?wall` before `#` for a wall).
    public let path: String
    /// `path` on the server's public URL; absent when the server has none (`CONSTELLATION_PUBLIC_URL`).
    public let url: String?

    public init(token: String, expiresAt: Date, eventId: UUID, showsNames: Bool, screens: Int, path: String, url: String?) {
        self.token = token
        self.expiresAt = expiresAt
        self.eventId = eventId
        self.showsNames = showsNames
        self.screens = screens
        self.path = path
        self.url = url
    }
}
