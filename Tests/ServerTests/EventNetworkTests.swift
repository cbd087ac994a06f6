import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing

/// An event's constellation for its organizers: what it holds, that it names no one who did not
/// choose to be named, that it is cached, warm-started and exported, and who may read it.
@Suite(.tier(.database)) struct EventNetworkTests {
    typealias User = (profile: Profile, client: ConstellationClient)

    /// `scanner` scans `owner`'s code: for `event` (a slug), or a personal one.
    static func connect(_ owner: User, _ scanner: User, at event: String? = nil) async throws {
        _ = try await scanner.client.scan(owner.client, at: event)
    }

    /// Ada organizes `net-event`; at it Bob scanned Ada, Cleo scanned Bob and Ada, Dan scanned Cleo:
    /// a triangle and a pendant. Eve joined with the code and met no one. Bob and Dan are connected
    /// too, but not at the event.
    static func smallEvent(_ server: TestServer) async throws -> (
        ada: User, bob: User, cleo: User, dan: User, eve: User, event: CreatedEvent
    ) {
        let (ada, bob, cleo, dan, eve) = try await server.users("Ada Hidden", "Bob Hidden", "Cleo Hidden", "Dan Hidden", "Eve Hidden")
        let event = try await ada.client.createEvent(EventRoutesTests.newEvent("net-event"))
        _ = try await eve.client.joinEvent("net-event", code: event.joinCode)
        // Before either belongs to the event: never counted for it (not back-filled).
        try await connect(bob, dan)
        try await connect(ada, bob, at: "net-event")
        try await connect(bob, cleo, at: "net-event")
        try await connect(ada, cleo, at: "net-event")
        try await connect(cleo, dan, at: "net-event")
        return (ada, bob, cleo, dan, eve, event)
    }

    /// Node id → display name, learned by asking everyone to be named (ids do not change with it).
    static func names(_ users: [User], event: String, organizer: User) async throws -> [String: String] {
        for user in users { _ = try await user.client.setEventVisibility(.named, at: event) }
        let named = try await organizer.client.eventNetwork(event)
        return Dictionary(uniqueKeysWithValues: named.nodes.map { ($0.id, $0.label) })
    }

    static func pair(_ one: String, _ other: String) -> Set<String> { [one, other] }

    @Test func theLayoutHoldsThePeopleAndPairsOfTheEventAndNamesOnlyThoseWhoChose() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo, dan, eve, event) = try await Self.smallEvent(server)
            _ = try await bob.client.setEventVisibility(.named, at: "net-event")
            let network = try await ada.client.eventNetwork("net-event")
            #expect(network.nodes.count == 4, "Eve connected with no one there")
            #expect(network.edges.count == 4, "Bob and Dan connected before they were at the event")
            #expect(network.meta.eventId == event.event.id && !network.meta.warmStart)
            #expect(network.nodes.allSatisfy { $0.id.wholeMatch(of: /p[a-z2-7]{16}/) != nil }, "\(network.nodes.map(\.id))")
            #expect(network.nodes.filter(\.isMe).count == 1)
            #expect(network.nodes.allSatisfy { $0.community != nil })
            let labels = network.nodes.map(\.label).sorted()
            #expect(labels.contains("Bob Hidden"), "Bob chose to be named")
            #expect(labels.filter { $0.wholeMatch(of: /Attendee [A-Z2-7]{6}/) != nil }.count == 3, "\(labels)")

            // Who is who, asked the honest way: everyone chooses to be named, the ids stay.
            let names = try await Self.names([ada, cleo, dan, eve], event: "net-event", organizer: ada)
            #expect(Set(names.values) == ["Ada Hidden", "Bob Hidden", "Cleo Hidden", "Dan Hidden"])
            let edges = Set(network.edges.map { Self.pair(names[$0.source] ?? "?", names[$0.target] ?? "?") })
            #expect(
                edges == [
                    Self.pair("Ada Hidden", "Bob Hidden"), Self.pair("Bob Hidden", "Cleo Hidden"),
                    Self.pair("Ada Hidden", "Cleo Hidden"), Self.pair("Cleo Hidden", "Dan Hidden"),
                ])
            #expect(network.nodes.first(where: \.isMe).map { names[$0.id] } == "Ada Hidden")
            let degrees = Dictionary(uniqueKeysWithValues: network.nodes.map { (names[$0.id] ?? "?", $0.degree) })
            #expect(degrees == ["Ada Hidden": 2, "Bob Hidden": 2, "Cleo Hidden": 3, "Dan Hidden": 1])
        }
    }

    @Test func noFormatCarriesAProfileIdOrAHiddenName() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo, dan, eve, _) = try await Self.smallEvent(server)
            _ = try await bob.client.setEventVisibility(.named, at: "net-event")
            let everyone = [ada, bob, cleo, dan, eve]
            var bodies: [String: String] = [:]
            for format in ["json", "gexf", "graphml", "csv"] {
                bodies[format] = String(decoding: try await ada.client.exportEventNetwork("net-event", format: format), as: UTF8.self)
            }
            bodies["stats"] = String(decoding: try await ada.client.eventNetworkStats("net-event"), as: UTF8.self)
            for (format, body) in bodies {
                #expect(!body.isEmpty)
                for user in everyone {
                    #expect(!body.lowercased().contains(user.profile.id.uuidString.lowercased()), "\(format) holds a profile id")
                }
                for hidden in ["Ada Hidden", "Cleo Hidden", "Dan Hidden", "Eve Hidden"] {
                    #expect(!body.contains(hidden), "\(format) names \(hidden)")
                }
            }
            for format in ["json", "gexf", "graphml"] { #expect(bodies[format]?.contains("Bob Hidden") == true, "\(format) names Bob") }
        }
    }

    @Test func pseudonymsAreStableAcrossRequestsAndDifferAcrossEvents() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("first-event"))
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("second-event"))
            // The pair meets at both events: the one connection is in both graphs.
            try await Self.connect(ada, bob, at: "first-event")
            try await Self.connect(ada, bob, at: "second-event")
            let first = try await ada.client.eventNetwork("first-event")
            let again = try await ada.client.eventNetwork("first-event")
            let second = try await ada.client.eventNetwork("second-event")
            #expect(first.edges.count == 1 && second.edges.count == 1)
            #expect(first.nodes.map(\.id) == again.nodes.map(\.id) && first.nodes.map(\.label) == again.nodes.map(\.label))
            #expect(Set(first.nodes.map(\.id)).isDisjoint(with: second.nodes.map(\.id)), "two events' views cannot be joined by id")
            #expect(Set(first.nodes.map(\.label)).isDisjoint(with: second.nodes.map(\.label)), "nor by pseudonym")
        }
    }

    @Test func changingVisibilityRelabelsTheCachedPictureWithoutALayout() async throws {
        try await TestServer.run { server throws in
            let (ada, _, cleo, _, _, _) = try await Self.smallEvent(server)
            let before = try await ada.client.eventNetwork("net-event")
            let privacy = try await cleo.client.setEventVisibility(.named, at: "net-event")
            #expect(privacy.visibility == .named && privacy.role == .attendee)
            let after = try await ada.client.eventNetwork("net-event")
            #expect(after.nodes.map(\.id) == before.nodes.map(\.id))
            #expect(after.nodes.map(\.x) == before.nodes.map(\.x) && after.nodes.map(\.y) == before.nodes.map(\.y))
            // A second layout would have been warm-started from the first: this one was not laid out again.
            #expect(!after.meta.warmStart)
            let changed = zip(before.nodes, after.nodes).filter { $0.label != $1.label }
            #expect(changed.map { $0.1.label } == ["Cleo Hidden"])
            _ = try await cleo.client.setEventVisibility(.pseudonymous, at: "net-event")
            let back = try await ada.client.eventNetwork("net-event")
            #expect(back.nodes.map(\.label) == before.nodes.map(\.label), "the same pseudonym comes back")
        }
    }

    @Test func aGrowingEventIsWarmStartedAndItsPeopleMoveLittle() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("growing-event"))
            var people = [ada]
            for index in 0..<8 {
                let person = try await server.user("P\(index)")
                try await Self.connect(people[index / 2], person, at: "growing-event")
                people.append(person)
            }
            try await Self.connect(people[3], people[8], at: "growing-event")
            let before = try await ada.client.eventNetwork("growing-event")
            let newcomer = try await server.user("Newcomer")
            try await Self.connect(people[5], newcomer, at: "growing-event")
            let after = try await ada.client.eventNetwork("growing-event")
            #expect(after.meta.warmStart && after.nodes.count == before.nodes.count + 1)
            let placed = Dictionary(uniqueKeysWithValues: after.nodes.map { ($0.id, $0) })
            let moves = before.nodes.map { node in placed[node.id].map { hypot($0.x - node.x, $0.y - node.y) } ?? .infinity }
            let span = max(before.meta.box.width, before.meta.box.height)
            #expect(moves.max()! < 0.2 * span, "moves \(moves) in a box of \(span)")
        }
    }

    @Test func gexfIsADynamicGraphAndCSVHasOneTimedEdgePerLine() async throws {
        try await TestServer.run { server throws in
            let (ada, _, _, _, _, _) = try await Self.smallEvent(server)
            let network = try await ada.client.eventNetwork("net-event")
            let times = network.edges.map { $0.firstAt.formatted(Date.ISO8601FormatStyle()) }

            let gexf = String(decoding: try await ada.client.exportEventNetwork("net-event", format: "gexf"), as: UTF8.self)
            #expect(gexf.contains("<graph defaultedgetype=\"undirected\" mode=\"dynamic\" timeformat=\"dateTime\">"))
            for (edge, time) in zip(network.edges, times) {
                #expect(gexf.contains("source=\"\(edge.source)\" target=\"\(edge.target)\" start=\"\(time)\"/>"), "\(edge)")
            }
            #expect(gexf.components(separatedBy: "<node ").count - 1 == 4)

            let graphml = String(decoding: try await ada.client.exportEventNetwork("net-event", format: "graphml"), as: UTF8.self)
            #expect(graphml.components(separatedBy: "<node ").count - 1 == 4)
            #expect(graphml.components(separatedBy: "<data key=\"start\">").count - 1 == 4)

            let raw = try await ada.client.send(.GET, "/v1/events/net-event/network?format=csv")
            #expect(raw.contentType?.hasPrefix("text/csv") == true)
            let lines = String(decoding: raw.body, as: UTF8.self).components(separatedBy: "\r\n")
            #expect(lines.first == "source,target,first_at,source_label,target_label" && lines.last == "")
            let rows = lines.dropFirst().dropLast().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            #expect(rows.count == network.edges.count)
            let labels = Dictionary(uniqueKeysWithValues: network.nodes.map { ($0.id, $0.label) })
            for (row, edge) in zip(rows, network.edges) {
                #expect(row.count == 5)
                #expect(row[0] == edge.source && row[1] == edge.target)
                let parsed = try Date(row[2], strategy: Date.ISO8601FormatStyle())
                #expect(abs(parsed.timeIntervalSince(edge.firstAt)) < 1)
                #expect(row[3] == labels[edge.source] && row[4] == labels[edge.target], "each end as the organizer's picture labels it")
            }
            #expect(rows.map { $0[2] } == rows.map { $0[2] }.sorted(), "edges in the order they connected")

            // An event with no pair yet has the same columns: a spreadsheet set up on it keeps working.
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("net-empty"))
            let empty = try await ada.client.send(.GET, "/v1/events/net-empty/network?format=csv")
            #expect(String(decoding: empty.body, as: UTF8.self) == "source,target,first_at,source_label,target_label\r\n")
            let emptyGEXF = String(decoding: try await ada.client.exportEventNetwork("net-empty", format: "gexf"), as: UTF8.self)
            #expect(emptyGEXF.contains("mode=\"dynamic\" timeformat=\"dateTime\""))
        }
    }

    @Test func statisticsCountTheEventsNodesEdgesAndTriangles() async throws {
        try await TestServer.run { server throws in
            let (ada, _, _, _, _, _) = try await Self.smallEvent(server)
            let body = try await ada.client.eventNetworkStats("net-event")
            let stats = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
            #expect(stats["nodes"] as? Int == 4)
            #expect(stats["edges"] as? Int == 4)
            #expect(stats["triangles"] as? Int == 1)
            let top = try #require(stats["topDegree"] as? [[String: Any]])
            let ids = Set(try await ada.client.eventNetwork("net-event").nodes.map(\.id))
            #expect(!top.isEmpty && top.allSatisfy { ids.contains($0["id"] as? String ?? "") }, "ranked by pseudonymous ids")
        }
    }

    @Test func onlyOrganizersReadTheNetworkItsExportsAndStatistics() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, _, _, _, event) = try await Self.smallEvent(server)
            let stranger = try await server.user("Stranger")
            let paths = [
                "/v1/events/net-event/network", "/v1/events/\(event.event.id)/network?format=csv",
                "/v1/events/net-event/network?format=gexf", "/v1/events/net-event/network/stats",
            ]
            for path in paths {
                await expectProblem(401, "missing_credentials") { _ = try await server.client.send(.GET, path) }
                await expectProblem(403, "not_an_organizer") { _ = try await stranger.client.send(.GET, path) }
                await expectProblem(403, "not_an_organizer") { _ = try await bob.client.send(.GET, path) }
                #expect(try await ada.client.send(.GET, path).status == 200, "\(path)")
            }
            await expectProblem(404, "unknown_event") { _ = try await ada.client.send(.GET, "/v1/events/no-such-event/network") }
            await expectProblem(400, "unsupported_format") {
                _ = try await ada.client.send(.GET, "/v1/events/net-event/network?format=xlsx")
            }
            // A co-organizer reads it too.
            try await server.makeOrganizer(bob, of: "net-event", by: ada.client)
            #expect(try await bob.client.eventNetwork("net-event").nodes.count == 4)
        }
    }

    @Test func membersChooseTheirVisibilityAndNoOneElseDoes() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, _, _, eve, event) = try await Self.smallEvent(server)
            let stranger = try await server.user("Stranger")
            #expect(
                try await ada.client.setEventVisibility(.named, at: "net-event")
                    == EventPrivacy(eventId: event.event.id, role: .organizer, visibility: .named))
            #expect(try await eve.client.setEventVisibility(.named, at: event.event.id.uuidString).role == .attendee)
            await expectProblem(403, "not_a_member") { _ = try await stranger.client.setEventVisibility(.named, at: "net-event") }
            await expectProblem(401, "missing_credentials") {
                _ = try await server.client.send(.PATCH, "/v1/events/net-event/me", body: EventVisibilityChange(.named))
            }
            await expectProblem(404, "unknown_event") { _ = try await bob.client.setEventVisibility(.named, at: "no-such-event") }
            await expectProblem(422, "validation_failed") {
                _ = try await bob.client.send(.PATCH, "/v1/events/net-event/me", body: EventVisibilityChange(visibility: "public"))
            }
            await expectProblem(422, "validation_failed") {  // neither visibility nor printBadge
                _ = try await bob.client.send(
                    .PATCH, "/v1/events/net-event/me", rawBody: Array("{}".utf8), headers: [("Content-Type", "application/json")])
            }
            let stored = try await server.services.database.withConnection { connection in
                try connection.query("SELECT count(*) AS n FROM event_members WHERE visibility = 'named'")[0].int("n")
            }
            #expect(stored == 2, "Ada and Eve only: refused changes changed nothing")
        }
    }

    @Test func anEventTooLargeToLayOutIsRefused() async throws {
        try await TestServer.run(configure: { $0.eventNetworkLimit = 3 }) { server throws in
            let (ada, _, _, _, _, _) = try await Self.smallEvent(server)
            await expectProblem(422, "event_too_large") { _ = try await ada.client.eventNetwork("net-event") }
            await expectProblem(422, "event_too_large") { _ = try await ada.client.eventNetworkStats("net-event") }
        }
    }
}
