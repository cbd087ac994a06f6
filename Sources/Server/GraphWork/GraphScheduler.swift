import ConstellationModel
import Foundation
import Synchronization

/// Admission to the server's graph work. Every picture, rendering, summary, record, report, growth
/// series and personal network runs inside a turn given here, its reads of the database included,
/// so that a refused request has read nothing and the memory its inputs hold is counted before
/// they are read.
///
/// - Fair turns: jobs wait in lanes (an event, or a person's own network) taken in turn, and
///   within a lane, credentials taken in turn. A flooded event or a flooding organizer waits
///   behind its own jobs; anyone else's job waits at most for the jobs running and one job of each
///   other lane that has work waiting.
/// - Bounded: at most `Limits.running` jobs run at once (one reads while another computes on the
///   graph thread); at most `Limits.waiting` wait, and the jobs waiting and running hold at most
///   `Limits.memory` bytes by their estimates. Past either, 503 `graph_work_busy` with
///   `Retry-After`. A credential holds at most its allowance of jobs, waiting or running (429
///   `too_many_graph_requests`).
/// - A job whose client has gone by its turn is dropped without running.
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
        /// Whether its client has gone: by its turn, it is dropped.
        var clientGone: @Sendable () -> Bool = { false }

        package init(
            kind: String, lane: Lane, credential: UUID, allowance: Int? = nil, bytes: Int = 0,
            clientGone: @escaping @Sendable () -> Bool = { false }
        ) {
            self.kind = kind
            self.lane = lane
            self.credential = credential
            self.allowance = allowance
            self.bytes = bytes
            self.clientGone = clientGone
        }
    }

    /// How much graph work the server admits (`CONSTELLATION_GRAPH_*`).
    package struct Limits: Sendable, Equatable {
        /// Jobs running at once: reading from the database, or computing on the graph thread.
        package var running = 2
        /// Jobs waiting for their turn, server-wide.
        package var waiting = 64
        /// Bytes the inputs of the jobs running and waiting may hold, by their estimates.
        package var memory = 256 << 20
        /// Jobs one credential may hold at once, waiting or running.
        package var perCredential = 2

        package init(running: Int = 2, waiting: Int = 64, memory: Int = 256 << 20, perCredential: Int = 2) {
            self.running = running
            self.waiting = waiting
            self.memory = memory
            self.perCredential = perCredential
        }
    }

    /// What admission counts now, for `/metrics`.
    package struct Load: Sendable, Equatable {
        package let running: Int
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

    private struct State {
        var running = 0
        var bytes = 0
        var held: [UUID: Int] = [:]
        var queue = Queue()

        mutating func release(_ job: Job) {
            bytes -= job.bytes
            held[job.credential, default: 1] -= 1
            if held[job.credential] == 0 { held[job.credential] = nil }
        }
    }

    private let state = Mutex(State())
    let limits: Limits
    private let metrics: ServerMetrics?

    package init(limits: Limits, metrics: ServerMetrics? = nil) {
        self.limits = limits
        self.metrics = metrics
    }

    package var load: Load {
        state.withLock { Load(running: $0.running, waiting: $0.queue.count, bytes: $0.bytes) }
    }

    /// Runs `body` (the job's reads and computations) in the job's turn; refuses it at once
    /// (writing and reading nothing) when its credential holds its allowance (429) or the server
    /// has as much waiting as it admits (503); 499 `client_gone` when its client left before its turn.
    package func run<T: Sendable>(_ job: Job, _ body: () async throws -> T) async throws -> T {
        let arrived = ContinuousClock.now
        try await admit(job)
        metrics?.graphJobWaited(job.kind, duration: ContinuousClock.now - arrived)
        defer { finish(job) }
        return try await body()
    }

    private func admit(_ job: Job) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let refusal: Problem?? = state.withLock { state in
                let allowance = job.allowance ?? limits.perCredential
                guard state.held[job.credential, default: 0] < allowance else { return .some(Self.tooMany(allowance)) }
                let fits = state.bytes + job.bytes <= limits.memory
                if state.running < limits.running, state.queue.count == 0, fits || state.running == 0 {
                    state.running += 1
                } else {
                    guard state.queue.count < limits.waiting, fits else { return .some(Self.busy) }
                    state.queue.append(Waiter(job: job, continuation: continuation))
                    state.bytes += job.bytes
                    state.held[job.credential, default: 0] += 1
                    return nil  // waits for its turn
                }
                state.bytes += job.bytes
                state.held[job.credential, default: 0] += 1
                return .some(nil)
            }
            switch refusal {
            case .none: break
            case .some(.none): continuation.resume()
            case .some(.some(let problem)): continuation.resume(throwing: problem)
            }
        }
    }

    /// Ends `job`'s turn and gives the next ones theirs.
    private func finish(_ job: Job) {
        let turns: [(Waiter, gone: Bool)] = state.withLock { state in
            state.running -= 1
            state.release(job)
            var turns: [(Waiter, gone: Bool)] = []
            while state.running < limits.running, let next = state.queue.next() {
                let gone = next.job.clientGone()
                if gone {
                    state.release(next.job)
                } else {
                    state.running += 1
                }
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

    static func tooMany(_ allowance: Int) -> Problem {
        Problem(
            status: 429, code: "too_many_graph_requests", title: "Too many graph requests at once",
            detail: "Wait for your other network, statistics or report requests to finish (at most \(allowance) at a time).",
            retryAfter: 1)
    }

    static let busy = Problem(
        status: 503, code: "graph_work_busy", title: "The server has as much graph work waiting as it takes",
        detail: "Pictures, summaries and reports are queued for everyone in turn; try again in a moment.", retryAfter: 2)

    /// Not sent to anyone (the client has gone): what the log and the metrics count.
    static let clientGone = Problem(status: 499, code: "client_gone", title: "The client left before its graph work's turn")
}
