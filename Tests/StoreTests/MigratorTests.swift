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
