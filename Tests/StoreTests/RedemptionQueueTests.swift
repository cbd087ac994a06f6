import ConstellationModel
import Foundation
import Store
import Synchronization
import Testing

/// The redemption queue alone, without a database: its `send` is a closure that records each
/// batch and holds the first until the test lets it go, as postgres-nio tests its pool with mock
/// connections. What the database does with a batch is `GroupCommitTests`'.
@Suite struct RedemptionQueueTests {
    /// Records the batches sent and answers each request with a connection numbered after its
    /// token; the first batch waits until `release()`.
    private final class Recorder: Sendable {
        private let state = Mutex((batches: [[String]](), released: false))
        /// Answers this many fewer than asked (a batch answered short).
        let shortBy: Int

        init(shortBy: Int = 0) { self.shortBy = shortBy }

        var batches: [[String]] { state.withLock { $0.batches } }
        func release() { state.withLock { $0.released = true } }

        func send(_ requests: [RedemptionRequest]) async -> [Result<Redemption, any Error>] {
            let first = state.withLock { state in
                state.batches.append(requests.map(\.tokenId))
                return state.batches.count == 1
            }
            while first, !state.withLock({ $0.released }) { try? await Task.sleep(for: .milliseconds(5)) }
            return requests.dropLast(shortBy).map { request in
                let peer = Profile(id: request.ownerId, displayName: "Owner", headline: nil, createdAt: Date())
                let connection = Connection(id: Int64(request.tokenId.dropFirst())!, peer: peer, connectedAt: Date(), eventId: nil)
                return .success(Redemption(connection: connection, created: true, clientNonce: nil))
            }
        }
    }

    /// A request's answer and its place (a struct: see `GroupCommitTests.Answer`).
    private struct Answer: Sendable {
        let index: Int
        let result: Result<Redemption, any Error>
    }

    private static func request(_ index: Int) -> RedemptionRequest {
        RedemptionRequest(
            tokenId: "t\(index)", ownerId: UUID(), scannerId: UUID(), eventId: nil, issuedAt: Date(), expiresAt: Date(), scannedAt: Date(),
            clientNonce: nil, maximumUses: 50)
    }

    /// Redeems requests `0..<count`, arriving in their order: the first alone, held at the
    /// "database" until all the others wait, then let go. Returns each one's answer, in order.
    private static func redeemBehindTheFirst(
        _ count: Int, _ queue: RedemptionQueue, _ recorder: Recorder, whileWaiting: () async -> Void = {}
    ) async throws -> [Result<Redemption, any Error>] {
        try await withThrowingTaskGroup(of: Answer.self) { group in
            for index in 0..<count {
                group.addTask {
                    do { return Answer(index: index, result: .success(try await queue.redeem(request(index)))) } catch {
                        return Answer(index: index, result: .failure(error))
                    }
                }
                // One at a time, so that they arrive in their order.
                if index == 0 {
                    try await waitUntil("the first batch sent") { !recorder.batches.isEmpty }
                } else {
                    try await waitUntil("\(index) waiting") { queue.statistics().waiting == index }
                }
            }
            await whileWaiting()
            recorder.release()
            var answers = [Result<Redemption, any Error>?](repeating: nil, count: count)
            for try await answer in group { answers[answer.index] = answer.result }
            return answers.map { $0! }
        }
    }

    @Test func redemptionsWaitingBehindABatchGoInBatchesOfThirtyTwoInTheirOrder() async throws {
        let recorder = Recorder()
        let queue = RedemptionQueue { await recorder.send($0) }
        let answers = try await Self.redeemBehindTheFirst(41, queue, recorder)
        #expect(recorder.batches.map(\.count) == [1, 32, 8])
        #expect(recorder.batches.flatMap { $0 } == (0..<41).map { "t\($0)" }, "first come, first sent")
        #expect(
            try answers.enumerated().allSatisfy { index, answer in try answer.get().connection.id == Int64(index) }, "each its own answer")
        let statistics = queue.statistics()
        #expect(statistics.waiting == 0 && statistics.batches == 3 && statistics.redemptions == 41)
        // An idle queue sends at once, alone.
        _ = try await queue.redeem(Self.request(99))
        #expect(recorder.batches.last == ["t99"])
    }

    @Test func pastTwoHundredFiftySixWaitingOneMoreIsRefusedAtOnce() async throws {
        let recorder = Recorder()
        let queue = RedemptionQueue { await recorder.send($0) }
        #expect(RedemptionQueue.maximumWaiting == 256)
        let answers = try await Self.redeemBehindTheFirst(257, queue, recorder) {
            let refused = await #expect(throws: PostgresError.self) { try await queue.redeem(Self.request(1_000)) }
            #expect(refused?.kind == .poolExhausted)
        }
        #expect(answers.allSatisfy { (try? $0.get()) != nil })
        #expect(!recorder.batches.joined().contains("t1000"), "the refused one was never sent")
    }

    @Test func aBatchAnsweredShortFailsTheRestAndTheQueueGoesOn() async throws {
        let recorder = Recorder(shortBy: 2)
        let queue = RedemptionQueue { await recorder.send($0) }
        let answers = try await Self.redeemBehindTheFirst(6, queue, recorder)
        // The first batch (t0) was answered with nothing; of the second (t1…t5), the last two.
        let failed = answers.enumerated().filter { (try? $0.element.get()) == nil }.map(\.offset)
        #expect(failed == [0, 4, 5])
        for index in failed {
            let error = #expect(throws: PostgresError.self) { try answers[index].get() }
            #expect(error?.kind == .decoding)
        }
    }

    /// Polls `condition` every 5 ms; a minute without it fails, saying what it waited for
    /// (generous: CI runs the whole suite on two loaded cores; here it takes milliseconds).
    private static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw WaitedInVain(what: what) }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private struct WaitedInVain: Error, CustomStringConvertible {
        let what: String
        var description: String { "waited a minute in vain for \(what)" }
    }
}
