import Client
import ConstellationModel
import Foundation
import Hummingbird
import Server
import TestSupport
import Testing

/// Every route behind an API key, found in the router itself, refuses a request without a key
/// and one with a wrong key: 401 problem+json with its code and a `WWW-Authenticate` challenge.
@Suite(.tier(.database)) struct AuthenticationTests {
    static let publicRoutes: Set<String> = [
        "GET /health", "GET /ready", "GET /metrics", "GET /v1/keys", "POST /v1/profiles", "GET /v1/events/{event}",
        "POST /v1/device-links/redeem", "POST /v1/recovery/redeem", "POST /v1/invitation-links/look",
        // The web client's pages and files: public, like any web page; they call the API with the browser's key.
        "GET /", "GET /c", "GET /events/{slug}/live", "GET /events/new", "GET /events/{slug}/organize", "GET /events/{slug}/poster",
        "GET /invitation", "GET /assets/{name}", "GET /assets/locales/{language}/{catalog}", "GET /sw.js",
        // The API's description.
        "GET /openapi.json",
    ]
    static let authenticatedRoutes: Set<String> = [
        "GET /v1/profiles/{id}", "GET /v1/me", "PATCH /v1/me", "GET /v1/me/card", "PUT /v1/me/card", "POST /v1/tokens", "GET /v1/me/qr",
        "GET /v1/me/badge", "GET /v1/events/{event}/badges", "GET /v1/events/{event}/badge-requests", "PATCH /v1/events/{event}",
        "POST /v1/connections", "GET /v1/me/connections", "GET /v1/me/network", "GET /v1/me/network/stats",
        "DELETE /v1/me/connections/{profileId}", "GET /v1/me/blocks", "POST /v1/me/blocks/{profileId}",
        "DELETE /v1/me/blocks/{profileId}", "POST /v1/me/qr/reset", "GET /v1/me/export", "DELETE /v1/me",
        "POST /v1/events", "GET /v1/me/events", "POST /v1/events/{event}/organizers", "POST /v1/events/{event}/join-code",
        "POST /v1/events/{event}/join", "PATCH /v1/events/{event}/me", "GET /v1/events/{event}/network",
        "GET /v1/events/{event}/network/stats", "GET /v1/events/{event}/growth", "GET /v1/events/{event}/summary",
        "POST /v1/events/{event}/view-tokens", "GET /v1/events/{event}/join-qr", "GET /v1/events/{event}/stream",
        "PATCH /v1/me/connections/{profileId}", "GET /v1/me/devices", "PATCH /v1/me/devices/{device}", "DELETE /v1/me/devices/{device}",
        "POST /v1/me/device-links", "GET /v1/me/device-links/{link}", "POST /v1/me/recovery-code",
        "GET /v1/events/{event}/view-tokens", "DELETE /v1/events/{event}/view-tokens", "DELETE /v1/events/{event}/view-tokens/{link}",
        "PATCH /v1/events/{event}/view-tokens/{link}", "GET /v1/events/{event}/join-code",
        "GET /v1/me/invitations", "POST /v1/me/invitations/{event}", "DELETE /v1/me/invitations/{event}", "GET /v1/me/stream",
        "GET /v1/events/{event}/organizers", "DELETE /v1/events/{event}/organizers/me", "POST /v1/events/{event}/invitation-links",
        "DELETE /v1/events/{event}/invitation-links/{link}", "GET /v1/events/{event}/invitations",
        "DELETE /v1/events/{event}/invitations/{profile}", "POST /v1/invitation-links/accept", "POST /v1/invitation-links/decline",
        "DELETE /v1/events/{event}/me", "GET /v1/events/{event}/purge-date", "PUT /v1/events/{event}/purge-date",
        "POST /v1/events/{event}/purge", "GET /v1/events/{event}/record", "GET /v1/events/{event}/report",
    ]

    @Test func everyAuthenticatedRouteRefusesAMissingOrWrongKey() async throws {
        // Two wrong requests per route are more than the default limit on failures allows a minute.
        try await TestServer.run(configure: { $0.rateLimits = .off }) { server throws in
            let routes = buildRouter(server.services).routes.map { ($0.method.rawValue, $0.path.description) }
            var refused: Set<String> = []
            for (method, pattern) in routes where !Self.publicRoutes.contains("\(method) \(pattern)") {
                let path = pattern.replacing(/\{[A-Za-z]+\}/, with: UUID().uuidString)
                let body = ["POST", "PATCH"].contains(method) ? "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}" : "\r\n"
                let request = { (authorization: String) in
                    "\(method) \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\(authorization)\(body)"
                }
                let missing = try await RawHTTP.exchange(port: server.port, request(""))
                if missing.httpStatus == 405 || missing.httpStatus == 204 { continue }  // a method the path does not have
                let wrong = try await RawHTTP.exchange(
                    port: server.port, request("Authorization: Bearer cst_\(String(repeating: "A", count: 43))\r\n"))
                for (response, code) in [(missing, "missing_credentials"), (wrong, "invalid_credentials")] {
                    #expect(response.httpStatus == 401, "\(method) \(pattern)")
                    #expect(response.httpHeader("Content-Type") == Problem.mediaType)
                    #expect(response.httpHeader("WWW-Authenticate") == "Bearer")
                    #expect(response.httpBody.contains("\"code\":\"\(code)\""), "\(method) \(pattern)")
                }
                refused.insert("\(method) \(pattern)")
            }
            #expect(refused == Self.authenticatedRoutes)
        }
    }

    /// A verified key is trusted for the cache's lifetime without a query: a revocation made
    /// behind this server's back (another instance, an operator) takes effect within that bound;
    /// one made through this server (erasing the profile) at once.
    @Test func aVerifiedKeyIsCachedForItsLifetimeAndNoLonger() async throws {
        let lifetime = Duration.seconds(5)
        try await TestServer.run(configure: { $0.credentialCacheLifetime = lifetime }) { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let verified = ContinuousClock.now
            _ = try await ada.client.me()
            let answered = ContinuousClock.now  // the key was remembered between `verified` and now
            let revoked = try await server.services.database.withConnection { connection in
                try connection.query("UPDATE api_keys SET revoked_at = now() WHERE profile_id = \(ada.profile.id) RETURNING 1 AS n").count
            }
            #expect(revoked == 1)
            do {
                _ = try await ada.client.issueToken()  // still trusted: the database was not asked
            } catch {
                // Only a machine so busy that the lifetime passed since `me()` may refuse it.
                #expect(ContinuousClock.now - verified > lifetime, "refused while cached: \(error)")
            }
            try await Task.sleep(until: answered + lifetime + .milliseconds(100))
            await expectProblem(401, "invalid_credentials") { _ = try await ada.client.issueToken() }

            // Through this server, an erasure is honoured at once however fresh the cache.
            _ = try await bob.client.me()
            try await bob.client.deleteMe()
            await expectProblem(401, "invalid_credentials") { _ = try await bob.client.issueToken() }
        }
    }
}
