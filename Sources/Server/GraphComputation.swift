import NIOPosix

/// Where the server runs graph work (layouts, statistics): NIO's shared blocking-work pool, one
/// thread per core, away from the event loops and from Swift concurrency's cooperative threads.
struct GraphComputation: Sendable {
    private let pool: NIOThreadPool

    init(pool: NIOThreadPool = .singleton) {
        self.pool = pool
    }

    /// Runs `work` on the pool and returns its result.
    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        try await pool.runIfActive(work)
    }
}
