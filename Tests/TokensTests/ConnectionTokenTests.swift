import Foundation
import Testing
import Tokens

@Suite struct ConnectionTokenTests {
    let ring: KeyRing
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        ring = try KeyRing(current: SigningKey(seed: [UInt8](repeating: 7, count: 32)), since: Date(timeIntervalSince1970: 0))
    }

    static let owner = UUID(uuidString: "4a9e7c1e-0d7a-4a57-9d55-9f0e8c1b2a3d")!
    static let event = UUID(uuidString: "0d7a4a57-9d55-4f0e-8c1b-2a3d4a9e7c1e")!

    func issue(lifetime: Duration = .seconds(300), event: UUID? = nil) throws -> String {
        try ConnectionTokens.issue(subject: Self.owner, eventId: event, lifetime: lifetime, now: now, keys: ring).token
    }

    @Test func roundTripCarriesEveryClaim() throws {
        let token = try issue(event: Self.event)
        let claims = try ConnectionTokens.verify(token, keys: ring.verificationKeys, at: now)
        #expect(claims.subject == Self.owner)
        #expect(claims.issuedAt == now)
        #expect(claims.expiresAt == now.addingTimeInterval(300))
        #expect(claims.eventId == Self.event)
        #expect(claims.tokenId.count == 12)
        #expect(try ConnectionTokens.keyId(of: token) == ring.signingKid)
    }

    /// Long-form claims' dates are read by hand in the one shape those tokens carry; that must agree
    /// with Foundation's RFC 3339 parser, and other shapes still go through the parser.
    @Test func claimDatesParseAsRFC3339Says() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double(Int.random(in: -2_000_000_000...6_000_000_000, using: &generator)))
            let text = date.formatted(Date.ISO8601FormatStyle())
            #expect(ConnectionClaims.parseDate(text) == date, "\(text)")
            #expect(ConnectionClaims.parseDate(text) == (try? Date.ISO8601FormatStyle().parse(text)))
        }
        #expect(ConnectionClaims.parseDate("2026-11-23T08:30:00+01:00") == ConnectionClaims.parseDate("2026-11-23T07:30:00Z"))
        for bad in ["2026-13-01T00:00:00Z", "2026-11-23 08:30:00Z", "2026-11-23T08:30:0xZ", ""] {
            #expect(ConnectionClaims.parseDate(bad) == nil, "\(bad)")
        }
    }

    @Test func everyTokenHasItsOwnId() throws {
        let ids = try (0..<50).map { _ in try ConnectionTokens.verify(issue(), keys: ring.verificationKeys, at: now).tokenId }
        #expect(Set(ids).count == 50)
    }

    /// A token must fit a QR code that an 80-column terminal can show (version 13 at ECC level M: 331 bytes).
    @Test func tokenIsShortEnoughForATerminalQRCode() throws {
        #expect(try issue().utf8.count <= 331)
    }

    @Test func expiredAndNotYetValidAreDistinct() throws {
        let token = try issue(lifetime: .seconds(60))
        #expect(throws: TokenError.expired) {
            try ConnectionTokens.verify(token, keys: ring.verificationKeys, at: now.addingTimeInterval(120))
        }
        #expect(throws: TokenError.notYetValid) {
            try ConnectionTokens.verify(token, keys: ring.verificationKeys, at: now.addingTimeInterval(-120))
        }
        // Within the clock-skew leeway it still verifies.
        _ = try ConnectionTokens.verify(token, keys: ring.verificationKeys, at: now.addingTimeInterval(70))
    }

    @Test func tamperedBodyFailsTheSignature() throws {
        let token = try issue()
        let parts = token.split(separator: ".").map(String.init)
        var body = try Base64URL.decode(parts[2])
        body[10] ^= 0x01
        let forged = [parts[0], parts[1], Base64URL.encode(body), parts[3]].joined(separator: ".")
        #expect(throws: TokenError.invalidSignature) { try ConnectionTokens.verify(forged, keys: ring.verificationKeys, at: now) }
    }

    @Test func swappedFooterNamesAnUnknownKeyOrFailsTheSignature() throws {
        let token = try issue()
        let parts = token.split(separator: ".").map(String.init)
        let otherFooter = Base64URL.encode(Array("{\"kid\":\"AAAAAAAA\"}".utf8))
        let unknown = [parts[0], parts[1], parts[2], otherFooter].joined(separator: ".")
        #expect(throws: TokenError.unknownKey("AAAAAAAA")) { try ConnectionTokens.verify(unknown, keys: ring.verificationKeys, at: now) }
        // Same kid, other bytes (a space): the footer is signed, so the signature fails.
        let respaced = Base64URL.encode(Array("{\"kid\": \"\(ring.signingKid)\"}".utf8))
        let tampered = [parts[0], parts[1], parts[2], respaced].joined(separator: ".")
        #expect(throws: TokenError.invalidSignature) { try ConnectionTokens.verify(tampered, keys: ring.verificationKeys, at: now) }
    }

    @Test func tokenFromAnotherKeyWithTheSameKidFails() throws {
        let other = try KeyRing(current: SigningKey(seed: [UInt8](repeating: 9, count: 32)), since: now)
        let token = try issue()
        let impostor = [ring.signingKid: VerificationKey(kid: ring.signingKid, publicKey: other.signingKey.publicKey, notBefore: now)]
        #expect(throws: TokenError.invalidSignature) { try ConnectionTokens.verify(token, keys: impostor, at: now) }
    }

    @Test func tokenSignedForAnotherPurposeFails() throws {
        let claims = ConnectionClaims(subject: Self.owner, issuedAt: now, expiresAt: now.addingTimeInterval(60), tokenId: "j")
        let token = try PASETOv4Public.sign(
            message: claims.json(), footer: Array("{\"kid\":\"\(ring.signingKid)\"}".utf8),
            implicitAssertion: Array("other:purpose".utf8), key: ring.signingKey
        )
        #expect(throws: TokenError.invalidSignature) { try ConnectionTokens.verify(token, keys: ring.verificationKeys, at: now) }
    }

    @Test func nonCanonicalEncodingsAreRefused() throws {
        let token = try issue()
        #expect(throws: TokenError.badEncoding) { try ConnectionTokens.verify(token + "==", keys: ring.verificationKeys, at: now) }
        var parts = token.split(separator: ".").map(String.init)
        parts[2] += "!"
        #expect(throws: TokenError.badEncoding) {
            try ConnectionTokens.verify(parts.joined(separator: "."), keys: ring.verificationKeys, at: now)
        }
    }

    @Test func flippedTrailingBitsAreRefused() throws {
        // 2 bytes encode as 3 characters with 2 unused bits; "AAB" sets one of them.
        #expect(try Base64URL.decode("AAA") == [0, 0])
        #expect(throws: TokenError.badEncoding) { try Base64URL.decode("AAB") }
        #expect(throws: TokenError.badEncoding) { try Base64URL.decode("A") }
    }

    @Test func wrongVersionsAndShapesHaveTheirOwnCodes() throws {
        #expect(throws: TokenError.unsupportedVersion("v4.local")) {
            try ConnectionTokens.verify("v4.local.AAAA.AAAA", keys: ring.verificationKeys, at: now)
        }
        #expect(throws: TokenError.unsupportedVersion("v3.public")) {
            try ConnectionTokens.verify("v3.public.AAAA", keys: ring.verificationKeys, at: now)
        }
        #expect((try? ConnectionTokens.verify("hello", keys: ring.verificationKeys, at: now)) == nil)
        #expect(throws: TokenError.self) { try ConnectionTokens.verify("", keys: ring.verificationKeys, at: now) }
        let noFooter = try PASETOv4Public.sign(message: Array("{}".utf8), key: ring.signingKey)
        #expect(throws: TokenError.malformed("the footer has no key id")) {
            try ConnectionTokens.verify(noFooter, keys: ring.verificationKeys, at: now)
        }
    }

    @Test func claimsMustBeComplete() throws {
        let token = try PASETOv4Public.sign(
            message: Array("{\"sub\":\"\(Self.owner)\",\"jti\":\"b\",\"iat\":\"2027-01-15T08:00:00Z\"}".utf8),
            footer: Array("{\"kid\":\"\(ring.signingKid)\"}".utf8),
            implicitAssertion: Array(ConnectionTokens.implicitAssertion.utf8), key: ring.signingKey
        )
        #expect(throws: TokenError.invalidClaims("'exp' must be an RFC 3339 date")) {
            try ConnectionTokens.verify(token, keys: ring.verificationKeys, at: now)
        }
    }

    /// Before a rotation `old` signs; after it, `ring`'s key signs and `old` is retired, trusted until `until`.
    func rotation(trustedUntil until: Date) throws -> (old: KeyRing, new: KeyRing) {
        let old = try KeyRing(current: SigningKey(seed: [UInt8](repeating: 1, count: 32)), since: Date(timeIntervalSince1970: 0))
        let retired = VerificationKey(
            kid: old.signingKid, publicKey: old.signingKey.publicKey, notBefore: Date(timeIntervalSince1970: 0),
            notAfter: until)
        return (old, try KeyRing(current: ring.signingKey, since: now, retired: [retired], eventPseudonyms: old.eventPseudonyms))
    }

    @Test func aTokenSignedBeforeARotationVerifiesAfterItUntilTheOldKeyExpires() throws {
        let keys = try rotation(trustedUntil: now.addingTimeInterval(300 + 7_200))
        let token = try ConnectionTokens.issue(
            subject: Self.owner, lifetime: .seconds(300), now: now.addingTimeInterval(-1), keys: keys.old
        ).token
        #expect(try ConnectionTokens.keyId(of: token) == keys.old.signingKid)
        #expect(try ConnectionTokens.verify(token, keys: keys.new.verificationKeys, at: now, now: now).subject == Self.owner)
        // Scanned offline while valid, synced at the last moment the old key is trusted: still good.
        #expect(
            try ConnectionTokens.verify(token, keys: keys.new.verificationKeys, at: now, now: now.addingTimeInterval(7_500)).subject
                == Self.owner)
        // A second later the key is expired, whatever the scan time.
        #expect(throws: TokenError.keyExpired(keys.old.signingKid)) {
            try ConnectionTokens.verify(token, keys: keys.new.verificationKeys, at: now, now: now.addingTimeInterval(7_501))
        }
        // New tokens carry the new key's id, and the pseudonym key did not change.
        let fresh = try ConnectionTokens.issue(subject: Self.owner, lifetime: .seconds(300), now: now, keys: keys.new).token
        #expect(try ConnectionTokens.keyId(of: fresh) == ring.signingKid && ring.signingKid != keys.old.signingKid)
        #expect(try keys.new.eventPseudonyms.digest([1, 2, 3], length: 16) == keys.old.eventPseudonyms.digest([1, 2, 3], length: 16))
    }

    @Test func aRetiredKeyPastItsTrustRefusesEvenAStillValidToken() throws {
        let keys = try rotation(trustedUntil: now.addingTimeInterval(-60))
        // Signed before the key's end and not expired (a long lifetime): only the key's expiry can refuse it.
        let token = try ConnectionTokens.issue(
            subject: Self.owner, lifetime: .seconds(3_600), now: now.addingTimeInterval(-120), keys: keys.old
        ).token
        #expect(throws: TokenError.keyExpired(keys.old.signingKid)) {
            try ConnectionTokens.verify(token, keys: keys.new.verificationKeys, at: now, now: now)
        }
        #expect(TokenError.keyExpired("k").code == "key_expired")
        // A token claiming to be issued after the key's end is refused too, even by a clock that lags.
        let late = try ConnectionTokens.issue(subject: Self.owner, lifetime: .seconds(300), now: now, keys: keys.old).token
        #expect(throws: TokenError.keyExpired(keys.old.signingKid)) {
            try ConnectionTokens.verify(late, keys: keys.new.verificationKeys, at: now, now: now.addingTimeInterval(-3_600))
        }
    }

    @Test func pseudonymsDeriveFromTheSigningKeyUnlessGivenAndSurviveTheirText() throws {
        let derived = try PseudonymKey(purpose: PseudonymKey.eventPurpose, signingKey: ring.signingKey)
        #expect(try ring.eventPseudonyms.digest([9], length: 16) == derived.digest([9], length: 16))
        let copy = try PseudonymKey(encoded: derived.encoded)
        #expect(try copy.digest([9], length: 16) == derived.digest([9], length: 16))
        #expect(try PseudonymKey.generate().digest([9], length: 16) != derived.digest([9], length: 16))
        #expect(throws: TokenError.self) { try PseudonymKey(encoded: "cst.pseudonym.v1.AAAA") }
        #expect(throws: TokenError.self) { try PseudonymKey(encoded: PASERK.encode(ring.signingKey)) }
    }
}
