import Client
import ConstellationModel
import Foundation
import GraphExport
import Keys
import NIOHTTP1
import Server
import TestSupport
import Testing
import Tokens

/// Organizer view tokens: minted by organizers only, honoured by the event's read routes only, for
/// that event only, until they expire; never mistaken for a connection token, never revealing a profile id.
@Suite(.tier(.database)) struct ViewTokenTests {
    typealias User = EventNetworkTests.User

    /// The routes a view token reads, for `event`.
    static func readRoutes(_ event: String) -> [String] {
        [
            "/v1/events/\(event)", "/v1/events/\(event)/network", "/v1/events/\(event)/network/stats",
            "/v1/events/\(event)/growth", "/v1/events/\(event)/summary",
        ]
    }

    /// The status of `method path` and its problem's code, if it failed with one.
    static func status(_ client: ConstellationClient, _ path: String, method: HTTPMethod = .GET) async throws -> (Int, String?) {
        do {
            return (try await client.send(method, path).status, nil)
        } catch {
            guard case .problem(let problem) = error else { throw error }
            return (problem.status, problem.code)
        }
    }

    @Test func organizersMintViewTokensAndOthersAreRefused() async throws {
        try await TestServer.run(configure: { $0.viewTokenLifetime = .seconds(600) }) { server throws in
            let (ada, bob, _, _, eve, event) = try await EventNetworkTests.smallEvent(server)
            let asked = Date()
            let issued = try await ada.client.issueViewToken(for: "net-event")
            let answered = Date()
            #expect(issued.path == "/events/net-event/live#view=\(issued.token)")
            #expect(issued.url == nil, "no public URL")
            #expect(issued.eventId == event.event.id && issued.showsNames)
            // Bracketed by the clock before and after the request (second precision), not by a
            // fixed slack: under CI's load the request alone once took over 5 seconds.
            #expect(
                (asked.addingTimeInterval(599)...answered.addingTimeInterval(601)).contains(issued.expiresAt),
                "a link lives the configured 600 seconds from when it is made")
            let claims = try ViewTokens.verify(issued.token, keys: server.services.keyRing.verificationKeys)
            #expect(
                claims.eventId == event.event.id && claims.expiresAt == max(issued.expiresAt, event.event.endsAt),
                "the token lives as long as the link may")
            let wall = try await ada.client.issueViewToken(for: event.event.id.uuidString, wall: true)
            #expect(wall.path == "/events/net-event/live?wall#view=\(wall.token)" && !wall.showsNames)

            await expectProblem(403, "not_an_organizer") { _ = try await bob.client.issueViewToken(for: "net-event") }
            await expectProblem(403, "not_an_organizer") { _ = try await eve.client.issueViewToken(for: "net-event") }
            let stranger = try await server.user("Stranger")
            await expectProblem(403, "not_an_organizer") { _ = try await stranger.client.issueViewToken(for: "net-event") }
            await expectProblem(404, "unknown_event") { _ = try await ada.client.issueViewToken(for: "no-such-event") }
            await expectProblem(401, "missing_credentials") { _ = try await server.client.issueViewToken(for: "net-event") }
        }
    }

    /// A link's row decides how long it lives, within its token's own expiry (the event's end): an
    /// organizer extends it without a new link, and one whose row expired is refused whatever its
    /// token says. (Its expiry is moved in the database rather than waited for: a few seconds' life
    /// ran out before the test could list it on a machine busy with the whole suite.)
    @Test func anOrganizerExtendsALinkWithinWhatItsTokenAllows() async throws {
        // No cache of links: the row is read on every request, as every instance does past the cache's seconds.
        try await TestServer.run(configure: { $0.credentialCacheLifetime = .zero }) { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("long-night", hours: 48))
            _ = try await bob.client.joinEvent("long-night", code: created.joinCode)
            let kept = try await ada.client.issueViewToken(for: "long-night", wall: true)
            let left = try await ada.client.issueViewToken(for: "long-night", wall: true)
            let keys = server.services.keyRing.verificationKeys
            let (id, leftID) = (
                try ViewTokens.verify(kept.token, keys: keys).tokenId, try ViewTokens.verify(left.token, keys: keys).tokenId
            )
            let listed = try #require(try await ada.client.viewLinks(of: "long-night").items.first { $0.id == id })
            #expect(
                listed.expiresAt == kept.expiresAt && listed.longestUntil == created.event.endsAt, "a link may live until the event's end")
            #expect(listed.expiresAt < listed.longestUntil)

            // Bad changes are refused and change nothing.
            await expectProblem(422, "validation_failed") {
                _ = try await ada.client.extendViewLink(id, of: "long-night", until: created.event.endsAt.addingTimeInterval(1))
            }
            await expectProblem(422, "validation_failed") {
                _ = try await ada.client.extendViewLink(id, of: "long-night", until: Date(timeIntervalSinceNow: -60))
            }
            await expectProblem(403, "not_an_organizer") {
                _ = try await bob.client.extendViewLink(id, of: "long-night", until: Date(timeIntervalSinceNow: 3600))
            }
            await expectProblem(404, "unknown_view_link") {
                _ = try await ada.client.extendViewLink(UUID(), of: "long-night", until: Date(timeIntervalSinceNow: 3600))
            }
            let wall = server.client.authenticated(kept.token)
            await expectProblem(403, "view_token_read_only") {
                _ = try await wall.send(
                    .PATCH, "/v1/events/long-night/view-tokens/\(id)", body: ViewLinkChange(expiresAt: Date(timeIntervalSinceNow: 3600)))
            }
            #expect(try await ada.client.viewLinks(of: "long-night").items.first { $0.id == id }?.expiresAt == kept.expiresAt)

            let until = created.event.endsAt
            let extended = try await ada.client.extendViewLink(id, of: "long-night", until: until)
            #expect(extended.id == id && extended.expiresAt == until)
            // The other link's first expiry comes (moved to now in the database).
            _ = try await server.services.database.withConnection { connection in
                try connection.query("UPDATE view_links SET expires_at = now() - interval '1 second' WHERE id = \(leftID)")
            }
            #expect(try await Self.status(wall, "/v1/events/long-night/network").0 == 200, "the extended link goes on")
            let other = try await Self.status(server.client.authenticated(left.token), "/v1/events/long-night/network")
            #expect(other == (401, "view_token_expired"), "the other's row decides, whatever its token says: \(other)")
            #expect(try await ada.client.viewLinks(of: "long-night").items.map(\.id) == [id], "only the extended link is live")
            await expectProblem(404, "unknown_view_link") {
                _ = try await ada.client.extendViewLink(leftID, of: "long-night", until: until)
            }

            _ = try await ada.client.revokeViewLinks(of: "long-night", id: id)
            await expectProblem(404, "unknown_view_link") { _ = try await ada.client.extendViewLink(id, of: "long-night", until: until) }
        }
    }

    @Test func theLinkIsOnThePublicURL() async throws {
        try await TestServer.run(configure: { $0.publicURL = "https://connect.example.org" }) { server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("public-link"))
            let issued = try await ada.client.issueViewToken(for: "public-link")
            #expect(issued.url == "https://connect.example.org/events/public-link/live#view=\(issued.token)")
        }
    }

    @Test func aViewTokenReadsItsEventAndNothingElse() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo, dan, eve, event) = try await EventNetworkTests.smallEvent(server)
            _ = try await bob.client.setEventVisibility(.named, at: "net-event")
            let other = try await ada.client.createEvent(EventRoutesTests.newEvent("other-event"))
            let viewer = server.client.authenticated(try await ada.client.issueViewToken(for: "net-event").token)

            for path in Self.readRoutes("net-event") + Self.readRoutes(event.event.id.uuidString) {
                #expect(try await Self.status(viewer, path).0 == 200, "\(path)")
            }
            for format in ["gexf", "graphml", "csv", "graphology", "cytoscape"] {
                #expect(try await Self.status(viewer, "/v1/events/net-event/network?format=\(format)").0 == 200, "\(format)")
            }
            // The same picture as the organizer's, minus "me"; never a profile id, names only for who chose.
            let seen = try await viewer.eventNetwork("net-event")
            let organizers = try await ada.client.eventNetwork("net-event")
            #expect(Set(seen.nodes.map(\.id)) == Set(organizers.nodes.map(\.id)) && seen.nodes.count == 4)
            #expect(seen.nodes.allSatisfy { !$0.isMe })
            #expect(seen.nodes.contains { $0.label == "Bob Hidden" })
            for path in Self.readRoutes("net-event") {
                let body = String(decoding: try await viewer.send(.GET, path).body, as: UTF8.self).lowercased()
                for user in [ada, bob, cleo, dan, eve] {
                    #expect(!body.contains(user.profile.id.uuidString.lowercased()), "\(path) holds a profile id")
                }
            }

            // Another event: refused, even though the token is genuine.
            for path in Self.readRoutes("other-event").dropFirst() + Self.readRoutes(other.event.id.uuidString).dropFirst() {
                #expect(try await Self.status(viewer, path) == (403, "view_token_wrong_event"), "\(path)")
            }
            #expect(try await Self.status(viewer, "/v1/events/other-event").0 == 200, "an event's public fields are public")
            // Anything but reading: refused, and nothing changes.
            let refused: [(HTTPMethod, String)] = [
                (.GET, "/v1/me"), (.GET, "/v1/me/network"), (.GET, "/v1/me/connections"), (.GET, "/v1/me/events"), (.GET, "/v1/me/export"),
                (.POST, "/v1/tokens"), (.GET, "/v1/me/qr"), (.POST, "/v1/events/net-event/view-tokens"),
                (.POST, "/v1/events/net-event/join-code"), (.PATCH, "/v1/events/net-event/me"), (.POST, "/v1/connections"),
                (.DELETE, "/v1/me"), (.POST, "/v1/me/qr/reset"),
            ]
            for (method, path) in refused {
                #expect(try await Self.status(viewer, path, method: method) == (403, "view_token_read_only"), "\(method) \(path)")
            }
            #expect(try await ada.client.me().id == ada.profile.id, "Ada is still there")
        }
    }

    /// Found in the router itself: every route behind a key but the event reader's refuses a (live
    /// page's) view token; the door's routes, join-code and join-qr, are a wall's only (`JoinQRTests`).
    @Test func everyOtherAuthenticatedRouteRefusesAViewToken() async throws {
        let readers: Set<String> = [
            "GET /v1/events/{event}/network", "GET /v1/events/{event}/network/stats",
            "GET /v1/events/{event}/growth", "GET /v1/events/{event}/summary",
            "GET /v1/events/{event}/stream",
        ]
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let event = try await ada.client.createEvent(EventRoutesTests.newEvent("router-walk")).event
            let token = try await ada.client.issueViewToken(for: "router-walk").token
            let routes = buildRouter(server.services).routes.map { ($0.method.rawValue, $0.path.description) }
            var read: Set<String> = []
            for (method, pattern) in routes where !AuthenticationTests.publicRoutes.contains("\(method) \(pattern)") {
                let path = pattern.replacing("{event}", with: event.id.uuidString).replacing(/\{[A-Za-z]+\}/, with: UUID().uuidString)
                let body = ["POST", "PATCH"].contains(method) ? "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}" : "\r\n"
                let response = try await RawHTTP.exchange(
                    port: server.port,
                    """
                    \(method) \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer \(token)\r\n\(body)
                    """)
                if response.httpStatus == 405 || response.httpStatus == 204 { continue }  // a method the path does not have
                if response.httpStatus == 200 {
                    read.insert("\(method) \(pattern)")
                    continue
                }
                #expect(
                    response.httpStatus == 403 && response.httpBody.contains("\"code\":\"view_token_read_only\""), "\(method) \(pattern)")
            }
            #expect(read == readers)
        }
    }

    /// A wall's token learns no name nobody chose to show the room, and no pseudonym.
    @Test func wallTokensShowNoNameAndNoPseudonym() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, _, _, _, _) = try await EventNetworkTests.smallEvent(server)
            _ = try await bob.client.setEventVisibility(.named, at: "net-event")
            let wall = server.client.authenticated(try await ada.client.issueViewToken(for: "net-event", wall: true).token)
            let network = try await wall.eventNetwork("net-event")
            #expect(
                network.nodes.count == 4 && network.nodes.allSatisfy { $0.label.isEmpty && $0.pseudonymous == true },
                "\(network.nodes.map(\.label))")
            // The room knows its people by ids of their own: none gives away an organizer's
            // pseudonym (an organizer's id begins with it), in the picture or in the statistics.
            let organizers = try await ada.client.eventNetwork("net-event").nodes.map(\.id)
            let pseudonyms = Set(organizers.map { $0.prefix(7) })
            #expect(network.nodes.allSatisfy { !pseudonyms.contains($0.id.prefix(7)) }, "\(network.nodes.map(\.id)) \(organizers)")
            let statistics = String(decoding: try await wall.send(.GET, "/v1/events/net-event/network/stats").body, as: UTF8.self)
            #expect(network.nodes.contains { statistics.contains($0.id) }, "the room's ids: \(statistics)")
            #expect(!organizers.contains { statistics.contains($0) }, "no organizer's id: \(statistics)")
            let summary = String(decoding: try await wall.send(.GET, "/v1/events/net-event/summary").body, as: UTF8.self)
            #expect(!summary.contains("Attendee ") && !summary.contains("Bob Hidden"), "\(summary)")
            // Nobody chose the wall: no top connector, so no one's choice of names either.
            let decoded = try await wall.eventSummary("net-event")
            #expect(decoded.topByDegree.isEmpty && decoded.topByBetweenness.isEmpty && decoded.people == 4)
            // Every format a wall's link can ask for: no name of someone not on the wall, no pseudonym.
            for format in LayoutDocument.Format.allCases where format != .svg {
                let document = String(decoding: try await wall.exportEventNetwork("net-event", format: format.rawValue), as: UTF8.self)
                #expect(document.count > 100, "\(format): \(document)")
                #expect(!document.contains("Bob Hidden") && !document.contains("Attendee "), "\(format): \(document.prefix(400))")
            }
        }
    }

    @Test func expiredForgedAndForeignTokensAreRefused() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, _, _, _, event) = try await EventNetworkTests.smallEvent(server)
            let ring = server.services.keyRing
            let network = "/v1/events/net-event/network"
            let expired = try ViewTokens.issue(
                eventId: event.event.id, showsNames: true, lifetime: .seconds(60),
                now: Date().addingTimeInterval(-120), keys: ring
            ).token
            #expect(try await Self.status(server.client.authenticated(expired), network) == (401, "view_token_expired"))

            let genuine = try await ada.client.issueViewToken(for: "net-event").token
            // The signature's last character changed: same claims, same key id, a forged signature.
            var parts = genuine.split(separator: ".").map(String.init)
            let last = parts[2].removeLast()
            parts[2].append(last == "A" ? "Q" : "A")
            let forged = parts.joined(separator: ".")
            #expect(throws: TokenError.invalidSignature) { try ViewTokens.verify(forged, keys: ring.verificationKeys) }
            #expect(try await Self.status(server.client.authenticated(forged), network) == (401, "invalid_credentials"))
            // Signed by a key the server does not know.
            let stranger = try KeyRing(current: SigningKey.generate(), since: Date())
            let foreign = try ViewTokens.issue(eventId: event.event.id, showsNames: true, lifetime: .seconds(600), keys: stranger).token
            #expect(try await Self.status(server.client.authenticated(foreign), network) == (401, "invalid_credentials"))
            for garbage in ["v4.public.garbage", "v4.local.AAAA", "v4.public."] {
                #expect(try await Self.status(server.client.authenticated(garbage), network) == (401, "invalid_credentials"), "\(garbage)")
            }

            // A connection token is no view token, and a view token is no connection token.
            let connection = try await ada.client.issueToken(event: "net-event").token
            #expect(try await Self.status(server.client.authenticated(connection), network) == (401, "invalid_credentials"))
            await expectProblem(401, "invalid_signature") { _ = try await bob.client.redeem(RedeemRequest(token: genuine)) }
        }
    }

    @Test func aViewTokenSignedBeforeARotationWorksWhileItsKeyIsTrusted() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("view-rotation-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = try KeyRingStore(environment: [:], dataDirectory: directory)
        try await TestServer.run(keys: keys) { server throws in
            let (ada, _, _, _, _, event) = try await EventNetworkTests.smallEvent(server)
            let before = try await ada.client.issueViewToken(for: "net-event").token
            _ = try SigningKeyFile.rotate(dataDirectory: directory, trust: KeyRotationTests.trust)
            #expect(try keys.reloadIfChanged())
            #expect(try await Self.status(server.client.authenticated(before), "/v1/events/net-event/summary").0 == 200)
            // A key retired long ago and trusted no more: its view tokens stop, as its connection tokens do.
            let old = keys.current
            _ = try SigningKeyFile.rotate(dataDirectory: directory, trust: .seconds(60), now: Date().addingTimeInterval(-600))
            #expect(try keys.reloadIfChanged())
            let stale = try ViewTokens.issue(
                eventId: event.event.id, showsNames: true, lifetime: .seconds(3_600),
                now: Date().addingTimeInterval(-660), keys: old
            ).token
            #expect(
                try await Self.status(server.client.authenticated(stale), "/v1/events/net-event/summary") == (401, "view_token_expired"))
        }
    }

    /// View links are state: organizers list them and revoke one or all, each stops at once on this
    /// instance; a token signed by the server's key but never recorded as a link opens nothing.
    @Test func organizersListAndRevokeViewLinks() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, _, _, _, event) = try await EventNetworkTests.smallEvent(server)
            let first = try await ada.client.issueViewToken(for: "net-event").token
            let second = try await ada.client.issueViewToken(for: "net-event", wall: true).token
            let summary = "/v1/events/net-event/summary"
            let listed = try JSONDecoder.constellation.decode(
                ViewLinkList.self, from: Data(try await ada.client.send(.GET, "/v1/events/net-event/view-tokens").body))
            #expect(listed.items.count == 2 && listed.items.allSatisfy { $0.createdBy == ada.profile.id })
            #expect(listed.items.map(\.showsNames) == [false, true], "newest first")
            await expectProblem(403, "not_an_organizer") { _ = try await bob.client.send(.GET, "/v1/events/net-event/view-tokens") }
            await expectProblem(403, "not_an_organizer") { _ = try await bob.client.send(.DELETE, "/v1/events/net-event/view-tokens") }

            let firstId = try ViewTokens.verify(first, keys: server.services.keyRing.verificationKeys).tokenId
            #expect(try await ada.client.send(.DELETE, "/v1/events/net-event/view-tokens/\(firstId)").status == 204)
            #expect(try await Self.status(server.client.authenticated(first), summary) == (401, "view_token_revoked"))
            #expect(try await Self.status(server.client.authenticated(second), summary).0 == 200)
            await expectProblem(404, "unknown_view_link") {
                _ = try await ada.client.send(.DELETE, "/v1/events/net-event/view-tokens/\(firstId)")
            }
            await expectProblem(404, "unknown_view_link") {
                _ = try await ada.client.send(.DELETE, "/v1/events/net-event/view-tokens/nonsense")
            }

            let all = try await ada.client.send(.DELETE, "/v1/events/net-event/view-tokens")
            #expect(try JSONDecoder.constellation.decode(ViewLinksRevoked.self, from: Data(all.body)).revoked == 1)
            #expect(try await Self.status(server.client.authenticated(second), summary) == (401, "view_token_revoked"))
            let remaining = try await ada.client.send(.GET, "/v1/events/net-event/view-tokens")
            #expect(try JSONDecoder.constellation.decode(ViewLinkList.self, from: Data(remaining.body)).items.isEmpty)

            let unrecorded = try ViewTokens.issue(
                eventId: event.event.id, showsNames: true, lifetime: .seconds(600), keys: server.services.keyRing
            ).token
            #expect(try await Self.status(server.client.authenticated(unrecorded), summary) == (401, "view_token_revoked"))
        }
    }

    /// A link dies with its maker's role: an organizer who erases their profile takes their links along.
    @Test func aLinkDiesWithItsMaker() async throws {
        try await TestServer.run { server throws in
            let (ada, _, cleo, _, _, _) = try await EventNetworkTests.smallEvent(server)
            try await server.makeOrganizer(cleo, of: "net-event", by: ada.client)
            let cleos = try await cleo.client.issueViewToken(for: "net-event").token
            let adas = try await ada.client.issueViewToken(for: "net-event").token
            let summary = "/v1/events/net-event/summary"
            #expect(try await Self.status(server.client.authenticated(cleos), summary).0 == 200)
            try await cleo.client.deleteMe()
            #expect(try await Self.status(server.client.authenticated(cleos), summary) == (401, "view_token_revoked"))
            #expect(try await Self.status(server.client.authenticated(adas), summary).0 == 200, "another organizer's link lives on")
        }
    }

    /// Each link is a credential: an organizer makes at most 20 an hour (26 in a row were all 201).
    @Test func mintingViewLinksIsRateLimited() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("links-fest"))
            for _ in 0..<20 { _ = try await ada.client.issueViewToken(for: "links-fest") }
            await expectProblem(429, "rate_limited") { _ = try await ada.client.issueViewToken(for: "links-fest") }
            #expect(try await server.count("view_links") == 20)
        }
    }

    /// A link's graph work is its own, bounded by its screens: while its maker's own allowed graph
    /// request runs, her link still reads; while a one-screen link's one request runs, a second
    /// through it is 429. (Requests for the same picture share one computation,
    /// `SharedPictureTests`, so the links of one event cost no more than one reader.)
    @Test func aLinksGraphWorkIsItsOwnWithinItsScreens() async throws {
        try await TestServer.run(configure: { $0.graphRequestsPerCredential = 1 }) { server throws in
            let (ada, _, _, _, _, _) = try await EventNetworkTests.smallEvent(server)
            let link = try await ada.client.issueViewToken(for: "net-event", screens: 1)
            let id = try #require(
                try JSONDecoder.constellation.decode(
                    ViewLinkList.self, from: Data(try await ada.client.send(.GET, "/v1/events/net-event/view-tokens").body)
                ).items.first?.id)
            /// Holds one of `key`'s graph requests until the continuation is finished.
            func hold(_ key: UUID, limit: Int?) async -> (AsyncStream<Void>.Continuation, Task<Void, any Error>) {
                let (held, release) = AsyncStream<Void>.makeStream()
                let (started, begun) = AsyncStream<Void>.makeStream()
                let task = Task {
                    try await server.services.graphWork.scheduler.run(
                        .init(kind: "test", lane: .person(key), credential: key, allowance: limit)
                    ) {
                        begun.yield()
                        for await _ in held {}
                    }
                }
                for await _ in started { break }
                return (release, task)
            }
            let reader = server.client.authenticated(link.token)
            let (releaseAda, ada1) = await hold(ada.profile.id, limit: nil)
            #expect(try await Self.status(reader, "/v1/events/net-event/summary").0 == 200, "the link is not its maker")
            releaseAda.finish()
            try await ada1.value
            let (releaseLink, link1) = await hold(id, limit: 1)
            #expect(try await Self.status(reader, "/v1/events/net-event/summary") == (429, "too_many_graph_requests"))
            releaseLink.finish()
            try await link1.value
            #expect(try await Self.status(reader, "/v1/events/net-event/summary").0 == 200)
        }
    }
}
