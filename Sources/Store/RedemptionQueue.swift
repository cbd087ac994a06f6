import ConstellationModel
import Foundation
import NIOConcurrencyHelpers

/// Redemptions committed together (group commit): while batches are at the database, the
/// redemptions that arrive wait, and go together in the next batch, in one statement and one
/// commit. A redemption arriving at an idle queue is sent at once, alone; batches form whenever
/// redemptions overlap, and there each costs PostgreSQL about a third of the CPU it would alone
/// (`docs/benchmarks.md`).
///
/// Up to `maximumInFlight` batches are at the database at once, each on its own connection and
/// so on its own PostgreSQL process. A redemption that would write what a batch in flight writes
/// (the same token, the same pair, the same attendee of an event: the rows `redeem_token`
/// inserts or updates) waits until that batch has committed, and the ones that arrived after it
/// and would write the same wait behind it: first come, first served. So two batches of one
/// queue wait on each other only for an event's row, which a late scan moving a pair's first
/// meeting earlier updates, and batches take events in one order, so never in a cycle.
/// Each redemption is answered only once its batch has committed. The one that leads a batch
/// (sends it and answers the others) is a waiting redemption's own task: no task is started for
/// the queue. A redemption waits for the batches ahead of it, each bounded by the statement
/// timeout; past `maximumWaiting` waiting, one more is refused at once (`poolExhausted`: busy,
/// try again).
final class RedemptionQueue: Sendable {
    /// Redeems a batch: one answer per request, in their order.
    typealias Send = @Sendable ([RedemptionRequest]) async -> [Result<Redemption, any Error>]

    /// The most redemptions in one batch.
    static let maximumBatch = 32
    /// The most redemptions waiting at once: eight batches.
    static let maximumWaiting = 8 * maximumBatch

    private let send: Send
    private let maximumInFlight: Int
    private let state = NIOLockedValueBox(State())

    private struct State {
        /// The claims of each batch at the database, by the batch's number.
        var inFlight: [Int: Set<Claim>] = [:]
        var waiting: [Waiting] = []
        var batches = 0
        var sent = 0
    }

    private struct Waiting: Sendable {
        let request: RedemptionRequest
        let claims: [Claim]
        let continuation: CheckedContinuation<Turn, Never>
    }

    /// What a waiting redemption is woken with: its answer, or its turn to lead a batch.
    private enum Turn: Sendable {
        case answered(Result<Redemption, any Error>)
        case lead(batch: Int, others: [Waiting])
    }

    /// A row a redemption may insert or update, which a concurrent transaction writing the same
    /// would wait for: the token's count of uses and its redemptions, the pair's connection and
    /// its record at the event, the scanner's membership of the event.
    private enum Claim: Hashable {
        case token(String)
        case pair(UUID, UUID)
        case attendee(event: UUID, profile: UUID)

        static func of(_ request: RedemptionRequest) -> [Claim] {
            let pair = Claim.pair(min(request.ownerId, request.scannerId), max(request.ownerId, request.scannerId))
            guard let event = request.eventId else { return [.token(request.tokenId), pair] }
            return [.token(request.tokenId), pair, .attendee(event: event, profile: request.scannerId)]
        }
    }

    /// A queue sending batches with `send`, up to `maximumInFlight` at once (at least one).
    init(maximumInFlight: Int = 1, send: @escaping Send) {
        self.maximumInFlight = max(1, maximumInFlight)
        self.send = send
    }

    /// What the queue holds now and has sent so far.
    func statistics() -> RedemptionStatistics {
        state.withLockedValue { RedemptionStatistics(waiting: $0.waiting.count, batches: $0.batches, redemptions: $0.sent) }
    }

    func redeem(_ request: RedemptionRequest) async throws -> Redemption {
        // One batch at a time (the default), nothing is in flight when a batch forms: no claims to weigh.
        let claims = maximumInFlight > 1 ? Claim.of(request) : []
        let turn = await withCheckedContinuation { continuation in
            let turns = state.withLockedValue { state -> [(Waiting, Turn)] in
                let waiting = Waiting(request: request, claims: claims, continuation: continuation)
                guard state.waiting.count < Self.maximumWaiting else {
                    let busy = PostgresError(.poolExhausted, message: "too many redemptions wait for the database")
                    return [(waiting, .answered(.failure(busy)))]
                }
                state.waiting.append(waiting)
                return formBatches(&state)
            }
            for (waiting, turn) in turns { waiting.continuation.resume(returning: turn) }
        }
        switch turn {
        case .answered(let result): return try result.get()
        case .lead(let batch, let others): return try await lead(batch, request, with: others).get()
        }
    }

    /// Sends batch `batch`, `request` with `others`; once it has committed, lets the next
    /// batches go and answers the others.
    private func lead(_ batch: Int, _ request: RedemptionRequest, with others: [Waiting]) async -> Result<Redemption, any Error> {
        let results = await send([request] + others.map(\.request))
        let turns = state.withLockedValue { state -> [(Waiting, Turn)] in
            state.inFlight[batch] = nil
            return formBatches(&state)
        }
        for (waiting, turn) in turns { waiting.continuation.resume(returning: turn) }
        func result(_ index: Int) -> Result<Redemption, any Error> {
            index < results.count ? results[index] : .failure(PostgresError(.decoding, message: "a redemption went unanswered"))
        }
        for (index, waiting) in others.enumerated() { waiting.continuation.resume(returning: .answered(result(index + 1))) }
        return result(0)
    }

    /// Forms batches of waiting redemptions while fewer than `maximumInFlight` are in flight:
    /// each takes, in their order, up to `maximumBatch` that claim nothing a batch in flight
    /// claims, nor anything one left waiting before them claims. Returns the leaders to wake.
    private func formBatches(_ state: inout State) -> [(Waiting, Turn)] {
        var leaders: [(Waiting, Turn)] = []
        while state.inFlight.count < maximumInFlight, !state.waiting.isEmpty {
            var batch: [Waiting] = []
            var claims = Set<Claim>()
            var left: [Waiting] = []
            var claimedByLeft = Set<Claim>()
            for waiting in state.waiting {
                let free =
                    batch.count < Self.maximumBatch && !waiting.claims.contains(where: claimedByLeft.contains)
                    && !state.inFlight.values.contains { held in waiting.claims.contains(where: held.contains) }
                if free {
                    batch.append(waiting)
                    claims.formUnion(waiting.claims)
                } else {
                    left.append(waiting)
                    claimedByLeft.formUnion(waiting.claims)
                }
            }
            guard let leader = batch.first else { break }
            state.waiting = left
            state.batches += 1
            state.sent += batch.count
            state.inFlight[state.batches] = claims
            leaders.append((leader, .lead(batch: state.batches, others: Array(batch.dropFirst()))))
        }
        return leaders
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
