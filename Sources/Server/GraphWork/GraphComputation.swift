import Graph
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Where the server runs graph work (layouts, statistics, growth): one job at a time, on a thread
/// of its own, away from the event loops and from Swift concurrency's cooperative threads. A job
/// spreads over the cores itself (the graph engine splits its loops, `CONSTELLATION_GRAPH_THREADS`
/// threads at most, one per core by default), so running jobs one after another keeps the threads
/// doing graph work within the cores, instead of a pool of one thread per core each fanning out again.
///
/// Work nobody waits for (an event's next picture, made behind the answer that showed the last one)
/// runs `behind`: on a second thread, alone on it (one core at most) and at a lower priority
/// (nice +10), so that it takes what the requests leave of the cores and no request waits behind it.
package struct GraphComputation: Sendable {
    /// Where each job's kind and time are counted.
    let metrics: ServerMetrics
    /// Whose turn it is on the graph thread.
    let scheduler: GraphScheduler

    package init(metrics: ServerMetrics, scheduler: GraphScheduler) {
        self.metrics = metrics
        self.scheduler = scheduler
    }

    /// The process's one graph thread, for the work requests wait for.
    private static let pool = startedPool()
    /// The thread for work nobody waits for.
    private static let background = startedPool()

    /// How much lower the background thread's priority is than the process's (its nice value, added).
    package static let backgroundNiceness: Int32 = 10

    private static func startedPool() -> NIOThreadPool {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }

    /// Runs `work` (a job of `kind`: `layout`, `statistics`, `growth`, `summary`, `export`, …) in
    /// its request's turn (`GraphScheduler.turn`), and returns its result.
    package func run<T: Sendable>(_ kind: String, _ work: @escaping @Sendable () -> T) async throws -> T {
        try await scheduler.turn(kind) { try await compute(kind, on: Self.pool, work) }
    }

    /// Runs `work` (a job of `kind` that no request waits for) on the background thread, after the
    /// background work before it, on one core at a lower priority; it takes no turn on the graph thread.
    package func behind<T: Sendable>(_ kind: String, _ work: @escaping @Sendable () -> T) async throws -> T {
        try await compute(kind, on: Self.background) {
            // On Linux the nice value is the calling thread's own (`who` 0 is this thread).
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            _ = setpriority(which, 0, Self.backgroundNiceness)
            return GraphThreads.onThisThread(limitedTo: 1, work)
        }
    }

    private func compute<T: Sendable>(_ kind: String, on pool: NIOThreadPool, _ work: @escaping @Sendable () -> T) async throws -> T {
        try await pool.runIfActive { [metrics] in
            let start = ContinuousClock.now
            let result = work()
            let duration = ContinuousClock.now - start
            metrics.computed(kind, duration: duration)
            // A job that ran this long built and dropped large graphs: their memory goes back.
            if duration > .milliseconds(20) { ProcessMemory.returnFreedMemory() }
            return result
        }
    }
}
