import Foundation
import Store
import Synchronization
import TestSupport
import Testing

/// `Database.query`: one statement sent without blocking, its answer awaited on the poller thread.
@Suite(.tier(.database)) struct DatabaseQueryTests {
    /// Sixty callers at once on three connections, half of them through the blocking path on the
    /// same connections (each statement prepared once per connection, by whichever path came first):
    /// every caller gets its own answer, from no more backends than the pool may open.
    @Test func manyCallersShareASmallPoolWithTheBlockingPath() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 3, connectionWait: .seconds(120))
        let answers = try await withThrowingTaskGroup(of: (sent: Int64, got: Int64, pid: Int64).self) { group in
            for index in Int64(0)..<60 {
                group.addTask {
                    let sql: SQL = "SELECT \(index)::bigint AS n, pg_backend_pid()::bigint AS pid, pg_sleep(0.005)"
                    let row =
                        index.isMultiple(of: 2)
                        ? try await database.query(sql)[0] : try await database.withConnection { try $0.query(sql)[0] }
                    return (index, try row.int("n"), try row.int("pid"))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 60)
        #expect(answers.allSatisfy { $0.sent == $0.got }, "each caller has its own statement's answer")
        #expect(Set(answers.map(\.pid)).count <= 3)
        await database.shutdown()
    }

    /// A caller waiting for a connection when the pool closes is told at once that it closed,
    /// not after its wait (ten minutes here: the bound of a minute below is generous for a loaded
    /// machine and still far from it).
    @Test func closingThePoolTellsThoseWaitingAtOnce() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1, connectionWait: .seconds(600))
        // The only connection is held until the waiter has its answer: else, on a loaded machine, the
        // holder could finish first and hand the connection over before the pool closes.
        let state = Mutex((holding: false, released: false))
        let holding = Task {
            try await database.withConnection { _ in
                state.withLock { $0.holding = true }
                while !state.withLock({ $0.released }) { usleep(1_000) }
            }
        }
        defer { state.withLock { $0.released = true } }
        while !state.withLock({ $0.holding }) { try await Task.sleep(for: .milliseconds(5)) }
        let waiting = Task { try await database.withConnection { _ in } }
        while await database.poolStatistics().waiting < 1 { try await Task.sleep(for: .milliseconds(5)) }
        let began = ContinuousClock.now
        let closing = Task { await database.shutdown() }
        let error = await #expect(throws: PostgresError.self) { try await waiting.value }
        #expect(error?.kind == .shutdown, "\(String(describing: error))")
        #expect(ContinuousClock.now - began < .seconds(60))
        state.withLock { $0.released = true }
        try await holding.value
        await closing.value
    }

    /// A statement PostgreSQL refuses reports its SQLSTATE; a string holding NUL is refused before
    /// anything is sent; either way the one connection serves the next statement.
    @Test func aRefusedStatementLeavesTheConnectionServing() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1)
        let pid = try await database.query("SELECT pg_backend_pid()::bigint AS pid")[0].int("pid")
        let divided = await #expect(throws: PostgresError.self) { try await database.query("SELECT 1 / \(0) AS n") }
        #expect(divided?.sqlState == "22012" && divided?.kind == .server)
        let nul = await #expect(throws: PostgresError.self) { try await database.query("SELECT \("a\u{0}b") AS t") }
        #expect(nul?.kind == .invalidParameter)
        let perExecution: SQL = "SELECT \("x") AS t, pg_backend_pid()::bigint AS pid"
        let planned = try await database.query(perExecution.plannedPerExecution())[0]
        #expect(try planned.string("t") == "x" && planned.int("pid") == pid, "the same connection, still serving")
        await database.shutdown()
    }

    /// PostgreSQL sends a statement's rows before its implicit transaction commits; a commit that
    /// then fails (here a deferred unique constraint) fails the call, and nothing was written.
    @Test func aStatementWhoseCommitFailsIsNotAcknowledged() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1)
        _ = try await database.withConnection {
            try $0.query("CREATE TABLE checked_at_commit (n int UNIQUE DEFERRABLE INITIALLY DEFERRED)")
        }
        let refused = await #expect(throws: PostgresError.self) {
            try await database.query("INSERT INTO checked_at_commit VALUES (\(1)), (\(1)) RETURNING n")
        }
        #expect(refused?.sqlState == "23505")
        #expect(try await database.query("SELECT count(*) AS n FROM checked_at_commit")[0].int("n") == 0)
        await database.shutdown()
    }

    /// The backend dies while the statement runs: the caller is told the connection failed (not
    /// left waiting), and the pool's next statement runs on a new backend.
    @Test func aConnectionCutMidStatementFailsItAndIsReplaced() async throws {
        let (database, conninfo) = try await TestDatabase.createMigrated(maximumConnections: 1)
        let admin = Database(conninfo: conninfo, maximumConnections: 1, logger: TestDatabase.logger)
        let first = try await database.query("SELECT pg_backend_pid()::bigint AS pid")[0].int("pid")
        let sleeping = Task { try await database.query("SELECT pg_sleep(60)") }
        // Until the backend is seen running the statement, then cut.
        while try await admin.query("SELECT count(*) AS n FROM pg_stat_activity WHERE pid = \(first) AND query LIKE '%pg_sleep%'")[0]
            .int("n") == 0
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        _ = try await admin.query("SELECT pg_terminate_backend(\(first)::int, 5000)")
        let cut = await #expect(throws: PostgresError.self) { _ = try await sleeping.value }
        #expect(cut?.kind == .connectionFailed)
        let second = try await database.query("SELECT pg_backend_pid()::bigint AS pid")[0].int("pid")
        #expect(second != first)
        await admin.shutdown()
        await database.shutdown()
    }
}
