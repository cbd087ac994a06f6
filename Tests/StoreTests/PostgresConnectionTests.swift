import Foundation
import Store
import Testing
import TestSupport

@Suite struct PostgresConnectionTests {
    @Test func parametersAreBoundNeverSpliced() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 2)
        let hostile = "x'); DROP TABLE profiles; --"
        let echoed = try await database.withConnection { try $0.query("SELECT $1::text AS v", [hostile])[0].string("v") }
        #expect(echoed == hostile)
        let nullable = try await database.withConnection { try $0.query("SELECT $1::text AS v", [nil])[0].optionalString("v") }
        #expect(nullable == nil)
        await database.shutdown()
    }

    @Test func serverErrorsCarryTheirStateButNotTheQuery() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1)
        do {
            _ = try await database.withConnection { try $0.query("SELECT * FROM no_such_table WHERE secret = $1", ["s3cret"]) }
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
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 2)
        let backends = try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<30 {
                group.addTask { try await database.withConnection { try $0.query("SELECT pg_backend_pid() AS pid, pg_sleep(0.01)")[0].int("pid") } }
            }
            return try await group.reduce(into: Set<Int64>()) { $0.insert($1) }
        }
        #expect(backends.count <= 2)
        #expect(backends.count >= 1)
        await database.shutdown()
    }

    @Test func transactionsRollBackOnError() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1)
        struct Abort: Error {}
        await #expect(throws: Abort.self) {
            try await database.withTransaction { connection in
                try connection.query("INSERT INTO profiles (display_name) VALUES ($1)", ["Temp"])
                throw Abort()
            }
        }
        #expect(try await database.withConnection { try $0.query("SELECT count(*) AS n FROM profiles")[0].int("n") } == 0)
        await database.shutdown()
    }

    @Test func timestampsRoundTripThroughText() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1)
        let moment = Date(timeIntervalSince1970: 1_795_000_000.25)
        let back = try await database.withConnection { try $0.query("SELECT $1::timestamptz AS t", [moment])[0].date("t") }
        #expect(abs(back.timeIntervalSince(moment)) < 0.001)
        let whole = try await database.withConnection {
            try $0.query("SELECT '2024-02-29 23:59:59+00'::timestamptz AS t")[0].date("t")
        }
        #expect(whole == Date(timeIntervalSince1970: 1_709_251_199))
        await database.shutdown()
    }
}
