import NIOPosix

/// Where the server runs graph work (layouts, statistics, growth): one job at a time, on a thread
/// of its own, away from the event loops and from Swift concurrency's cooperative threads. A job
/// spreads over the cores itself (the graph engine splits its loops, `CONSTELLATION_GRAPH_THREADS`
/// threads at most, one per core by default), so running jobs one after another keeps the threads
/// doing graph work within the cores, instead of a pool of one thread per core each fanning out again.
struct GraphComputation: Sendable {
    /// Where each job's kind and time are counted.
    let metrics: ServerMetrics
    /// Whose turn it is on the graph thread.
    let scheduler: GraphScheduler

    /// The process's one graph thread.
    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    /// Runs `work` (a job of `kind`: `layout`, `statistics`, `growth`, `summary`, `export`, …) in
    /// its request's turn (`GraphScheduler.turn`), and returns its result.
    func run<T: Sendable>(_ kind: String, _ work: @escaping @Sendable () -> T) async throws -> T {
        try await scheduler.turn(kind) { try await compute(kind, work) }
    }

    private func compute<T: Sendable>(_ kind: String, _ work: @escaping @Sendable () -> T) async throws -> T {
        try await Self.pool.runIfActive { [metrics] in
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
