import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing

@Suite(.tier(.database)) struct NeighbourhoodTests {
    /// Me, two rings around me and a pair of strangers; connections made in the order listed.
    struct Town {
        let store: StoreFixture
        let me: Profile, a: Profile, b: Profile, c: Profile, d: Profile, stranger: Profile, other: Profile
        /// Every connection, in the order made (their ids ascend in this order).
        let pairs: [(Profile, Profile)]

        static func make() async throws -> Town {
            let store = try await StoreFixture.make()
            var people: [Profile] = []
            for name in ["Me", "A", "B", "C", "D", "Stranger", "Other"] { people.append(try await store.profile(name)) }
            let (me, a, b, c, d, stranger, other) = (people[0], people[1], people[2], people[3], people[4], people[5], people[6])
            let pairs = [(a, me), (b, me), (a, b), (c, a), (d, c), (other, stranger)]
            for (index, pair) in pairs.enumerated() {
                _ = try await store.connections.redeem(store.request(token: "t\(index)", owner: pair.0, scanner: pair.1))
            }
            return Town(store: store, me: me, a: a, b: b, c: c, d: d, stranger: stranger, other: other, pairs: pairs)
        }

        /// The pairs among `people` as stored (smaller id first), in the order they were made.
        func edges(among people: [Profile]) -> [[UUID]] {
            let ids = Set(people.map(\.id))
            return pairs.filter { ids.contains($0.0.id) && ids.contains($0.1.id) }.map { pair in
                [pair.0.id, pair.1.id].sorted { $0.uuidString < $1.uuidString }
            }
        }
    }

    /// PostgreSQL's uuid order (bytewise) is the order of the hex text.
    static func byId(_ people: [Profile]) -> [Profile] {
        people.sorted { $0.id.uuidString < $1.id.uuidString }
    }

    @Test func depthOneAndTwoHoldTheRingsAndTheEdgesAmongThem() async throws {
        let town = try await Town.make()
        let one = try await town.store.connections.neighbourhood(of: town.me.id, depth: 1)
        #expect(one.profiles == Self.byId([town.me, town.a, town.b]))
        #expect(one.edges.map { [$0.0, $0.1] } == town.edges(among: [town.me, town.a, town.b]))
        #expect(!one.truncated)
        let two = try await town.store.connections.neighbourhood(of: town.me.id, depth: 2)
        #expect(two.profiles == Self.byId([town.me, town.a, town.b, town.c]))
        #expect(two.edges.map { [$0.0, $0.1] } == town.edges(among: [town.me, town.a, town.b, town.c]))
        #expect(!two.truncated)
    }

    /// Me and four peers: a limit below five keeps me and the nearest by id and says it cut.
    @Test func truncatedOnlyWhenTheLimitCutsSomeoneOff() async throws {
        let store = try await StoreFixture.make()
        let me = try await store.profile("Me")
        var peers: [Profile] = []
        for index in 0..<4 {
            let peer = try await store.profile("Peer \(index)")
            peers.append(peer)
            _ = try await store.connections.redeem(store.request(token: "t\(index)", owner: peer, scanner: me))
        }
        let cut = try await store.connections.neighbourhood(of: me.id, limit: 3)
        #expect(cut.truncated)
        #expect(cut.profiles == Self.byId([me] + Self.byId(peers).prefix(2)))
        #expect(cut.edges.count == 2)
        let exact = try await store.connections.neighbourhood(of: me.id, limit: 5)
        #expect(!exact.truncated)
        #expect(exact.profiles == Self.byId([me] + peers))
        #expect(exact.edges.count == 4)
    }

    /// The query writes nothing, not even a temporary table: it runs where every transaction is read-only.
    @Test func runsInAReadOnlySession() async throws {
        let town = try await Town.make()
        let replica = Database(
            conninfo: town.store.conninfo + " options='-c default_transaction_read_only=on'", maximumConnections: 1,
            logger: TestDatabase.logger)
        do {
            _ = try await replica.withConnection { try $0.query("INSERT INTO profiles (display_name) VALUES ('x')") }
            Issue.record("expected the session to be read-only")
        } catch let error as PostgresError {
            #expect(error.sqlState == "25006")
        }
        for depth in [1, 2] {
            let writable = try await town.store.connections.neighbourhood(of: town.me.id, depth: depth)
            let readOnly = try await ConnectionRepository(database: replica).neighbourhood(of: town.me.id, depth: depth)
            #expect(readOnly.profiles == writable.profiles)
            #expect(readOnly.edges.map { [$0.0, $0.1] } == writable.edges.map { [$0.0, $0.1] })
            #expect(readOnly.truncated == writable.truncated)
        }
        let cut = try await ConnectionRepository(database: replica).neighbourhood(of: town.me.id, depth: 2, limit: 2)
        #expect(cut.truncated && cut.profiles.count == 2)
        await replica.shutdown()
    }
}
