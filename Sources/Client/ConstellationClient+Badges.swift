import ConstellationModel
import Foundation

extension ConstellationClient {
    /// My badge code for `event` (its id or slug; I must be a member), valid until the event ends.
    public func badge(event: String) async throws(ClientError) -> IssuedToken {
        try await decode(send(.GET, "/v1/me/badge?event=\(Self.escaped(event))"))
    }

    /// My badge for `event` as SVG, ready to print: name, headline, event and code.
    public func badgeDrawing(event: String) async throws(ClientError) -> [UInt8] {
        try await send(.GET, "/v1/me/badge?event=\(Self.escaped(event))&format=svg").body
    }

    /// Whether the organizers of `event` print my badge (their sheet holds only those who said yes).
    public func setBadgePrinting(_ printed: Bool, at event: String) async throws(ClientError) -> EventPrivacy {
        try await decode(send(.PATCH, "/v1/events/\(Self.escaped(event))/me", body: EventVisibilityChange(printBadge: printed)))
    }

    /// Whether the walls of `event` label me by name (else they draw me without a label).
    public func setWallName(_ named: Bool, at event: String) async throws(ClientError) -> EventPrivacy {
        try await decode(send(.PATCH, "/v1/events/\(Self.escaped(event))/me", body: EventVisibilityChange(onWall: named)))
    }

    /// The print sheet of `event`'s badges as an HTML page, for `paper` `a4` or `letter`, its words
    /// in `language` (`en`, `de`), and how many badges it holds (I must organize it).
    public func badgeSheet(event: String, paper: String, language: String = "en") async throws(ClientError) -> (html: [UInt8], badges: Int)
    {
        let response = try await send(
            .GET, "/v1/events/\(Self.escaped(event))/badges?paper=\(Self.escaped(paper))&lang=\(Self.escaped(language))")
        return (response.body, response.header("Constellation-Badges").flatMap { Int($0) } ?? 0)
    }

    /// How many of `event`'s attendees asked for a printed badge (I must organize it).
    public func badgeRequests(of event: String) async throws(ClientError) -> BadgeRequests {
        try await decode(send(.GET, "/v1/events/\(Self.escaped(event))/badge-requests"))
    }
}
