import Foundation

/// The database as PostgreSQL's own tools write and read it: `pg_dump` (one consistent snapshot,
/// the custom format) and `pg_restore` (in one transaction: all or nothing), the installed ones
/// run as child processes. Their calls block: run them where blocking is fine.
public enum DatabaseDump {
    /// Writes the database at `conninfo` (empty: libpq's `PG*` variables) to `file`.
    public static func write(conninfo: String, to file: URL) throws(PostgresError) {
        try run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", "--file=\(file.path)", "--dbname=\(target(conninfo))"])
    }

    /// Restores `file` into the (empty) database at `conninfo`; a failure leaves it as it was.
    public static func restore(_ file: URL, conninfo: String) throws(PostgresError) {
        try run(
            "pg_restore",
            ["--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", "--dbname=\(target(conninfo))", file.path])
    }

    /// Whether the database holds no table, view, sequence or function of its own.
    public static func isEmpty(_ database: Database) async throws -> Bool {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT NOT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                                   WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
                                     AND n.nspname NOT LIKE 'pg_temp%')
                   AND NOT EXISTS (SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                                   WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')) AS empty
                """)[0].bool("empty")
        }
    }

    /// A connection string the tools take: an empty one would mean "no database" to them.
    private static func target(_ conninfo: String) -> String {
        conninfo.isEmpty ? "postgresql://" : conninfo
    }

    private static func run(_ tool: String, _ arguments: [String]) throws(PostgresError) {
        let process = Process()
        process.executableURL = try EmbeddedPostgres.binaryDirectory(holding: tool).appendingPathComponent(tool)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw PostgresError(.clientTool, message: "cannot run \(tool): \(error.localizedDescription)")
        }
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let lines = String(decoding: said, as: UTF8.self).split(whereSeparator: \.isNewline)
            throw PostgresError(.clientTool, message: "\(tool) failed: \(lines.prefix(3).joined(separator: " "))")
        }
    }
}
