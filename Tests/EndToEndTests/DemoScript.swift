import Foundation
import Glibc
import TestSupport

/// One of the demo scripts (`Tools/cluster-demo`, `Tools/ha-demo`) running with the release
/// binaries under test on a free port, and the `State` it wrote once everything was up.
final class DemoScript<State: Decodable> {
    let process = Process()
    let state: State
    /// The script's standard input: closing it stops everything (the script is the test
    /// process's child, and would not otherwise know it is done).
    private let input = Pipe()
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)")

    init(_ script: String, environment extra: [String: String] = [:], startup: TimeInterval = 180) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stateFile = folder.appendingPathComponent("state.json")
        let log = folder.appendingPathComponent("script.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        // Through `env --default-signal`: the test process's threads block SIGTERM, and a child
        // inherits that mask. The script, and Patroni and PostgreSQL under it, then ignored the
        // TERM that stops them; the script was killed after a minute and left them running.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "--default-signal", "/bin/bash", TestDatabase.repositoryRoot.appendingPathComponent(script).path,
            "--port", "\(try LoopbackSocket.freePort())", "--state", stateFile.path, "--until-stdin-closes",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["CONSTELLATION_BIN_DIR"] = Binaries.directory.path
        for name in ["DATABASE_URL", "PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGSERVICE"] { environment[name] = nil }
        environment.merge(extra) { $1 }
        process.environment = environment
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = input
        try process.run()
        let deadline = Date().addingTimeInterval(startup)
        while !FileManager.default.fileExists(atPath: stateFile.path) {
            guard process.isRunning, Date() < deadline else {
                Self.finish(process, input: input)
                throw ServerProcess.ServerDidNotStart(log: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
            }
            usleep(100_000)
        }
        state = try JSONDecoder().decode(State.self, from: Data(contentsOf: stateFile))
    }

    /// The script stops everything it started and removes their files.
    func stop() {
        Self.finish(process, input: input)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Closes the script's input and waits a minute for it to clean up, then kills it.
    private static func finish(_ process: Process, input: Pipe) {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(50_000) }  // `waitUntilExit` spins a core
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
