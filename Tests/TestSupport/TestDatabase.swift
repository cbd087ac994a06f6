import Foundation
import Logging
import NIOPosix
import Store

/// A fresh, migrated database per test suite on the PostgreSQL server that `Tools/test` started
/// (found through libpq's `PG*` variables or `CONSTELLATION_TEST_ADMIN_URL`). Run alone with
/// `swift test`, the first suite starts a private embedded server instead.
public enum TestDatabase {
    /// The repository's root, found from this file's place in it.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let migrations = repositoryRoot.appendingPathComponent("migrations")

    public static let logger: Logger = {
        var logger = Logger(label: "constellation.tests")
        logger.logLevel = .warning
        return logger
    }()

    /// A connection string for a new, empty database named `test_<random>`.
    public static func createEmpty() async throws -> String {
        try await create(from: nil)
    }

    /// A connection string for a new, empty database owned by `role` and connecting as it: a role
    /// that is no superuser (made if missing), as the server's role should be.
    public static func createEmpty(ownedBy role: String) async throws -> String {
        let admin = try await adminConninfo.value
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let database = Database(conninfo: admin, maximumConnections: 1, logger: logger)
        try await database.withConnection { connection in
            // Roles are the cluster's: tests running at once may make the same one.
            try? connection.execute(unsafeSQL: "CREATE ROLE \(role) LOGIN NOSUPERUSER")
            try connection.execute(unsafeSQL: "CREATE DATABASE \(name) OWNER \(role)")
        }
        await database.shutdown()
        return admin + " dbname=\(name) user=\(role)"
    }

    /// A new database that is a copy of the one `conninfo` names (nothing may be connected to it),
    /// connecting as the administrator.
    public static func createCopy(of conninfo: String) async throws -> String {
        guard let name = conninfo.split(separator: " ").last(where: { $0.hasPrefix("dbname=test_") })?.dropFirst("dbname=".count) else {
            throw NotATestDatabase(conninfo: conninfo)
        }
        return try await create(from: String(name))
    }

    /// A new database with every migration applied, and its connection string. Tests wait for a
    /// busy pool for a minute unless they are about that wait: hundreds of tests share two cores.
    public static func createMigrated(
        maximumConnections: Int = 8, connectionWait: Duration = .seconds(60), statementTimeout: Duration? = nil
    ) async throws -> (Database, String) {
        let conninfo = try await create(from: try await migratedTemplate.value)
        let database = Database(
            conninfo: conninfo, maximumConnections: maximumConnections, connectionWait: connectionWait,
            statementTimeout: statementTimeout, logger: logger)
        return (database, conninfo)
    }

    /// Closes the database `conninfo` names (one `createEmpty`/`createMigrated` made) to every
    /// connection, cutting those open: an outage its users see as the database gone. `false` opens it again.
    public static func closeToConnections(_ conninfo: String, _ closed: Bool = true) async throws {
        guard let name = conninfo.split(separator: " ").last(where: { $0.hasPrefix("dbname=test_") })?.dropFirst("dbname=".count) else {
            throw NotATestDatabase(conninfo: conninfo)
        }
        let database = Database(conninfo: try await adminConninfo.value, maximumConnections: 1, logger: logger)
        try await database.withConnection { connection in
            try connection.execute(unsafeSQL: "ALTER DATABASE \(name) ALLOW_CONNECTIONS \(!closed)")
            if closed {
                try connection.execute(unsafeSQL: "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'")
            }
        }
        await database.shutdown()
    }

    /// A new database named `test_<random>`, a copy of `template` if given.
    private static func create(from template: String?) async throws -> String {
        let admin = try await adminConninfo.value
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let database = Database(conninfo: admin, maximumConnections: 1, logger: logger)
        let copying = template.map { " TEMPLATE \($0)" } ?? ""
        try await database.withConnection { try $0.execute(unsafeSQL: "CREATE DATABASE \(name)\(copying)") }
        await database.shutdown()
        return admin + " dbname=\(name)"
    }

    /// The name of a database migrated once for this test process, copied for each test (five
    /// times faster than migrating each): nothing stays connected to it, as a template requires.
    private static let migratedTemplate = Task<String, any Error> {
        let conninfo = try await create(from: nil)
        let database = Database(conninfo: conninfo, maximumConnections: 1, logger: logger)
        try await Migrator(directory: migrations, logger: logger).migrate(database)
        await database.shutdown()
        return String(conninfo[conninfo.range(of: "dbname=", options: .backwards)!.upperBound...])
    }

    private static let adminConninfo = Task<String, any Error> {
        if let url = ProcessInfo.processInfo.environment["CONSTELLATION_TEST_ADMIN_URL"] { return url }
        if ProcessInfo.processInfo.environment["PGHOST"] != nil { return "dbname=postgres" }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("constellation-test-\(getpid())")
        let server = EmbeddedPostgres(dataDirectory: directory, logger: logger)
        // Started from a thread that lives as long as the process: the server dies with its starting thread.
        _ = try await NIOThreadPool.singleton.runIfActive { try server.start() }
        return server.administrativeConnectionString(database: "postgres")
    }
}

/// A connection string that names no database `TestDatabase` made.
public struct NotATestDatabase: Error, CustomStringConvertible {
    public let conninfo: String
    public var description: String { "not a test database: \(conninfo)" }
}
