import Client
import Foundation
import Glibc
import TestSupport

/// The built `constellation` and `constellation-server` executables, run as a user would.
enum Binaries {
    static let directory: URL = {
        if let path = ProcessInfo.processInfo.environment["CONSTELLATION_BIN_DIR"] { return URL(fileURLWithPath: path) }
        return TestDatabase.repositoryRoot.appendingPathComponent(".build/debug")
    }()

    struct Output {
        let status: Int32
        let stdout, stderr: String
    }

    /// Runs the CLI with its own config directory and server URL, plus `environment`; waits for it to finish.
    static func cli(_ arguments: [String], home: URL, server: String, environment extra: [String: String] = [:]) throws -> Output {
        try launch(
            directory.appendingPathComponent("constellation"), arguments,
            environment: cliEnvironment(home: home, server: server).merging(extra) { $1 }, scratch: home
        ).wait()
    }

    /// The CLI's environment in a test: its own config directory, the server, and a 60 s wait for each
    /// answer instead of 10 s, since the whole suite on two loaded cores has kept a server busy past
    /// 10 s (a test that means the offline path stops the server instead).
    private static func cliEnvironment(home: URL, server: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = home.path
        environment["CONSTELLATION_SERVER"] = server
        environment["CONSTELLATION_TIMEOUT"] = "60"
        return environment
    }

    /// Runs `constellation-server` (not `serve`: see `ServerProcess`) on the database at `databaseURL`
    /// (nil, with no `PG*` variables either: the embedded one in its data directory), with output
    /// files in `scratch`, plus `environment`; waits for it to finish, at most `timeout` (then it is
    /// stopped and `status` is -1). `installedIn`: the folder of the binary run (a copy elsewhere).
    static func server(
        _ arguments: [String], databaseURL: String?, scratch: URL, environment extra: [String: String] = [:], timeout: TimeInterval? = nil,
        installedIn folder: URL = directory
    ) throws -> Output {
        var environment = ProcessInfo.processInfo.environment
        if let databaseURL {
            environment["DATABASE_URL"] = databaseURL
        } else {
            for name in embeddedOnly { environment[name] = nil }
        }
        environment["CONSTELLATION_MIGRATIONS_DIR"] = TestDatabase.migrations.path
        environment.merge(extra) { $1 }
        return try launch(folder.appendingPathComponent("constellation-server"), arguments, environment: environment, scratch: scratch)
            .wait(timeout: timeout)
    }

    /// The variables that name a database: without them, the server starts its embedded one.
    static let embeddedOnly = ["DATABASE_URL", "PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGSERVICE"]

    /// Starts the CLI like `cli(_:home:server:)` without waiting: for a command that waits itself.
    static func launchCLI(_ arguments: [String], home: URL, server: String) throws -> Running {
        try launch(
            directory.appendingPathComponent("constellation"), arguments, environment: cliEnvironment(home: home, server: server),
            scratch: home)
    }

    /// A started executable, its output going to files in its scratch directory.
    struct Running {
        let process: Process
        let out, err: URL

        /// What it has printed so far.
        var stdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }

        /// Waits for it to finish, at most `timeout` (then it is stopped and `status` is -1).
        func wait(timeout: TimeInterval? = nil) throws -> Output {
            var timedOut = false
            if let timeout {
                let deadline = Date().addingTimeInterval(timeout)
                while process.isRunning && Date() < deadline { usleep(50_000) }
                timedOut = process.isRunning
                if timedOut { process.terminate() }
            }
            process.waitUntilExit()
            return Output(
                status: timedOut ? -1 : process.terminationStatus,
                stdout: try String(contentsOf: out, encoding: .utf8), stderr: try String(contentsOf: err, encoding: .utf8))
        }
    }

    private static func launch(_ executable: URL, _ arguments: [String], environment: [String: String], scratch: URL) throws -> Running {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let out = scratch.appendingPathComponent("stdout-\(UUID().uuidString)")
        let err = scratch.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Running(process: process, out: out, err: err)
    }
}

/// The real server binary on a free loopback port, with its database given by `DATABASE_URL`,
/// or (`databaseURL: nil`, no `PG*` variables either) the embedded PostgreSQL it starts itself.
/// `port` asks for a given port: a server stopped and started again where its pages live.
final class ServerProcess {
    let process = Process()
    let url: String
    let log: URL

    /// `openFiles`: the soft and hard limits on open files it starts with (through prlimit(1)).
    init(
        databaseURL: String?, dataDirectory: URL, port: Int = 0, environment extra: [String: String] = [:], logLevel: String = "warning",
        openFiles: (soft: Int, hard: Int)? = nil
    ) throws {
        let log = dataDirectory.appendingPathComponent("server-\(UUID().uuidString).log")
        self.log = log
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let server = Binaries.directory.appendingPathComponent("constellation-server")
        let arguments = ["serve", "--port", String(port), "--data-dir", dataDirectory.path, "--log-level", logLevel]
        if let openFiles {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            process.arguments = ["--nofile=\(openFiles.soft):\(openFiles.hard)", "--", server.path] + arguments
        } else {
            process.executableURL = server
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        if let databaseURL {
            environment["DATABASE_URL"] = databaseURL
        } else {
            for name in Binaries.embeddedOnly { environment[name] = nil }
        }
        environment["CONSTELLATION_MIGRATIONS_DIR"] = TestDatabase.migrations.path
        environment.merge(extra) { $1 }
        process.environment = environment
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()

        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let match = text.firstMatch(of: /listening on (http:\/\/[0-9.]+:[0-9]+)/) {
                url = String(match.output.1)
                return
            }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        process.terminate()
        throw ServerDidNotStart(log: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// A server to be stopped and started again on its port (where a browser's pages live): the
    /// port is below the range the kernel hands out by itself (`ip_local_port_range`, from 32768),
    /// so no other socket of the suite takes it meanwhile, as one once did ("Address already in
    /// use" at the restart). One already taken at the first start, another is tried.
    static func restartable(databaseURL: String?, dataDirectory: URL) throws -> ServerProcess {
        var attempts = 0
        while true {
            do {
                return try ServerProcess(databaseURL: databaseURL, dataDirectory: dataDirectory, port: Int.random(in: 20_000..<32_000))
            } catch let error as ServerDidNotStart where error.log.contains("Address already in use") && attempts < 10 {
                attempts += 1
            }
        }
    }

    /// An anonymous client of this server. The whole suite shares two cores, so a request may
    /// wait its turn for seconds: a test about time says so itself, and the client's 10 s default
    /// would fail the others for the machine's load (as it did the backup drill once in CI).
    var client: ConstellationClient { ConstellationClient(baseURL: url, timeout: .seconds(60)) }

    /// The loopback port it listens on.
    var port: Int { Int(url.split(separator: ":").last ?? "") ?? 0 }

    /// What the server has logged so far.
    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// SIGKILL: the server dies at once, as in a crash.
    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, then wait: the server shuts down gracefully.
    func stop() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        let log: String
        var description: String { "the server did not start:\n\(log)" }
    }
}
