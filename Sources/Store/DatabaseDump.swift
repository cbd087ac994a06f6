import Foundation

/// The database as PostgreSQL's own tools write and read it: `pg_dump` (one consistent snapshot,
/// the custom format) and `pg_restore` (reading an archive into SQL text, never into a database),
/// the installed ones run as child processes (`ToolOutput`). Their calls block: run them where
/// blocking is fine.
public enum DatabaseDump {
    /// Writes the database at `conninfo` (empty: libpq's `PG*` variables) to `file`. A password
    /// in `conninfo` goes to `pg_dump` in its environment, not on its command line (which every
    /// user of the machine can read).
    public static func write(conninfo: String, to file: URL) throws(PostgresError) {
        guard let (rest, password) = PostgresConnection.withoutPassword(conninfo) else {
            throw PostgresError(.connectionFailed, message: "the database's connection string cannot be read")
        }
        try ToolOutput(
            "pg_dump", ["--format=custom", "--no-owner", "--no-privileges", "--file=\(file.path)", "--dbname=\(target(rest))"],
            environment: password.map { ["PGPASSWORD": $0] } ?? [:]
        ).finish()
    }

    /// `pg_restore --list`: the archive's table of contents.
    static func listing(of file: URL) throws(PostgresError) -> String {
        try text(of: ToolOutput("pg_restore", ["--list", file.path]))
    }

    /// The SQL that would build the archive's schema (owners left out, privileges kept).
    static func schemaScript(of file: URL) throws(PostgresError) -> String {
        try text(of: ToolOutput("pg_restore", ["--schema-only", "--no-owner", "--file=-", file.path]))
    }

    /// The SQL that would load the data of the archive's entries `entries`, in that order: the
    /// caller reads it to the end and calls `finish()`, or `close()`.
    static func dataScript(of file: URL, entries: [Int]) throws(PostgresError) -> ToolOutput {
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("constellation-uselist-\(UUID().uuidString)")
        do {
            try Data(entries.map { "\($0);\n" }.joined().utf8).write(to: list)
        } catch {
            throw PostgresError(.clientTool, message: "cannot write \(list.path): \(error.localizedDescription)")
        }
        return try ToolOutput("pg_restore", ["--data-only", "--use-list=\(list.path)", "--file=-", file.path]) {
            try? FileManager.default.removeItem(at: list)
        }
    }

    private static func text(of output: ToolOutput) throws(PostgresError) -> String {
        let text = output.text()
        try output.finish()
        return text
    }

    /// Whether the database holds no table, view, sequence or function of its own.
    public static func isEmpty(_ database: Database) async throws -> Bool {
        try await database.withConnection { connection in try connection.query(emptiness)[0].bool("empty") }
    }

    /// `empty`: whether the database holds no table, view, sequence or function of its own.
    static let emptiness: SQL = """
        SELECT NOT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                           WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
                             AND n.nspname NOT LIKE 'pg_temp%')
           AND NOT EXISTS (SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                           WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')) AS empty
        """

    /// A connection string the tools take: an empty one would mean "no database" to them.
    private static func target(_ conninfo: String) -> String {
        conninfo.isEmpty ? "postgresql://" : conninfo
    }
}
