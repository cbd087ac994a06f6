import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing

/// Values at the edges of what the schema lets a row hold (a restore or a hand-made row may put
/// them there), asked of every read route an organizer, an attendee and a wall have: each answers
/// with its body or a problem, never a trap, never a 5xx without a problem body; the server is
/// still there after each.
@Suite(.tier(.database)) struct StoredBoundaryValuesTests {
    /// Each an edit of Ada's event `edge` (Bob and Cleo met there; Bob keeps a note on Cleo).
    static let edits: [(name: String, sql: String)] = [
        (
            "the year 1",
            """
            UPDATE events SET created_at = '0001-01-01 00:00:00+00', starts_at = '0001-01-01 00:00:00+00',
                ends_at = '0001-01-31 23:59:59+00', purge_on = '0001-02-01 00:00:00+00' WHERE slug = 'edge';
            UPDATE event_members SET joined_at = '0001-01-01 00:00:00+00' WHERE event_id = (SELECT id FROM events WHERE slug = 'edge');
            UPDATE profiles SET created_at = '0001-01-01 00:00:00+00';
            """
        ),
        (
            "the year 9999",
            """
            UPDATE events SET created_at = '9999-11-01 00:00:00+00', starts_at = '9999-12-01 00:00:00+00',
                ends_at = '9999-12-31 23:59:59+00', purge_on = '9999-12-31 23:59:59+00' WHERE slug = 'edge';
            UPDATE event_connections SET first_at = '9999-12-31 23:59:59+00';
            UPDATE connections SET created_at = '9999-12-31 23:59:59+00';
            UPDATE profiles SET updated_at = '9999-12-31 23:59:59+00';
            """
        ),
        (
            "pairs 8,000 years apart",
            """
            UPDATE event_connections SET first_at = '1970-01-01 00:00:00+00'
            WHERE ctid = (SELECT min(ctid) FROM event_connections);
            UPDATE event_connections SET first_at = '9999-12-31 23:59:59+00'
            WHERE ctid = (SELECT max(ctid) FROM event_connections);
            """
        ),
        (
            "the largest numbers",
            """
            UPDATE events SET join_code_rotation = 2147483647, pairs_revision = 4611686018427387904 WHERE slug = 'edge';
            UPDATE token_uses SET uses = 2147483647;
            UPDATE profiles SET display_name = repeat('𒐫', 80), headline = repeat('ﷺ', 160), tokens_valid_from = '0001-01-01 00:00:00+00';
            UPDATE connection_notes SET note = repeat('‮', 2000), tags = ARRAY(SELECT repeat('x', 40) FROM generate_series(1, 20));
            """
        ),
    ]

    /// The read routes of the event, of an attendee, and of a wall.
    static let organizerRoutes = [
        "/v1/events/edge", "/v1/events/edge/network", "/v1/events/edge/network?format=gexf", "/v1/events/edge/network?format=graphml",
        "/v1/events/edge/network?format=csv", "/v1/events/edge/network?format=graphology", "/v1/events/edge/network?format=cytoscape",
        "/v1/events/edge/network/stats", "/v1/events/edge/growth?bucket=5m", "/v1/events/edge/growth?bucket=1d",
        "/v1/events/edge/summary", "/v1/events/edge/record", "/v1/events/edge/report", "/v1/events/edge/purge-date",
        "/v1/events/edge/join-code", "/v1/events/edge/join-qr", "/v1/events/edge/view-tokens", "/v1/events/edge/invitation-links",
        "/v1/events/edge/organizers", "/v1/events/edge/badges?paper=a4", "/v1/me/events", "/v1/me",
    ]
    static let attendeeRoutes = [
        "/v1/me", "/v1/me/events", "/v1/me/connections", "/v1/me/connections?format=csv", "/v1/me/connections?format=vcard",
        "/v1/me/network", "/v1/me/network/stats", "/v1/me/qr?event=edge", "/v1/me/badge?event=edge", "/v1/me/export",
    ]
    static let wallRoutes = [
        "/v1/events/edge/network?view=wall", "/v1/events/edge/summary", "/v1/events/edge/growth", "/v1/events/edge/join-code",
    ]

    @Test(arguments: edits.indices) func everyReadRouteAnswersWhateverTheRowsHold(_ edit: Int) async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Bob", "Cleo")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("edge"))
            for person in [bob, cleo] { _ = try await person.client.joinEvent("edge", code: created.joinCode) }
            try await bob.client.scan(cleo.client, at: "edge")
            try await cleo.client.scan(ada.client, at: "edge")
            _ = try await bob.client.annotate(cleo.profile.id, ConnectionNoteChanges(note: "kites", tags: ["rust"]))
            let wall = server.client.authenticated(try await ada.client.issueViewToken(for: "edge", wall: true).token)
            _ = try await server.services.database.withConnection { try $0.execute(unsafeSQL: Self.edits[edit].sql) }

            let name = Self.edits[edit].name
            for (who, client, routes) in [
                ("organizer", ada.client, Self.organizerRoutes), ("attendee", bob.client, Self.attendeeRoutes),
                ("wall", wall, Self.wallRoutes),
            ] {
                for route in routes {
                    do {
                        _ = try await client.send(.GET, route)
                    } catch {
                        // A refusal or a failure said as a problem (its body decoded) is an answer; anything else is not.
                        guard case .problem(let problem)? = error as? ClientError else {
                            Issue.record("\(name): \(who) \(route): \(error)")
                            continue
                        }
                        if problem.status >= 500 { print("boundary values: \(name): \(who) \(route): \(problem.status) \(problem.code)") }
                    }
                }
            }
            #expect(try await server.client.send(.GET, "/health").status == 200, "\(name): the server is still there")
        }
    }

    /// The counters at the schema's bound (2^62, which a restore may bring): the next change wraps
    /// them rather than fail the row's check. Before, nobody at the event could leave or be
    /// erased, nor its pictures be made, nor the event be purged.
    @Test func countersAtTheirBoundMoveOn() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo, dan) = try await server.users("Ada", "Bob", "Cleo", "Dan")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("edge"))
            for person in [bob, cleo, dan] { _ = try await person.client.joinEvent("edge", code: created.joinCode) }
            try await bob.client.scan(cleo.client, at: "edge")
            try await cleo.client.scan(dan.client, at: "edge")
            try await dan.client.scan(ada.client, at: "edge")
            _ = try await ada.client.eventNetwork("edge")
            func counters() async throws -> (pairs: Int64, lease: Int64) {
                try await server.services.database.withConnection { connection in
                    let row = try connection.query(
                        """
                        SELECT e.pairs_revision, p.lease_generation FROM events e JOIN event_pictures p ON p.event_id = e.id
                        WHERE e.slug = 'edge'
                        """)[0]
                    return (try row.int("pairs_revision"), try row.int("lease_generation"))
                }
            }
            let bound: Int64 = 1 << 62
            _ = try await server.services.database.withConnection {
                try $0.execute(
                    unsafeSQL: """
                        UPDATE events SET pairs_revision = \(bound) WHERE slug = 'edge';
                        UPDATE event_pictures SET lease_generation = \(bound);
                        """)
            }
            try await bob.client.leave("edge")  // his pair goes: the pairs' revision moves, the picture is cleared
            #expect(try await counters() == (0, 1))
            _ = try await server.services.database.withConnection {
                try $0.execute(unsafeSQL: "UPDATE event_pictures SET lease_generation = \(bound), lease_until = NULL")
            }
            #expect(try await ada.client.eventNetwork("edge").nodes.count == 3, "a lease taken, a picture made")
            #expect(try await counters().lease == 1)
            try await cleo.client.deleteMe()
            #expect(try await ada.client.eventNetwork("edge").nodes.count == 2)
        }
    }
}
