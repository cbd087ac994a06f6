import Client
import ConstellationModel
import Foundation
import Glibc
import TestSupport
import Testing
import Tokens

/// The release server binary on its own: its embedded PostgreSQL (started, restarted, cleaned up)
/// and the network view it once crashed on.
@Suite(.tier(.endToEnd)) struct ServerBinaryTests {
    let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID().uuidString)")

    /// A new profile's client on `server`.
    private func user(_ name: String, on server: ServerProcess) async throws -> ConstellationClient {
        let client = server.client
        return client.authenticated(try await client.register(NewProfile(displayName: name)).apiKey)
    }

    /// "ok", a problem's code, or what else `GET /v1/me` gave.
    private static func status(of client: ConstellationClient) async -> String {
        do {
            _ = try await client.me()
            return "ok"
        } catch {
            guard case .problem(let problem) = error else { return "\(error)" }
            return problem.status == 503 ? problem.code : "\(problem.status) \(problem.code)"
        }
    }

    /// `CONSTELLATION_LOG_FORMAT=json`: every line the server writes is one JSON object, and a
    /// request's lines carry the id its response announced.
    @Test func jsonLogLinesCarryTheRequestId() async throws {
        let server = try ServerProcess(
            databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace,
            environment: ["CONSTELLATION_LOG_FORMAT": "json"], logLevel: "info")
        let client = server.client
        let answer = try await client.send(.POST, "/v1/profiles", body: NewProfile(displayName: "Ada"))
        #expect(server.stop() == 0)
        let lines = server.logText.split(separator: "\n")
        let objects = lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        #expect(!lines.isEmpty && objects.count == lines.count, "every line is JSON: \(server.logText.prefix(500))")
        let registered = objects.first { $0["message"] as? String == "profile registered" }
        #expect(registered?["request.id"] as? String == answer.header("X-Request-ID"))

        let refused = try Binaries.server(
            ["serve"], databaseURL: "postgresql:///nowhere", scratch: workspace,
            environment: ["CONSTELLATION_LOG_FORMAT": "yaml"], timeout: 30)
        #expect(refused.status == 64 && refused.stderr.contains("CONSTELLATION_LOG_FORMAT"), "\(refused.stderr)")
    }

    /// The default text lines (`TextLogHandler`) carry a request's id too, as `request.id=…`.
    @Test func textLogLinesCarryTheRequestId() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace, logLevel: "info")
        let client = server.client
        let answer = try await client.send(.POST, "/v1/profiles", body: NewProfile(displayName: "Ada"))
        #expect(server.stop() == 0)
        let id = try #require(answer.header("X-Request-ID"))
        let registered = server.logText.split(separator: "\n").filter { $0.contains("profile registered") }
        #expect(registered.count == 1 && registered[0].contains("request.id=\(id)") && registered[0].contains(" info "), "\(registered)")
    }

    /// A setting the server cannot use, or a port another process holds: `serve` ends with one
    /// line on stderr and its sysexits code (78, 69), not a bare error and 1.
    @Test func aBadSettingOrABusyPortEndsServeWithItsCode() async throws {
        let databaseURL = try await TestDatabase.createEmpty()
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        let badSetting = try Binaries.server(
            ["serve", "--port", "0"], databaseURL: databaseURL, scratch: workspace,
            environment: ["CONSTELLATION_GRAPH_CACHE_ENTRIES": "lots"], timeout: 30)
        #expect(badSetting.status == 78, "\(badSetting.stderr)")
        #expect(
            badSetting.stderr
                == "constellation-server: CONSTELLATION_GRAPH_CACHE_ENTRIES=lots is not valid: expected an integer in 1...100000\n")

        let holder = try ServerProcess(databaseURL: databaseURL, dataDirectory: workspace)
        let port = try #require(URL(string: holder.url)?.port)
        let busy = try Binaries.server(
            ["serve", "--port", "\(port)", "--data-dir", workspace.appendingPathComponent("second").path],
            databaseURL: databaseURL, scratch: workspace, timeout: 60)
        #expect(busy.status == 69, "\(busy.stderr)")
        #expect(
            busy.stderr.hasSuffix("constellation-server: cannot serve on 127.0.0.1:\(port): Address already in use\n"), "\(busy.stderr)")
        #expect(await Self.status(of: holder.client) == "401 missing_credentials", "the first server serves on")
        #expect(holder.stop() == 0)
    }

    /// Key files that hold no secret, or a retired key that is the signing key again: `serve`
    /// refuses to start (78, one line) rather than sign or pseudonymize with them.
    @Test func keysThatAreNoSecretStopTheServerAtStart() async throws {
        let databaseURL = try await TestDatabase.createEmpty()
        for (name, file, contents) in [
            ("zero pseudonym key", "pseudonym-key", "cst.pseudonym.v1." + String(repeating: "A", count: 43)),
            ("zero signing key", "signing-key", PASERK.encode(try SigningKey(seed: [UInt8](repeating: 0, count: 32)))),
        ] {
            let data = workspace.appendingPathComponent(name.replacingOccurrences(of: " ", with: "-"))
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            let path = data.appendingPathComponent(file).path
            #expect(
                FileManager.default.createFile(atPath: path, contents: Data((contents + "\n").utf8), attributes: [.posixPermissions: 0o600])
            )
            let refused = try Binaries.server(
                ["serve", "--port", "0", "--data-dir", data.path], databaseURL: databaseURL, scratch: workspace, timeout: 60)
            #expect(refused.status == 78, "\(name): \(refused.stderr)")
            #expect(refused.stderr.contains("all zeros") && refused.stderr.split(separator: "\n").count == 1, "\(name): \(refused.stderr)")
        }
    }

    /// A release server copied elsewhere with its resource bundles migrates from its own bundle
    /// (no `CONSTELLATION_MIGRATIONS_DIR`, no checkout around it); without the `Store` bundle it
    /// says in one line what is missing (78) and writes nothing.
    @Test func aServerCopiedWithItsBundlesCarriesItsMigrations() async throws {
        let copy = workspace.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Binaries.directory.appendingPathComponent("constellation-server"), to: copy.appendingPathComponent("constellation-server"))
        let bundles = try FileManager.default.contentsOfDirectory(atPath: Binaries.directory.path).filter { $0.hasSuffix(".resources") }
        #expect(bundles.contains("Constellation_Store.resources"), "\(bundles)")
        for bundle in bundles where bundle != "Constellation_Store.resources" {
            try FileManager.default.copyItem(at: Binaries.directory.appendingPathComponent(bundle), to: copy.appendingPathComponent(bundle))
        }
        let database = try await TestDatabase.createEmpty()
        let noFolder = ["CONSTELLATION_MIGRATIONS_DIR": ""]
        let refused = try Binaries.server(
            ["migrate"], databaseURL: database, scratch: workspace, environment: noFolder, timeout: 60, installedIn: copy)
        #expect(refused.status == 78 && refused.stderr.contains("Constellation_Store.resources"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "one line: \(refused.stderr)")

        try FileManager.default.copyItem(
            at: Binaries.directory.appendingPathComponent("Constellation_Store.resources"),
            to: copy.appendingPathComponent("Constellation_Store.resources"))
        let migrated = try Binaries.server(
            ["migrate"], databaseURL: database, scratch: workspace, environment: noFolder, timeout: 120, installedIn: copy)
        let versions = try FileManager.default.contentsOfDirectory(atPath: TestDatabase.migrations.path).filter { $0.hasSuffix(".sql") }
        #expect(migrated.status == 0 && migrated.stdout.hasPrefix("Applied 0001_init"), "\(migrated.stdout) \(migrated.stderr)")
        #expect(versions.count > 20 && versions.allSatisfy { migrated.stdout.contains($0.dropLast(4)) }, "\(migrated.stdout)")
        // The repository's migrations, compared by checksum, are what the copy applied.
        let again = try Binaries.server(["migrate"], databaseURL: database, scratch: workspace, timeout: 60)
        #expect(again.status == 0 && again.stdout == "The database is up to date.\n", "\(again.stdout) \(again.stderr)")
    }

    /// An installed service (`CONSTELLATION_EMBEDDED_DATABASE=no`) never starts a PostgreSQL of
    /// its own: named no database, `migrate` and `serve` say so in one line (78) and write nothing;
    /// a database that does not answer is one line too (69).
    @Test func anInstalledServiceWithoutItsDatabaseSaysSoInOneLine() async throws {
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        let data = workspace.appendingPathComponent("state")
        // Empty PG* variables name no server, as unset ones do (the suite's own are set).
        let installed = ["CONSTELLATION_EMBEDDED_DATABASE": "no", "PGHOST": "", "PGDATABASE": "", "PGSERVICE": "", "PGPORT": ""]
        for command in ["migrate", "serve"] {
            let refused = try Binaries.server(
                [command, "--data-dir", data.path], databaseURL: "", scratch: workspace, environment: installed, timeout: 30)
            #expect(refused.status == 78, "\(command): \(refused.stderr)")
            #expect(refused.stderr.hasPrefix("constellation-server: DATABASE_URL is not set"), "\(command): \(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "one line: \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: data.path), "\(command) wrote its data directory")
        }

        var unclear = installed
        unclear["CONSTELLATION_EMBEDDED_DATABASE"] = "No"
        let misspelt = try Binaries.server(
            ["migrate", "--data-dir", data.path], databaseURL: "", scratch: workspace, environment: unclear, timeout: 30)
        #expect(misspelt.status == 78, "\(misspelt.stderr)")
        #expect(misspelt.stderr == "constellation-server: CONSTELLATION_EMBEDDED_DATABASE is yes or no, not 'No'\n")
        #expect(!FileManager.default.fileExists(atPath: data.path))

        let listener = try LoopbackSocket(listening: true)
        defer { listener.close() }
        let unreachable = try Binaries.server(
            ["migrate", "--data-dir", data.path], databaseURL: "postgresql://127.0.0.1:\(listener.port)/constellation?connect_timeout=2",
            scratch: workspace, environment: installed, timeout: 60)
        let failures = unreachable.stderr.split(separator: "\n").filter { $0.hasPrefix("constellation-server: ") }
        #expect(unreachable.status == 69 && failures.count == 1, "\(unreachable.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data.path))
    }

    @Test func theSameNetworkTwiceAndToTwentyClientsAtOnce() async throws {
        // The cap on one credential's graph requests is raised: this is about the cache under concurrency.
        let server = try ServerProcess(
            databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace,
            environment: ["CONSTELLATION_GRAPH_REQUESTS_PER_CREDENTIAL": "20"])
        defer { #expect(server.stop() == 0, "graceful shutdown exits 0") }
        let alone = try await user("Alone", on: server)
        #expect(try await alone.network() == (try await alone.network()), "a cached picture, served twice")
        let me = try await user("Me", on: server)
        for name in ["A", "B", "C"] {
            let peer = try await user(name, on: server)
            _ = try await me.redeem(RedeemRequest(token: try await peer.issueToken().token))
        }
        let pictures = try await withThrowingTaskGroup(of: Network.self) { group in
            for _ in 0..<20 { group.addTask { try await me.network() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(pictures.count == 20 && pictures.allSatisfy { $0 == pictures[0] })
        #expect(pictures[0].nodes.count == 4)
        #expect(server.process.isRunning)
    }

    @Test func theEmbeddedPostgreSQLIsStartedAndRestartedWhenItDies() async throws {
        let server = try ServerProcess(databaseURL: nil, dataDirectory: workspace)
        let socketFolders = {
            Set((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { $0.hasPrefix("constellation-pg-") }
        }
        let ada = try await user("Ada", on: server)
        // No DATABASE_URL, no PG*: the server runs its own cluster in its data directory.
        let postmaster = try #require(
            pid_t(
                String(contentsOf: workspace.appendingPathComponent("postgres/postmaster.pid"), encoding: .utf8)
                    .split(separator: "\n")[0]))
        kill(postmaster, SIGKILL)
        var unavailable = 0
        var answered = false
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            switch await Self.status(of: ada) {
            case "ok":
                if unavailable > 0 { answered = true }
            case "database_unavailable":
                unavailable += 1
            case let other:
                Issue.record("while PostgreSQL restarts, a request got \(other)")
            }
            if answered { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try await ada.me().displayName == "Ada", "what was committed before the crash is still there")
        #expect(unavailable > 0, "while PostgreSQL is down, requests get 503")
        #expect(answered, "the server restarted PostgreSQL and answers again")
        let restarts = server.logText.components(separatedBy: "restarting it").count - 1
        #expect(restarts == 1, "one log line per restart attempt, not one per request (\(unavailable) requests got 503)")

        // The server's own socket folder (its owner file names the server) is removed on a graceful stop.
        let serverID = "\(server.process.processIdentifier)"
        let own = socketFolders().filter { name in
            let owner = try? String(contentsOfFile: "/tmp/\(name)/constellation.pid", encoding: .utf8)
            return owner?.trimmingCharacters(in: .whitespacesAndNewlines) == serverID
        }
        #expect(own.count == 1, "one socket folder, marked as this server's")
        #expect(server.stop() == 0)
        #expect(own.allSatisfy { !FileManager.default.fileExists(atPath: "/tmp/\($0)") })
        // The embedded PostgreSQL, the first of the server's services, stopped last and cleanly (a
        // clean stop removes its pid file).
        #expect(!FileManager.default.fileExists(atPath: workspace.appendingPathComponent("postgres/postmaster.pid").path))
    }

    @Test func aKilledServersSocketFolderAndStaleOnesAreCleanedUpAtTheNextStart() async throws {
        let first = try ServerProcess(databaseURL: nil, dataDirectory: workspace)
        _ = try await user("Ada", on: first)
        let postmasterFile = workspace.appendingPathComponent("postgres/postmaster.pid")
        let postmaster = try #require(pid_t(String(contentsOf: postmasterFile, encoding: .utf8).split(separator: "\n")[0]))
        first.kill()
        // PostgreSQL follows its parent (parent-death signal); wait for it to be gone.
        let deadline = Date().addingTimeInterval(30)
        while kill(postmaster, 0) == 0 && Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(kill(postmaster, 0) != 0, "the embedded PostgreSQL did not outlive the killed server")

        // A folder left by a server long gone: its lock names a process that no longer exists.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let stale = URL(fileURLWithPath: "/tmp/constellation-pg-stale\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        try "\(gone.processIdentifier)\n/nowhere\n".write(
            to: stale.appendingPathComponent(".s.PGSQL.5432.lock"), atomically: true, encoding: .utf8)

        let second = try ServerProcess(databaseURL: nil, dataDirectory: workspace)
        #expect(!FileManager.default.fileExists(atPath: stale.path), "a stale socket folder is swept at start")
        #expect(try await user("Bob", on: second).me().displayName == "Bob")
        #expect(second.stop() == 0)
    }
}
