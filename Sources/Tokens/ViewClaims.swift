import Foundation

/// What an organizer's view token says: which event may be read, until when, its id, and whether
/// the bearer sees the names of the attendees who chose to be named. Its payload is described in
/// `docs/tokens-and-keys.md`.
public struct ViewClaims: Sendable, Equatable {
    /// The one event the token reads (`e`).
    public let eventId: UUID
    /// When the token stops working (`x`), to the second.
    public let expiresAt: Date
    /// The token's id (`j`): what its graph work is counted by.
    public let tokenId: UUID
    /// Whether named attendees are shown by name (`n`); false for a wall display, which names only those who chose it.
    public let showsNames: Bool

    public init(eventId: UUID, expiresAt: Date, tokenId: UUID, showsNames: Bool) {
        self.eventId = eventId
        self.expiresAt = expiresAt
        self.tokenId = tokenId
        self.showsNames = showsNames
    }

    func json() -> [UInt8] {
        let expiry = Int64(expiresAt.timeIntervalSince1970.rounded(.down))
        return Array(
            "{\"e\":\"\(SignedTokens.compact(eventId))\",\"x\":\(expiry),\"j\":\"\(SignedTokens.compact(tokenId))\",\"n\":\(showsNames)}"
                .utf8)
    }

    init(json bytes: [UInt8]) throws(TokenError) {
        guard let payload = FlatJSONObject(bytes), let event = payload.string("e"), let eventId = SignedTokens.uuid(compact: event),
            let token = payload.string("j"), let tokenId = SignedTokens.uuid(compact: token),
            let expiry = payload.integer("x"), (0...253_402_300_799).contains(expiry), let showsNames = payload.bool("n")
        else { throw .invalidClaims("the payload is not a view token's {e, x, j, n}") }
        self.init(eventId: eventId, expiresAt: Date(timeIntervalSince1970: TimeInterval(expiry)), tokenId: tokenId, showsNames: showsNames)
    }
}
