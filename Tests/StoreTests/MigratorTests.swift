import Foundation
import Store
import TestSupport
import Testing

@Suite(.tier(.database)) struct MigratorTests {
    @Test func migratingTwiceAppliesNothingTheSecondTime() async throws {
        let database = Database(conninfo: try await TestDatabase.createEmpty(), logger: TestDatabase.logger)
        let migrator = Migrator(directory: TestDatabase.migrations, logger: TestDatabase.logger)
        let all = try migrator.migrations().map(\.version)
        #expect(all.first == "0001_init")
        #expect(try await migrator.migrate(database) == all)
        #expect(try await migrator.migrate(database) == [])
        let tables = try await database.withConnection { connection in
            try connection.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1").map {
                try $0.string("tablename")
            }
        }
        #expect(tables.contains("profiles") && tables.contains("connections") && tables.contains("schema_migrations"))
        await database.shutdown()
    }

    /// A cluster whose rows break the rules migration 0022 adds (written before it, by hand): the
    /// migration names them, by table, key and rule, and changes nothing; mended, it applies.
    @Test func aMigrationThatAddsARuleNamesTheRowsThatBreakItAndChangesNothing() async throws {
        let database = Database(conninfo: try await TestDatabase.createEmpty(), logger: TestDatabase.logger)
        let migrator = Migrator(directory: TestDatabase.migrations, logger: TestDatabase.logger)
        try await migrator.migrate(database, through: "0021_event_purge")
        let event = "22222222-2222-4222-8222-222222222222"
        try await database.withConnection {
            try $0.execute(
                unsafeSQL: """
                    INSERT INTO events (id, slug, name, starts_at, ends_at, time_zone, join_code_rotation, purge_on)
                    VALUES ('\(event)', 'long-one', 'Long', '2026-01-01', '2190-01-01', 'UTC', 0, '2190-02-01')
                    """)
        }
        var refusal: PostgresError?
        do { try await migrator.migrate(database) } catch let error as PostgresError { refusal = error }
        let error = try #require(refusal)
        #expect(error.sqlState == Migrator.rowsBreakRules)
        #expect(error.message.contains("events (an event lasts at most 31 days): \(event)"), "\(error.message)")
        #expect(error.message.contains("mend or delete these rows by hand"))
        #expect(try await Migrator.applied(database).last == "0021_event_purge", "nothing of 0022 was applied")
        try await database.withConnection {
            try $0.execute(unsafeSQL: "UPDATE events SET ends_at = '2026-01-02', purge_on = '2026-02-01' WHERE id = '\(event)'")
        }
        #expect(try await migrator.migrate(database).contains("0022_stored_values_keep_the_rules"))
        await database.shutdown()
    }

    /// A row the schema's rules refuse as it is copied in (as a restore copies rows) is named by
    /// its table, its key and the rule's constraint, and nothing of its data is in the error.
    @Test func aRefusedRowIsNamedByTableKeyAndRuleNotByItsData() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1)
        let event = UUID()
        let error = await #expect(throws: PostgresError.self) {
            try await database.withConnection { connection in
                try connection.copy(
                    into: "events", columns: ["id", "slug", "name", "starts_at", "ends_at", "time_zone", "join_code_rotation", "purge_on"],
                    rows: [
                        [
                            event.uuidString, "secret-slug", "Secret Name", "2026-01-01 00:00:00+00", "2190-01-01 00:00:00+00", "UTC", "0",
                            "2190-01-02 00:00:00+00",
                        ]
                    ])
            }
        }
        #expect(error?.isCheckViolation == true && error?.table == "events", "\(String(describing: error))")
        #expect(error?.constraint == "events_last_at_most_31_days")
        #expect(error?.refusedRowKey == event)
        #expect(error.map { !"\($0)".contains("Secret Name") } == true, "no data in the error")
        await database.shutdown()
    }

    /// Every stored time, in every table (those added after migration 0022 too), keeps the years
    /// the server reads: a table that forgot let a restored `made_at` of infinity answer every
    /// screen of its event with an error.
    @Test func everyStoredTimeKeepsTheYearsTheServerReads() async throws {
        let (database, _) = try await TestDatabase.createMigrated(maximumConnections: 1)
        let unruled = try await database.withConnection { connection in
            try connection.query(
                """
                SELECT c.table_name || '.' || c.column_name AS name FROM information_schema.columns c
                WHERE c.table_schema = 'public' AND c.data_type = 'timestamp with time zone' AND c.table_name <> 'schema_migrations'
                  AND NOT EXISTS (SELECT 1 FROM pg_constraint k
                                  WHERE k.conname = left(c.table_name || '_' || c.column_name || '_in_years_1_to_9999', 63))
                ORDER BY 1
                """
            ).map { try $0.string("name") }
        }
        #expect(unruled.isEmpty, "times without the years rule: \(unruled)")
        let columns = try await database.withConnection { connection in
            try connection.query(
                "SELECT count(*) AS n FROM information_schema.columns WHERE table_name = 'event_pictures' AND data_type = 'timestamp with time zone'"
            )[0].int("n")
        }
        #expect(columns == 2, "made_at and lease_until are among those asked")
        await database.shutdown()
    }

    @Test func migratorsStartingAtOnceApplyEachFileOnce() async throws {
        let conninfo = try await TestDatabase.createEmpty()
        let migrator = Migrator(directory: TestDatabase.migrations, logger: TestDatabase.logger)
        let databases = (0..<4).map { _ in Database(conninfo: conninfo, maximumConnections: 1, logger: TestDatabase.logger) }
        let applied = try await withThrowingTaskGroup(of: [String].self) { group in
            for database in databases { group.addTask { try await migrator.migrate(database) } }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(applied.sorted() == (try migrator.migrations().map(\.version)))
        let recorded = try await databases[0].withConnection { try $0.query("SELECT count(*) AS n FROM schema_migrations")[0].int("n") }
        #expect(recorded == Int64(applied.count))
        for database in databases { await database.shutdown() }
    }

    @Test func aMigrationChangedAfterApplyingIsRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("0001_t.sql")
        try "CREATE TABLE t (x int);".write(to: file, atomically: true, encoding: .utf8)
        let database = Database(conninfo: try await TestDatabase.createEmpty(), logger: TestDatabase.logger)
        let migrator = Migrator(directory: directory, logger: TestDatabase.logger)
        try await migrator.migrate(database)
        try "CREATE TABLE t (x bigint);".write(to: file, atomically: true, encoding: .utf8)
        let changed = await #expect(throws: PostgresError.self) { try await migrator.migrate(database) }
        #expect(changed?.kind == .migration)
        await database.shutdown()
    }

    @Test func aFailingMigrationLeavesNothingBehind() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "CREATE TABLE good (x int); CREATE TABLE bad (x nosuchtype);"
            .write(to: directory.appendingPathComponent("0001_bad.sql"), atomically: true, encoding: .utf8)
        let database = Database(conninfo: try await TestDatabase.createEmpty(), logger: TestDatabase.logger)
        let failed = await #expect(throws: PostgresError.self) {
            try await Migrator(directory: directory, logger: TestDatabase.logger).migrate(database)
        }
        #expect(failed?.sqlState == "42704", "the unknown type: \(String(describing: failed))")
        let good = try await database.withConnection { try $0.query("SELECT to_regclass('good') IS NULL AS gone")[0].bool("gone") }
        #expect(good)
        await database.shutdown()
    }
}
