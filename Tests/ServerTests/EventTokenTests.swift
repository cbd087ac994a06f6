import Client
import ConstellationModel
import Foundation
import QR
import Store
import TestSupport
import Testing
import Tokens

/// Tokens for an event: who may mint one, what scanning one records, and when they stop counting.
@Suite(.tier(.database)) struct EventTokenTests {
    @Test func membersMintEventTokensByIdOrSlugAndStrangersDoNot() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, eve) = try await server.users("Ada", "Bob", "Eve")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent())
            _ = try await bob.client.joinEvent("rustconf-2026", code: created.joinCode)
            for (client, reference) in [(ada.client, "rustconf-2026"), (bob.client, created.event.id.uuidString)] {
                let raw = try await client.send(.POST, "/v1/tokens", body: TokenRequest(eventId: reference))
                #expect(raw.status == 201)
                let issued = try JSONDecoder.constellation.decode(IssuedToken.self, from: Data(raw.body))
                let claims = try ConnectionTokens.verify(issued.token, keys: server.services.keyRing.verificationKeys)
                #expect(claims.eventId == created.event.id && issued.eventId == created.event.id)
            }
            // Without a body, or with an empty one, a personal token as before.
            let personal = try await ada.client.issueToken()
            #expect(try ConnectionTokens.verify(personal.token, keys: server.services.keyRing.verificationKeys).eventId == nil)
            #expect(personal.eventId == nil)
            let empty = try await ada.client.send(
                .POST, "/v1/tokens", rawBody: Array("{}".utf8), headers: [("Content-Type", "application/json")])
            #expect(try JSONDecoder.constellation.decode(IssuedToken.self, from: Data(empty.body)).eventId == nil)

            // The QR code holds an event token too.
            let png = try await bob.client.qr(format: "png", event: "rustconf-2026")
            let token = try #require(try QRDecoder.decode(imageFile: png).first)
            #expect(try ConnectionTokens.verify(token, keys: server.services.keyRing.verificationKeys).eventId == created.event.id)

            await expectProblem(403, "not_a_member") { _ = try await eve.client.issueToken(event: "rustconf-2026") }
            await expectProblem(403, "not_a_member") { _ = try await eve.client.qr(format: "svg", event: created.event.id.uuidString) }
            await expectProblem(404, "unknown_event") { _ = try await ada.client.issueToken(event: "no-such-event") }
            await expectProblem(404, "unknown_event") { _ = try await ada.client.issueToken(event: UUID().uuidString) }
            await expectProblem(400, "malformed_json") {
                _ = try await ada.client.send(.POST, "/v1/tokens", rawBody: Array("{\"eventId\":".utf8))
            }
            await expectProblem(400, "malformed_json") {
                _ = try await ada.client.send(.POST, "/v1/tokens", rawBody: Array("{\"eventId\":7}".utf8))
            }
        }
    }

    @Test func scanningAnEventTokenMakesTheScannerAnAttendeeAndRecordsThePair() async throws {
        try await TestServer.run { server throws in
            let (ada, cleo) = try await server.users("Ada", "Cleo")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent())
            // Cleo never joined with the code: she was there, she scanned Ada's event code.
            let token = try await ada.client.issueToken(event: "rustconf-2026").token
            let redemption = try await cleo.client.redeem(RedeemRequest(token: token))
            #expect(redemption.created && redemption.connection.eventId == created.event.id)
            let mine = try await cleo.client.myEvents().items
            #expect(mine.map(\.event.id) == [created.event.id] && mine.map(\.role) == [.attendee])
            #expect(try await ada.client.myEvents().items.map(\.role) == [.organizer], "the organizer stays one")
            let rows = try await Self.eventConnections(server)
            #expect(rows.count == 1)
            #expect(rows.first?.event == created.event.id && rows.first?.connection == redemption.connection.id)
            #expect(rows.first?.pair == Self.pair(ada.profile, cleo.profile))
            // Scanning again is idempotent: no new member, no new row.
            #expect(try await cleo.client.redeem(RedeemRequest(token: token)).connection.id == redemption.connection.id)
            #expect(try await Self.eventConnections(server).count == 1)
            #expect(try await server.count("event_members") == 2)
        }
    }

    @Test func aPairThatMeetsAtTwoEventsIsInBothWithOneConnection() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Bob", "Cleo")
            let first = try await ada.client.createEvent(EventRoutesTests.newEvent("first-event"))
            let second = try await bob.client.createEvent(EventRoutesTests.newEvent("second-event"))
            _ = try await ada.client.joinEvent("second-event", code: second.joinCode)

            let atFirst = try await bob.client.scan(ada.client, at: "first-event")
            #expect(atFirst.created)
            // They meet again at the second event: the same connection, now in its graph too.
            let atSecond = try await ada.client.scan(bob.client, at: "second-event")
            #expect(!atSecond.created && atSecond.connection.id == atFirst.connection.id)
            #expect(atSecond.connection.eventId == first.event.id, "a connection remembers the event where the pair first met")
            #expect(try await server.count("connections") == 1)
            let rows = try await Self.eventConnections(server)
            #expect(Set(rows.map(\.event)) == [first.event.id, second.event.id])
            #expect(rows.allSatisfy { $0.pair == Self.pair(ada.profile, bob.profile) && $0.connection == atFirst.connection.id })

            // A personal token makes a personal connection: no event row, no membership.
            let personal = try await cleo.client.scan(ada.client)
            #expect(personal.created && personal.connection.eventId == nil)
            #expect(try await Self.eventConnections(server).count == 2)
            #expect(try await cleo.client.myEvents().items.isEmpty)
            #expect(try await ada.client.network().edges.count == 2, "Ada's own network keeps one edge per pair")
        }
    }

    @Test func tokensOfAnEndedEventAreRefusedAndChangeNothing() async throws {
        try await TestServer.run(configure: { $0.offlineGrace = .seconds(3600) }) { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            // Ended two hours ago: past its end plus the hour of grace.
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("ended-event", startsIn: -10 * 3600, hours: 8))
            await expectProblem(410, "event_ended") { _ = try await ada.client.issueToken(event: "ended-event") }
            // A token minted while it ran, scanned now.
            let late = try server.token(for: ada.profile, event: created.event.id)
            await expectProblem(410, "event_ended") { _ = try await bob.client.redeem(RedeemRequest(token: late)) }
            #expect(try await server.count("connections") == 0)
            #expect(try await server.count("token_uses") == 0)
            #expect(try await server.count("redemptions") == 0)
            #expect(try await server.count("event_connections") == 0)
            #expect(try await bob.client.myEvents().items.isEmpty, "the scanner did not become an attendee")

            // Within the grace (ended 30 minutes ago) it still counts: the after-party, an offline scan synced late.
            let recent = try await ada.client.createEvent(EventRoutesTests.newEvent("recent-event", startsIn: -8.5 * 3600, hours: 8))
            let redemption = try await bob.client.scan(ada.client, at: "recent-event")
            #expect(redemption.connection.eventId == recent.event.id)
            #expect(try await bob.client.myEvents().items.map(\.event.slug) == ["recent-event"])
        }
    }

    @Test func aTokenForAnEventThatDoesNotExistIsRefusedAndChangesNothing() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let token = try server.token(for: ada.profile, event: UUID())
            await expectProblem(404, "unknown_event") { _ = try await bob.client.redeem(RedeemRequest(token: token)) }
            #expect(try await server.count("connections") == 0)
            #expect(try await server.count("token_uses") == 0)
            #expect(try await server.count("event_members") == 0)
        }
    }

    struct EventConnectionRow: Equatable {
        let event: UUID
        let pair: [UUID]
        let connection: Int64
    }

    static func pair(_ one: Profile, _ other: Profile) -> [UUID] {
        // PostgreSQL orders uuids by their bytes, as their lowercase text sorts.
        [one.id, other.id].sorted { $0.uuidString.lowercased() < $1.uuidString.lowercased() }
    }

    static func eventConnections(_ server: TestServer) async throws -> [EventConnectionRow] {
        try await server.services.database.withConnection { connection in
            try connection.query("SELECT event_id, profile_a, profile_b, connection_id FROM event_connections ORDER BY first_at").map {
                row in
                EventConnectionRow(
                    event: try row.uuid("event_id"), pair: [try row.uuid("profile_a"), try row.uuid("profile_b")],
                    connection: try row.int("connection_id"))
            }
        }
    }
}
