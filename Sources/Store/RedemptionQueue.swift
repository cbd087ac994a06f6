import ConstellationModel
import NIOConcurrencyHelpers

/// Redemptions committed together (group commit): while one batch is at the database, the
/// redemptions that arrive wait, and go together as the next batch, in one statement and one
/// commit. A redemption arriving at an idle queue is sent at once, alone; batches form whenever
/// redemptions overlap, and there each costs PostgreSQL about a third of the CPU it would alone
/// (`docs/benchmarks.md`).
///
/// One batch at a time: two batches of one queue never wait on each other's locks. Each
/// redemption is answered only once its batch has committed. The one that leads a batch (sends
/// it and answers the others) is a waiting redemption's own task: no task is started for the
/// queue. A redemption waits for the batches ahead of it, each bounded by the statement timeout;
/// past `maximumWaiting` waiting, one more is refused at once (`poolExhausted`: busy, try again).
final class RedemptionQueue: Sendable {
    /// Redeems a batch: one answer per request, in their order.
    typealias Send = @Sendable ([RedemptionRequest]) async -> [Result<Redemption, any Error>]

    /// The most redemptions in one batch.
    static let maximumBatch = 32
    /// The most redemptions waiting at once: eight batches.
    static let maximumWaiting = 8 * maximumBatch

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
            let turn = state.withLockedValue { state -> Turn? in
                guard state.busy else {
                    state.busy = true
                    return .lead(others: [])
                }
                guard state.waiting.count < Self.maximumWaiting else {
                    return .answered(.failure(PostgresError(.poolExhausted, message: "too many redemptions wait for the database")))
                }
                state.waiting.append(Waiting(request: request, continuation: continuation))
                return nil
            }
            if let turn { continuation.resume(returning: turn) }
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
