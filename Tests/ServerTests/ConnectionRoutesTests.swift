import Client
import ConstellationModel
import Foundation
import Graph
import TestSupport
import Testing
import Tokens

@Suite(.tier(.database)) struct ConnectionRoutesTests {
    @Test func redeemCreatesThenIsIdempotent() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let token = try await ada.client.issueToken().token
            let first = try await bob.client.send(.POST, "/v1/connections", body: RedeemRequest(token: token))
            #expect(first.status == 201)
            let again = try await bob.client.send(.POST, "/v1/connections", body: RedeemRequest(token: token))
            #expect(again.status == 200)
            let redemption = try JSONDecoder.constellation.decode(Redemption.self, from: Data(again.body))
            #expect(!redemption.created)
            #expect(redemption.connection.peer.id == ada.profile.id)
            // Ada scanning Bob's token finds the same connection.
            let reverse = try await ada.client.scan(bob.client)
            #expect(!reverse.created)
            #expect(reverse.connection.id == redemption.connection.id)
            #expect(try await server.count("connections") == 1)
        }
    }

    @Test func badTokensAreRefusedWithTheirOwnCodesAndChangeNothing() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let good = try server.token(for: ada.profile)
            let parts = good.split(separator: ".").map(String.init)
            var body = try Base64URL.decode(parts[2])
            body[5] ^= 1
            let tampered = [parts[0], parts[1], Base64URL.encode(body), parts[3]].joined(separator: ".")
            let foreign = try ConnectionTokens.issue(
                subject: ada.profile.id, lifetime: .seconds(60),
                keys: KeyRing(current: SigningKey.generate(), since: Date())
            ).token
            let expired = try server.token(for: ada.profile, issuedAt: Date().addingTimeInterval(-600), lifetime: .seconds(60))
            let future = try server.token(for: ada.profile, issuedAt: Date().addingTimeInterval(600))
            let cases: [(String, Int, String)] = [
                ("hello", 400, "malformed_token"),
                ("v4.local.AAAA", 400, "unsupported_token"),
                ("v4.public.@@@@", 400, "bad_token_encoding"),
                (tampered, 401, "invalid_signature"),
                (foreign, 401, "unknown_key"),
                (expired, 401, "token_expired"),
                (future, 401, "token_not_yet_valid"),
            ]
            for (token, status, code) in cases {
                await expectProblem(status, code) { _ = try await bob.client.redeem(RedeemRequest(token: token)) }
            }
            await expectProblem(422, "self_connection") { _ = try await ada.client.redeem(RedeemRequest(token: good)) }
            await expectProblem(400, "malformed_json") {
                _ = try await bob.client.send(.POST, "/v1/connections", rawBody: Array("{\"tok".utf8))
            }
            await expectProblem(401, "missing_credentials") { _ = try await server.client.redeem(RedeemRequest(token: good)) }
            #expect(try await server.count("connections") == 0)
            #expect(try await server.count("token_uses") == 0)
        }
    }

    @Test func aTokenServesAGroupUpToTheCap() async throws {
        try await TestServer.run(configure: { $0.maximumRedemptionsPerToken = 2 }) { server throws in
            let host = try await server.user("Host")
            let token = try await host.client.issueToken().token
            for name in ["A", "B"] { #expect(try await server.user(name).client.redeem(RedeemRequest(token: token)).created) }
            let late = try await server.user("C")
            await expectProblem(409, "token_used_up") { _ = try await late.client.redeem(RedeemRequest(token: token)) }
            #expect(try await server.count("connections") == 2)
        }
    }

    @Test func offlineScansAreAcceptedWithinTheGraceWindowOnly() async throws {
        try await TestServer.run(configure: { $0.offlineGrace = .seconds(3600) }) { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            // Scanned 20 minutes ago while valid; expired 15 minutes ago; synced now, within the hour of grace.
            let scannedAt = Date().addingTimeInterval(-1200)
            let old = try server.token(for: ada.profile, issuedAt: scannedAt.addingTimeInterval(-60))
            let accepted = try await bob.client.redeem(RedeemRequest(token: old, scannedAt: scannedAt, clientNonce: "n-1"))
            #expect(accepted.created && accepted.clientNonce == "n-1")

            let carol = try await server.user("Carol")
            // Scanned after it had expired: refused, whatever the client says.
            await expectProblem(401, "token_expired") {
                _ = try await carol.client.redeem(RedeemRequest(token: old, scannedAt: Date().addingTimeInterval(-60)))
            }
            // Scanned while valid, but synced after the grace window.
            let ancient = try server.token(for: ada.profile, issuedAt: Date().addingTimeInterval(-7200))
            await expectProblem(401, "offline_grace_expired") {
                _ = try await carol.client.redeem(RedeemRequest(token: ancient, scannedAt: Date().addingTimeInterval(-7100)))
            }
            // A scan time in the future is not believed.
            await expectProblem(422, "invalid_date") {
                _ = try await carol.client.redeem(RedeemRequest(token: old, scannedAt: Date().addingTimeInterval(3600)))
            }
            #expect(try await server.count("connections") == 1)
        }
    }

    @Test func connectionsArePaged() async throws {
        try await TestServer.run { server throws in
            let me = try await server.user("Me")
            for index in 0..<3 {
                let peer = try await server.user("Peer \(index)")
                _ = try await me.client.scan(peer.client)
            }
            let first = try await me.client.connections(limit: 2)
            #expect(first.items.map(\.peer.displayName) == ["Peer 2", "Peer 1"])
            let second = try await me.client.connections(limit: 2, cursor: first.nextCursor)
            #expect(second.items.map(\.peer.displayName) == ["Peer 0"])
            #expect(second.nextCursor == nil)
            await expectProblem(400, "invalid_limit") { _ = try await me.client.connections(limit: 0) }
            await expectProblem(400, "invalid_cursor") { _ = try await me.client.connections(cursor: "abc") }
        }
    }

    @Test func networkHoldsMeMyPeersAndTheirLinks() async throws {
        try await TestServer.run { server throws in
            let (me, a, b) = try await server.users("Me", "A", "B")
            _ = try await me.client.scan(a.client)
            _ = try await me.client.scan(b.client)
            _ = try await a.client.scan(b.client)
            let network = try await me.client.network()
            #expect(network.nodes.count == 3)
            #expect(network.edges.count == 3)
            #expect(network.nodes.filter(\.isMe).map(\.label) == ["Me"])
            #expect(network.nodes.allSatisfy { $0.degree == 2 && abs($0.x) <= 1 && abs($0.y) <= 1 })
            #expect(try await me.client.network() == network, "the same graph gives the same picture")
            #expect(!network.meta.warmStart && network.meta.depth == 1 && !network.meta.truncated)
            // A new name is not a new graph: same places, new label, no re-layout.
            _ = try await a.client.updateMe(ProfileChanges(displayName: "Ada"))
            let renamed = try await me.client.network()
            #expect(renamed.nodes.map(\.label).sorted() == ["Ada", "B", "Me"])
            #expect(renamed.nodes.map(\.x) == network.nodes.map(\.x) && !renamed.meta.warmStart)
        }
    }

    @Test func depthTwoReachesFriendsOfFriendsAndGrowthKeepsThePicture() async throws {
        try await TestServer.run { server throws in
            let (me, a, b) = try await server.users("Me", "A", "B")
            _ = try await me.client.scan(a.client)
            _ = try await a.client.scan(b.client)
            #expect(Set(try await me.client.network().nodes.map(\.label)) == ["Me", "A"])
            let wide = try await me.client.network(depth: 2)
            #expect(Set(wide.nodes.map(\.label)) == ["Me", "A", "B"])
            #expect(wide.meta.depth == 2)
            // Someone new connects: the next picture starts from the last one.
            let c = try await server.user("C")
            _ = try await c.client.scan(a.client)
            let grown = try await me.client.network(depth: 2)
            #expect(grown.meta.warmStart)
            #expect(grown.nodes.count == 4)
            let xs = grown.nodes.map(\.x)
            let ys = grown.nodes.map(\.y)
            #expect(
                grown.meta.box == Box(minX: xs.min()!, minY: ys.min()!, maxX: xs.max()!, maxY: ys.max()!),
                "meta.box bounds the nodes exactly")
            // A grown picture keeps the previous one's frame: it may outgrow [-1, 1]² as the graph grows, not by much.
            #expect(grown.meta.box.values.allSatisfy { abs($0) <= 2 }, "a grown picture keeps its frame: \(grown.meta.box)")
            // Grown from the last picture, not drawn afresh: the people already there move a little. In a
            // picture of four one may move a fair way (a third of it now hangs on A); the bar for real
            // growth, 0.05 of the side, is GrowingPictureTests'.
            let before = Dictionary(uniqueKeysWithValues: wide.nodes.map { ($0.id, Point(x: $0.x, y: $0.y)) })
            let move = PictureChange.medianMove(from: grown.nodes.map { before[$0.id] }, to: grown.nodes.map { Point(x: $0.x, y: $0.y) })
            #expect(move < 0.35, "the people already drawn moved a median \(move) of the side")
            await expectProblem(400, "invalid_depth") { _ = try await me.client.network(depth: 3) }
        }
    }

    @Test func networkAsGEXFAndGraphMLAndItsStatistics() async throws {
        try await TestServer.run { server throws in
            let (me, a, b) = try await server.users("Me", "A", "B")
            _ = try await me.client.scan(a.client)
            _ = try await me.client.scan(b.client)
            _ = try await a.client.scan(b.client)
            let gexf = try await me.client.send(.GET, "/v1/me/network?format=gexf")
            #expect(gexf.contentType == "application/gexf+xml")
            let gexfText = String(decoding: gexf.body, as: UTF8.self)
            #expect(gexfText.contains("<gexf") && gexfText.components(separatedBy: "<edge ").count - 1 == 3)
            let graphml = String(decoding: try await me.client.send(.GET, "/v1/me/network?format=graphml").body, as: UTF8.self)
            #expect(graphml.contains("<graphml") && graphml.components(separatedBy: "<node ").count - 1 == 3)
            await expectProblem(400, "unsupported_format") { _ = try await me.client.send(.GET, "/v1/me/network?format=pdf") }

            let stats = try await me.client.send(.GET, "/v1/me/network/stats")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.body)) as? [String: Any])
            #expect(object["nodes"] as? Int == 3)
            #expect(object["edges"] as? Int == 3)
            #expect(object["triangles"] as? Int == 1)
            #expect((object["components"] as? [String: Any])?["count"] as? Int == 1)
        }
    }
}
