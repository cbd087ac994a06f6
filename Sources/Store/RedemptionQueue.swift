import ConstellationModel
import NIOConcurrencyHelpers

/// Redemptions committed together (group commit): while one batch is at the database, the
/// redemptions that arrive wait, and go together as the next batch, in one statement and one
/// commit. A redemption arriving at an idle queue is sent at once, alone: batches form only
/// when the database is the bottleneck, and then cost it a third of what their redemptions
/// would alone (`docs/benchmarks.md`).
///
/// One batch at a time: two batches of one queue never wait on each other's locks, so they
/// cannot deadlock. Each redemption is answered only once its batch has committed. The one
/// that leads a batch (sends it and answers the others) is a waiting redemption's own task:
/// no task is started for the queue.
final class RedemptionQueue: Sendable {
    /// Redeems a batch: one answer per request, in their order.
    typealias Send = @Sendable ([RedemptionRequest]) async -> [Result<Redemption, any Error>]

    /// The most redemptions in one batch.
    static let maximumBatch = 32

    private let send: Send
    private let state = NIOLockedValueBox(State())

    private struct State {
        var busy = false
        var waiting: [Waiting] = []
        var batches = 0
        var batched = 0
    }

    private struct Waiting: Sendable {
        let request: RedemptionRequest
        let continuation: CheckedContinuation<Turn, Never>
    }

    /// What a waiting redemption is woken with: its answer, or its turn to lead the next batch.
    private enum Turn: Sendable {
        case answered(Result<Redemption, any Error>)
        case lead(others: [Waiting])
    }

    init(send: @escaping Send) {
        self.send = send
    }

    /// What the queue holds now and has sent so far.
    func statistics() -> RedemptionStatistics {
        state.withLockedValue { RedemptionStatistics(waiting: $0.waiting.count, batches: $0.batches, redemptionsInBatches: $0.batched) }
    }

    func redeem(_ request: RedemptionRequest) async throws -> Redemption {
        let turn = await withCheckedContinuation { continuation in
            let idle = state.withLockedValue { state in
                if state.busy {
                    state.waiting.append(Waiting(request: request, continuation: continuation))
                    return false
                }
                state.busy = true
                return true
            }
            if idle { continuation.resume(returning: Turn.lead(others: [])) }
        }
        switch turn {
        case .answered(let result): return try result.get()
        case .lead(let others): return try await lead(request, with: others).get()
        }
    }

    /// Sends `request` with `others`, hands the queue to the next batch's leader, then answers.
    private func lead(_ request: RedemptionRequest, with others: [Waiting]) async -> Result<Redemption, any Error> {
        let results = await send([request] + others.map(\.request))
        let next = state.withLockedValue { state -> [Waiting] in
            let next = Array(state.waiting.prefix(Self.maximumBatch))
            state.waiting.removeFirst(next.count)
            state.busy = !next.isEmpty
            if !others.isEmpty {
                state.batches += 1
                state.batched += 1 + others.count
            }
            return next
        }
        if let leader = next.first { leader.continuation.resume(returning: .lead(others: Array(next.dropFirst()))) }
        for (waiting, result) in zip(others, results.dropFirst()) { waiting.continuation.resume(returning: .answered(result)) }
        return results[0]
    }
}

/// A redemption queue's figures: how many wait for the batch at the database to commit, and how
/// many batches of two or more it has sent, with how many redemptions in all.
public struct RedemptionStatistics: Sendable, Equatable {
    public let waiting: Int
    public let batches: Int
    public let redemptionsInBatches: Int
}
