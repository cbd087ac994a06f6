import Foundation
import Logging

/// This binary's schema at a migration, as pg_dump writes it: built by the migrations in a
/// throwaway PostgreSQL cluster of its own, dumped, and the cluster removed. What an archive's
/// dump is compared with, and where the statements a restore runs come from.
struct ReferenceSchema {
    let listing: DumpListing
    /// `DatabaseDump.schemaScript` of the reference, as `comparable` keeps it.
    let schema: [String]
    /// `DatabaseDump.dataScript` of the reference: every table's COPY statement, every sequence's setval.
    let data: String
    /// The tables, each after those its foreign keys refer to.
    let tables: [String]

    /// Builds the schema of `migrations` (this binary's, from the first on) in a throwaway cluster,
    /// and dumps it into `work`.
    /// Blocks for a few seconds: an `initdb`, the migrations, a `pg_dump`.
    static func build(_ migrations: [(version: String, sql: String)], in work: URL, logger: Logger) throws -> ReferenceSchema {
        // A folder of its own: as root, the cluster belongs to the `postgres` account, which cannot enter `work`.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("constellation-reference-\(UUID().uuidString)")
        let cluster = EmbeddedPostgres(dataDirectory: folder, logger: logger)
        defer {
            cluster.stop()
            try? FileManager.default.removeItem(at: cluster.dataDirectory)
        }
        let conninfo = try cluster.start()
        let connection = try PostgresConnection(conninfo: conninfo)
        try connection.transaction { connection in try Migrator.build(migrations, on: connection) }
        let tables = try loadOrder(on: connection)
        let dump = work.appendingPathComponent("reference.dump")
        try DatabaseDump.write(conninfo: conninfo, to: dump)
        let listing = try DumpListing(parsing: try DatabaseDump.listing(of: dump))
        let script = try DatabaseDump.dataScript(of: dump, entries: listing.entries.map(\.id))
        let data = script.text()
        try script.finish()
        return ReferenceSchema(listing: listing, schema: comparable(try DatabaseDump.schemaScript(of: dump)), data: data, tables: tables)
    }

    /// The lines of a schema script that say what the schema is: without blank lines, comments
    /// (they name the versions of the tools), and the fence of psql meta-commands (a random key).
    static func comparable(_ script: String) -> [String] {
        script.split(separator: "\n").map(String.init).filter {
            !$0.hasPrefix("--") && !$0.hasPrefix("\\restrict ") && !$0.hasPrefix("\\unrestrict ")
        }
    }

    /// The tables of `public` in an order that loads each after those its foreign keys refer to
    /// (a table that refers to itself checks its rows at the end of its COPY).
    private static func loadOrder(on connection: PostgresConnection) throws -> [String] {
        let tables = try connection.query(
            """
            SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname
            """
        ).map { try $0.string("name") }
        var refersTo: [String: Set<String>] = [:]
        for row in try connection.query(
            """
            SELECT child.relname AS child, parent.relname AS parent FROM pg_constraint k
            JOIN pg_class child ON child.oid = k.conrelid JOIN pg_class parent ON parent.oid = k.confrelid
            WHERE k.contype = 'f' AND k.conrelid <> k.confrelid
            """)
        {
            refersTo[try row.string("child"), default: []].insert(try row.string("parent"))
        }
        var ordered: [String] = []
        while ordered.count < tables.count {
            guard let next = tables.first(where: { !ordered.contains($0) && refersTo[$0, default: []].isSubset(of: ordered) }) else {
                throw PostgresError(.migration, message: "the schema's foreign keys refer to each other in a circle")
            }
            ordered.append(next)
        }
        return ordered
    }
}
