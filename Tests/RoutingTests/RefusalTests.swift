import ConstellationModel
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import Tokens

/// How HTTP maps onto the API where nothing reaches the database: credentials refused, bodies
/// refused, methods and paths the API does not have. Each answer is problem+json with its code.
@Suite struct RefusalTests {
    @Test func aRequestWithoutAKeyIsAskedForOne() async throws {
        try await RouterHarness.run { client in
            let response = try await client.execute(uri: "/v1/me", method: .get)
            #expect(response.status == .unauthorized)
            #expect(response.headers[.wwwAuthenticate] == "Bearer")
            #expect(response.problem?.code == "missing_credentials")
        }
    }

    /// A key that cannot be one of ours is refused without looking it up.
    @Test func aKeyOfTheWrongShapeIsRefused() async throws {
        try await RouterHarness.run { client in
            let response = try await client.execute(uri: "/v1/me", method: .get, headers: [.authorization: "Bearer not-a-key"])
            #expect(response.status == .unauthorized)
            #expect(response.problem?.code == "invalid_credentials")
        }
    }

    /// A view token signed by a key this server never had.
    @Test func aForeignViewTokenIsRefused() async throws {
        let stranger = try KeyRing(current: SigningKey.generate(), since: Date())
        let foreign = try ViewTokens.issue(eventId: UUID(), showsNames: true, lifetime: .seconds(600), keys: stranger).token
        try await RouterHarness.run { client in
            let response = try await client.execute(
                uri: "/v1/events/any/network", method: .get, headers: [.authorization: "Bearer \(foreign)"])
            #expect(response.status == .unauthorized)
            #expect(response.problem?.code == "invalid_credentials")
        }
    }

    @Test func aBodyThatIsNotJSONIs400() async throws {
        try await RouterHarness.run { client in
            let response = try await client.execute(
                uri: "/v1/profiles", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: "{\"displayName\":"))
            #expect(response.status == .badRequest)
            #expect(response.problem?.code == "malformed_json")
        }
    }

    @Test(arguments: ["", "   ", String(repeating: "x", count: 500)])
    func aNameThatIsNotOneIs422(name: String) async throws {
        let body = try JSONEncoder().encode(NewProfile(displayName: name))
        try await RouterHarness.run { client in
            let response = try await client.execute(
                uri: "/v1/profiles", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(bytes: body))
            #expect(response.status == .unprocessableContent)
            #expect(response.problem?.code == "validation_failed")
        }
    }

    @Test func aMethodThePathDoesNotHaveIs405WithWhatItHas() async throws {
        try await RouterHarness.run { client in
            let response = try await client.execute(uri: "/v1/me", method: .put)
            #expect(response.status == .methodNotAllowed)
            #expect(response.problem?.code == "method_not_allowed")
            let allowed = Set((response.headers[.allow] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(allowed.isSuperset(of: ["GET", "HEAD", "PATCH", "DELETE", "OPTIONS"]), "Allow: \(allowed)")
            #expect(!allowed.contains("PUT"))
        }
    }

    @Test func aPathTheAPIDoesNotHaveIs404() async throws {
        try await RouterHarness.run { client in
            let response = try await client.execute(uri: "/v1/nothing-here", method: .get)
            #expect(response.status == .notFound)
            #expect(response.problem?.code == "not_found")
        }
    }
}
