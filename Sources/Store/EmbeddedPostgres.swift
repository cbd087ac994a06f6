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
public final class EmbeddedPostgres: Sendable {
    public let dataDirectory: URL
    private let logger: Logger
    private let state = Mutex<(process: Process?, socketDirectory: URL?)>((nil, nil))

    /// The database and role the embedded server creates for Constellation.
    public static let databaseName = "constellation"

    public init(dataDirectory: URL, logger: Logger) {
        self.dataDirectory = dataDirectory
        self.logger = logger
    }

    private var clusterDirectory: URL { dataDirectory.appendingPathComponent("postgres") }
    private var logFile: URL { dataDirectory.appendingPathComponent("postgres.log") }

    /// Creates the cluster on first use, starts the server, waits until it answers, and
    /// returns the libpq connection string for the `constellation` database.
    public func start() throws(PostgresError) -> String {
        let binaries = try Self.binaryDirectory()
        let runAs = getuid() == 0 ? try Self.postgresAccount() : nil
        try prepareDirectories(owner: runAs)
        if !FileManager.default.fileExists(atPath: clusterDirectory.appendingPathComponent("PG_VERSION").path) {
            logger.info("creating embedded PostgreSQL cluster", metadata: ["db.data_dir": "\(clusterDirectory.path)"])
            try run(binaries.appendingPathComponent("initdb"), [
                "-D", clusterDirectory.path, "-U", Self.databaseName, "-A", "trust",
                "-E", "UTF8", "--no-locale", "--no-sync",
            ], as: runAs)
        }
        let socketDirectory = try makeSocketDirectory(owner: runAs)
        let process = try launch(binaries.appendingPathComponent("postgres"), [
            "-D", clusterDirectory.path, "-k", socketDirectory.path, "-c", "listen_addresses=",
            "-c", "unix_socket_permissions=0700",
        ], as: runAs)
        state.withLock { $0 = (process, socketDirectory) }

        let admin = "host=\(socketDirectory.path) user=\(Self.databaseName) dbname=postgres connect_timeout=5"
        try waitUntilReady(admin, process: process)
        let connection = try PostgresConnection(conninfo: admin)
        let exists = try connection.query("SELECT 1 FROM pg_database WHERE datname = \(Self.databaseName)")
        if exists.isEmpty { try connection.execute(unsafeSQL: "CREATE DATABASE \(Self.databaseName)") }
        logger.info("embedded PostgreSQL is running", metadata: ["db.socket_dir": "\(socketDirectory.path)"])
        return "host=\(socketDirectory.path) user=\(Self.databaseName) dbname=\(Self.databaseName)"
    }

    /// Stops the server (fast shutdown: open transactions roll back, committed data stays) and waits for it.
    public func stop() {
        let (process, socketDirectory) = state.withLock { current in
            defer { current = (nil, nil) }
            return current
        }
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGINT)
            let deadline = Date().addingTimeInterval(15)
            while process.isRunning && Date() < deadline { usleep(50_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            logger.info("embedded PostgreSQL stopped")
        }
        if let socketDirectory { try? FileManager.default.removeItem(at: socketDirectory) }
    }

    // MARK: - Set-up

    /// The newest installed PostgreSQL server binaries (they are not on PATH on Debian).
    static func binaryDirectory() throws(PostgresError) -> URL {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        let candidates = versions.compactMap(Int.init).sorted(by: >).map {
            root.appendingPathComponent("\($0)/bin")
        }
        guard let found = candidates.first(where: {
            FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("postgres").path)
        }) else {
            throw PostgresError(.embeddedServer, message: "no PostgreSQL server found under /usr/lib/postgresql (apt-get install postgresql)")
        }
        return found
    }

    private static func postgresAccount() throws(PostgresError) -> (uid: uid_t, gid: gid_t) {
        guard let entry = getpwnam("postgres") else {
            throw PostgresError(.embeddedServer, message: "running as root needs the 'postgres' user (apt-get install postgresql)")
        }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    private func prepareDirectories(owner: (uid: uid_t, gid: gid_t)?) throws(PostgresError) {
        do {
            try FileManager.default.createDirectory(at: clusterDirectory, withIntermediateDirectories: true)
            chmod(clusterDirectory.path, 0o700)
            if let owner {
                chown(dataDirectory.path, owner.uid, owner.gid)
                chown(clusterDirectory.path, owner.uid, owner.gid)
            }
            _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
            if let owner { chown(logFile.path, owner.uid, owner.gid) }
        } catch {
            throw PostgresError(.embeddedServer, message: "cannot create \(clusterDirectory.path): \(error.localizedDescription)")
        }
    }

    /// A short path: unix socket paths are limited to about 107 bytes.
    private func makeSocketDirectory(owner: (uid: uid_t, gid: gid_t)?) throws(PostgresError) -> URL {
        var template = Array("/tmp/constellation-pg-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw PostgresError(.embeddedServer, message: "cannot create a socket directory in /tmp")
        }
        let directory = URL(fileURLWithPath: String(cString: made))
        if let owner { chown(directory.path, owner.uid, owner.gid) }
        return directory
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
        stop()
        throw PostgresError(.embeddedServer, message: "PostgreSQL did not start within 60 s: \(logTail())")
    }

    private func logTail() -> String {
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(5).joined(separator: " | ") + " (log: \(logFile.path))"
    }
}
