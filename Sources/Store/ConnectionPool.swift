import Logging
import NIOPosix

/// Lends at most `limit` connections; callers beyond that wait in order. Connections are
/// opened lazily (on the thread pool: `PQconnectdb` blocks) and broken ones are replaced.
actor ConnectionPool {
    private enum Lease { case connection(PostgresConnection), open }

    private let conninfo: String
    private let limit: Int
    private let threads: NIOThreadPool
    private let logger: Logger
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var waiters: [CheckedContinuation<Lease, Never>] = []
    private var closed = false

    init(conninfo: String, limit: Int, threads: NIOThreadPool, logger: Logger) {
        precondition(limit > 0, "a pool needs at least one connection")
        self.conninfo = conninfo
        self.limit = limit
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
        switch await withCheckedContinuation({ waiters.append($0) }) {
        case .connection(let connection): return connection
        case .open: return try await connect()
        }
    }

    func checkin(_ connection: PostgresConnection) {
        if !connection.isHealthy || closed {
            logger.warning("dropping a broken PostgreSQL connection", metadata: ["db.pool.open": "\(open)"])
            if waiters.isEmpty { open -= 1 } else { waiters.removeFirst().resume(returning: .open) }
        } else if waiters.isEmpty {
            idle.append(connection)
        } else {
            waiters.removeFirst().resume(returning: .connection(connection))
        }
    }

    func close() {
        closed = true
        open -= idle.count
        idle.removeAll()
    }

    /// Opens a connection for a slot already counted in `open`; gives the slot back on failure.
    private func connect() async throws -> PostgresConnection {
        do {
            let conninfo = conninfo
            return try await threads.runIfActive { try PostgresConnection(conninfo: conninfo) }
        } catch {
            if waiters.isEmpty { open -= 1 } else { waiters.removeFirst().resume(returning: .open) }
            throw error
        }
    }
}
