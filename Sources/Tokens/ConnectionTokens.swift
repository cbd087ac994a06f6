import Foundation

/// Issues and verifies the signed, expiring tokens that attendees exchange as QR codes.
public enum ConnectionTokens {
    /// The implicit assertion that binds every token to this one purpose: a token signed for
    /// anything else, even with the same key, does not verify as a connection token.
    public static let implicitAssertion = "constellation:connect:v1"

    /// Signs a new token for `subject` valid from `now` (to the second) for `lifetime`, with the
    /// compact claims (see `ConnectionClaims`).
    public static func issue(
        subject: UUID, eventId: UUID? = nil, lifetime: Duration, now: Date = Date(), keys: KeyRing
    ) throws(TokenError) -> (token: String, claims: ConnectionClaims) {
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let claims = ConnectionClaims(
            subject: subject,
            issuedAt: issuedAt,
            expiresAt: issuedAt.addingTimeInterval(TimeInterval(lifetime.components.seconds)),
            tokenId: Base64URL.encode(try Sodium.randomBytes(9)),
            eventId: eventId
        )
        return (try SignedTokens.sign(claims.json(), implicitAssertion: implicitAssertion, keys: keys), claims)
    }

    /// The key id a token names (a shown code's footer, or a badge code's first bytes), read before
    /// the signature is checked.
    public static func keyId(of token: String) throws(TokenError) -> String {
        if BadgeTokens.isBadge(token) { return try BadgeTokens.keyId(of: token) }
        return try SignedTokens.keyId(inFooter: PASETOv4Public.parse(token).footer)
    }

    /// Verifies `token` against `keys` and checks that it is valid at `moment`
    /// (now, or when an offline scan happened), allowing `leeway` of clock skew. A key with a
    /// `notAfter` verifies nothing once `now` (the real time, not the scan's) is past it, nor a
    /// token that claims to be issued after it. Both shapes of claims verify: the compact one
    /// issued now and the long one issued before it; so do badge codes (`BadgeTokens`).
    public static func verify(
        _ token: String, keys: [String: VerificationKey], at moment: Date = Date(), now: Date = Date(), leeway: TimeInterval = 30
    ) throws(TokenError) -> ConnectionClaims {
        try verify(token, keys: keys, validAtSomeMomentOf: moment...moment, now: now, leeway: leeway)
    }

    /// Verifies `token` as `verify(_:keys:at:now:leeway:)` does, valid at some moment of `window`
    /// rather than at one: a code scanned offline at a time the server does not know, within it.
    public static func verify(
        _ token: String, keys: [String: VerificationKey], validAtSomeMomentOf window: ClosedRange<Date>, now: Date = Date(),
        leeway: TimeInterval = 30
    ) throws(TokenError) -> ConnectionClaims {
        let (claims, key) = try open(token, keys: keys)
        try check(claims, signedBy: key, validAtSomeMomentOf: window, now: now, leeway: leeway)
        return claims
    }

    /// Verifies `token` as `verify(_:keys:validAtSomeMomentOf:now:leeway:)` does, a badge code
    /// valid until `badgeExpiry` says rather than until the end its event had when it was printed
    /// (its event's end as it is now: an event extended since keeps its badges working, one ended
    /// early stops them; nil keeps the printed expiry). The claims returned carry that expiry.
    public static func verify(
        _ token: String, keys: [String: VerificationKey], validAtSomeMomentOf window: ClosedRange<Date>, now: Date = Date(),
        leeway: TimeInterval = 30, badgeExpiry: (ConnectionClaims) async throws -> Date?
    ) async throws -> ConnectionClaims {
        let (printed, key) = try open(token, keys: keys)
        var claims = printed
        if printed.kind == .badge, let expiry = try await badgeExpiry(printed) {
            claims = ConnectionClaims(
                subject: printed.subject, issuedAt: printed.issuedAt, expiresAt: expiry, tokenId: printed.tokenId, eventId: printed.eventId,
                kind: printed.kind)
        }
        try check(claims, signedBy: key, validAtSomeMomentOf: window, now: now, leeway: leeway)
        return claims
    }

    /// Whether genuine `claims` hold at some moment of `window`: their key trusted, issued by then,
    /// not expired before then.
    private static func check(
        _ claims: ConnectionClaims, signedBy key: VerificationKey, validAtSomeMomentOf window: ClosedRange<Date>, now: Date,
        leeway: TimeInterval
    ) throws(TokenError) {
        if let notAfter = key.notAfter, max(now, claims.issuedAt) > notAfter { throw .keyExpired(key.kid) }
        guard claims.issuedAt <= window.upperBound.addingTimeInterval(leeway) else { throw .notYetValid }
        guard claims.expiresAt > window.lowerBound.addingTimeInterval(-leeway) else { throw .expired }
    }

    private static func open(_ token: String, keys: [String: VerificationKey]) throws(TokenError) -> (ConnectionClaims, VerificationKey) {
        if BadgeTokens.isBadge(token) { return try BadgeTokens.open(token, keys: keys) }
        let (message, key) = try SignedTokens.open(token, implicitAssertion: implicitAssertion, keys: keys)
        return (try ConnectionClaims(json: message), key)
    }
}
