import Client
import ConstellationModel
import Foundation
import Glibc
import Store
import TestSupport
import Testing

/// More than one machine, on loopback, as `Tools/cluster-demo` builds it: a PostgreSQL primary and
/// its streaming replica, two release servers (reads from the replica), nginx in front.
@Suite(.tier(.cluster)) struct ClusterTests {
    /// With both instances up, the rate limits hold for the deployment (each instance enforces its
    /// half) and a revoked key stops working on the other instance within the auth cache's
    /// lifetime (2 s here). Then sixteen scanners redeem through nginx while one instance is killed (SIGKILL)
    /// halfway; retrying what failed, every scan is acknowledged, every acknowledged scan is on the
    /// primary and soon on the replica, and networks read from the replica say how far behind it is.
    @Test func aLoadThroughNginxSurvivesAnInstanceKilledAndReachesTheReplica() async throws {
        // Purges looked for every second, and none waits for an offline grace (the event's end is the test's to move).
        let cluster = try DemoScript<ClusterState>(
            "Tools/cluster-demo",
            environment: [
                "CONSTELLATION_AUTH_CACHE_SECONDS": "2", "CONSTELLATION_PURGE_INTERVAL_SECONDS": "1",
                "CONSTELLATION_OFFLINE_GRACE_SECONDS": "0",
            ])
        defer { cluster.stop() }
        let first = ConstellationClient(baseURL: cluster.state.instances[0].url)
        let second = ConstellationClient(baseURL: cluster.state.instances[1].url)

        // Limits: 60 new codes a minute per credential, 30 on each of the two instances.
        let minter = first.authenticated(try await first.register(NewProfile(displayName: "Minter")).apiKey)
        var minted = 0
        let minting = ContinuousClock.now
        for instance in [minter, second.authenticated(minter.apiKey!)] {
            for _ in 0..<40 { if (try? await instance.issueToken()) != nil { minted += 1 } }
        }
        // Each bucket starts full (30) and refills at 30 a minute: together, one more code a second.
        let refilled = Int((ContinuousClock.now - minting) / .seconds(1)) + 1
        #expect(
            minted >= 60 && minted <= 60 + refilled,
            "\(minted) codes minted of 80 asked; the deployment's limit is 60 a minute (+\(refilled) refilled)")

        // Caches: a key revoked through one instance works on the other at most the cache's 2 s.
        let leaver = try await first.register(NewProfile(displayName: "Leaver"))
        _ = try await second.authenticated(leaver.apiKey).me()
        let device = try #require(try await first.authenticated(leaver.apiKey).devices().first)
        try await first.authenticated(leaver.apiKey).revokeDevice(device.id, evenTheLast: true)
        let revoked = ContinuousClock.now
        // Cached before the revocation, the key lives on there at most 2 s: a request sent after that is refused.
        try await Task.sleep(until: revoked + .milliseconds(2_500))
        let late = await Result.of { () async throws(ClientError) in try await second.authenticated(leaver.apiKey).me() }
        guard case .failure(.problem(let refusal)) = late else {
            Issue.record("the revoked key still worked: \(late)")
            return
        }
        #expect(refusal.status == 401, "\(refusal)")

        // The load through nginx, one instance killed once 100 scans are in.
        let balancer = ConstellationClient(baseURL: cluster.state.url, timeout: .seconds(15))
        let crowd = try await Crowd.register(on: balancer, owners: 20, scanners: 16)
        let progress = LoadProgress()
        let victim = cluster.state.instances[0].pid
        let killer = Task {
            try await progress.wait(forAcknowledged: 100)
            kill(victim, SIGKILL)
            return progress.count
        }
        let deadline = ContinuousClock.now + .seconds(120)
        let attempts = await FaultTests.load(crowd, on: balancer, progress: progress) { attempt in
            // A scan that reached the dying instance: nginx answers 502, or the connection drops.
            guard [0, 502, 503, 504].contains(attempt.status), ContinuousClock.now < deadline else { return .next }
            return .retry(after: .milliseconds(100))
        }
        let ackedBeforeKill = try await killer.value
        let acked = attempts.filter(\.acknowledged)
        #expect(ackedBeforeKill < acked.count, "the kill landed mid-load, after \(ackedBeforeKill) scans")
        #expect(acked.count == 20 * 16, "\(acked.count) acknowledged; refused: \(attempts.filter { !$0.acknowledged }.map(\.status))")
        #expect(Set(attempts.map(\.status)).isSubset(of: [0, 200, 201, 502, 503, 504]), "statuses: \(Set(attempts.map(\.status)))")

        let primary = try await Self.counts(cluster.state.primary)
        #expect(primary.redemptions == acked.count && primary.orphans == 0, "primary: \(primary)")
        let copied = ContinuousClock.now
        var replica = try await Self.counts(cluster.state.replica)
        while replica.redemptions < primary.redemptions && ContinuousClock.now - copied < .seconds(30) {
            try await Task.sleep(for: .milliseconds(50))
            replica = try await Self.counts(cluster.state.replica)
        }
        #expect(replica.redemptions == primary.redemptions, "the replica has \(replica.redemptions) of \(primary.redemptions)")

        // A network comes from the replica, with its lag in `Replica-Lag`: me and the 20 I scanned.
        let scanner = balancer.authenticated(crowd.scanners[0].key)
        let response = try await scanner.send(.GET, "/v1/me/network")
        let lag = try #require(response.header("Replica-Lag").flatMap(Double.init), "Replica-Lag on a network read from the replica")
        let network = try JSONDecoder.constellation.decode(Network.self, from: Data(response.body))
        #expect(network.nodes.count == 21)
        // The replica has just replayed the scans above: its last replayed write is seconds old, not
        // an hour (a lag in the wrong unit) nor negative.
        #expect(lag >= 0 && lag < 300, "Replica-Lag \(lag)")

        // An event's read-heavy views come from the replica too, and work there: nothing on their path writes.
        let organizer = balancer.authenticated(crowd.owners[0].key)
        let event = try await organizer.createEvent(
            NewEvent(
                name: "Cluster", slug: "cluster", startsAt: Date(), endsAt: Date().addingTimeInterval(3_600), timeZone: "UTC"))
        _ = try await scanner.redeem(RedeemRequest(token: try await organizer.issueToken(event: "cluster").token))
        for path in ["growth?bucket=5m", "summary", "network", "network/stats"] {
            let answer = try await organizer.send(.GET, "/v1/events/\(event.event.id)/\(path)")
            #expect(answer.status == 200 && answer.header("Replica-Lag") != nil, "\(path): \(answer.status)")
        }

        // A pair whose transaction is still open on the primary while the replica answers a growth
        // request, and commits after one begun later: the next answer counts it. (A standby's
        // `pg_current_snapshot()` lists no running transaction: growth must not rely on that list.)
        let reader = ConstellationClient(baseURL: cluster.state.instances[1].url).authenticated(crowd.owners[0].key)
        let primaryDatabase = Database(conninfo: cluster.state.primary, maximumConnections: 1, logger: TestDatabase.logger)
        let (held, signal) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let (owner, latecomer) = (crowd.owners[0].profile.id, crowd.scanners[1].profile.id)
        let holder = Task {
            try await primaryDatabase.withConnection { connection in
                try connection.transaction { connection in
                    _ = try connection.query(
                        """
                        INSERT INTO event_connections (event_id, profile_a, profile_b, connection_id, first_at)
                        SELECT \(event.event.id), profile_a, profile_b, id, now() FROM connections
                        WHERE profile_a = least(\(owner), \(latecomer)) AND profile_b = greatest(\(owner), \(latecomer))
                        """)
                    signal.yield()
                    release.wait()
                }
            }
        }
        for await _ in held { break }
        _ = try await balancer.authenticated(crowd.scanners[2].key).redeem(
            RedeemRequest(token: try await organizer.issueToken(event: "cluster").token))
        func connections() async throws -> Int {
            try await reader.eventGrowth(event.event.id.uuidString).buckets.last?.cumulativeConnections ?? 0
        }
        let waiting = ContinuousClock.now
        var counted = try await connections()
        while counted < 2 && ContinuousClock.now - waiting < .seconds(30) {
            try await Task.sleep(for: .milliseconds(50))
            counted = try await connections()
        }
        #expect(counted == 2, "the replica answers with the committed pairs, not the open one")
        release.signal()
        try await holder.value
        await primaryDatabase.shutdown()
        while counted < 3 && ContinuousClock.now - waiting < .seconds(30) {
            try await Task.sleep(for: .milliseconds(50))
            counted = try await connections()
        }
        #expect(counted == 3, "the pair that committed late is counted on the replica too")

        // The event's purge date comes: the instance's background work purges it, and from the mark on
        // it is refused everywhere, its reads from the replica too (the flag is read from the primary).
        let purger = Database(conninfo: cluster.state.primary, maximumConnections: 1, logger: TestDatabase.logger)
        _ = try await purger.withConnection {
            try $0.query("UPDATE events SET ends_at = now(), purge_on = now() WHERE id = \(event.event.id)")
        }
        await purger.shutdown()
        let purging = ContinuousClock.now
        while try await balancer.event("cluster").purgedAt == nil, ContinuousClock.now - purging < .seconds(60) {
            try await Task.sleep(for: .milliseconds(200))
        }
        for client in [reader, organizer] {
            for path in ["growth?bucket=5m", "summary", "network", "network/stats"] {
                let answer = await Result.of { () async throws(ClientError) in
                    try await client.send(.GET, "/v1/events/\(event.event.id)/\(path)")
                }
                guard case .failure(.problem(let refusal)) = answer else {
                    Issue.record("\(path) of a purged event answered \(answer)")
                    continue
                }
                #expect(refusal.status == 410 && refusal.code == "event_purged", "\(path): \(refusal)")
            }
        }
        let record = try await organizer.record(of: "cluster")
        #expect(record.purged && record.figures.connections == 3, "the record kept the event's three pairs: \(record.figures)")
        print(
            """
            cluster: \(minted) of 80 codes minted across 2 instances (limit 60); revoked key refused by the other instance \
            2.5 s later (cache 2 s); \(acked.count) scans acknowledged through nginx with instance 1 killed after \(ackedBeforeKill) \
            (\(attempts.count - acked.count) retried: \(attempts.filter { !$0.acknowledged }.map(\.status).sorted())); \
            all on the primary; on the replica \(ContinuousClock.now - copied) later; Replica-Lag \(lag) s
            """)
    }

    /// Redemptions, and connections without one, in the database at `conninfo`.
    static func counts(_ conninfo: String) async throws -> (redemptions: Int64, orphans: Int64) {
        let database = Database(conninfo: conninfo, maximumConnections: 1, logger: TestDatabase.logger)
        let counts = try await database.withConnection { connection in
            (
                try connection.query("SELECT count(*) AS n FROM redemptions")[0].int("n"),
                try connection.query(
                    "SELECT count(*) AS n FROM connections c WHERE NOT EXISTS (SELECT 1 FROM redemptions r WHERE r.connection_id = c.id)")[
                        0
                    ].int("n")
            )
        }
        await database.shutdown()
        return counts
    }
}

/// What `Tools/cluster-demo` says it started.
struct ClusterState: Decodable {
    struct Instance: Decodable {
        let pid: pid_t
        let url: String
    }
    let url, primary, replica: String
    let instances: [Instance]
}
