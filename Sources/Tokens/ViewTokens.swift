import Foundation

/// Issues and verifies organizer view tokens: read-only access to one event's constellation for a
/// limited time, carried in a link's fragment so that no password is typed on a venue laptop.
public enum ViewTokens {
    /// The implicit assertion of view tokens: a connection token never verifies as a view token,
    /// nor a view token as a connection token, though the same key signs both.
    public static let implicitAssertion = "constellation:view:v1"

    /// Signs a view token for `eventId`, valid from `now` (to the second) for `lifetime`.
    public static func issue(
        eventId: UUID, showsNames: Bool, lifetime: Duration, now: Date = Date(), keys: KeyRing
    ) throws(TokenError) -> (token: String, claims: ViewClaims) {
        let expiresAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down) + TimeInterval(lifetime.components.seconds))
        let claims = ViewClaims(eventId: eventId, expiresAt: expiresAt, tokenId: UUID(), showsNames: showsNames)
        return (try SignedTokens.sign(claims.json(), implicitAssertion: implicitAssertion, keys: keys), claims)
    }

    /// Verifies `token` against `keys` and checks that it has not expired at `now`. A retired key
    /// verifies the view tokens it signed until its `notAfter`, as for connection tokens.
    public static func verify(_ token: String, keys: [String: VerificationKey], now: Date = Date()) throws(TokenError) -> ViewClaims {
        let (message, key) = try SignedTokens.open(token, implicitAssertion: implicitAssertion, keys: keys)
        let claims = try ViewClaims(json: message)
        if let notAfter = key.notAfter, now > notAfter { throw .keyExpired(key.kid) }
        guard claims.expiresAt > now else { throw .expired }
        return claims
    }
}
