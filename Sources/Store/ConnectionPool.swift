import Logging
import NIOPosix

/// Lends at most `limit` connections; callers beyond that wait in order, for at most `waitLimit`
/// (then `PostgresError.poolExhausted`: never an endless wait). Connections are opened lazily (on
/// the thread pool: `PQconnectdb` blocks), with `setup` run on each, and broken ones are replaced.
actor ConnectionPool {
    private enum Lease {
        case connection(PostgresConnection)
        case open, timedOut
    }

    private let conninfo: String
    private let connectTimeout: Int?
    private let setup: String?
    private let limit: Int
    private let waitLimit: Duration
    private let threads: NIOThreadPool
    private let logger: Logger
    private var idle: [PostgresConnection] = []
    private var open = 0
    /// Callers waiting for a connection, in order of arrival (so of their deadlines).
    private var waiters: [(deadline: ContinuousClock.Instant, continuation: CheckedContinuation<Lease, Never>)] = []
    /// Whether the task that sends late waiters away is running (one for the whole queue).
    private var sweeping = false
    private var closed = false

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
        guard !closed else { throw PostgresError(.shutdown, message: "the connection pool is closed") }
        if let connection = idle.popLast() { return connection }
        if open < limit {
            open += 1
            return try await connect()
        }
        let lease = await withCheckedContinuation { continuation in
            waiters.append((.now + waitLimit, continuation))
            if !sweeping {
                sweeping = true
                Task { await self.sendLateWaitersAway() }
            }
        }
        switch lease {
        case .connection(let connection): return connection
        case .open: return try await connect()
        case .timedOut:
            throw PostgresError(.poolExhausted, message: "no database connection became free within \(waitLimit)")
        }
    }

    /// Sends callers still waiting after `waitLimit` away empty-handed, while any wait. The first
    /// waiter's deadline is the earliest, so one task asleep until it serves the whole queue
    /// (a timer per waiter would be thousands of sleeping tasks when a crowd queues up).
    private func sendLateWaitersAway() async {
        while let first = waiters.first {
            if first.deadline > .now {
                try? await Task.sleep(until: first.deadline, clock: .continuous)
            } else {
                waiters.removeFirst().continuation.resume(returning: .timedOut)
            }
        }
        sweeping = false
    }

    func checkin(_ connection: PostgresConnection) {
        if !connection.isHealthy || closed {
            logger.warning("dropping a broken PostgreSQL connection", metadata: ["db.pool.open": "\(open)"])
            if waiters.isEmpty { open -= 1 } else { waiters.removeFirst().continuation.resume(returning: .open) }
        } else if waiters.isEmpty {
            idle.append(connection)
        } else {
            waiters.removeFirst().continuation.resume(returning: .connection(connection))
        }
    }

    /// Connections lent out, connections idle, and callers waiting, now.
    func statistics() -> PoolStatistics {
        PoolStatistics(inUse: open - idle.count, idle: idle.count, waiting: waiters.count)
    }

    func close() {
        closed = true
        open -= idle.count
        idle.removeAll()
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
            if waiters.isEmpty { open -= 1 } else { waiters.removeFirst().continuation.resume(returning: .open) }
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
