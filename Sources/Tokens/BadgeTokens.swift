import Foundation

/// Codes printed on badges: short enough for a QR code of version 10 or lower at error correction M
/// with a 40-character link in front, and still verified offline with the server's published keys.
///
/// `b1.` followed by the unpadded base64url of 110 bytes: the signing key's id (6 bytes, the 8
/// base64url characters of `VerificationKey.kid`), the owner (16), the event (16), the issue and
/// expiry times (big-endian Unix seconds, 4 each), then the Ed25519 signature (64) of PAE(`b1.`,
/// those 46 bytes, `constellation:badge:v1`). 150 characters, where a shown code's JSON claims take
/// about 230. The token id, which the per-token cap counts, is `b` and the signature's first 9
/// bytes: nothing to carry, and never equal to a shown code's 12-character id.
public enum BadgeTokens {
    /// What every badge code starts with.
    public static let header = "b1."
    /// The purpose the signature covers, so that no other signed bytes pass for a badge.
    static let implicitAssertion = "constellation:badge:v1"
    static let signedLength = 46
    static let length = signedLength + Sodium.signatureLength

    /// Whether `token` is in the badge form (not whether it is genuine).
    public static func isBadge(_ token: String) -> Bool {
        token.utf8.starts(with: header.utf8)
    }

    /// Signs a badge code for `subject` at `eventId`, issued at `now` (to the second) and valid
    /// until `expiresAt` (to the second).
    public static func issue(
        subject: UUID, eventId: UUID, expiresAt: Date, now: Date = Date(), keys: KeyRing
    ) throws(TokenError) -> (token: String, claims: ConnectionClaims) {
        guard let kid = try? Base64URL.decode(keys.signingKid), kid.count == 6 else {
            throw .invalidKey("a key id must be 8 base64url characters to go on a badge")
        }
        let issued = seconds(now)
        let expires = seconds(expiresAt)
        guard expires > issued else { throw .invalidClaims("a badge must expire after it is issued") }
        var signed = kid
        signed += withUnsafeBytes(of: subject.uuid) { Array($0) }
        signed += withUnsafeBytes(of: eventId.uuid) { Array($0) }
        signed += bigEndian(issued) + bigEndian(expires)
        let signature = try keys.signingKey.sign(signedBytes(signed))
        let claims = ConnectionClaims(
            subject: subject, issuedAt: Date(timeIntervalSince1970: TimeInterval(issued)),
            expiresAt: Date(timeIntervalSince1970: TimeInterval(expires)), tokenId: tokenId(signature: signature),
            eventId: eventId, kind: .badge)
        return (header + Base64URL.encode(signed + signature), claims)
    }

    /// The key id a badge code names, read before its signature is checked.
    static func keyId(of token: String) throws(TokenError) -> String {
        Base64URL.encode(try bytes(of: token).prefix(6))
    }

    /// The claims of `token` once its signature is checked against the key it names, and that key.
    static func open(_ token: String, keys: [String: VerificationKey]) throws(TokenError) -> (ConnectionClaims, VerificationKey) {
        let body = try bytes(of: token)
        let kid = Base64URL.encode(body.prefix(6))
        guard let key = keys[kid] else { throw .unknownKey(kid) }
        let signed = Array(body.prefix(signedLength))
        let signature = Array(body.suffix(Sodium.signatureLength))
        guard key.publicKey.isValidSignature(signature, for: signedBytes(signed)) else { throw .invalidSignature }
        func id(at offset: Int) -> UUID {
            let b = Array(signed[offset..<offset + 16])
            return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
        }
        func time(at offset: Int) -> Date {
            Date(timeIntervalSince1970: TimeInterval(signed[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }))
        }
        let issuedAt = time(at: 38)
        let expiresAt = time(at: 42)
        guard expiresAt > issuedAt else { throw .invalidClaims("the expiry must be after the issue time") }
        let claims = ConnectionClaims(
            subject: id(at: 6), issuedAt: issuedAt, expiresAt: expiresAt, tokenId: tokenId(signature: signature), eventId: id(at: 22),
            kind: .badge)
        return (claims, key)
    }

    private static func bytes(of token: String) throws(TokenError) -> [UInt8] {
        guard isBadge(token) else { throw .malformed("a badge code starts with \(header)") }
        let body = try Base64URL.decode(bytes: token.utf8.dropFirst(header.utf8.count))
        guard body.count == length else { throw .malformed("a badge code holds \(length) bytes, not \(body.count)") }
        return body
    }

    private static func signedBytes(_ signed: [UInt8]) -> [UInt8] {
        PreAuthenticationEncoding.encode([Array(header.utf8), signed, Array(implicitAssertion.utf8)])
    }

    private static func tokenId(signature: [UInt8]) -> String {
        "b" + Base64URL.encode(signature.prefix(9))
    }

    private static func seconds(_ date: Date) -> UInt32 {
        UInt32(clamping: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
