import Foundation
import Testing
import Tokens

/// The compact claims tokens carry (documented in `docs/tokens-and-keys.md`, for the browser's
/// parser too), the long claims they replaced, and view tokens' own purpose.
@Suite struct CompactClaimsTests {
    let ring: KeyRing
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let owner = UUID(uuidString: "4a9e7c1e-0d7a-4a57-9d55-9f0e8c1b2a3d")!
    static let event = UUID(uuidString: "00112233-4455-6677-8899-aabbccddeeff")!

    init() throws {
        ring = try KeyRing(current: SigningKey(seed: [UInt8](repeating: 7, count: 32)), since: Date(timeIntervalSince1970: 0))
    }

    func sign(_ payload: String, assertion: String = ConnectionTokens.implicitAssertion) throws -> String {
        try PASETOv4Public.sign(
            message: Array(payload.utf8), footer: Array("{\"kid\":\"\(ring.signingKid)\"}".utf8),
            implicitAssertion: Array(assertion.utf8), key: ring.signingKey)
    }

    @Test func thePayloadIsExactlyTheDocumentedShape() throws {
        let (token, claims) = try ConnectionTokens.issue(
            subject: Self.owner, eventId: Self.event, lifetime: .seconds(300), now: now, keys: ring)
        let payload = String(decoding: try PASETOv4Public.parse(token).message, as: UTF8.self)
        // The UUID's bytes in written order: 4a 9e 7c 1e 0d 7a 4a 57 … as base64url.
        #expect(
            payload
                == "{\"s\":\"Sp58Hg16SledVZ8OjBsqPQ\",\"i\":1800000000,\"x\":1800000300,\"j\":\"\(claims.tokenId)\",\"e\":\"ABEiM0RVZneImaq7zN3u_w\"}"
        )
        #expect(claims.tokenId.wholeMatch(of: /[A-Za-z0-9_-]{12}/) != nil)
        let personal = try ConnectionTokens.issue(subject: Self.owner, lifetime: .seconds(300), now: now, keys: ring)
        let text = String(decoding: try PASETOv4Public.parse(personal.token).message, as: UTF8.self)
        #expect(text.wholeMatch(of: /\{"s":"[A-Za-z0-9_-]{22}","i":\d+,"x":\d+,"j":"[A-Za-z0-9_-]{12}"\}/) != nil, "\(text)")
        #expect(personal.token.utf8.count <= 230 && token.utf8.count <= 270, "\(personal.token.utf8.count), \(token.utf8.count) bytes")
    }

    @Test func theLongFormStillVerifies() throws {
        let token = try sign(
            """
            {"evt":"\(Self.event.uuidString.lowercased())","exp":"2027-01-15T08:05:00Z","iat":"2027-01-15T08:00:00Z",\
            "jti":"hQ2x9Kk1fP0aZ3Lm","sub":"\(Self.owner.uuidString.lowercased())"}
            """)
        let at = ISO8601DateFormatter().date(from: "2027-01-15T08:01:00Z")!
        let claims = try ConnectionTokens.verify(token, keys: ring.verificationKeys, at: at, now: at)
        #expect(
            claims
                == ConnectionClaims(
                    subject: Self.owner, issuedAt: at.addingTimeInterval(-60), expiresAt: at.addingTimeInterval(240),
                    tokenId: "hQ2x9Kk1fP0aZ3Lm", eventId: Self.event))
    }

    @Test func malformedCompactClaimsAreRefused() throws {
        let good = "\"i\":1800000000,\"x\":1800000300,\"j\":\"AAAAAAAAAAAA\""
        let cases: [(String, String)] = [
            ("{\"s\":\"Sp58Hg16SledVZ8OjBsqPQ\",\"sub\":\"x\",\(good)}", "the payload needs one of 's' and 'sub'"),
            ("{\(good)}", "the payload needs one of 's' and 'sub'"),
            ("{\"s\":\"Sp58Hg16SledVZ8OjBsqPR\",\(good)}", "'s' must be 22 base64url characters of a UUID"),
            ("{\"s\":\"\(Self.owner.uuidString)\",\(good)}", "'s' must be 22 base64url characters of a UUID"),
            ("{\"s\":\"Sp58Hg16SledVZ8OjBsqPQ\",\"i\":1800000000,\"j\":\"A\"}", "'x' must be integer Unix seconds"),
            ("{\"s\":\"Sp58Hg16SledVZ8OjBsqPQ\",\"i\":1800000000,\"x\":1799999999,\"j\":\"A\"}", "the expiry must be after the issue time"),
            ("{\"s\":\"Sp58Hg16SledVZ8OjBsqPQ\",\"i\":1800000000,\"x\":1800000300,\"j\":\"\"}", "the token id must be 1 to 128 characters"),
            ("{\"s\":\"Sp58Hg16SledVZ8OjBsqPQ\",\(good),\"e\":5}", "'e' must be a string"),
            ("{\"s\":5,\"sub\":\"\(Self.owner.uuidString)\",\(good)}", "'s' must be a string"),
            ("{\"s\":\"Sp58Hg16SledVZ8OjBsqPQ\",\"sub\":5,\(good)}", "'sub' must be a string"),
            (
                "{\"sub\":\"\(Self.owner.uuidString)\",\"iat\":\"2026-11-23T10:00:00Z\",\"exp\":\"2026-11-23T10:05:00Z\",\"jti\":\"A\",\"evt\":[]}",
                "the payload is not a JSON object of a token's claims"
            ),
            (
                "{\"sub\":\"\(Self.owner.uuidString)\",\"iat\":\"2026-11-23T10:00:00Z\",\"exp\":\"2026-11-23T10:05:00Z\",\"jti\":\"A\",\"evt\":7}",
                "'evt' must be a string"
            ),
            ("{\"s\":\"Sp58Hg16SledVZ8OjBsqPQ\",\(good),\"j\":\"B\"}", "the payload is not a JSON object of a token's claims"),
            ("{\"s\":\"Sp58Hg16SledVZ8OjBsqPQ\",\(good),\"n\":{}}", "the payload is not a JSON object of a token's claims"),
        ]
        for (payload, reason) in cases {
            #expect(throws: TokenError.invalidClaims(reason), "\(payload)") {
                try ConnectionTokens.verify(try sign(payload), keys: ring.verificationKeys, at: now)
            }
        }
        #expect(throws: TokenError.self) {
            try ConnectionTokens.verify(
                try sign("{\"s\":\"Sp58Hg16SledVZ8OjBsqPQ\",\"i\":\"1800000000\",\"x\":1800000300,\"j\":\"A\"}"),
                keys: ring.verificationKeys, at: now)
        }
    }

    @Test func viewTokensAreTheirOwnPurpose() throws {
        let (view, claims) = try ViewTokens.issue(
            eventId: Self.event, showsNames: false, lifetime: .seconds(720 * 60), now: now, keys: ring)
        let payload = String(decoding: try PASETOv4Public.parse(view).message, as: UTF8.self)
        #expect(
            payload
                == "{\"e\":\"ABEiM0RVZneImaq7zN3u_w\",\"x\":1800043200,\"j\":\"\(try #require(payload.firstMatch(of: /"j":"([A-Za-z0-9_-]{22})"/)?.output.1))\",\"n\":false}"
        )
        #expect(try ViewTokens.verify(view, keys: ring.verificationKeys, now: now) == claims)
        #expect(claims.eventId == Self.event && !claims.showsNames && claims.expiresAt == now.addingTimeInterval(43_200))
        #expect(throws: TokenError.expired) {
            try ViewTokens.verify(view, keys: ring.verificationKeys, now: now.addingTimeInterval(43_200))
        }
        // Neither kind passes for the other, though one key signs both.
        let connection = try ConnectionTokens.issue(subject: Self.owner, lifetime: .seconds(300), now: now, keys: ring).token
        #expect(throws: TokenError.invalidSignature) { try ViewTokens.verify(connection, keys: ring.verificationKeys, now: now) }
        #expect(throws: TokenError.invalidSignature) { try ConnectionTokens.verify(view, keys: ring.verificationKeys, at: now) }
    }
}
