import Backup
import Client
import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing
import Tokens

/// Every `constellation-server` command run beside a serving server on the same data directory
/// (its embedded PostgreSQL): it shares the running database (backup, migrate, import) or refuses
/// in one line with 75 (a second serve, restore), and never tears down what the server owns.
/// After each, the server's database connections are cut: it connects again and still serves.
@Suite(.tier(.endToEnd)) struct CommandsBesideAServerTests {
    let workspace = Workspace()

    @Test func commandsShareOrRefuseTheRunningServersDatabaseAndLeaveItServing() async throws {
        // Keys from the environment: the data directory holds none, so a restore gets as far as the database.
        let environment = ["CONSTELLATION_SIGNING_KEY": PASERK.encode(try SigningKey.generate()), "CONSTELLATION_RATE_LIMITS": "off"]
        let data = workspace.serverData
        // A setting an earlier release read: said once, and the server goes on.
        let server = try ServerProcess(
            databaseURL: nil, dataDirectory: data, environment: environment.merging(["CONSTELLATION_REDEMPTION_BATCHES": "2"]) { $1 })
        defer { _ = server.stop() }
        let log = try String(contentsOf: server.log, encoding: .utf8)
        #expect(log.components(separatedBy: "CONSTELLATION_REDEMPTION_BATCHES is gone").count == 2, "\(log)")
        _ = try await server.client.register(NewProfile(displayName: "Ada"))

        // An archive to restore: the running server's own backup.
        let archive = workspace.root.appendingPathComponent("running.backup")
        let backup = try command(["backup", "--output", archive.path], environment)
        #expect(backup.status == 0, "backup: \(backup.stderr)")

        let dataFile = ImportTests.graphs.appendingPathComponent("sociopatterns_ht09_tij.dat").path
        let commands: [(name: String, arguments: [String], status: Int32, says: String)] = [
            ("migrate", ["migrate"], 0, "up to date"),
            ("import", ["import", "sociopatterns", dataFile, "--event", "beside", "--start", "2009-06-29T08:00:00Z"], 0, "Imported"),
            ("second serve", ["serve", "--port", "0"], 75, "stop that server first"),
            ("restore", ["restore", archive.path], 75, "stop that server first"),
        ]
        for run in commands {
            let output = try command(run.arguments, environment)
            #expect(
                output.status == run.status && (output.stdout + output.stderr).contains(run.says),
                "\(run.name): \(output.status) \(output.stdout) \(output.stderr)")
            try await cutConnections(of: data)
            #expect(try await Self.servesAgain(server, after: run.name), "\(run.name): the server serves on")
        }
        #expect(try await server.client.health())
    }

    /// Whether a registration succeeds within 20 tries a second apart: a request that meets a
    /// connection cut under it is answered 503 `database_unavailable`, and the pool connects anew.
    private static func servesAgain(_ server: ServerProcess, after name: String) async throws -> Bool {
        for _ in 1...20 {
            do {
                return !(try await server.client.register(NewProfile(displayName: "After \(name)")).apiKey.isEmpty)
            } catch {
                guard case .problem(let problem) = error, problem.code == "database_unavailable" else { throw error }
            }
            try await Task.sleep(for: .seconds(1))
        }
        return false
    }

    /// `constellation-server ARGUMENTS --data-dir` the server's, on its embedded database.
    private func command(_ arguments: [String], _ environment: [String: String]) throws -> Binaries.Output {
        try Binaries.server(
            arguments + ["--data-dir", workspace.serverData.path], databaseURL: nil, scratch: workspace.root, environment: environment,
            timeout: 120)
    }

    /// Ends every connection the application role has open to the embedded cluster in `data`.
    private func cutConnections(of data: URL) async throws {
        let cluster = EmbeddedPostgres(dataDirectory: data, logger: TestDatabase.logger)
        let admin = Database(
            conninfo: cluster.administrativeConnectionString(database: "postgres"), maximumConnections: 1, logger: TestDatabase.logger)
        try await admin.withConnection { connection in
            try connection.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = \(EmbeddedPostgres.applicationRole)")
        }
        await admin.shutdown()
    }
}
