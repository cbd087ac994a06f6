import Foundation
import Logging
import NIOPosix
import ServiceLifecycle
import Store

/// Chooses the database: `DATABASE_URL`, else libpq's `PG*` variables, else an embedded server
/// in the data directory (unless `CONSTELLATION_EMBEDDED_DATABASE=no`, as an installed service
/// sets it); and finds the migrations.
struct DatabaseSetup {
    let environment: [String: String]
    let dataDirectory: URL
    let logger: Logger

    /// Refuses at once, before anything is written, a setup that names no database where an
    /// embedded one is forbidden.
    init(environment: [String: String], dataDirectory: URL, logger: Logger) throws {
        let embedded = environment["CONSTELLATION_EMBEDDED_DATABASE"] ?? "yes"
        guard ["yes", "no"].contains(embedded) else {
            throw SetupError("CONSTELLATION_EMBEDDED_DATABASE is yes or no, not '\(embedded)'")
        }
        if embedded == "no", !Self.namesAServer(environment) {
            throw SetupError(
                "DATABASE_URL is not set, and CONSTELLATION_EMBEDDED_DATABASE=no forbids starting a PostgreSQL of our own: "
                    + "set DATABASE_URL (an installed service reads it from /etc/constellation/constellation.conf)")
        }
        self.environment = environment
        self.dataDirectory = dataDirectory
        self.logger = logger
    }

    /// Whether `DATABASE_URL` or one of libpq's `PG*` variables names a server (empty ones do not).
    private static func namesAServer(_ environment: [String: String]) -> Bool {
        ["DATABASE_URL", "PGHOST", "PGDATABASE", "PGSERVICE", "PGPORT"].contains { !(environment[$0] ?? "").isEmpty }
    }

    /// The connection string and, when embedded, the server to stop at the end. With
    /// `sharingRunningServer`, an embedded server already running in the data directory (a
    /// serving `constellation-server`'s) is used as it is, and left running.
    private func connect(sharingRunningServer: Bool) throws -> (conninfo: String, embedded: EmbeddedPostgres?) {
        if let url = environment["DATABASE_URL"], !url.isEmpty {
            logger.info("using the PostgreSQL server in DATABASE_URL")
            return (url, nil)
        }
        if Self.namesAServer(environment) {
            logger.info("using the PostgreSQL server named by PG* variables")
            return ("", nil)
        }
        let embedded = EmbeddedPostgres(dataDirectory: dataDirectory, logger: logger)
        if sharingRunningServer, let running = embedded.connectionStringIfRunning() { return (running, nil) }
        return (try embedded.start(), embedded)
    }

    /// Opens the database (starting the embedded server if it is the one), lends it to `body`,
    /// then closes it and stops the embedded server, however `body` ends. With
    /// `sharingRunningServer`, an embedded server already running in the data directory (a serving
    /// `constellation-server`'s) is used as it is, and left running; without it, such a server is
    /// refused (`PostgresError.alreadyRunning`) and left alone.
    func withDatabase<T>(
        maximumConnections: Int, connectionWait: Duration = .seconds(5), statementTimeout: Duration? = nil, sharingRunningServer: Bool,
        _ body: (Database) async throws -> T
    ) async throws -> T {
        try await withDatabase(
            maximumConnections: maximumConnections, connectionWait: connectionWait, statementTimeout: statementTimeout,
            sharingRunningServer: sharingRunningServer
        ) { database, _ in try await body(database) }
    }

    /// As `withDatabase`, lending the connection string too (for PostgreSQL's own tools).
    func withDatabase<T>(
        maximumConnections: Int, connectionWait: Duration = .seconds(5), statementTimeout: Duration? = nil, sharingRunningServer: Bool,
        _ body: (Database, String) async throws -> T
    ) async throws -> T {
        let (conninfo, embedded) = try await connect(sharingRunningServer: sharingRunningServer)
        let database = Database(
            conninfo: conninfo, maximumConnections: maximumConnections, connectionWait: connectionWait,
            statementTimeout: statementTimeout, logger: logger)
        do {
            let value = try await body(database, conninfo)
            await Self.shutdown(database, embedded)
            return value
        } catch {
            await Self.shutdown(database, embedded)
            throw error
        }
    }

    /// For a server, which runs until it is stopped: the pool, and the services it stands on
    /// (the embedded PostgreSQL, if it is the one, started here and refused beside a running
    /// one), for the application's service group to stop in order.
    func databaseForServing(
        maximumConnections: Int, connectionWait: Duration, statementTimeout: Duration?
    ) async throws -> (database: Database, underlying: [any Service]) {
        let (conninfo, embedded) = try await connect(sharingRunningServer: false)
        let database = Database(
            conninfo: conninfo, maximumConnections: maximumConnections, connectionWait: connectionWait,
            statementTimeout: statementTimeout, logger: logger)
        return (database, embedded.map { [$0] } ?? [])
    }

    /// As `connect`, on a thread where blocking is fine: starting PostgreSQL takes a moment.
    private func connect(sharingRunningServer: Bool) async throws -> (conninfo: String, embedded: EmbeddedPostgres?) {
        try await NIOThreadPool.singleton.runIfActive { try connect(sharingRunningServer: sharingRunningServer) }
    }

    /// A pool on the streaming replica in `DATABASE_READ_URL`, if it is set: the read-heavy
    /// endpoints read there. The caller shuts it down.
    func replica(maximumConnections: Int, connectionWait: Duration, statementTimeout: Duration?) -> Database? {
        guard let url = environment["DATABASE_READ_URL"], !url.isEmpty else { return nil }
        logger.info("reading networks, statistics, growth and summaries from the replica in DATABASE_READ_URL")
        return Database(
            conninfo: url, maximumConnections: maximumConnections, connectionWait: connectionWait,
            statementTimeout: statementTimeout, readsOnly: true, logger: logger)
    }

    /// Closes the pool, then stops the embedded server if there is one.
    private static func shutdown(_ database: Database, _ embedded: EmbeddedPostgres?) async {
        await database.shutdown()
        if let embedded { try? await NIOThreadPool.singleton.runIfActive { embedded.stop() } }
    }

    /// `CONSTELLATION_MIGRATIONS_DIR`, else the migrations of the resource bundle beside the
    /// binary (`Migrator.bundled`), else an installed `share/constellation/migrations` above it
    /// (the Debian package's `/usr/share/constellation/migrations`).
    func migrationsDirectory() throws -> URL {
        if let path = environment["CONSTELLATION_MIGRATIONS_DIR"], !path.isEmpty { return URL(fileURLWithPath: path) }
        if let bundled = Migrator.bundled { return bundled }
        var directory = Migrator.executableFolder
        for _ in 0..<3 {
            let installed = directory.appendingPathComponent("share/constellation/migrations")
            if FileManager.default.fileExists(atPath: installed.appendingPathComponent("0001_init.sql").path) { return installed }
            directory.deleteLastPathComponent()
        }
        throw SetupError(
            "cannot find the migrations: install the binary with its resource bundles (Constellation_Store.resources) or set CONSTELLATION_MIGRATIONS_DIR"
        )
    }
}

struct SetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
