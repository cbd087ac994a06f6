import Client
import ConstellationModel
import Foundation
import Glibc
import Store
import TestSupport
import Testing

/// A primary that may die, as `Tools/ha-demo` builds it: etcd, three PostgreSQL nodes under
/// Patroni with synchronous replication, two release servers on a multi-host connection string
/// (`target_session_attrs=read-write`), nginx in front.
@Suite(.tier(.cluster)) struct HATests {
    /// Eight scanners redeem through nginx while the primary's PostgreSQL is killed (SIGKILL):
    /// Patroni promotes the synchronous standby, the servers find it by themselves, and every
    /// redemption acknowledged before and after is on the new primary. Then a planned switchover
    /// under the same load loses nothing either. Networks read from a standby work throughout.
    /// Stopped, the demo leaves nothing of itself running.
    @Test func aKilledPrimaryAndASwitchoverLoseNothingAcknowledged() async throws {
        // Every scanner and owner comes from one address: the limits per address are not the point here.
        let cluster = try DemoScript<HAState>("Tools/ha-demo", environment: FaultTests.loadSettings)
        defer { cluster.stop() }
        let balancer = ConstellationClient(baseURL: cluster.state.url, timeout: .seconds(15))

        // 1. The primary's PostgreSQL killed once 40 scans are in.
        let killed = try await cluster.state.primaryNode()
        let failover = try await Self.load(on: balancer, owners: 50, faultAfter: 40) {
            let postmaster = try Self.postmaster(of: killed)
            #expect(kill(postmaster, SIGKILL) == 0)
        }
        let promoted = try await cluster.state.primaryNode()
        #expect(promoted.name != killed.name, "Patroni promoted another node")
        let firstAccepted = try #require(failover.recovery, "no scan begun after the kill was accepted")
        #expect(
            firstAccepted < .seconds(15),
            "scans accepted again \(firstAccepted) after the kill (the bar: 15 s; Patroni's loop is 1 s, its TTL 10 s)")
        try await Self.expectEverythingAcknowledgedIsOn(cluster.state.primary, failover.acknowledged)
        try await Self.expectNetworksFromAStandby(balancer, failover.crowd)

        // 2. A planned switchover to the synchronous standby, under the same load.
        let leader = try await cluster.state.primaryNode()
        let candidate = try await cluster.state.synchronousStandby()
        let switchover = try await Self.load(on: balancer, owners: 80, faultAfter: 40) {
            try Self.patronictl(leader.config, ["switchover", "--leader", leader.name, "--candidate", candidate.name, "--force"])
        }
        #expect(try await cluster.state.primaryNode().name == candidate.name, "the switchover made \(candidate.name) the primary")
        try await Self.expectEverythingAcknowledgedIsOn(cluster.state.primary, failover.acknowledged + switchover.acknowledged)
        try await Self.expectNetworksFromAStandby(balancer, switchover.crowd)
        print(
            """
            ha: primary \(killed.name) killed after \(failover.beforeFault) scans; \(promoted.name) promoted; \
            first scan accepted \(firstAccepted) after the kill; \(failover.acknowledged) acknowledged, all on the new primary \
            (\(failover.failed) attempts failed and were retried: \(failover.failedStatuses)); switchover \(leader.name) → \
            \(candidate.name): \(switchover.failed) requests failed (\(switchover.failedStatuses)), \(switchover.acknowledged) \
            acknowledged, 0 lost
            """)

        // 3. Stopped, the demo leaves no Patroni running (each stops its PostgreSQL). They once
        // outlived it, SIGTERM blocked by the mask they inherited from the test process.
        cluster.stop()
        for node in cluster.state.nodes {
            #expect(kill(node.patroni, 0) != 0, "Patroni of \(node.name) (pid \(node.patroni)) still runs after the demo stopped")
        }
    }

    /// What one load around a fault showed.
    struct LoadOutcome {
        let crowd: Crowd
        let acknowledged, failed, beforeFault: Int
        /// How many failed attempts had each status, e.g. `503×12`.
        let failedStatuses: String
        /// From the fault to the end of the first acknowledged scan begun after it.
        let recovery: Duration?
    }

    /// Eight scanners redeem `owners` codes each through `server`, retrying what failed for lack of
    /// a database (503), a proxy (502, 504) or an answer (0); `fault` runs once `faultAfter` scans
    /// are acknowledged. Every scan must be acknowledged in the end, and none refused otherwise.
    private static func load(
        on server: ConstellationClient, owners: Int, faultAfter: Int, fault: @escaping @Sendable () async throws -> Void
    ) async throws -> LoadOutcome {
        let crowd = try await Crowd.register(on: server, owners: owners, scanners: 8)
        let progress = LoadProgress()
        let faulted = Task {
            try await progress.wait(forAcknowledged: faultAfter)
            let (at, count) = (ContinuousClock.now, progress.count)
            try await fault()
            return (at, count, ContinuousClock.now)
        }
        let deadline = ContinuousClock.now + .seconds(180)
        // Each scanner scans about ten codes a second: the load outlasts a switchover's few seconds.
        let attempts = await FaultTests.load(crowd, on: server, progress: progress) { attempt in
            guard [0, 502, 503, 504].contains(attempt.status), ContinuousClock.now < deadline else { return .pause(.milliseconds(80)) }
            return .retry(after: .milliseconds(100))
        }
        let (faultAt, beforeFault, faultEnded) = try await faulted.value
        let acknowledged = attempts.filter(\.acknowledged)
        let failed = attempts.filter { !$0.acknowledged }
        #expect(beforeFault < acknowledged.count, "the fault landed mid-load, after \(beforeFault) scans")
        #expect(
            attempts.contains { $0.began > faultEnded },
            "the load went on after the fault was over (the fault took \(faultEnded - faultAt); the load ended \(attempts.map { $0.began + $0.took }.max()! - faultAt) after it began)"
        )
        #expect(acknowledged.count == owners * 8, "\(acknowledged.count) acknowledged; refused: \(failed.map(\.status))")
        #expect(Set(attempts.map(\.status)).isSubset(of: [0, 200, 201, 502, 503, 504]), "statuses: \(Set(attempts.map(\.status)))")
        let recovery = acknowledged.filter { $0.began > faultAt }.map { $0.began + $0.took - faultAt }.min()
        return LoadOutcome(
            crowd: crowd, acknowledged: acknowledged.count, failed: failed.count, beforeFault: beforeFault,
            failedStatuses: Dictionary(grouping: failed, by: \.status).sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value.count)" }
                .joined(separator: ", "), recovery: recovery)
    }

    /// Every acknowledged redemption is on the primary `conninfo` reaches now, each with its connection.
    private static func expectEverythingAcknowledgedIsOn(_ conninfo: String, _ acknowledged: Int) async throws {
        let counts = try await ClusterTests.counts(conninfo)
        #expect(counts.redemptions == acknowledged && counts.orphans == 0, "acknowledged \(acknowledged), present \(counts)")
    }

    /// A scanner's network, read where `DATABASE_READ_URL` leads (a standby, or the new primary
    /// the connection found itself on after a promotion), is answered, and soon holds them and every
    /// owner they scanned (30 s: a standby following a new timeline catches up first).
    private static func expectNetworksFromAStandby(_ server: ConstellationClient, _ crowd: Crowd) async throws {
        let scanner = server.authenticated(crowd.scanners[0].key)
        let began = ContinuousClock.now
        var people = 0
        while people < crowd.owners.count + 1 && ContinuousClock.now - began < .seconds(30) {
            try await Task.sleep(for: .milliseconds(100))
            let response = try await scanner.send(.GET, "/v1/me/network")
            people = try JSONDecoder.constellation.decode(Network.self, from: Data(response.body)).nodes.count
        }
        #expect(people == crowd.owners.count + 1, "\(people) people in the network \(ContinuousClock.now - began) after the load")
    }

    /// The process id of the PostgreSQL server (postmaster) of `node`.
    private static func postmaster(of node: HAState.Node) throws -> pid_t {
        let text = try String(contentsOfFile: node.data + "/postmaster.pid", encoding: .utf8)
        return try #require(text.split(separator: "\n").first.flatMap { pid_t($0) })
    }

    /// Runs `patronictl -c config arguments…`, which must succeed.
    private static func patronictl(_ config: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/patronictl")
        process.arguments = ["-c", config] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let said = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "patronictl \(arguments): \(String(decoding: said, as: UTF8.self))")
    }
}

/// What `Tools/ha-demo` says it started.
struct HAState: Decodable {
    struct Node: Decodable {
        let name, api, config, data: String
        let port: Int
        let patroni: Int32
    }
    let url, primary, standby: String
    let nodes: [Node]

    /// The node Patroni's REST API calls the primary, asked until one answers (30 s at most).
    func primaryNode() async throws -> Node { try await node(answering: "/primary") }

    /// The node Patroni's REST API calls a synchronous standby.
    func synchronousStandby() async throws -> Node { try await node(answering: "/sync") }

    private func node(answering path: String) async throws -> Node {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            for node in nodes where (try? await ConstellationClient(baseURL: node.api, timeout: .seconds(2)).send(.GET, path)) != nil {
                return node
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw NoNode(path: path)
    }

    struct NoNode: Error, CustomStringConvertible {
        let path: String
        var description: String { "no Patroni node answered 200 to \(path) within 30 s" }
    }
}
