import Logging
import NIOConcurrencyHelpers
import NIOPosix

/// Lends at most `limit` connections; callers beyond that wait in order, for at most `waitLimit`
/// (then `PostgresError.poolExhausted`: never an endless wait). What to lend and to whom is
/// `PoolState`'s to decide; this type opens the connections and wakes the callers. Connections are opened lazily (on
/// the thread pool: `PQconnectdb` blocks), with `setup` run on each, and broken ones are replaced.
/// Its state is behind a lock, not an actor: a caller who finds a connection idle takes it without
/// leaving its thread, as every statement does twice. A pthread lock (`NIOLock`), not
/// `Synchronization.Mutex`: on Linux that one goes through the kernel whenever it is contended,
/// and ThreadSanitizer cannot see it.
final class ConnectionPool: Sendable {
    /// What a waiting caller is woken with.
    private enum Lease {
        case granted(Pool.Grant)
        case timedOut, closed
    }

    private typealias Pool = PoolState<PostgresConnection, CheckedContinuation<Lease, Never>>

    /// The pool's bookkeeping (`PoolState`), and whether the task that sends late waiters away is
    /// running (one for the whole queue).
    private struct State: Sendable {
        var pool: Pool
        var sweeping = false
    }

    private let conninfo: String
    private let connectTimeout: Int?
    private let setup: String?
    private let waitLimit: Duration
    private let threads: NIOThreadPool
    private let logger: Logger
    private let state: NIOLockedValueBox<State>

    init(
        conninfo: String, connectTimeout: Int?, setup: String?, limit: Int, waitLimit: Duration, threads: NIOThreadPool, logger: Logger
    ) {
        self.state = NIOLockedValueBox(State(pool: PoolState(limit: limit)))
        self.conninfo = conninfo
        self.connectTimeout = connectTimeout
        self.setup = setup
        self.waitLimit = waitLimit
        self.threads = threads
        self.logger = logger
    }

    func checkout() async throws -> PostgresConnection {
        let now = state.withLockedValue { state in state.pool.closed ? .closed : state.pool.lease().map(Lease.granted) }
        let lease: Lease
        if let now {
            lease = now
        } else {
            lease = await withCheckedContinuation { continuation in
                // A connection may have come back since the look above.
                let (now, sweep) = state.withLockedValue { state -> (Lease?, Bool) in
                    if state.pool.closed { return (.closed, false) }
                    if let now = state.pool.lease() { return (.granted(now), false) }
                    state.pool.wait(continuation, until: .now + waitLimit)
                    defer { state.sweeping = true }
                    return (nil, !state.sweeping)
                }
                if let now { continuation.resume(returning: now) }
                if sweep { Task { await self.sendLateWaitersAway() } }
            }
        }
        switch lease {
        case .granted(.connection(let connection)): return connection
        case .granted(.open): return try await connect()
        case .timedOut:
            throw PostgresError(.poolExhausted, message: "no database connection became free within \(waitLimit)")
        case .closed:
            throw PostgresError(.shutdown, message: "the connection pool is closed")
        }
    }

    /// Sends callers still waiting after `waitLimit` away empty-handed, while any wait. The first
    /// waiter's deadline is the earliest, so one task asleep until it serves the whole queue
    /// (a timer per waiter would be thousands of sleeping tasks when a crowd queues up).
    private func sendLateWaitersAway() async {
        while true {
            let (late, next) = state.withLockedValue { state in
                let (late, next) = state.pool.late(at: .now)
                if next == nil { state.sweeping = false }
                return (late, next)
            }
            for waiter in late { waiter.resume(returning: .timedOut) }
            guard let next else { return }
            try? await Task.sleep(until: next, clock: .continuous)
        }
    }

    func checkin(_ connection: PostgresConnection) {
        let healthy = connection.isHealthy
        let (dropped, handedTo, open) = state.withLockedValue { state in
            let (dropped, handedTo) = state.pool.checkin(connection, healthy: healthy)
            return (dropped, handedTo, state.pool.open)
        }
        if dropped, !healthy { logger.warning("dropping a broken PostgreSQL connection", metadata: ["db.pool.open": "\(open)"]) }
        if let (waiter, grant) = handedTo { waiter.resume(returning: .granted(grant)) }
    }

    /// Connections lent out, connections idle, and callers waiting, now.
    func statistics() -> PoolStatistics {
        state.withLockedValue { $0.pool.statistics }
    }

    /// Closes the idle connections, and those lent out as they come back; callers waiting for one
    /// are told at once that the pool is closed (`PostgresError.shutdown`), as later ones are.
    func close() {
        // The idle connections close (`PQfinish`) when `dropped` is released, out of the lock.
        let (dropped, waiters) = state.withLockedValue { $0.pool.close() }
        for waiter in waiters { waiter.resume(returning: .closed) }
        logger.debug(
            "connection pool closed", metadata: ["db.pool.idle_closed": "\(dropped.count)", "db.pool.waiters": "\(waiters.count)"])
    }

    /// Opens a connection for a slot already counted in `open`; gives the slot back on failure.
    private func connect() async throws -> PostgresConnection {
        do {
            let (conninfo, connectTimeout, setup) = (conninfo, connectTimeout, setup)
            return try await threads.runIfActive {
                let connection = try PostgresConnection(conninfo: conninfo, connectTimeout: connectTimeout)
                if let setup { try connection.execute(unsafeSQL: setup) }
                return connection
            }
        } catch {
            state.withLockedValue { $0.pool.slotFreed() }?.resume(returning: .granted(.open))
            throw error
        }
    }
}
