import Foundation

/// Issues and verifies the signed, expiring tokens that attendees exchange as QR codes.
public enum ConnectionTokens {
    /// The implicit assertion that binds every token to this one purpose: a token signed for
    /// anything else, even with the same key, does not verify as a connection token.
    public static let implicitAssertion = "constellation:connect:v1"

    /// Signs a new token for `subject` valid from `now` for `lifetime`.
    public static func issue(
        subject: String, eventId: String? = nil, lifetime: Duration, now: Date = Date(), keys: KeyRing
    ) throws(TokenError) -> (token: String, claims: ConnectionClaims) {
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let claims = ConnectionClaims(
            subject: subject,
            issuedAt: issuedAt,
            expiresAt: issuedAt.addingTimeInterval(TimeInterval(lifetime.components.seconds)),
            tokenId: Base64URL.encode(try Sodium.randomBytes(12)),
            eventId: eventId
        )
        let footer = Array("{\"kid\":\"\(keys.signingKid)\"}".utf8)
        let token = try PASETOv4Public.sign(
            message: claims.json(), footer: footer,
            implicitAssertion: Array(implicitAssertion.utf8), key: keys.signingKey
        )
        return (token, claims)
    }

    /// The key id in a token's footer, read before the signature is checked.
    public static func keyId(of token: String) throws(TokenError) -> String {
        try keyId(inFooter: PASETOv4Public.parse(token).footer)
    }

    private static func keyId(inFooter footer: [UInt8]) throws(TokenError) -> String {
        guard !footer.isEmpty else { throw .malformed("the footer has no key id") }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(footer))) as? [String: Any],
              let kid = object["kid"] as? String, !kid.isEmpty
        else { throw .malformed("the footer is not {\"kid\":…}") }
        return kid
    }

    /// Verifies `token` against `keys` and checks that it is valid at `moment`
    /// (now, or when an offline scan happened), allowing `leeway` of clock skew. A key with a
    /// `notAfter` verifies nothing once `now` (the real time, not the scan's) is past it, nor a
    /// token that claims to be issued after it.
    public static func verify(
        _ token: String, keys: [String: VerificationKey], at moment: Date = Date(), now: Date = Date(), leeway: TimeInterval = 30
    ) throws(TokenError) -> ConnectionClaims {
        let parts = try PASETOv4Public.parse(token)  // once: the key id and the signature come from the same parts
        let kid = try keyId(inFooter: parts.footer)
        guard let key = keys[kid] else { throw .unknownKey(kid) }
        let signed = PASETOv4Public.signedBytes(of: parts, implicitAssertion: Array(implicitAssertion.utf8))
        guard key.publicKey.isValidSignature(parts.signature, for: signed) else { throw .invalidSignature }
        let claims = try ConnectionClaims(json: parts.message)
        if let notAfter = key.notAfter, max(now, claims.issuedAt) > notAfter { throw .keyExpired(kid) }
        guard claims.issuedAt <= moment.addingTimeInterval(leeway) else { throw .notYetValid }
        guard claims.expiresAt > moment.addingTimeInterval(-leeway) else { throw .expired }
        return claims
    }
}
