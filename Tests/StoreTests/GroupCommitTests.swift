import ConstellationModel
import Foundation
import Store
import Synchronization
import TestSupport
import Testing

/// Redemptions that arrive while a batch is at the database go together, in one transaction
/// (`RedemptionQueue`), on a real PostgreSQL. To make a batch for certain, the owner's profile is
/// locked `FOR UPDATE` by another transaction: the first redemption waits on that lock at the
/// database, the others queue behind it, and the lock is released once all of them are queued.
/// (`RedemptionQueueTests` tests the queue's batching alone, without a database.)
@Suite(.tier(.database)) struct GroupCommitTests {
    @Test func redemptionsQueuedBehindOneCommitTogetherEachWithItsOwnAnswer() async throws {
        let store = try await StoreFixture.make()
        let owner = try await store.profile("Owner")
        var requests = try await scans(of: owner, by: 21, in: store) { "t\($0 % 3)" }
        // The same scan twice in one batch: the second is answered as a re-scan.
        requests.append(requests[5])
        // A nonce made of what an array literal quotes arrives whole; so does the word NULL.
        let nonce = #"a "quoted", {braced} \ NULL"#
        requests[3] = store.request(token: "t0", owner: owner, scanner: try await store.profile("Nonce"), nonce: nonce)
        requests[4] = store.request(token: "t1", owner: owner, scanner: try await store.profile("Null"), nonce: "NULL")

        let results = try await queuedBehindLockedOwner(store, owner: owner, requests)

        let answers = try results.map { try $0.get() }
        #expect(answers.filter(\.created).count == 21)
        #expect(Set(answers.map(\.connection.id)).count == 21)
        #expect(answers[21].connection.id == answers[5].connection.id && !answers[21].created)
        #expect(answers.allSatisfy { $0.connection.peer == owner })
        #expect(try await store.count("redemptions") == 21)
        // The first alone, then the 21 queued behind it in one batch.
        #expect(try await transactions(store) == 2)
        #expect(try await transactionsByToken(store) == ["t0": 2, "t1": 1, "t2": 1])
        let statistics = store.connections.redemptionStatistics()
        #expect(statistics.waiting == 0 && statistics.batches == 2 && statistics.redemptions == 22)
        let uses = try await store.database.withConnection { connection in
            try connection.query("SELECT token_id, uses FROM token_uses ORDER BY token_id").map { try $0.int("uses") }
        }
        #expect(uses == [7, 7, 7])
        let nonces = try await store.database.withConnection { connection in
            try connection.query("SELECT client_nonce FROM redemptions WHERE client_nonce IS NOT NULL ORDER BY client_nonce").map {
                try $0.string("client_nonce")
            }
        }
        #expect(nonces == ["NULL", nonce])
    }

    /// One of a batch fails in the database (a token id too long for its index); another is
    /// refused (a block): the others connect, each once, and the two get their own answers.
    @Test func oneRedemptionFailingInABatchFailsAlone() async throws {
        let store = try await StoreFixture.make()
        let owner = try await store.profile("Owner")
        var requests = try await scans(of: owner, by: 10, in: store) { "t\($0)" }
        let tooLong = (0..<6_000).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! }
        requests[4] = store.request(token: String(tooLong), owner: owner, scanner: try await store.profile("Long"))
        let blocker = try await store.profile("Blocker")
        _ = try await BlockRepository(database: store.database).block(owner.id, by: blocker.id)
        requests[7] = store.request(token: "t7", owner: owner, scanner: blocker)

        let results = try await queuedBehindLockedOwner(store, owner: owner, requests)

        for (index, result) in results.enumerated() {
            switch index {
            case 4:
                let error = #expect(throws: PostgresError.self) { try result.get() }
                #expect(error?.sqlState == "54000", "the index row too large: program_limit_exceeded")
            case 7: #expect(throws: StoreError.blocked) { try result.get() }
            default: #expect(try result.get().created)
            }
        }
        #expect(try await store.count("redemptions") == 8)
        #expect(try await store.count("connections") == 8)
        #expect(try await store.count("token_uses") == 8)
    }

    /// 256 wait behind a batch: one more is told at once that the database is busy, and changes
    /// nothing; the 257 connect once the batch ahead commits.
    @Test func aFullQueueRefusesOneMoreAtOnce() async throws {
        let store = try await StoreFixture.make()
        let owner = try await store.profile("Owner")
        let requests = try await scans(of: owner, by: 257, in: store) { "t\($0)" }
        let extra = store.request(token: "extra", owner: owner, scanner: try await store.profile("Extra"))

        let results = try await queuedBehindLockedOwner(
            store, owner: owner, requests,
            whileQueued: {
                let refused = await #expect(throws: PostgresError.self) { try await store.connections.redeem(extra) }
                #expect(refused?.kind == .poolExhausted)
            })

        #expect(try results.allSatisfy { try $0.get().created })
        #expect(try await store.count("redemptions") == 257)
        #expect(try await store.count("token_uses") == 257)
    }

    /// `count` new people each scanning one of `owner`'s codes, the one `token` names for their number.
    private func scans(
        of owner: Profile, by count: Int, in store: StoreFixture, token: (Int) -> String
    ) async throws -> [RedemptionRequest] {
        var requests: [RedemptionRequest] = []
        for index in 0..<count {
            requests.append(store.request(token: token(index), owner: owner, scanner: try await store.profile("S\(index)")))
        }
        return requests
    }

    /// `requests` redeemed with the first waiting at the database (its owner's profile locked)
    /// until all the others are queued (then `whileQueued` runs).
    private func queuedBehindLockedOwner(
        _ store: StoreFixture, owner: Profile, _ requests: [RedemptionRequest], whileQueued: () async throws -> Void = {}
    ) async throws -> [Result<Redemption, any Error>] {
        let gate = Gate()
        let lock = Task {
            try await store.database.withConnection { connection in
                try connection.transaction { connection in
                    _ = try connection.query("SELECT 1 FROM profiles WHERE id = \(owner.id) FOR UPDATE")
                    gate.lock()
                    while !gate.released { usleep(1_000) }
                }
            }
        }
        try await waitUntil("the owner's profile locked") { gate.locked }
        return try await withThrowingTaskGroup(of: Answer.self) { group in
            // Whatever happens, the lock goes: the group ends only when the redemptions waiting on it do.
            defer { gate.release() }
            for (index, request) in requests.enumerated() {
                group.addTask {
                    do { return Answer(index: index, result: .success(try await store.connections.redeem(request))) } catch {
                        return Answer(index: index, result: .failure(error))
                    }
                }
                if index == 0 { try await waitUntil("the first redemption waiting on the lock") { try await lockWaits(store) == 1 } }
            }
            try await waitUntil("the others queued") { store.connections.redemptionStatistics().waiting == requests.count - 1 }
            try await whileQueued()
            gate.release()
            try await lock.value
            var results = [Result<Redemption, any Error>?](repeating: nil, count: requests.count)
            for try await answer in group { results[answer.index] = answer.result }
            return try results.map { result in try #require(result) }
        }
    }

    /// The answer to the request at `index`. (A tuple `(Int, Result<Redemption, any Error>)` as
    /// the group's child result arrived with a garbage index in release builds of Swift 6.3.1.)
    private struct Answer: Sendable {
        let index: Int
        let result: Result<Redemption, any Error>
    }

    /// Backends waiting for a lock.
    private func lockWaits(_ store: StoreFixture) async throws -> Int64 {
        try await store.database.withConnection { connection in
            try connection.query(
                "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )[0].int("n")
        }
    }

    /// How many transactions wrote each token's redemptions.
    private func transactionsByToken(_ store: StoreFixture) async throws -> [String: Int64] {
        try await store.database.withConnection { connection in
            let rows = try connection.query("SELECT token_id, count(DISTINCT xmin::text) AS n FROM redemptions GROUP BY token_id")
            return try Dictionary(uniqueKeysWithValues: rows.map { (try $0.string("token_id"), try $0.int("n")) })
        }
    }

    /// How many transactions wrote the redemptions.
    private func transactions(_ store: StoreFixture) async throws -> Int64 {
        try await store.database.withConnection { connection in
            try connection.query("SELECT count(DISTINCT xmin::text) AS n FROM redemptions")[0].int("n")
        }
    }

    /// Polls `condition` every 10 ms; a minute without it fails the test, saying it waited for
    /// `what` (generous: CI runs the whole suite on two loaded cores, and nothing here should take
    /// more than a second).
    private func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw WaitedInVain(what: what) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    private struct WaitedInVain: Error, CustomStringConvertible {
        let what: String
        var description: String { "waited a minute in vain for \(what)" }
    }
}

/// Two flags set across threads: the lock is held; it may be released.
private final class Gate: Sendable {
    private let flags = Mutex((locked: false, released: false))

    var locked: Bool { flags.withLock { $0.locked } }
    var released: Bool { flags.withLock { $0.released } }
    func lock() { flags.withLock { $0.locked = true } }
    func release() { flags.withLock { $0.released = true } }
}
