import Logging
import NIOPosix

/// A bounded pool of PostgreSQL connections whose blocking libpq calls run on a dedicated
/// thread pool, never on an event loop or the cooperative pool; a single statement may instead
/// be sent without blocking, with its answer awaited on the process's one poller thread.
public final class Database: Sendable {
    private let pool: ConnectionPool
    private let threads: NIOThreadPool
    private let readsOnly: Bool
    private let maximumConnections: Int

    /// - Parameters:
    ///   - conninfo: a libpq connection string or URL (empty: libpq's `PG*` variables).
    ///   - maximumConnections: the most connections open at once (and threads running queries).
    ///   - connectionWait: how long a caller waits for a busy pool before `poolExhausted`.
    ///   - statementTimeout: PostgreSQL's `statement_timeout` on every connection (nil: the server's).
    ///   - connectTimeout: how many seconds a connection attempt waits for a host before giving up
    ///     (nil: `PGCONNECT_TIMEOUT`, else 10); a `connect_timeout` in `conninfo` wins.
    ///   - readsOnly: every use only reads (a replica's pool): what failed because its connection
    ///     broke (the replica restarted, a failover moved it) runs again on another connection,
    ///     rather than failing the request; reads are safe to repeat.
    public init(
        conninfo: String, maximumConnections: Int = 8, connectionWait: Duration = .seconds(5), statementTimeout: Duration? = nil,
        connectTimeout: Int? = nil, readsOnly: Bool = false, logger: Logger
    ) {
        self.readsOnly = readsOnly
        self.maximumConnections = maximumConnections
        threads = NIOThreadPool(numberOfThreads: maximumConnections)
        threads.start()
        let setup = statementTimeout.map { "SET statement_timeout = \(Int(($0 / .milliseconds(1)).rounded(.up)))" }
        pool = ConnectionPool(
            conninfo: conninfo, connectTimeout: connectTimeout, setup: setup, limit: maximumConnections, waitLimit: connectionWait,
            threads: threads, logger: logger)
    }

    /// Lends a connection to `body`, which runs on a pool thread and may block.
    package func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await lending { connection in try await self.threads.runIfActive { try body(connection) } }
    }

    /// Runs one statement, as its own transaction, holding no thread while PostgreSQL works on
    /// it: for the requests that are one statement and come often (a redemption). Over TLS it
    /// runs on the thread pool instead, as `withConnection` would.
    package func query(_ sql: SQL) async throws -> [Row] {
        try await lending { connection in
            guard !connection.usesTLS else { return try await self.threads.runIfActive { try connection.query(sql) } }
            return try await connection.query(sql, waitingOn: .shared)
        }
    }

    /// Lends a connection to `body` and takes it back.
    private func lending<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        // A reads-only pool tries each idle connection that turns out broken, then a new one.
        var attemptsLeft = readsOnly ? maximumConnections + 1 : 1
        while true {
            attemptsLeft -= 1
            let connection = try await pool.checkout()
            do {
                let value = try await body(connection)
                pool.checkin(connection)
                return value
            } catch {
                let broken = !connection.isHealthy
                pool.checkin(connection)
                guard broken, attemptsLeft > 0 else { throw error }
            }
        }
    }

    /// Runs `body` in one transaction: a returned value means the transaction committed.
    /// A read-only transaction reads one snapshot and runs on a read-only replica too.
    package func withTransaction<T: Sendable>(
        readOnly: Bool = false, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await withConnection { try $0.transaction(readOnly: readOnly, body) }
    }

    /// Runs `body` in one transaction holding the advisory lock `lock` until it ends, if no other
    /// session holds it; nil at once, running nothing, if one does. Of several servers sharing
    /// the database, one does the work at a time and the others skip it.
    package func withTransaction<T: Sendable>(
        ifFree lock: Int64, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T? {
        try await withTransaction { connection in
            guard try connection.query("SELECT pg_try_advisory_xact_lock(\(lock)) AS held")[0].bool("held") else { return nil }
            return try body(connection)
        }
    }

    /// How far this database is behind its primary, in seconds, when it is a streaming replica
    /// (nil on a primary): 0 when it has replayed all the WAL it received, else the time since the
    /// last transaction it replayed committed on the primary. WAL not yet received is not counted.
    public func replicationLag() async throws -> Double? {
        try await withConnection { connection in
            let row = try connection.query(
                """
                SELECT pg_is_in_recovery() AS replica,
                       CASE WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN '0'
                            ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0)::text END AS lag
                """)[0]
            return try row.bool("replica") ? Double(try row.string("lag")) : nil
        }
    }

    /// What the pool is doing now.
    public func poolStatistics() async -> PoolStatistics {
        pool.statistics()
    }

    /// Closes every connection and stops the threads.
    public func shutdown() async {
        pool.close()
        try? await threads.shutdownGracefully()
    }

    /// A pool nobody shut down closes and lets its threads go with its last reference (a test
    /// that ended without `shutdown()`), rather than hold its threads and connections until the
    /// process ends. After `shutdown()`, this does nothing more.
    deinit {
        pool.close()
        threads.shutdownGracefully { _ in }
    }
}
