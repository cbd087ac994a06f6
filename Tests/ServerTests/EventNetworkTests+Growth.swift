import Client
import ConstellationModel
import Foundation
import Graph
import Testing

/// The server keeps each event's last graph and reads only what was added since: whatever happens
/// (additions with new people, a removal, nothing), the answer is the event as the database holds it.
extension EventNetworkTests {
    @Test func anEventReadAgainAsItChangesIsTheEventAsItNowIs() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("busy-event"))
            var people = [ada]
            for index in 0..<15 {
                let person = try await server.user("Person \(index)")
                _ = try await person.client.joinEvent("busy-event", code: created.joinCode)
                people.append(person)
            }
            // Every scan at the same second: the order of the edges is then decided by their ids.
            let moment = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 30)
            func meet(_ owner: Int, _ scanner: Int) async throws {
                let token = try server.token(for: people[owner].profile, event: created.event.id, issuedAt: moment.addingTimeInterval(-30))
                _ = try await people[scanner].client.redeem(RedeemRequest(token: token, scannedAt: moment))
            }
            /// The network against the database: the same pairs, times and degrees, nodes by id,
            /// edges by time then ids. Everyone is named, so labels say who is who.
            func check(_ network: EventNetwork, sourceLocation: SourceLocation = #_sourceLocation) async throws {
                let stored = try await server.services.database.withConnection { connection in
                    try connection.query(
                        """
                        SELECT p.display_name AS a, q.display_name AS b, ec.first_at FROM event_connections ec
                        JOIN profiles p ON p.id = ec.profile_a JOIN profiles q ON q.id = ec.profile_b
                        WHERE ec.event_id = \(created.event.id)
                        """
                    ).map { row in
                        "\(Set([try row.string("a"), try row.string("b")]).sorted()) \(try row.date("first_at").timeIntervalSince1970.rounded(.down))"
                    }
                }
                let label = Dictionary(uniqueKeysWithValues: network.nodes.map { ($0.id, $0.label) })
                let shown = network.edges.map {
                    "\(Set([label[$0.source] ?? "?", label[$0.target] ?? "?"]).sorted()) \($0.firstAt.timeIntervalSince1970)"
                }
                #expect(shown.sorted() == stored.sorted(), sourceLocation: sourceLocation)
                #expect(network.nodes.map(\.id) == network.nodes.map(\.id).sorted(), sourceLocation: sourceLocation)
                #expect(
                    network.edges.map { ($0.firstAt, $0.source, $0.target) }.elementsEqual(
                        network.edges.map { ($0.firstAt, $0.source, $0.target) }.sorted(by: <)
                    ) { $0 == $1 }, sourceLocation: sourceLocation)
                var degree: [String: Int] = [:]
                for edge in network.edges {
                    degree[edge.source, default: 0] += 1
                    degree[edge.target, default: 0] += 1
                }
                #expect(network.nodes.allSatisfy { $0.degree == degree[$0.id] && $0.community != nil }, sourceLocation: sourceLocation)
            }

            for (owner, scanner) in [
                (0, 1), (0, 2), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8), (8, 9), (9, 10), (0, 10), (3, 9),
            ] {
                try await meet(owner, scanner)
            }
            _ = try await Self.names(Array(people.dropFirst()) + [ada], event: "busy-event", organizer: ada)
            let first = try await ada.client.eventNetwork("busy-event")
            try await check(first)
            #expect(first.nodes.count == 11 && !first.meta.warmStart)

            // Additions, two of them bringing new people: read as additions, warm-started.
            for (owner, scanner) in [(10, 11), (11, 12), (1, 5), (12, 0)] { try await meet(owner, scanner) }
            let grown = try await ada.client.eventNetwork("busy-event")
            try await check(grown)
            #expect(grown.nodes.count == 13 && grown.meta.warmStart)
            let before = Dictionary(uniqueKeysWithValues: first.nodes.map { ($0.id, Point(x: $0.x, y: $0.y)) })
            let move = PictureChange.medianMove(
                from: grown.nodes.map { before[$0.id] }, to: grown.nodes.map { Point(x: $0.x, y: $0.y) })
            // Eleven people and a new pair between two of them: a few may move far in a picture this
            // small; the bar for real growth (0.05) is GrowingPictureTests'.
            #expect(move > 0 && move <= 0.15, "placed people move a little, not at all or far: \(move) of the side")

            // A removal (and an addition, which keeps the count): the event is read whole again.
            try await people[3].client.disconnect(from: people[9].profile.id)
            try await meet(13, 14)
            let changed = try await ada.client.eventNetwork("busy-event")
            try await check(changed)
            #expect(changed.nodes.count == 15 && changed.edges.count == grown.edges.count)

            // Nothing changed: the same answer.
            #expect(try await ada.client.eventNetwork("busy-event") == changed)
        }
    }
}
