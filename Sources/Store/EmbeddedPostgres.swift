import Foundation
import Logging
import Synchronization

/// A private PostgreSQL server in a data directory, reached over a unix socket only.
///
/// It runs the installed binaries (`initdb`, `postgres`) as a child process in the foreground
/// (no `pg_ctl`: a daemonised postmaster confuses `Process`), as the `postgres` user when
/// started as root (PostgreSQL refuses root), with a parent-death signal so it never outlives
/// us. Its methods block: call them where blocking is fine, and call `start()` from a thread
/// that lives as long as the server should (Linux sends the parent-death signal when the
/// *thread* that started the child exits; `NIOThreadPool` threads and the main thread qualify,
/// the cooperative pool's threads do not).
///
/// If PostgreSQL dies while the server runs, a watcher thread starts it again, with a backoff
/// (1 s, 2 s, 4 s … 30 s) and one log line per attempt; meanwhile the pool's connections fail and
/// requests get 503. The socket folder keeps its name, so the connection string stays valid.
public final class EmbeddedPostgres: Sendable {
    public let dataDirectory: URL
    private let logger: Logger
    private let socketDirectory: SocketDirectory
    private let state = Mutex<State>(State())

    private struct State {
        var process: Process?
        /// The data folder's lock (`DataFolderLock`), held from `start()` to `stop()`.
        var lock: DataFolderLock?
        var stopping = false
        /// Counts `start()` calls: a watcher left from before a `stop()` and a new `start()` retires.
        var generation = 0
    }

    /// The database the embedded server creates for Constellation, owned by `applicationRole`.
    public static let databaseName = "constellation"
    /// The cluster's bootstrap superuser: it creates the roles and the database, and nothing else
    /// connects as it.
    public static let administrativeRole = "constellation"
    /// The role Constellation's commands connect as: it owns the database and everything in it,
    /// and is no superuser (it cannot read or write files, run programs or bypass row checks).
    public static let applicationRole = "constellation_app"

    public init(dataDirectory: URL, logger: Logger) {
        self.dataDirectory = dataDirectory
        self.logger = logger
        socketDirectory = SocketDirectory(for: dataDirectory)
    }

    private var clusterDirectory: URL { dataDirectory.appendingPathComponent("postgres") }
    private var logFile: URL { dataDirectory.appendingPathComponent("postgres.log") }
    /// The log of the run before, kept at each start: it tells why that run ended.
    private var previousLogFile: URL { dataDirectory.appendingPathComponent("postgres.log.1") }

    /// Creates the cluster on first use, starts the server, waits until it answers, and
    /// returns the libpq connection string for the `constellation` database, as the application
    /// role. After `stop()`, it starts the same cluster again, at the same connection string.
    /// Refuses (`alreadyRunning`), touching nothing, while another process's server runs on this
    /// data directory, whether this process can see it or not (another container on the same
    /// volume: `DataFolderLock`). Holding the lock, it knows a `postmaster.pid` that names no
    /// running PostgreSQL of its own to be stale (left by a server killed outright), and removes
    /// it: PostgreSQL would refuse it when its pid has been reused since.
    public func start() throws(PostgresError) -> String {
        if let pid = runningPostmaster() {
            throw PostgresError(
                .alreadyRunning,
                message: "the embedded PostgreSQL in \(dataDirectory.path) is running (pid \(pid)): a constellation-server uses it; "
                    + "stop that server first")
        }
        let lock = try DataFolderLock(dataDirectory)
        state.withLock { $0.lock = lock }
        do {
            return try startLocked()
        } catch {
            state.withLock { $0.lock = nil }
            throw error
        }
    }

    private func startLocked() throws(PostgresError) -> String {
        let lockFile = clusterDirectory.appendingPathComponent("postmaster.pid")
        if FileManager.default.fileExists(atPath: lockFile.path) {
            logger.notice(
                "removed a stale postmaster.pid (PostgreSQL was stopped outright)", metadata: ["db.data_dir": "\(clusterDirectory.path)"])
            try? FileManager.default.removeItem(at: lockFile)
        }
        let binaries = try Self.binaryDirectory()
        let runAs = getuid() == 0 ? try Self.postgresAccount() : nil
        try prepareDirectories(owner: runAs)
        if !FileManager.default.fileExists(atPath: clusterDirectory.appendingPathComponent("PG_VERSION").path) {
            logger.info("creating embedded PostgreSQL cluster", metadata: ["db.data_dir": "\(clusterDirectory.path)"])
            try run(
                binaries.appendingPathComponent("initdb"),
                [
                    "-D", clusterDirectory.path, "-U", Self.administrativeRole, "-A", "trust",
                    "-E", "UTF8", "--no-locale", "--no-sync",
                ], as: runAs)
        }
        for removed in SocketDirectory.sweepStale() {
            logger.info("removed a stale PostgreSQL socket directory", metadata: ["db.socket_dir": "\(removed.path)"])
        }
        let launchServer: @Sendable () throws(PostgresError) -> Process = {
            try self.socketDirectory.create(owner: runAs)  // again on a restart, should anything have removed it
            return try self.launch(
                binaries.appendingPathComponent("postgres"),
                [
                    "-D", self.clusterDirectory.path, "-k", self.socketDirectory.url.path, "-c", "listen_addresses=",
                    "-c", "unix_socket_permissions=0700",
                ], as: runAs)
        }
        let process = try launchServer()
        let generation = state.withLock { current in
            current.process = process
            current.stopping = false
            current.generation += 1
            return current.generation
        }
        let admin = administrativeConnectionString(database: "postgres") + " connect_timeout=5"
        do {
            try waitUntilReady(admin, process: process)
            try ApplicationRole.ensure(administrativeConnectionString: admin, logger: logger)
        } catch {
            stop()
            throw error
        }
        logger.info("embedded PostgreSQL is running", metadata: ["db.socket_dir": "\(socketDirectory.url.path)"])
        let watcher = Thread { [self] in watch(generation: generation, relaunch: launchServer, readiness: admin) }
        watcher.name = "embedded-postgres-watcher"
        watcher.start()
        return applicationConnectionString
    }

    /// The connection string of a server already running on this data directory (another
    /// process's), or nil when none is.
    public func connectionStringIfRunning() -> String? {
        guard runningPostmaster() != nil, FileManager.default.fileExists(atPath: socketDirectory.url.path) else { return nil }
        return applicationConnectionString
    }

    /// The application role's connection string for the `constellation` database.
    private var applicationConnectionString: String {
        "host=\(socketDirectory.url.path) user=\(Self.applicationRole) dbname=\(Self.databaseName)"
    }

    /// The bootstrap superuser's connection string for `database`: for setting the cluster up,
    /// and for tests that create databases of their own.
    package func administrativeConnectionString(database: String) -> String {
        "host=\(socketDirectory.url.path) user=\(Self.administrativeRole) dbname=\(database)"
    }

    /// The process id of a PostgreSQL running on this cluster, as its lock file names it (ours
    /// included), or nil.
    private func runningPostmaster() -> pid_t? {
        guard let text = try? String(contentsOf: clusterDirectory.appendingPathComponent("postmaster.pid"), encoding: .utf8),
            let pid = text.split(separator: "\n").first.flatMap({ pid_t($0) }), pid > 0,
            // A lock file left by a PostgreSQL killed outright may name a process id reused since.
            let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8), name.hasPrefix("postgres")
        else { return nil }
        return pid
    }

    /// Stops the server (fast shutdown: open transactions roll back, committed data stays) and waits for it.
    public func stop() {
        let process = state.withLock { current in
            current.stopping = true
            defer { current.process = nil }
            return current.process
        }
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGINT)
            let deadline = Date().addingTimeInterval(15)
            while process.isRunning && Date() < deadline { usleep(50_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            logger.info("embedded PostgreSQL stopped")
        }
        socketDirectory.remove()
        state.withLock { $0.lock = nil }
    }

    /// Whether the server process is running now (false while it is being restarted).
    public var isRunning: Bool { state.withLock { $0.process?.isRunning ?? false } }

    // MARK: - Supervision

    /// Runs on its own thread until `stop()` (or a later `start()`): when PostgreSQL exits unasked,
    /// starts it again.
    private func watch(generation: Int, relaunch: @Sendable () throws(PostgresError) -> Process, readiness conninfo: String) {
        var attempt = 0
        while true {
            usleep(200_000)
            let (retired, running) = state.withLock { ($0.stopping || $0.generation != generation, $0.process?.isRunning ?? false) }
            if retired { return }
            if running {
                attempt = 0
                continue
            }
            attempt += 1
            let delay = min(30, 1 << min(attempt - 1, 5))
            logger.error(
                "embedded PostgreSQL is not running; restarting it",
                metadata: [
                    "db.restart.attempt": "\(attempt)", "db.restart.delay_s": "\(delay)",
                ])
            sleep(UInt32(delay))
            do {
                let process: Process? = try state.withLock { current throws(PostgresError) in
                    guard !current.stopping && current.generation == generation else { return nil }
                    current.process = try relaunch()
                    return current.process
                }
                guard let process else { return }
                try waitUntilReady(conninfo, process: process)
                logger.info("embedded PostgreSQL is running again", metadata: ["db.restart.attempt": "\(attempt)"])
            } catch {
                logger.error("embedded PostgreSQL did not restart", metadata: ["db.restart.attempt": "\(attempt)", "error": "\(error)"])
            }
        }
    }

    // MARK: - Set-up

    /// The newest installed PostgreSQL binaries holding `tool` (they are not on PATH on Debian):
    /// the server's, or only the client's (`pg_dump`) where no server is installed.
    package static func binaryDirectory(holding tool: String = "postgres") throws(PostgresError) -> URL {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        let candidates = versions.compactMap(Int.init).sorted(by: >).map {
            root.appendingPathComponent("\($0)/bin")
        }
        guard
            let found = candidates.first(where: {
                FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent(tool).path)
            })
        else {
            let package = tool == "postgres" ? "postgresql" : "postgresql-client"
            throw PostgresError(
                tool == "postgres" ? .embeddedServer : .clientTool,
                message: "no \(tool) found under /usr/lib/postgresql (apt-get install \(package))")
        }
        return found
    }

    private static func postgresAccount() throws(PostgresError) -> (uid: uid_t, gid: gid_t) {
        guard let entry = getpwnam("postgres") else {
            throw PostgresError(.embeddedServer, message: "running as root needs the 'postgres' user (apt-get install postgresql)")
        }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// Makes the folders (the cluster's its alone), and, run as root, gives them to `owner`
    /// (postgres), which runs PostgreSQL. Run as root, refuses folders of another user's: given
    /// to postgres, their owner could no longer open them, and their own server no longer start.
    private func prepareDirectories(owner: (uid: uid_t, gid: gid_t)?) throws(PostgresError) {
        if let owner {
            for folder in [dataDirectory, clusterDirectory] {
                var found = stat()
                guard lstat(folder.path, &found) == 0, found.st_uid != 0, found.st_uid != owner.uid else { continue }
                let name = getpwuid(found.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(found.st_uid)"
                throw PostgresError(
                    .embeddedServer,
                    message: "\(folder.path) is \(name)'s: run this command as \(name) (runuser -u \(name) -- …), not as root, "
                        + "so that nothing of theirs changes hands")
            }
        }
        do {
            try FileManager.default.createDirectory(at: clusterDirectory, withIntermediateDirectories: true)
            chmod(clusterDirectory.path, 0o700)
            if let owner {
                chown(dataDirectory.path, owner.uid, owner.gid)
                chown(clusterDirectory.path, owner.uid, owner.gid)
            }
            if FileManager.default.fileExists(atPath: logFile.path) {
                _ = rename(logFile.path, previousLogFile.path)
            }
            _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
            if let owner { chown(logFile.path, owner.uid, owner.gid) }
        } catch {
            throw PostgresError(.embeddedServer, message: "cannot create \(clusterDirectory.path): \(error.localizedDescription)")
        }
    }

    // MARK: - Processes

    /// The command line that runs `tool` as the given account with a parent-death signal.
    private func commandLine(_ tool: URL, _ arguments: [String], as owner: (uid: uid_t, gid: gid_t)?) -> [String] {
        var prefix = ["--pdeathsig", "INT"]
        if let owner { prefix = ["--reuid", "\(owner.uid)", "--regid", "\(owner.gid)", "--clear-groups"] + prefix }
        return prefix + ["--", tool.path] + arguments
    }

    private func run(_ tool: URL, _ arguments: [String], as owner: (uid: uid_t, gid: gid_t)?) throws(PostgresError) {
        let process = try launch(tool, arguments, as: owner)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PostgresError(.embeddedServer, message: "\(tool.lastPathComponent) failed: \(logTail())")
        }
    }

    private func launch(_ tool: URL, _ arguments: [String], as owner: (uid: uid_t, gid: gid_t)?) throws(PostgresError) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = commandLine(tool, arguments, as: owner)
        process.currentDirectoryURL = dataDirectory
        process.standardInput = FileHandle.nullDevice
        do {
            let log = try FileHandle(forWritingTo: logFile)
            log.seekToEndOfFile()
            process.standardOutput = log
            process.standardError = log
            try process.run()
        } catch {
            throw PostgresError(.embeddedServer, message: "cannot start \(tool.lastPathComponent): \(error.localizedDescription)")
        }
        return process
    }

    private func waitUntilReady(_ conninfo: String, process: Process) throws(PostgresError) {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if PostgresConnection.ping(conninfo) { return }
            guard process.isRunning else {
                throw PostgresError(.embeddedServer, message: "PostgreSQL exited at start: \(logTail())")
            }
            usleep(100_000)
        }
        throw PostgresError(.embeddedServer, message: "PostgreSQL did not start within 60 s: \(logTail())")
    }

    private func logTail() -> String {
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(5).joined(separator: " | ") + " (log: \(logFile.path))"
    }
}
