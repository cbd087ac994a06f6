import Foundation
import Logging

/// Applies the plain SQL files of a directory (`0001_init.sql`, `0002_….sql`) in order, each in
/// its own transaction, recording them in `schema_migrations`. A session advisory lock makes
/// servers that start at once take turns; a changed file that was already applied is an error.
public struct Migrator: Sendable {
    public let directory: URL
    private let logger: Logger
    /// An arbitrary constant that names the migration lock.
    static let lockKey: Int64 = 0x436F_6E73_7465_6C6C

    public init(directory: URL, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    /// The migrations this build carries in its resource bundle (`Sources/Store/Migrations`, which
    /// the repository's `migrations` links to), beside the running binary (or the binary a link on
    /// the PATH names); nil if the bundle was not installed with it.
    public static var bundled: URL? {
        [Bundle.main.bundleURL, executableFolder].map { $0.appendingPathComponent("Constellation_Store.resources/Migrations") }
            .first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("0001_init.sql").path) }
    }

    /// The folder of the running binary, links resolved (`arguments[0]` is only a name when the
    /// shell found it on the PATH).
    public static var executableFolder: URL {
        (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The migration files, sorted by name.
    public func migrations() throws(PostgresError) -> [(version: String, sql: String)] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw PostgresError(.migration, message: "cannot list migrations in \(directory.path): \(error.localizedDescription)")
        }
        var migrations: [(String, String)] = []
        for name in names.filter({ $0.hasSuffix(".sql") }).sorted() {
            guard let sql = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else {
                throw PostgresError(.migration, message: "cannot read migration \(name)")
            }
            migrations.append((String(name.dropLast(4)), sql))
        }
        return migrations
    }

    /// The versions `database` has applied, in order (none when it has no schema yet).
    public static func applied(_ database: Database) async throws -> [String] {
        try await database.withConnection { connection in
            guard try connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")[0].bool("present") else {
                return []
            }
            return try connection.query("SELECT version FROM schema_migrations ORDER BY version").map { try $0.string("version") }
        }
    }

    /// Applies what is missing (up to `version`, if given) and returns the versions applied now.
    @discardableResult
    public func migrate(_ database: Database, through version: String? = nil) async throws -> [String] {
        let all = try migrations()
        let migrations = version.flatMap { version in all.firstIndex { $0.version == version } }.map { Array(all[...$0]) } ?? all
        let applied = try await database.withConnection { connection in
            // Migrations (and waiting for another instance's) may take longer than any statement should.
            let timeout = try connection.query("SELECT current_setting('statement_timeout') AS timeout")[0].string("timeout")
            try connection.query("SELECT set_config('statement_timeout', '0', false)")
            defer { _ = try? connection.query("SELECT set_config('statement_timeout', \(timeout), false)") }
            try connection.query("SELECT pg_advisory_lock(\(Self.lockKey))")
            defer { _ = try? connection.query("SELECT pg_advisory_unlock(\(Self.lockKey))") }
            return try Self.applyMissing(migrations, on: connection)
        }
        for version in applied { logger.info("applied migration", metadata: ["db.migration": "\(version)"]) }
        return applied
    }

    /// Builds the schema of `migrations` (this directory's first ones) on a database that has
    /// none, inside the caller's transaction on `connection`: a restore builds its schema and loads
    /// its data in one transaction.
    package static func build(_ migrations: [(version: String, sql: String)], on connection: PostgresConnection) throws {
        try connection.execute(unsafeSQL: createTable)
        try apply(migrations, on: connection)
    }

    /// Applies `migrations` and records them, inside the caller's transaction on `connection`.
    package static func apply(_ migrations: [(version: String, sql: String)], on connection: PostgresConnection) throws {
        for migration in migrations {
            try connection.execute(unsafeSQL: migration.sql)
            try connection.query(
                "INSERT INTO schema_migrations (version, checksum) VALUES (\(migration.version), md5(\(migration.sql)))")
        }
    }

    /// The SQLSTATE a migration raises when rows break a rule it adds (0022): it names them and
    /// changes nothing.
    public static let rowsBreakRules = "CNR02"

    private static let createTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version text PRIMARY KEY,
            checksum text NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now()
        )
        """

    private static func applyMissing(_ migrations: [(version: String, sql: String)], on connection: PostgresConnection) throws -> [String] {
        try connection.execute(unsafeSQL: createTable)
        var done: [String: String] = [:]
        for row in try connection.query("SELECT version, checksum FROM schema_migrations") {
            done[try row.string("version")] = try row.string("checksum")
        }
        var applied: [String] = []
        for migration in migrations {
            if let checksum = done[migration.version] {
                let same = try connection.query("SELECT md5(\(migration.sql)) = \(checksum) AS same")
                guard try same.first?.bool("same") == true else {
                    throw PostgresError(.migration, message: "migration \(migration.version) was changed after it was applied")
                }
                continue
            }
            try connection.transaction { connection in
                try connection.execute(unsafeSQL: migration.sql)
                try connection.query(
                    "INSERT INTO schema_migrations (version, checksum) VALUES (\(migration.version), md5(\(migration.sql)))")
            }
            applied.append(migration.version)
        }
        return applied
    }
}
