import Foundation
import Logging

/// A backup's database dump restored without running anything it holds.
///
/// `verify()` compares the dump with this binary's own schema at the backup's migration, as
/// `ReferenceSchema` builds and dumps it, before anything is written: the same entries, the same
/// definitions, the same COPY statements, and nothing else (`RestoreError.foreign`). `load(into:)`
/// then builds the schema from this binary's migrations and loads the dump's rows into it, in
/// one transaction: the only statements run are the migrations, the reference's COPY statements
/// and `setval` with a number. The rows go through the schema's own types and constraints.
public struct DatabaseRestore: Sendable {
    public let dump: URL
    private let migrations: [(version: String, sql: String)]
    /// This binary's migrations after the backup's: applied in the restore's transaction, so
    /// that rows an older release let through meet this release's rules before anything is kept.
    private let later: [(version: String, sql: String)]
    private let reference: ReferenceSchema
    private let listing: DumpListing
    /// Rows by table, as the dump holds them.
    public let rows: [String: Int]

    /// Checks `dump` against the schema of `migrations` (this binary's, from the first to the
    /// backup's last), building that schema in a throwaway cluster inside `work`. Blocks for a few
    /// seconds. Throws `RestoreError` for a dump that is not of that schema.
    public init(
        dump: URL, migrations: [(version: String, sql: String)], later: [(version: String, sql: String)] = [], work: URL, logger: Logger
    ) throws {
        let listing = try DumpListing(parsing: try DatabaseDump.listing(of: dump))
        let reference = try ReferenceSchema.build(migrations, in: work, logger: logger)
        guard listing.serverMajor == reference.listing.serverMajor else {
            throw RestoreError.otherPostgreSQL(dumped: listing.serverMajor, here: reference.listing.serverMajor)
        }
        let (found, expected) = (listing.descriptors, reference.listing.descriptors)
        if let extra = found.first(where: { !expected.contains($0) }) { throw RestoreError.foreign("it holds \(extra)") }
        if let missing = expected.first(where: { !found.contains($0) }) { throw RestoreError.foreign("it lacks \(missing)") }
        if found != expected { throw RestoreError.foreign("it holds an entry twice") }
        let schema = ReferenceSchema.comparable(try DatabaseDump.schemaScript(of: dump))
        if schema != reference.schema {
            let line = zip(schema, reference.schema).first { $0 != $1 }?.0 ?? schema.last ?? ""
            throw RestoreError.foreign("its schema is not this release's, from: \(line.prefix(100))")
        }
        self.dump = dump
        self.migrations = migrations
        self.later = later
        self.reference = reference
        self.listing = listing
        rows = try Self.read(dump, listing: listing, reference: reference)
    }

    /// Restores the dump into `database`, which must hold nothing, in one transaction: builds the
    /// schema of the migrations, loads each table's rows (each after those its foreign keys refer
    /// to) and the sequences, checks that the migrations the dump records are this binary's,
    /// applies the later ones and checks every row by `rules`. A row that breaks a rule, the
    /// schema's or one of `rules`, is `RestoreError.breaksRules`, naming its table, key and rule.
    /// Then checks what was committed, table by table, and removes it all if that fails. Refuses
    /// a connection as a superuser unless `allowingSuperuser`. Returns the rows per table.
    @discardableResult
    public func load(into database: Database, allowingSuperuser: Bool, rules: [StoredValueRule] = []) async throws -> [String: Int] {
        try await database.withConnection { [self] connection in
            let role = try connection.query("SELECT current_user AS role, current_setting('is_superuser') = 'on' AS superuser")[0]
            if try role.bool("superuser"), !allowingSuperuser { throw RestoreError.superuser(role: try role.string("role")) }
            try connection.transaction { connection in
                // Restores (and migrations) into one database take turns: the second finds the first's tables.
                try connection.query("SELECT pg_advisory_xact_lock(\(Migrator.lockKey))")
                guard try connection.query(DatabaseDump.emptiness)[0].bool("empty") else { throw RestoreError.notEmpty }
                do {
                    try write(on: connection)
                    try Migrator.apply(later, on: connection)
                } catch let error as PostgresError {
                    // Matched inside the catch: a `catch … where` in async code never finished a Swift 6.3 release build.
                    guard error.isCheckViolation || error.sqlState == Migrator.rowsBreakRules else { throw error }
                    throw RestoreError.breaksRules(Self.describe(error))
                }
                let broken = try rules.compactMap { rule in
                    let keys = try rule.breakingKeys(on: connection)
                    return keys.isEmpty ? nil : "\(rule.table) \(keys.joined(separator: ", ")) (\(rule.rule))"
                }
                if !broken.isEmpty { throw RestoreError.breaksRules(broken.joined(separator: "; ")) }
            }
        }
        do {
            try await check(database)
        } catch {
            try? await Self.removeEverything(from: database)
            throw error
        }
        return rows
    }

    /// Statistics for every table just loaded, before the server's first query is planned: once
    /// the restore is whole (its keys in place too), for it takes a while and may be cut short.
    public static func analyze(_ database: Database) async throws {
        try await database.withConnection { try $0.execute(unsafeSQL: "ANALYZE") }
    }

    private func write(on connection: PostgresConnection) throws {
        try Migrator.build(migrations, on: connection)
        let recorded = try Self.recordedMigrations(on: connection)
        try connection.execute(unsafeSQL: "DELETE FROM schema_migrations")
        var script = DataScript(reference: reference.data)
        for table in reference.tables {
            guard let entry = listing.id(of: "TABLE DATA public \(table)") else {
                throw RestoreError.foreign("it lacks the rows of \(table)")
            }
            let output = try DatabaseDump.dataScript(of: dump, entries: [entry])
            defer { output.close() }
            while let line = output.nextLine() {
                switch try script.read(line) {
                case .nothing: continue
                case .copy(let copied, let statement) where copied == table:
                    let copiedRows = try connection.copy(statement) { write in
                        while let line = output.nextLine() {
                            guard case .row(let row) = try script.read(line) else { return }  // the end of the rows
                            try write(row)
                            try write(Self.newline)
                        }
                        throw RestoreError.foreign("its data ends inside the rows of \(table)")
                    }
                    guard copiedRows == rows[table] else {
                        throw RestoreError.checkFailed("\(table) took \(copiedRows) rows of \(rows[table] ?? 0)")
                    }
                default: throw RestoreError.foreign("the rows of \(table) come with another statement")
                }
            }
            try output.finish()
        }
        let sequences = listing.entries.filter { $0.descriptor.hasPrefix("SEQUENCE SET ") }.map(\.id)
        let output = try DatabaseDump.dataScript(of: dump, entries: sequences)
        defer { output.close() }
        while let line = output.nextLine() {
            switch try script.read(line) {
            case .nothing: continue
            case .setval(let sequence, let value, let called):
                // A sequence near its maximum would fail every insert after it (every scan, for one).
                guard value <= Self.highestSequenceValue else {
                    throw RestoreError.breaksRules("the sequence \(sequence) stands at \(value), beyond 2^62")
                }
                try connection.query("SELECT setval(\(sequence)::regclass, \(value), \(called))")
            default: throw RestoreError.foreign("its sequences come with another statement")
            }
        }
        try output.finish()
        let restored = try Self.recordedMigrations(on: connection)
        guard restored == recorded else {
            throw RestoreError.foreign(
                "the migrations it records (\(restored.map(\.version).joined(separator: ", "))) are not this release's")
        }
    }

    private static let newline: ArraySlice<UInt8> = [UInt8(ascii: "\n")]

    /// The most a restored sequence may stand at: far below the bigint maximum, more rows than any
    /// server adds (as migration 0027 bounds the counters).
    private static let highestSequenceValue: Int64 = 1 << 62

    /// A refused row as its table, key and rule (a check constraint's name says its rule), or a
    /// migration's account of the rows that break its rules: never the row's data.
    private static func describe(_ error: PostgresError) -> String {
        guard error.isCheckViolation else { return error.message }
        let key = error.refusedRowKey.map { " \($0.uuidString.lowercased())" } ?? ""
        return "\(error.table ?? "a table")\(key) (\(error.constraint ?? "a check"))"
    }

    /// The migrations `schema_migrations` records, with their checksums.
    private static func recordedMigrations(on connection: PostgresConnection) throws -> [Recorded] {
        try connection.query("SELECT version, checksum FROM schema_migrations ORDER BY version").map {
            Recorded(version: try $0.string("version"), checksum: try $0.string("checksum"))
        }
    }

    private struct Recorded: Equatable {
        let version: String
        let checksum: String
    }

    /// Counts what was committed: every table holds the rows the dump has for it.
    private func check(_ database: Database) async throws {
        let counts = try await database.withConnection { [reference] connection in
            try reference.tables.map { table in
                (table, try connection.query("SELECT count(*) AS n FROM \(unsafeSQL: "public.\(table)")")[0].int("n"))
            }
        }
        for (table, count) in counts {
            // The migrations applied after the backup's are recorded beside its own.
            let expected = (rows[table] ?? 0) + (table == "schema_migrations" ? later.count : 0)
            if Int(count) != expected { throw RestoreError.checkFailed("\(table) holds \(count) rows, the backup \(expected)") }
        }
    }

    /// Drops every table, sequence and routine in `public`: what a restore made in a database that
    /// held nothing before it.
    public static func removeEverything(from database: Database) async throws {
        try await database.withConnection { connection in
            try connection.execute(
                unsafeSQL: """
                    DO $$
                    DECLARE item record;
                    BEGIN
                        FOR item IN SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                                    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') LOOP
                            EXECUTE format('DROP TABLE IF EXISTS %s CASCADE', item.name);
                        END LOOP;
                        FOR item IN SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                                    WHERE n.nspname = 'public' AND c.relkind = 'S' LOOP
                            EXECUTE format('DROP SEQUENCE IF EXISTS %s CASCADE', item.name);
                        END LOOP;
                        FOR item IN SELECT p.oid::regprocedure AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                                    WHERE n.nspname = 'public' LOOP
                            EXECUTE format('DROP ROUTINE IF EXISTS %s CASCADE', item.name);
                        END LOOP;
                    END $$
                    """)
        }
    }

    /// Reads the dump's data script to its end, running nothing: every line must be what a dump of
    /// the reference holds, and every table must be there once. Returns the rows per table.
    private static func read(_ dump: URL, listing: DumpListing, reference: ReferenceSchema) throws -> [String: Int] {
        let entries = listing.entries.filter { $0.descriptor.hasPrefix("TABLE DATA ") || $0.descriptor.hasPrefix("SEQUENCE SET ") }
        let output = try DatabaseDump.dataScript(of: dump, entries: entries.map(\.id))
        defer { output.close() }
        var script = DataScript(reference: reference.data)
        var rows: [String: Int] = [:]
        var table: String?
        while let line = output.nextLine() {
            switch try script.read(line) {
            case .copy(let copied, _):
                guard rows[copied] == nil else { throw RestoreError.foreign("its data copies \(copied) twice") }
                rows[copied] = 0
                table = copied
            case .row: rows[table!, default: 0] += 1
            case .nothing, .endOfCopy, .setval: break
            }
        }
        guard script.copying == nil else { throw RestoreError.foreign("its data ends inside the rows of \(table ?? "")") }
        try output.finish()
        if let missing = script.tables.subtracting(rows.keys).first { throw RestoreError.foreign("its data lacks the table \(missing)") }
        return rows
    }
}
