import ConstellationModel
import Foundation
import Synchronization

/// Admission to the server's graph work, and fair turns on its graph thread.
///
/// - Admission: every picture, rendering, summary, record, report, growth series, badge sheet and
///   personal network is admitted here before it reads anything (`run`): at most `Limits.admitted`
///   at once, server-wide, whose inputs hold at most `Limits.memory` bytes by their estimates
///   (past either, 503 `graph_work_busy` with `Retry-After`, having read nothing; jobs that share
///   one result are charged its inputs once); and at most a
///   credential's allowance at once (429 `too_many_graph_requests`). Admitted jobs read from the
///   database at once, side by side.
/// - Turns: their computations share the one graph thread (`GraphComputation`) by turns
///   (`turn`): jobs wait in lanes (an event, or a person's own network) taken in turn, and within a
///   lane, credentials taken in turn. A flooded event or a flooding organizer waits behind its own
///   computations; anyone else's waits at most for the computation running and one of each other
///   lane with work waiting.
/// - A job whose client has gone by its turn is dropped without computing.
package final class GraphScheduler: Sendable {
    /// Whose work a job is, for fair turns.
    package enum Lane: Hashable, Sendable {
        /// An event's: its picture, renderings, summary, growth, record and report.
        case event(UUID)
        /// A person's own network and its statistics.
        case person(UUID)
    }

    /// One request's graph work, as admission sees it.
    package struct Job: Sendable {
        /// What it computes (`picture`, `summary`, `report`, …), for the metrics.
        let kind: String
        let lane: Lane
        /// Whose turn it is within its lane, and whose allowance it counts against: a profile, or a view link.
        let credential: UUID
        /// How many jobs `credential` may hold at once (a view link's screens); nil: `Limits.perCredential`.
        var allowance: Int? = nil
        /// The memory its inputs will hold, estimated before they are read.
        var bytes = 0
        /// The result it shares with the other jobs of its lane that name the same (`SharedResults`:
        /// one computation, one read, for all who ask at once): their inputs are charged once, for
        /// as long as any of them is admitted. Nil: its own inputs.
        var sharedResult: String? = nil
        /// Whether its client has gone: by its turn, it is dropped.
        var clientGone: @Sendable () -> Bool = { false }

        package init(
            kind: String, lane: Lane, credential: UUID, allowance: Int? = nil, bytes: Int = 0, sharedResult: String? = nil,
            clientGone: @escaping @Sendable () -> Bool = { false }
        ) {
            self.kind = kind
            self.lane = lane
            self.credential = credential
            self.allowance = allowance
            self.bytes = bytes
            self.sharedResult = sharedResult
            self.clientGone = clientGone
        }
    }

    /// How much graph work the server admits (`CONSTELLATION_GRAPH_*`).
    package struct Limits: Sendable, Equatable {
        /// Jobs admitted at once, server-wide: reading, waiting for their turn or computing.
        package var admitted = 64
        /// Bytes the inputs of the jobs admitted may hold, by their estimates.
        package var memory = 256 << 20
        /// Jobs one credential may hold at once.
        package var perCredential = 2
        /// Computations at once: the graph thread's one.
        package var turns = 1

        package init(admitted: Int = 64, memory: Int = 256 << 20, perCredential: Int = 2, turns: Int = 1) {
            self.admitted = admitted
            self.memory = memory
            self.perCredential = perCredential
            self.turns = turns
        }
    }

    /// What admission counts now, for `/metrics`.
    package struct Load: Sendable, Equatable {
        /// Jobs admitted, and of them, those waiting for a turn on the graph thread.
        package let admitted: Int
        package let waiting: Int
        package let bytes: Int
    }

    private struct Waiter {
        let job: Job
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// The lanes with jobs waiting, in turn order; in each, the credentials with jobs waiting, in
    /// turn order, each with its jobs in order of arrival.
    private struct Queue {
        private var lanes: [Lane] = []
        private var credentials: [Lane: [UUID]] = [:]
        private var jobs: [Lane: [UUID: [Waiter]]] = [:]
        private(set) var count = 0

        mutating func append(_ waiter: Waiter) {
            let (lane, credential) = (waiter.job.lane, waiter.job.credential)
            if jobs[lane] == nil { lanes.append(lane) }
            if jobs[lane]?[credential] == nil { credentials[lane, default: []].append(credential) }
            jobs[lane, default: [:]][credential, default: []].append(waiter)
            count += 1
        }

        /// The next job by turns: the first lane's first credential's oldest job; both go to the
        /// back of their turns if they have more waiting.
        mutating func next() -> Waiter? {
            guard !lanes.isEmpty else { return nil }
            let lane = lanes.removeFirst()
            let credential = credentials[lane]!.removeFirst()
            let waiter = jobs[lane]![credential]!.removeFirst()
            count -= 1
            if jobs[lane]![credential]!.isEmpty {
                jobs[lane]![credential] = nil
            } else {
                credentials[lane]!.append(credential)
            }
            if jobs[lane]!.isEmpty {
                jobs[lane] = nil
                credentials[lane] = nil
            } else {
                lanes.append(lane)
            }
            return waiter
        }
    }

    /// A result jobs share: its lane and its name.
    private struct SharedResult: Hashable {
        let lane: Lane
        let name: String
    }

    private struct State {
        var admitted = 0
        var bytes = 0
        var held: [UUID: Int] = [:]
        /// The shared results with jobs admitted: how many, and the bytes charged for their one read.
        var shared: [SharedResult: (jobs: Int, bytes: Int)] = [:]
        var computing = 0
        var queue = Queue()

        /// Admits `job`, charging its inputs unless a job admitted shares its result; false if its
        /// inputs would take the memory past `memory`.
        mutating func admit(_ job: Job, memory: Int) -> Bool {
            let result = job.sharedResult.map { SharedResult(lane: job.lane, name: $0) }
            if let result, shared[result] != nil {
                shared[result]!.jobs += 1
            } else {
                guard admitted == 0 || bytes + job.bytes <= memory else { return false }
                bytes += job.bytes
                if let result { shared[result] = (1, job.bytes) }
            }
            admitted += 1
            held[job.credential, default: 0] += 1
            return true
        }

        /// Lets `job` go, and the bytes charged for its inputs with the last job sharing them.
        mutating func release(_ job: Job) {
            admitted -= 1
            held[job.credential, default: 1] -= 1
            if held[job.credential] == 0 { held[job.credential] = nil }
            guard let name = job.sharedResult else {
                bytes -= job.bytes
                return
            }
            let result = SharedResult(lane: job.lane, name: name)
            shared[result]!.jobs -= 1
            if shared[result]!.jobs == 0 {
                bytes -= shared[result]!.bytes
                shared[result] = nil
            }
        }
    }

    private let state = Mutex(State())
    let limits: Limits
    private let metrics: ServerMetrics?

    /// The job the current task works for, set by `run`: its computations take its turns.
    @TaskLocal static var current: Job?

    package init(limits: Limits, metrics: ServerMetrics? = nil) {
        self.limits = limits
        self.metrics = metrics
    }

    package var load: Load {
        state.withLock { Load(admitted: $0.admitted, waiting: $0.queue.count, bytes: $0.bytes) }
    }

    /// Runs `body` (the job's reads and computations) as `job`, or refuses it at once, having run
    /// nothing: 429 when its credential holds its allowance, 503 when the server has as much
    /// graph work admitted as it takes.
    package func run<T: Sendable>(_ job: Job, _ body: () async throws -> T) async throws -> T {
        let refusal: Problem? = state.withLock { state in
            let allowance = job.allowance ?? limits.perCredential
            guard state.held[job.credential, default: 0] < allowance else { return Self.tooMany(allowance) }
            guard state.admitted < limits.admitted, state.admit(job, memory: limits.memory) else { return Self.busy }
            return nil
        }
        if let refusal { throw refusal }
        defer { state.withLock { $0.release(job) } }
        return try await Self.$current.withValue(job) { try await body() }
    }

    /// Runs `work` (a computation of `kind`) in the current job's turn: after the computations
    /// running, and after those of the lanes and credentials whose turn comes first. Work outside
    /// any job (the server's own) has a lane of its own. 499 `client_gone` if the job's client
    /// left before its turn.
    package func turn<T: Sendable>(_ kind: String, _ work: () async throws -> T) async throws -> T {
        let job = Self.current ?? Job(kind: kind, lane: .person(Self.serverItself), credential: Self.serverItself)
        let arrived = ContinuousClock.now
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let now: Bool = state.withLock { state in
                guard state.computing >= limits.turns || state.queue.count > 0 else {
                    state.computing += 1
                    return true
                }
                state.queue.append(Waiter(job: job, continuation: continuation))
                return false
            }
            if now { continuation.resume() }
        }
        metrics?.graphJobWaited(kind, duration: ContinuousClock.now - arrived)
        defer { endTurn() }
        return try await work()
    }

    /// Ends a turn and gives the next ones theirs (a job whose client left is dropped).
    private func endTurn() {
        let turns: [(Waiter, gone: Bool)] = state.withLock { state in
            state.computing -= 1
            var turns: [(Waiter, gone: Bool)] = []
            while state.computing < limits.turns, let next = state.queue.next() {
                let gone = next.job.clientGone()
                if !gone { state.computing += 1 }
                turns.append((next, gone))
            }
            return turns
        }
        for (waiter, gone) in turns {
            if gone {
                waiter.continuation.resume(throwing: Self.clientGone)
            } else {
                waiter.continuation.resume()
            }
        }
    }

    /// The lane and credential of the server's own graph work (outside any request).
    static let serverItself = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    static func tooMany(_ allowance: Int) -> Problem {
        Problem(
            .tooManyGraphRequests,
            detail: "Wait for your other network, statistics or report requests to finish (at most \(allowance) at a time).",
            retryAfter: 1)
    }

    static let busy = Problem(
        .graphWorkBusy,
        detail: "Pictures, summaries and reports take turns for everyone; try again in a moment.", retryAfter: 2)

    /// Not sent to anyone (the client has gone): what the log and the metrics count.
    static let clientGone = Problem(.clientGone)
}
