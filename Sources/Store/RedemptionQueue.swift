import ConstellationModel
import Foundation
import NIOConcurrencyHelpers

/// Redemptions committed together (group commit): while a batch is at the database, the
/// redemptions that arrive wait, and go together in the next batch, in one statement and one
/// commit. A redemption arriving at an idle queue is sent at once, alone; batches form whenever
/// redemptions overlap, and there each costs PostgreSQL about a third of the CPU it would alone
/// (`docs/benchmarks.md`). One batch is at the database at a time, so a server's batches never
/// wait on each other's locks.
///
/// Each redemption is answered only once its batch has committed. The one that leads a batch
/// (sends it and answers the others) is a waiting redemption's own task: no task is started for
/// the queue. A redemption waits for the batch ahead of it, bounded by the statement timeout;
/// past `maximumWaiting` waiting, one more is refused at once (`poolExhausted`: busy, try again).
package final class RedemptionQueue: Sendable {
    /// Redeems a batch: one answer per request, in their order.
    package typealias Send = @Sendable ([RedemptionRequest]) async -> [Result<Redemption, any Error>]

    /// The most redemptions in one batch.
    package static let maximumBatch = 32
    /// The most redemptions waiting at once: eight batches.
    package static let maximumWaiting = 8 * maximumBatch

    private let send: Send
    private let state = NIOLockedValueBox(State())

    private struct State {
        var sending = false
        var waiting: [Waiting] = []
        var batches = 0
        var sent = 0
    }

    private struct Waiting: Sendable {
        let request: RedemptionRequest
        let continuation: CheckedContinuation<Turn, Never>
    }

    /// What a waiting redemption is woken with: its answer, or its turn to lead a batch.
    private enum Turn: Sendable {
        case answered(Result<Redemption, any Error>)
        case lead(others: [Waiting])
    }

    /// A queue sending its batches with `send`.
    package init(send: @escaping Send) {
        self.send = send
    }

    /// What the queue holds now and has sent so far.
    package func statistics() -> RedemptionStatistics {
        state.withLockedValue { RedemptionStatistics(waiting: $0.waiting.count, batches: $0.batches, redemptions: $0.sent) }
    }

    package func redeem(_ request: RedemptionRequest) async throws -> Redemption {
        let turn = await withCheckedContinuation { continuation in
            let turn = state.withLockedValue { state -> (Waiting, Turn)? in
                let waiting = Waiting(request: request, continuation: continuation)
                guard state.waiting.count < Self.maximumWaiting else {
                    let busy = PostgresError(.poolExhausted, message: "too many redemptions wait for the database")
                    return (waiting, .answered(.failure(busy)))
                }
                state.waiting.append(waiting)
                return nextBatch(&state)
            }
            if let (waiting, turn) = turn { waiting.continuation.resume(returning: turn) }
        }
        switch turn {
        case .answered(let result): return try result.get()
        case .lead(let others): return try await lead(request, with: others).get()
        }
    }

    /// Sends `request` with `others`; once the batch has committed, lets the next one go and
    /// answers the others. A batch answered short answers the rest with an error.
    private func lead(_ request: RedemptionRequest, with others: [Waiting]) async -> Result<Redemption, any Error> {
        let results = await send([request] + others.map(\.request))
        let next = state.withLockedValue { state -> (Waiting, Turn)? in
            state.sending = false
            return nextBatch(&state)
        }
        if let (waiting, turn) = next { waiting.continuation.resume(returning: turn) }
        func result(_ index: Int) -> Result<Redemption, any Error> {
            index < results.count ? results[index] : .failure(PostgresError(.decoding, message: "a redemption went unanswered"))
        }
        for (index, waiting) in others.enumerated() { waiting.continuation.resume(returning: .answered(result(index + 1))) }
        return result(0)
    }

    /// When no batch is at the database, the next: up to `maximumBatch` waiting redemptions, in
    /// their order. Returns its leader to wake.
    private func nextBatch(_ state: inout State) -> (Waiting, Turn)? {
        guard !state.sending, let leader = state.waiting.first else { return nil }
        let batch = state.waiting.prefix(Self.maximumBatch)
        state.waiting.removeFirst(batch.count)
        state.sending = true
        state.batches += 1
        state.sent += batch.count
        return (leader, .lead(others: Array(batch.dropFirst())))
    }
}

/// A redemption queue's figures: how many wait for a batch at the database to commit, and how
/// many batches it has sent (a redemption sent alone is a batch of one), with how many
/// redemptions in all: their ratio is the mean batch size.
public struct RedemptionStatistics: Sendable {
    public let waiting: Int
    public let batches: Int
    public let redemptions: Int
}
