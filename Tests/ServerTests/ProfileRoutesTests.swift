import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing
import Tokens

@Suite(.tier(.database)) struct ProfileRoutesTests {
    @Test func healthReportsTheDatabase() async throws {
        try await TestServer.run { server throws in
            #expect(try await server.client.health())
        }
    }

    @Test func registerReturnsTheKeyOnceAndItAuthenticates() async throws {
        try await TestServer.run { server throws in
            let registered = try await server.client.register(NewProfile(displayName: "  Ada  ", headline: "Engines"))
            #expect(registered.profile.displayName == "Ada")
            #expect(registered.apiKey.hasPrefix("cst_"))
            let me = try await server.client.authenticated(registered.apiKey).me()
            #expect(me == registered.profile)
            // Only the key's hash is stored (APIKeyTests checks APIKey.hash against BLAKE2b-256 known answers).
            let stored = try await server.services.database.withConnection {
                try $0.query("SELECT encode(key_hash, 'hex') AS hash FROM api_keys")[0].string("hash")
            }
            #expect(stored == (try APIKey.hash(registered.apiKey)).map { String(format: "%02x", $0) }.joined())
        }
    }

    @Test func badRegistrationsAreRefusedAndStoreNothing() async throws {
        try await TestServer.run { server throws in
            let client = server.client
            for (body, status, code) in [
                ("{\"displayName\":", 400, "malformed_json"),
                ("{}", 400, "malformed_json"),
                ("{\"displayName\": 7}", 400, "malformed_json"),
                ("{\"displayName\":\"   \"}", 422, "validation_failed"),
                ("{\"displayName\":\"\(String(repeating: "x", count: 81))\"}", 422, "validation_failed"),
                ("{\"displayName\":\"a\\u0007b\"}", 422, "validation_failed"),
                ("{\"displayName\":\"Ok\",\"headline\":\"\(String(repeating: "y", count: 161))\"}", 422, "validation_failed"),
            ] {
                await expectProblem(status, code) {
                    _ = try await client.send(
                        .POST, "/v1/profiles", rawBody: Array(body.utf8), headers: [("Content-Type", "application/json")])
                }
            }
            await expectProblem(413, "payload_too_large") {
                _ = try await client.send(.POST, "/v1/profiles", rawBody: Array(repeating: UInt8(ascii: "a"), count: 100_000))
            }
            #expect(try await server.count("profiles") == 0)
        }
    }

    @Test func credentialsAreRequiredAndChecked() async throws {
        try await TestServer.run { server throws in
            await expectProblem(401, "missing_credentials") { _ = try await server.client.me() }
            await expectProblem(401, "invalid_credentials") { _ = try await server.client.authenticated("cst_nope").me() }
            let forged = "cst_" + String(repeating: "A", count: 43)
            await expectProblem(401, "invalid_credentials") { _ = try await server.client.authenticated(forged).me() }
            // "Bearer   " reaches the server as "Bearer": a header's trailing blanks are not part of its value.
            for header in ["Basic YTpi", "Bearer", "Bearer   ", "Bearerx cst_", "Bear " + forged] {
                await expectProblem(401, "missing_credentials") {
                    _ = try await server.client.send(.GET, "/v1/me", headers: [("Authorization", header)])
                }
            }
            // The scheme in any case, and blanks around the key, still name the key.
            let key = try await server.client.register(NewProfile(displayName: "Ada")).apiKey
            for header in ["bearer \(key)", "BEARER  \(key)  ", "Bearer\t\(key)"] {
                let answer = try await server.client.send(.GET, "/v1/me", headers: [("Authorization", header)])
                #expect(answer.status == 200, "\(header.debugDescription)")
            }
        }
    }

    @Test func patchChangesMyProfileOnly() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let updated = try await ada.client.updateMe(ProfileChanges(displayName: "Ada L.", headline: "Analyst"))
            #expect(updated.displayName == "Ada L." && updated.headline == "Analyst")
            let cleared = try await ada.client.updateMe(ProfileChanges(headline: ""))
            #expect(cleared.headline == nil && cleared.displayName == "Ada L.")
            #expect(try await bob.client.me().displayName == "Bob")
            await expectProblem(422, "validation_failed") { _ = try await ada.client.updateMe(ProfileChanges()) }
            await expectProblem(422, "validation_failed") { _ = try await ada.client.updateMe(ProfileChanges(displayName: "")) }
            #expect(try await ada.client.me().displayName == "Ada L.")
        }
    }

    @Test func profilesShowPublicFieldsOnly() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let seen = try await bob.client.send(.GET, "/v1/profiles/\(ada.profile.id)")
            let object = try JSONSerialization.jsonObject(with: Data(seen.body)) as? [String: Any]
            #expect(Set(object?.keys.map { $0 } ?? []) == ["id", "displayName", "createdAt"])
            await expectProblem(404, "not_found") { _ = try await bob.client.profile(id: UUID()) }
            await expectProblem(404, "not_found") { _ = try await bob.client.send(.GET, "/v1/profiles/not-a-uuid") }
        }
    }

    @Test func unknownRoutesAreProblemJSON404s() async throws {
        try await TestServer.run { server throws in
            await expectProblem(404, "not_found") { _ = try await server.client.send(.GET, "/v1/nothing-here") }
            await expectProblem(404, "not_found") { _ = try await server.client.send(.GET, "/nowhere") }
        }
    }
}
