import Client
import ConstellationModel
import Foundation
import Glibc
import Testing

/// Faults survived, nothing acknowledged lost, with the release server binary and its embedded
/// PostgreSQL: the server killed with SIGKILL in the middle of a redemption load and started again.
@Suite struct FaultTests {
    let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("faults-\(UUID().uuidString)")

    /// Eight scanners redeem codes as fast as they can; the server is killed (SIGKILL) mid-load and
    /// started again on the same data directory. Every scan it acknowledged with 2xx is a connection
    /// both people see, with its redemption; no connection lacks one (no half-written state).
    @Test func aServerKilledUnderLoadLosesNothingItAcknowledged() async throws {
        let first = try ServerProcess(databaseURL: nil, dataDirectory: workspace, environment: ["CONSTELLATION_RATE_LIMITS": "off"])
        let anonymous = ConstellationClient(baseURL: first.url)
        var owners: [(profile: Profile, key: String)] = []
        for index in 0..<100 {
            let registered = try await anonymous.register(NewProfile(displayName: "Owner \(index)"))
            owners.append((registered.profile, registered.apiKey))
        }
        var scanners: [(profile: Profile, key: String)] = []
        for index in 0..<8 {
            let registered = try await anonymous.register(NewProfile(displayName: "Scanner \(index)"))
            scanners.append((registered.profile, registered.apiKey))
        }
        // Tokens made before the load, so that the load is all redemptions.
        var tokens: [(owner: Int, token: String)] = []
        for (index, owner) in owners.enumerated() {
            tokens.append((index, try await anonymous.authenticated(owner.key).issueToken().token))
        }

        let postmasterFile = workspace.appendingPathComponent("postgres/postmaster.pid")
        let postmaster = try #require(pid_t(String(contentsOf: postmasterFile, encoding: .utf8).split(separator: "\n")[0]))
        let killer = Task {
            try await Task.sleep(for: .milliseconds(300))
            first.kill()
        }
        let load = tokens
        let outcomes = await withTaskGroup(of: (acknowledged: [(scanner: Int, owner: Int)], failed: Int).self) { group in
            for (index, scanner) in scanners.enumerated() {
                let client = anonymous.authenticated(scanner.key)
                group.addTask {
                    var acknowledged: [(scanner: Int, owner: Int)] = [], failed = 0
                    for (owner, token) in load {
                        do {
                            _ = try await client.redeem(RedeemRequest(token: token))
                            acknowledged.append((index, owner))
                        } catch {
                            // The server died: this scan is unacknowledged (it may or may not be in), and so
                            // is the rest (each would wait for its connection to time out).
                            failed = load.count - acknowledged.count
                            break
                        }
                    }
                    return (acknowledged, failed)
                }
            }
            return await group.reduce(into: (acknowledged: [(scanner: Int, owner: Int)](), failed: 0)) {
                $0.acknowledged += $1.acknowledged
                $0.failed += $1.failed
            }
        }
        try await killer.value
        let acked = outcomes.acknowledged
        #expect(!acked.isEmpty && outcomes.failed > 0, "the kill landed mid-load: \(acked.count) acknowledged, \(outcomes.failed) not")

        // PostgreSQL follows its parent (it was killed too, mid-write); the next server starts it
        // again on the same data, and recovery replays its log.
        let deadline = Date().addingTimeInterval(30)
        while kill(postmaster, 0) == 0 && Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        let second = try ServerProcess(databaseURL: nil, dataDirectory: workspace)
        defer { _ = second.stop() }
        let after = ConstellationClient(baseURL: second.url)
        for (index, scanner) in scanners.enumerated() {
            let seen = Set(try await after.authenticated(scanner.key).connections(limit: 200).items.map(\.peer.id))
            for (_, owner) in acked.filter({ $0.scanner == index }) {
                #expect(seen.contains(owners[owner].profile.id), "scanner \(index)'s acknowledged scan of owner \(owner) was lost")
            }
        }
        for (scanner, owner) in acked.prefix(20) {
            let seen = try await after.authenticated(owners[owner].key).connections(limit: 200).items.map(\.peer.id)
            #expect(seen.contains(scanners[scanner].profile.id), "the owner does not see an acknowledged connection")
        }
        // Every connection a scanner has came from one of its redemptions (each scanner only scanned).
        for scanner in scanners {
            let export = try JSONDecoder.constellation.decode(
                PersonalData.self, from: Data(try await after.authenticated(scanner.key).exportPersonalData()))
            let redeemed = Set(export.redemptions.map(\.connectionId))
            #expect(export.connections.allSatisfy { redeemed.contains($0.id) }, "a connection without its redemption")
        }
    }
}
