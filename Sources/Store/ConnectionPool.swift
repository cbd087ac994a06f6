import Logging
import NIOConcurrencyHelpers
import NIOPosix

/// Lends at most `limit` connections; callers beyond that wait in order, for at most `waitLimit`
/// (then `PostgresError.poolExhausted`: never an endless wait). Connections are opened lazily (on
/// the thread pool: `PQconnectdb` blocks), with `setup` run on each, and broken ones are replaced.
/// Its state is behind a lock, not an actor: a caller who finds a connection idle takes it without
/// leaving its thread, as every statement does twice. A pthread lock (`NIOLock`), not
/// `Synchronization.Mutex`: on Linux that one goes through the kernel whenever it is contended,
/// and ThreadSanitizer cannot see it.
final class ConnectionPool: Sendable {
    private enum Lease {
        case connection(PostgresConnection)
        case open, timedOut, closed
    }

    private struct State: Sendable {
        var idle: [PostgresConnection] = []
        var open = 0
        /// Callers waiting for a connection, in order of arrival (so of their deadlines).
        var waiters: [(deadline: ContinuousClock.Instant, continuation: CheckedContinuation<Lease, Never>)] = []
        /// Whether the task that sends late waiters away is running (one for the whole queue).
        var sweeping = false
        var closed = false

        /// A connection at once, or a slot to open one, if there is either.
        mutating func lease(limit: Int) -> Lease? {
            if let connection = idle.popLast() { return .connection(connection) }
            guard open < limit else { return nil }
            open += 1
            return .open
        }

        /// Gives a slot freed by a broken or failed connection to the first waiter, or gives it up.
        mutating func release() -> CheckedContinuation<Lease, Never>? {
            if waiters.isEmpty {
                open -= 1
                return nil
            }
            return waiters.removeFirst().continuation
        }
    }

    private let conninfo: String
    private let connectTimeout: Int?
    private let setup: String?
    private let limit: Int
    private let waitLimit: Duration
    private let threads: NIOThreadPool
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    init(
        conninfo: String, connectTimeout: Int?, setup: String?, limit: Int, waitLimit: Duration, threads: NIOThreadPool, logger: Logger
    ) {
        precondition(limit > 0, "a pool needs at least one connection")
        self.conninfo = conninfo
        self.connectTimeout = connectTimeout
        self.setup = setup
        self.limit = limit
        self.waitLimit = waitLimit
        self.threads = threads
        self.logger = logger
    }

    func checkout() async throws -> PostgresConnection {
        let now = state.withLockedValue { state in state.closed ? .closed : state.lease(limit: limit) }
        let lease: Lease
        if let now {
            lease = now
        } else {
            lease = await withCheckedContinuation { continuation in
                // A connection may have come back since the look above.
                let (now, sweep) = state.withLockedValue { state -> (Lease?, Bool) in
                    if state.closed { return (.closed, false) }
                    if let now = state.lease(limit: limit) { return (now, false) }
                    state.waiters.append((.now + waitLimit, continuation))
                    defer { state.sweeping = true }
                    return (nil, !state.sweeping)
                }
                if let now { continuation.resume(returning: now) }
                if sweep { Task { await self.sendLateWaitersAway() } }
            }
        }
        switch lease {
        case .connection(let connection): return connection
        case .open: return try await connect()
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
            let (late, next) = state.withLockedValue { state -> ([CheckedContinuation<Lease, Never>], ContinuousClock.Instant?) in
                var late: [CheckedContinuation<Lease, Never>] = []
                while let first = state.waiters.first, first.deadline <= .now { late.append(state.waiters.removeFirst().continuation) }
                if state.waiters.isEmpty { state.sweeping = false }
                return (late, state.waiters.first?.deadline)
            }
            for waiter in late { waiter.resume(returning: .timedOut) }
            guard let next else { return }
            try? await Task.sleep(until: next, clock: .continuous)
        }
    }

    func checkin(_ connection: PostgresConnection) {
        let healthy = connection.isHealthy
        let (dropped, waiter, open) = state.withLockedValue { state -> (Bool, CheckedContinuation<Lease, Never>?, Int) in
            if !healthy || state.closed { return (true, state.release(), state.open) }
            if state.waiters.isEmpty {
                state.idle.append(connection)
                return (false, nil, state.open)
            }
            return (false, state.waiters.removeFirst().continuation, state.open)
        }
        if dropped {
            if !healthy { logger.warning("dropping a broken PostgreSQL connection", metadata: ["db.pool.open": "\(open)"]) }
            waiter?.resume(returning: .open)
        } else {
            waiter?.resume(returning: .connection(connection))
        }
    }

    /// Connections lent out, connections idle, and callers waiting, now.
    func statistics() -> PoolStatistics {
        state.withLockedValue { PoolStatistics(inUse: $0.open - $0.idle.count, idle: $0.idle.count, waiting: $0.waiters.count) }
    }

    /// Closes the idle connections, and those lent out as they come back; callers waiting for one
    /// are told at once that the pool is closed (`PostgresError.shutdown`), as later ones are.
    func close() {
        // The idle connections close (`PQfinish`) when `dropped` is released, out of the lock.
        let (dropped, waiters) = state.withLockedValue { state in
            state.closed = true
            state.open -= state.idle.count
            defer {
                state.idle.removeAll()
                state.waiters.removeAll()
            }
            return (state.idle, state.waiters.map(\.continuation))
        }
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
            state.withLockedValue { $0.release() }?.resume(returning: .open)
            throw error
        }
    }
}

/// What a pool is doing at one moment (for `/metrics`).
public struct PoolStatistics: Sendable, Equatable {
    public let inUse: Int
    public let idle: Int
    public let waiting: Int
}
