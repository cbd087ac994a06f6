import ConstellationModel
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Server
import Testing
import Tokens

/// A JSON body is read one way: `application/json`, UTF-8, no key twice in one object; a refusal
/// names the field and what it must be, never the decoder's own words. All of it is decided before
/// the database (none exists here).
@Suite struct RequestBodyTests {
    static func register(_ body: String, contentType: String? = "application/json") -> (String, HTTPFields, ByteBuffer) {
        var headers: HTTPFields = [:]
        if let contentType { headers[.contentType] = contentType }
        return ("/v1/profiles", headers, ByteBuffer(string: body))
    }

    /// What a cross-site form or a script can send without a preflight, and JSON in another encoding.
    @Test(arguments: [
        "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=utf-16",
        "application/jsonp", "",
    ])
    func aBodyThatIsNotSentAsJSONIs415(contentType: String) async throws {
        try await RouterHarness.run { client in
            let (uri, headers, body) = Self.register(#"{"displayName":"Ada"}"#, contentType: contentType.isEmpty ? nil : contentType)
            let response = try await client.execute(uri: uri, method: .post, headers: headers, body: body)
            #expect(response.status == .unsupportedMediaType, "\(contentType)")
            #expect(response.problem?.code == "unsupported_media_type")
        }
    }

    @Test(arguments: [
        #"{"displayName":"A","displayName":"B"}"#,
        #"{"displayName":"A","display\u004eame":"B"}"#,
        #"{"displayName":"A","headline":"x","headline":"x"}"#,
    ])
    func aKeyTwiceInOneObjectIs400(body: String) async throws {
        try await RouterHarness.run { client in
            let (uri, headers, bytes) = Self.register(body)
            let response = try await client.execute(uri: uri, method: .post, headers: headers, body: bytes)
            #expect(response.status == .badRequest)
            #expect(response.problem?.code == "malformed_json")
            #expect(response.problem?.detail?.contains("appears twice") == true, "\(String(describing: response.problem))")
        }
    }

    /// The same key in two different objects is no duplicate: the body goes on to the next check,
    /// which refuses the keys a registration does not take.
    @Test func theSameKeyInTwoObjectsIsFine() async throws {
        try await RouterHarness.run { client in
            let (uri, headers, bytes) = Self.register(#"{"displayName":"","a":{"k":1,"v":[{"k":2}]},"b":{"k":1}}"#)
            let response = try await client.execute(uri: uri, method: .post, headers: headers, body: bytes)
            #expect(response.status == .badRequest)
            #expect(response.problem?.code == "malformed_json")
            #expect(response.problem?.detail?.hasPrefix("`a` is not a field of this request") == true, "\(response.problem?.detail ?? "")")
        }
    }

    @Test(arguments: [
        (#"{"displayName":5}"#, "displayName must be a string."),
        (#"{"displayName":null}"#, "displayName must be a string, not null."),
        ("{}", "displayName is required."),
        ("[]", "The body must be an object."),
        (#"{"displayName":"Ada""#, "The body is not valid JSON."),
        (
            #"{"displayName":"Ada","headlin":"Engines"}"#,
            "`headlin` is not a field of this request (check its spelling); nothing was changed."
        ),
    ])
    func aBodyOfTheWrongShapeSaysWhichFieldAndWhat(body: String, detail: String) async throws {
        try await RouterHarness.run { client in
            let (uri, headers, bytes) = Self.register(body)
            let response = try await client.execute(uri: uri, method: .post, headers: headers, body: bytes)
            #expect(response.status == .badRequest)
            let problem = try #require(response.problem)
            #expect(problem.code == "malformed_json")
            #expect(problem.detail == detail)
            let text = String(buffer: response.body)
            for word in ["Dictionary", "Debug", "Swift", "CodingKeys", "Optional"] { #expect(!text.contains(word), "\(text)") }
        }
    }

    @Test func aBodyThatIsNotUTF8Is400() async throws {
        try await RouterHarness.run { client in
            var bytes = ByteBuffer(string: #"{"displayName":"A"#)
            bytes.writeBytes([0xC3, 0x28])
            bytes.writeString(#""}"#)
            let response = try await client.execute(
                uri: "/v1/profiles", method: .post, headers: [.contentType: "application/json"], body: bytes)
            #expect(response.status == .badRequest)
            #expect(response.problem?.detail == "The body is not UTF-8.")
        }
    }

    /// Every answer, a problem or not, is nosniff; an API answer that says nothing of caching is no-store.
    @Test func everyResponseIsNosniffAndAPIAnswersAreNotStored() async throws {
        try await RouterHarness.run { client in
            let refused = try await client.execute(uri: "/v1/me", method: .get)
            #expect(refused.headers[.xContentTypeOptions] == "nosniff")
            #expect(refused.headers[.cacheControl] == "no-store")
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.headers[.xContentTypeOptions] == "nosniff")
            #expect(health.headers[.cacheControl] == "no-store")
            let keys = try await client.execute(uri: "/v1/keys", method: .get)
            #expect(keys.status == .ok)
            #expect(keys.headers[.xContentTypeOptions] == "nosniff")
            #expect(keys.headers[.cacheControl] == "public, max-age=300", "a route's own caching stays")
        }
    }
}

/// A scan's body is read without Foundation when it is a flat object of what a scan holds; the
/// fast reader must give the full decoder's value, and leave everything else to it.
@Suite struct FlatRequestBodyTests {
    static let decoder = JSONDecoder.constellation(accepting: RFC3339.accepted)

    @Test(arguments: [
        #"{"token":"v4.public.abc"}"#,
        #" { "token" : "v4.public.abc" , "clientNonce" : null } "#,
        #"{"token":"b1.xyz","scannedAt":"2026-11-26T09:30:00.25+01:00","clientNonce":"n-1"}"#,
        #"{"token":"\u0076\u0034.é\ud83d\ude00","scannedAt":null}"#,
    ])
    func whatTheFastReaderTakesIsWhatTheDecoderReads(body: String) throws {
        let bytes = Array(body.utf8)
        let fast = try #require(FlatJSONObject(bytes).flatMap(RedeemRequest.init(flat:)), "the fast reader took it")
        #expect(fast == (try Self.decoder.decode(RedeemRequest.self, from: Data(bytes))))
    }

    /// Unknown keys, wrong types, dates out of range or malformed, duplicate keys, not an object:
    /// the fast reader declines, and the full decoder decides (and names the field when it refuses).
    @Test(arguments: [
        #"{"token":"t","extra":1}"#, #"{"token":5}"#, #"{"clientNonce":"n"}"#, #"{"token":"t","scannedAt":"1969-12-31T23:59:59Z"}"#,
        #"{"token":"t","scannedAt":"yesterday"}"#, #"{"token":"t","scannedAt":5}"#, #"{"token":"t","clientNonce":true}"#,
        #"{"token":"t","token":"u"}"#, #"["t"]"#, #"{"token":"t"} x"#,
    ])
    func whatItDeclinesIsLeftToTheDecoder(body: String) {
        #expect(FlatJSONObject(Array(body.utf8)).flatMap(RedeemRequest.init(flat:)) == nil)
    }
}
