import Foundation
import Glibc
import Store
import TestSupport
import Testing

@Suite(.tier(.database)) struct PostgresConnectionTests {
    @Test func hostileStringsAreBoundNeverSpliced() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 2)
        let hostile = ["'; DROP TABLE profiles; --", "x'); DROP TABLE profiles; --", "$1", "\\x00", "O'Brien \"quoted\" ;"]
        for text in hostile {
            let echoed = try await database.withConnection { try $0.query("SELECT \(text) AS v")[0].string("v") }
            #expect(echoed == text)
            let stored = try await database.withConnection {
                try $0.query("INSERT INTO profiles (display_name) VALUES (\(text)) RETURNING display_name")[0].string("display_name")
            }
            #expect(stored == text)
        }
        // The table the strings tried to drop is still there, holding every one of them.
        #expect(
            try await database.withConnection { try $0.query("SELECT count(*) AS n FROM profiles")[0].int("n") } == Int64(hostile.count))
        await database.shutdown()
    }

    /// A replica that restarts (or is promoted away) breaks every idle connection of the pool that
    /// reads from it: a reads-only pool runs the read again on a new connection, where a writing
    /// pool must fail (a write is not safe to repeat blindly).
    @Test func aReadsOnlyPoolRunsAReadAgainWhenItsConnectionBroke() async throws {
        let (_, conninfo) = try await TestDatabase.createMigrated(maximumConnections: 1)
        let admin = Database(conninfo: conninfo, maximumConnections: 1, logger: TestDatabase.logger)
        for readsOnly in [true, false] {
            let database = Database(conninfo: conninfo, maximumConnections: 2, readsOnly: readsOnly, logger: TestDatabase.logger)
            // Both connections open and idle, then cut by the server.
            let pids = try await withThrowingTaskGroup(of: Int64.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await database.withConnection {
                            try $0.query("SELECT pg_backend_pid()::bigint AS pid, pg_sleep(0.2)")[0].int("pid")
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(pids).count == 2)
            for pid in pids {
                _ = try await admin.withConnection { try $0.query("SELECT pg_terminate_backend(\(pid)::int, 5000)") }
            }
            let read: Result<Int64, any Error>
            do {
                read = .success(try await database.withConnection { try $0.query("SELECT 42::bigint AS n")[0].int("n") })
            } catch {
                read = .failure(error)
            }
            if readsOnly {
                #expect(try read.get() == 42, "a reads-only pool reads on a new connection")
            } else {
                #expect(throws: PostgresError.self, "a writing pool reports the broken connection") { try read.get() }
            }
            await database.shutdown()
        }
        await admin.shutdown()
    }

    @Test func severalValuesAndNullsBindInOrder() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1)
        let id = UUID()
        let missing: String? = nil
        let present: String? = "here"
        let row = try await database.withConnection {
            try $0.query(
                """
                SELECT \("a") AS a, \(missing) AS b, \(Int64(7)) AS c, \(present) AS d, \(id) AS e, \(false) AS f,
                       pg_typeof(\(missing))::text AS b_type
                """)[0]
        }
        #expect(try row.string("a") == "a")
        #expect(try row.optionalString("b") == nil)
        #expect(try row.int("c") == 7)
        #expect(try row.optionalString("d") == "here")
        #expect(try row.uuid("e") == id)
        #expect(try row.bool("f") == false)
        #expect(try row.string("b_type") == "text")
        await database.shutdown()
    }

    /// libpq sends C strings: a NUL would cut the value short there, so it is refused before sending.
    @Test func aStringHoldingNULIsRefusedNotTruncated() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1)
        do {
            _ = try await database.withConnection { connection in
                try connection.query("INSERT INTO profiles (display_name, headline) VALUES (\("ok"), \("a\u{0}b"))")
            }
            Issue.record("expected the NUL to be refused")
        } catch let error as PostgresError {
            #expect(error.kind == .invalidParameter)
            #expect(error.sqlState == "22021")
            #expect(error.isDataException)
            #expect(error.description.contains("$2"))
            #expect(error.description.contains("NUL"))
        }
        #expect(try await database.withConnection { try $0.query("SELECT count(*) AS n FROM profiles")[0].int("n") } == 0)
        await database.shutdown()
    }

    @Test func serverErrorsCarryTheirStateButNotTheQuery() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1)
        do {
            _ = try await database.withConnection { try $0.query("SELECT * FROM no_such_table WHERE secret = \("s3cret")") }
            Issue.record("expected an error")
        } catch let error as PostgresError {
            #expect(error.sqlState == "42P01")
            #expect(!error.description.contains("secret"))
            #expect(error.debugDescription.contains("no_such_table"))
        }
        // The connection is still usable afterwards.
        #expect(try await database.withConnection { try $0.query("SELECT 1 AS one")[0].int("one") } == 1)
        await database.shutdown()
    }

    @Test func aSmallPoolServesManyConcurrentCallers() async throws {
        // Waits are not what this is about: however loaded the machine, every caller gets its turn.
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 2, connectionWait: .seconds(120))
        let answers = try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<30 {
                group.addTask {
                    try await database.withConnection { try $0.query("SELECT pg_backend_pid() AS pid, pg_sleep(0.01)")[0].int("pid") }
                }
            }
            return try await group.reduce(into: [Int64]()) { $0.append($1) }
        }
        // Every caller was answered, by no more backends than the pool may open.
        #expect(answers.count == 30)
        #expect(Set(answers).count <= 2)
        await database.shutdown()
    }

    /// Each waiter is sent away at its own deadline while the one connection stays taken: two
    /// queued together, and one that came later (after the first deadline was set).
    @Test func everyWaiterIsSentAwayAtItsOwnDeadline() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1, connectionWait: .milliseconds(500))
        let clock = ContinuousClock()
        /// Asks for the connection and holds it for `milliseconds`: how long it waited, and whether it got it.
        @Sendable func ask(holding milliseconds: Int) async -> (waited: Duration, served: Bool) {
            let start = clock.now
            do {
                try await database.withConnection {
                    _ = try $0.query("SELECT pg_sleep(\(milliseconds)::integer / 1000.0) IS NULL AS slept")
                }
                return (clock.now - start, true)
            } catch let error as PostgresError {
                #expect(error.kind == .poolExhausted)
                return (clock.now - start, false)
            } catch {
                Issue.record("unexpected \(error)")
                return (clock.now - start, false)
            }
        }
        // The holder keeps the connection for 15 s; two wait from when it has it, and one from 0.3 s later.
        // Each must be sent away, not served: a pool that kept them until the holder let go would hand
        // them the connection then (and they would be served). No upper bound on the wait: the whole
        // suite shares two cores, and tests that block the cooperative pool (the CLI's processes)
        // once kept the sweeper from running for a minute, which is the machine's load, not the pool.
        async let holder = ask(holding: 15_000)
        while await database.poolStatistics().inUse == 0 { try await Task.sleep(for: .milliseconds(10)) }
        async let first = ask(holding: 0)
        async let second = ask(holding: 0)
        try await Task.sleep(for: .milliseconds(300))
        let late = await ask(holding: 0)
        for waiter in [await first, await second, late] {
            #expect(!waiter.served)
            #expect(waiter.waited >= .milliseconds(500), "waited \(waiter.waited)")
        }
        #expect(await holder.served)
        // Nobody waits any more: the next caller gets the connection.
        #expect(await ask(holding: 0).served)
        await database.shutdown()
    }

    /// A host that takes the connection and never answers (a PostgreSQL starting up under load, a
    /// dead primary behind a live address) is given up on after the connect timeout, with
    /// `connectionFailed`; libpq alone would wait forever, and every request behind the attempt with it.
    @Test func aHostThatNeverAnswersIsGivenUpOn() async throws {
        let listener = try LoopbackSocket(listening: true)
        defer { listener.close() }
        let database = Database(
            conninfo: "host=127.0.0.1 port=\(listener.port) user=nobody dbname=nothing sslmode=disable", maximumConnections: 1,
            connectTimeout: 2, logger: TestDatabase.logger)
        let began = ContinuousClock.now
        let outcome = await withTaskGroup(of: Result<Int, any Error>?.self) { group in
            group.addTask {
                do { return .success(try await database.withConnection { _ in 0 }) } catch { return .failure(error) }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(90))  // far past the 2 s timeout: only a hang gets here
                return nil
            }
            let first = await group.next()!
            group.cancelAll()
            return first
        }
        let took = ContinuousClock.now - began
        guard case .failure(let error as PostgresError) = outcome else {
            Issue.record("the attempt did not fail: \(String(describing: outcome)) after \(took)")
            return
        }
        #expect(error.kind == .connectionFailed, "\(error)")
        #expect(took >= .seconds(1.5), "gave up after the timeout, not before: \(took)")
        await database.shutdown()
    }

    /// COPY's text format escapes what would end a field or a row; nil and the text `\N` stay apart.
    @Test func copyRoundTripsAnyTextAndRefusesNUL() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1)
        let texts: [String?] = [
            "tab\there", "line\nbreak", "carriage\r\nreturn", "back\\slash", "\\N", "\\\\N", "\\", "N", "", nil,
            "Ünïcödé 🌌 日本語 עברית e\u{301}", "trailing\\", "'quoted' \"double\" ;",
        ]
        let copied = try await database.withConnection { connection in
            try connection.execute(unsafeSQL: "CREATE TABLE copied (n integer, t text)")
            return try connection.copy(
                into: "copied", columns: ["n", "t"], rows: texts.enumerated().map { [String($0.offset), $0.element] })
        }
        #expect(copied == texts.count)
        let back = try await database.withConnection { connection in
            try connection.query("SELECT t FROM copied ORDER BY n").map { row throws(PostgresError) in try row.optionalString("t") }
        }
        #expect(back == texts)

        // Many rows go in several pieces; a NUL in the last cancels the whole copy, earlier pieces too.
        let many: [[String?]] = (0..<20_000).map { [String(100 + $0), "row \($0)\twith a tab"] }
        #expect(try await database.withConnection { try $0.copy(into: "copied", columns: ["n", "t"], rows: many) } == 20_000)
        let refused: [[String?]] = (0..<20_000).map { [String(-1 - $0), "row \($0)"] } + [["0", "a\u{0}b"]]
        do {
            _ = try await database.withConnection { try $0.copy(into: "copied", columns: ["n", "t"], rows: refused) }
            Issue.record("expected the NUL to be refused")
        } catch let error as PostgresError {
            #expect(error.kind == .invalidParameter && error.sqlState == "22021" && error.description.contains("column t"))
        }
        #expect(try await database.withConnection { try $0.query("SELECT count(*) AS n FROM copied")[0].int("n") } == 20_013)
        await database.shutdown()
    }

    @Test func transactionsRollBackOnError() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1)
        struct Abort: Error {}
        await #expect(throws: Abort.self) {
            try await database.withTransaction { connection in
                try connection.query("INSERT INTO profiles (display_name) VALUES (\("Temp"))")
                throw Abort()
            }
        }
        #expect(try await database.withConnection { try $0.query("SELECT count(*) AS n FROM profiles")[0].int("n") } == 0)
        await database.shutdown()
    }

    @Test func timestampsRoundTripThroughText() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1)
        // Bound to the microsecond, PostgreSQL's precision: before 1970 and after, at a leap day, at
        // the turn of a second.
        for seconds in [1_795_000_000.25, 1_795_000_000.123456, -1_000_000.654321, 951_782_399.999999, 0, 253_402_300_799.5] {
            let moment = Date(timeIntervalSince1970: seconds)
            let back = try await database.withConnection { try $0.query("SELECT \(moment) AS t")[0].date("t") }
            #expect(abs(back.timeIntervalSince(moment)) < 0.000_002, "\(seconds) came back as \(back.timeIntervalSince1970)")
        }
        let text = try await database.withConnection {
            try $0.query("SELECT \(Date(timeIntervalSince1970: 951_782_400.000_5))::text AS t")[0].string("t")
        }
        #expect(text == "2000-02-29 00:00:00.0005+00")
        let whole = try await database.withConnection {
            try $0.query("SELECT '2024-02-29 23:59:59+00'::timestamptz AS t")[0].date("t")
        }
        #expect(whole == Date(timeIntervalSince1970: 1_709_251_199))
        await database.shutdown()
    }

    /// A statement planned per execution is never prepared, so PostgreSQL never settles on a generic
    /// plan for it; the same statement prepared is given one from its sixth run (its cost is flat).
    @Test func aStatementPlannedPerExecutionIsNeverGivenAGenericPlan() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1)
        let lookup: SQL = "SELECT display_name FROM profiles WHERE id = \(UUID())"
        /// Runs `statement` eight times, then counts the connection's prepared lookups and their generic plans.
        let runEightTimes: (SQL) async throws -> (statements: Int64, genericPlans: Int64) = { statement in
            try await database.withConnection { connection in
                for _ in 0..<8 { try connection.query(statement) }
                let row = try connection.query(
                    """
                    SELECT count(*) AS statements, coalesce(sum(generic_plans), 0) AS generic FROM pg_prepared_statements
                    WHERE statement LIKE \("SELECT display_name FROM profiles WHERE id = %")
                    """)[0]
                return (try row.int("statements"), try row.int("generic"))
            }
        }
        let perExecution = try await runEightTimes(lookup.plannedPerExecution())
        #expect(perExecution.statements == 0 && perExecution.genericPlans == 0)
        let prepared = try await runEightTimes(lookup)
        #expect(prepared.statements == 1 && prepared.genericPlans > 0, "the count above would have seen a prepared statement")
        await database.shutdown()
    }
}

/// A connection string handed to a child process (`pg_dump`) without its password, which goes
/// in the child's environment instead: a command line is readable by every user of the machine.
struct ConnectionStringTests {
    @Test(arguments: [
        "postgresql://constellation:s3cr%27t%5C@db.example.org:5433/constellation?sslmode=require",
        "host=db.example.org port=5433 dbname=constellation user=constellation password='s3cr\\'t\\\\' sslmode=require",
    ])
    func aPasswordIsTakenOutAndTheRestKept(_ conninfo: String) throws {
        let (rest, password) = try #require(PostgresConnection.withoutPassword(conninfo))
        #expect(password == "s3cr't\\")
        #expect(!rest.contains("s3cr"), "\(rest)")
        for kept in ["host='db.example.org'", "port='5433'", "dbname='constellation'", "user='constellation'", "sslmode='require'"] {
            #expect(rest.contains(kept), "\(kept) in \(rest)")
        }
        let again = try #require(PostgresConnection.withoutPassword(rest))
        #expect(again.conninfo == rest && again.password == nil, "what is left reads back the same")
    }

    @Test func aStringLibpqCannotReadIsNil() {
        #expect(PostgresConnection.withoutPassword("host='unclosed") == nil)
        #expect(PostgresConnection.withoutPassword("postgresql://") ?? ("?", "?") == ("", nil))
    }
}
