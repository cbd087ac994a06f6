import Foundation
import NIOPosix
import Store
import TestSupport
import Testing

/// The embedded cluster's roles: Constellation connects as a role that owns its database and is no
/// superuser; a cluster made before that role existed is moved to it at its next start, once.
@Suite(.tier(.database)) struct ApplicationRoleTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roles-\(UUID().uuidString)")

    /// A cluster as the code before the application role made it: its bootstrap superuser owns the
    /// database and every table, sequence and function (the migrations ran as it), with data.
    /// Made here from a new cluster by taking the role's ownership back and dropping the role.
    private func clusterOfTheOldLayout(_ cluster: EmbeddedPostgres) async throws {
        let admin = cluster.administrativeConnectionString(database: EmbeddedPostgres.databaseName)
        try await Self.run(admin) { connection in
            try connection.execute(unsafeSQL: "ALTER DATABASE constellation OWNER TO \(EmbeddedPostgres.administrativeRole)")
        }
        let database = Database(conninfo: admin, maximumConnections: 1, logger: TestDatabase.logger)
        try await Migrator(directory: TestDatabase.migrations, logger: TestDatabase.logger).migrate(database)
        _ = try await database.withConnection { connection in
            try connection.query("INSERT INTO profiles (id, display_name) VALUES (gen_random_uuid(), 'Ada')")
        }
        await database.shutdown()
        try await Self.run(cluster.administrativeConnectionString(database: "postgres")) { connection in
            try connection.execute(unsafeSQL: "DROP ROLE \(EmbeddedPostgres.applicationRole)")
        }
    }

    @Test func aClusterOfTheOldLayoutIsMovedToTheApplicationRoleOnceAndKeepsItsData() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = EmbeddedPostgres(dataDirectory: directory, logger: TestDatabase.logger)
        _ = try await NIOThreadPool.singleton.runIfActive { try cluster.start() }
        try await clusterOfTheOldLayout(cluster)
        let before = try await Self.notOwnedByTheApplication(cluster)
        #expect(before > 20, "the old layout: the superuser owns the objects (\(before))")
        try await NIOThreadPool.singleton.runIfActive { cluster.stop() }

        for start in 1...2 {
            let conninfo = try await NIOThreadPool.singleton.runIfActive { try cluster.start() }
            #expect(try await Self.notOwnedByTheApplication(cluster) == 0, "start \(start): every object is the application's")
            let database = Database(conninfo: conninfo, maximumConnections: 1, logger: TestDatabase.logger)
            let row = try await database.withConnection { connection in
                try connection.query(
                    """
                    SELECT current_user AS role, current_setting('is_superuser') AS superuser,
                           (SELECT count(*) FROM profiles) AS people
                    """)[0]
            }
            #expect(try row.string("role") == EmbeddedPostgres.applicationRole && row.string("superuser") == "off")
            #expect(try row.int("people") == Int64(start), "the data stayed, and the application writes")
            try await database.withConnection { connection in
                try connection.query("INSERT INTO profiles (id, display_name) VALUES (gen_random_uuid(), 'Bob')")
            }
            #expect(try await Migrator(directory: TestDatabase.migrations, logger: TestDatabase.logger).migrate(database).isEmpty)
            // What a superuser could do, and the application role cannot: run a program.
            await #expect(throws: PostgresError.self) {
                try await database.withConnection { try $0.execute(unsafeSQL: "COPY (SELECT 1) TO PROGRAM 'true'") }
            }
            await database.shutdown()
            try await NIOThreadPool.singleton.runIfActive { cluster.stop() }
        }
    }

    /// How many tables, sequences, functions of `public`, and databases named constellation, the
    /// application role does not own.
    private static func notOwnedByTheApplication(_ cluster: EmbeddedPostgres) async throws -> Int64 {
        try await run(cluster.administrativeConnectionString(database: EmbeddedPostgres.databaseName)) { connection in
            try connection.query(
                """
                SELECT (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'S', 'v', 'm')
                          AND c.relowner IS DISTINCT FROM (SELECT oid FROM pg_roles WHERE rolname = 'constellation_app'))
                     + (SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                        WHERE n.nspname = 'public' AND p.proowner IS DISTINCT FROM (SELECT oid FROM pg_roles WHERE rolname = 'constellation_app'))
                     + (SELECT count(*) FROM pg_database
                        WHERE datname = 'constellation' AND datdba IS DISTINCT FROM (SELECT oid FROM pg_roles WHERE rolname = 'constellation_app'))
                       AS n
                """)[0].int("n")
        }
    }

    @discardableResult
    private static func run<T: Sendable>(_ conninfo: String, _ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T
    {
        let database = Database(conninfo: conninfo, maximumConnections: 1, logger: TestDatabase.logger)
        let value = try await database.withConnection(body)
        await database.shutdown()
        return value
    }
}
