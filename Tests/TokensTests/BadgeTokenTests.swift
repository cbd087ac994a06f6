import Foundation
import QR
import Testing
import Tokens

/// Badge codes: what they carry, that nothing else passes for one, and that they fit the QR code a
/// printed badge needs.
@Suite struct BadgeTokenTests {
    let ring: KeyRing
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let ends = Date(timeIntervalSince1970: 1_800_000_000 + 3 * 86_400)
    static let owner = ConnectionTokenTests.owner
    static let event = ConnectionTokenTests.event

    init() throws {
        ring = try KeyRing(current: SigningKey(seed: [UInt8](repeating: 7, count: 32)), since: Date(timeIntervalSince1970: 0))
    }

    func issue() throws -> (token: String, claims: ConnectionClaims) {
        try BadgeTokens.issue(subject: Self.owner, eventId: Self.event, expiresAt: ends, now: now.addingTimeInterval(0.7), keys: ring)
    }

    @Test func aBadgeCarriesItsOwnerEventTimesAndKeyAndVerifiesLikeAShownCode() throws {
        let (token, issued) = try issue()
        #expect(token.hasPrefix("b1.") && token.utf8.count == 150)
        let claims = try ConnectionTokens.verify(token, keys: ring.verificationKeys, at: now.addingTimeInterval(86_400))
        #expect(claims == issued)
        #expect(claims.subject == Self.owner && claims.eventId == Self.event && claims.kind == .badge)
        #expect(claims.issuedAt == now && claims.expiresAt == ends, "to the second")
        #expect(claims.tokenId.hasPrefix("b") && claims.tokenId.count == 13)
        #expect(try ConnectionTokens.keyId(of: token) == ring.signingKid)
        #expect(
            try ConnectionTokens.verify(try issue().token, keys: ring.verificationKeys, at: now).tokenId == claims.tokenId,
            "the same badge signed twice is the same code")
        #expect(throws: TokenError.expired) {
            try ConnectionTokens.verify(token, keys: ring.verificationKeys, at: ends.addingTimeInterval(60))
        }
    }

    @Test func anAlteredTruncatedOrForeignBadgeIsRefused() throws {
        let (token, _) = try issue()
        var bytes = Array(token.utf8)
        // Every byte after the header changed in turn (to another base64url character) breaks the code.
        for index in stride(from: 3, to: bytes.count - 1, by: 7) {
            let original = bytes[index]
            bytes[index] = original == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            #expect(throws: TokenError.self) {
                try ConnectionTokens.verify(String(decoding: bytes, as: UTF8.self), keys: ring.verificationKeys, at: now)
            }
            bytes[index] = original
        }
        let cut = "b1." + Base64URL.encode(try Base64URL.decode(token.dropFirst(3)).dropLast(3))
        #expect(throws: TokenError.malformed("a badge code holds 110 bytes, not 107")) {
            try ConnectionTokens.verify(cut, keys: ring.verificationKeys, at: now)
        }
        #expect(throws: TokenError.badEncoding) {
            try ConnectionTokens.verify(String(token.dropLast(2)), keys: ring.verificationKeys, at: now)
        }
        let other = try KeyRing(current: SigningKey(seed: [UInt8](repeating: 9, count: 32)), since: .distantPast)
        #expect(throws: TokenError.unknownKey(ring.signingKid)) {
            try ConnectionTokens.verify(token, keys: other.verificationKeys, at: now)
        }
        // Another key claiming this key's id: the signature does not match.
        let impostor = [
            ring.signingKid: VerificationKey(kid: ring.signingKid, publicKey: other.signingKey.publicKey, notBefore: .distantPast)
        ]
        #expect(throws: TokenError.invalidSignature) { try ConnectionTokens.verify(token, keys: impostor, at: now) }
        #expect(throws: TokenError.self) { try ConnectionTokens.verify("b1.", keys: ring.verificationKeys, at: now) }
        #expect(throws: TokenError.unsupportedVersion("b2.AAAA")) {
            try ConnectionTokens.verify("b2.AAAA.AAAA", keys: ring.verificationKeys, at: now)
        }
    }

    /// The point of the form: a badge link stays a QR code of version 10 or lower at level M, easy
    /// to scan from arm's length, with a 40-character public URL in front; a shown code's link does not.
    @Test func aBadgeLinkFitsVersionTenAtLevelMWithAFortyCharacterURL() throws {
        let base = "https://constellation.example-events.org"
        #expect(base.count == 40)
        let (token, _) = try issue()
        let badge = try QRCode(encoding: base + "/c#" + token)
        #expect(badge.version <= 10, "version \(badge.version)")
        let shown = try ConnectionTokens.issue(subject: Self.owner, eventId: Self.event, lifetime: .seconds(300), keys: ring).token
        #expect(try QRCode(encoding: base + "/c#" + shown).version > 10, "what badges needed a form of their own for")
    }
}
