import ConstellationModel
import Foundation
import QR
import TestSupport
import Testing
import Tokens

/// The whole loop with the real server binary, the real CLI binary and a real PostgreSQL.
@Suite(.serialized, .tier(.endToEnd)) struct LoopTests {
    let workspace = Workspace()

    func network(home: URL, server: String) throws -> Network {
        let output = try Binaries.cli(["view", "--json"], home: home, server: server)
        #expect(output.status == 0, "\(output.stderr)")
        return try JSONDecoder.constellation.decode(Network.self, from: Data(output.stdout.utf8))
    }

    /// `show --watch` says who scanned the code, while it shows it.
    @Test func showWatchSaysWhoConnected() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let ada = try workspace.home("ada-watching")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        let watching = try Binaries.launchCLI(["show", "--watch"], home: ada, server: server.url)
        defer { watching.process.terminate() }
        let deadline = Date().addingTimeInterval(60)
        while !watching.stdout.contains("Valid until"), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        // Her stream opens beside the code: a scan made before it opened is not announced (it
        // happened before she watched), so newcomers scan until one is heard.
        var heard: String?
        for attempt in 1...3 where heard == nil {
            let name = "Scanner \(attempt)"
            let scanner = try workspace.home("scanner-\(attempt)")
            _ = try workspace.register(name, home: scanner, server: server.url)
            let scan = try Binaries.cli(["scan", try workspace.token(home: ada, server: server.url)], home: scanner, server: server.url)
            #expect(scan.status == 0, "\(scan.stderr)")
            let waitUntil = Date().addingTimeInterval(10)
            while heard == nil, Date() < waitUntil {
                if watching.stdout.contains("\(name) connected with you.") { heard = name }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        #expect(heard != nil, "\(watching.stdout.suffix(300)) \((try? String(contentsOf: watching.err, encoding: .utf8)) ?? "")")
    }

    /// `constellation ready`, a container's health check: needs no profile, exit 0 while the server
    /// serves, 69 with one line once it is gone.
    @Test func readySaysWhetherTheServerServes() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        let nobody = try workspace.home("nobody-registered")
        let ready = try Binaries.cli(["ready"], home: nobody, server: server.url)
        #expect(ready.status == 0 && ready.stdout == "ready\n", "\(ready.status): \(ready.stdout) \(ready.stderr)")
        let said = try Binaries.cli(["ready", "--json"], home: nobody, server: server.url)
        #expect(said.status == 0 && said.stdout.contains(#""status":"ready""#), "\(said.stdout)")
        #expect(server.stop() == 0)
        let gone = try Binaries.cli(["ready"], home: nobody, server: server.url)
        #expect(gone.status == 69 && gone.stderr.contains("cannot reach the server"), "\(gone.status): \(gone.stderr)")
        #expect(gone.stderr.split(separator: "\n").count == 1, "one line: \(gone.stderr)")
    }

    @Test func showScanAndViewEndToEnd() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { #expect(server.stop() == 0, "graceful shutdown exits 0") }
        let (ada, bob, cleo) = try workspace.homes("ada", "bob", "cleo")
        let adaId = try workspace.register("Ada", home: ada, server: server.url)
        let bobId = try workspace.register("Bob", home: bob, server: server.url)
        let cleoId = try workspace.register("Cleo", home: cleo, server: server.url)

        // Ada shows her code in the terminal, as a raw token and as a PNG.
        let shown = try Binaries.cli(["show"], home: ada, server: server.url)
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("▀") && shown.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let token = try workspace.token(home: ada, server: server.url)
        #expect(token.hasPrefix("v4.public."))
        let png = ada.appendingPathComponent("code.png")
        #expect(try Binaries.cli(["show", "--format", "png", "--output", png.path], home: ada, server: server.url).status == 0)
        #expect(try QRDecoder.decode(imageFile: [UInt8](Data(contentsOf: png))).first?.hasPrefix("v4.public.") == true)

        // Bob scans the token; Cleo scans the PNG.
        let bobScan = try Binaries.cli(["scan", token], home: bob, server: server.url)
        #expect(bobScan.status == 0, "\(bobScan.stderr)")
        #expect(bobScan.stdout.contains("Connected with Ada"))
        let cleoScan = try Binaries.cli(["scan", "--image", png.path], home: cleo, server: server.url)
        #expect(cleoScan.status == 0, "\(cleoScan.stderr)")
        #expect(cleoScan.stdout.contains("Connected with Ada"))
        // Scanning again is harmless.
        let again = try Binaries.cli(["scan", token], home: bob, server: server.url)
        #expect(again.status == 0 && again.stdout.contains("already connected"))

        // Everyone sees the others.
        let adaView = try network(home: ada, server: server.url)
        #expect(Set(adaView.nodes.map(\.id)) == Set([adaId, bobId, cleoId].map(\.uuidString)))
        #expect(adaView.nodes.first(where: \.isMe)?.id == adaId.uuidString)
        #expect(adaView.edges.count == 2)
        let bobView = try network(home: bob, server: server.url)
        #expect(Set(bobView.nodes.map(\.label)) == ["Ada", "Bob"])
        let drawn = try Binaries.cli(["view"], home: ada, server: server.url)
        #expect(drawn.stdout.contains("@ you — 2 connections"))
    }

    @Test func badInputGetsClearMessagesAndExitCodes() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let (ada, stranger) = try workspace.homes("ada", "stranger")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        let token = try workspace.token(home: ada, server: server.url)

        let unregistered = try Binaries.cli(["scan", token], home: stranger, server: server.url)
        #expect(unregistered.status == 77)
        #expect(unregistered.stderr.contains("register"))
        let own = try Binaries.cli(["scan", token], home: ada, server: server.url)
        #expect(own.status == 65 && own.stderr.contains("your own code"))
        let garbage = try Binaries.cli(["scan", "not-a-token"], home: ada, server: server.url)
        #expect(garbage.status == 65)
        let notAnImage = ada.appendingPathComponent("note.txt")
        try "hello".write(to: notAnImage, atomically: true, encoding: .utf8)
        let image = try Binaries.cli(["scan", "--image", notAnImage.path], home: ada, server: server.url)
        #expect(image.status == 65 && image.stderr.contains("not a PNG or JPEG"))
        let missing = try Binaries.cli(["scan", "--image", ada.appendingPathComponent("none.png").path], home: ada, server: server.url)
        #expect(missing.status == 66 && missing.stderr.contains("cannot read"), "a missing input file: \(missing)")
        let usage = try Binaries.cli(["scan"], home: ada, server: server.url)
        #expect(usage.status == 64)
        // An entry number at Int's bound once trapped (number - 1).
        let lowest = try Binaries.cli(["me", "card", "remove", "--", "\(Int.min)"], home: ada, server: server.url)
        #expect(lowest.status == 65 && lowest.stderr.contains("there is no entry"), "\(lowest)")
        let tooShort = try Binaries.cli(["view", "--timeout", "0.0004"], home: ada, server: server.url)
        #expect(tooShort.status == 65 && tooShort.stderr.contains("from 0.001 to 3600"), "no timeout is not a timeout: \(tooShort)")
        let twice = try Binaries.cli(["register", "--name", "Again"], home: ada, server: server.url)
        #expect(twice.status == 73 && twice.stderr.contains("--force"))
        let nowhere = try Binaries.cli(["view"], home: ada, server: "http://127.0.0.1:9")
        #expect(nowhere.status == 69)
        #expect(nowhere.stderr == "constellation: cannot reach the server at http://127.0.0.1:9: connection refused\n")
        #expect(!nowhere.stderr.contains("errno") && !nowhere.stderr.contains("error set"))
        #expect(nowhere.stderr.filter { $0 == "(" }.count == nowhere.stderr.filter { $0 == ")" }.count)

        // Corrupt credentials are a credentials failure (77) that says how to recover, and `register --force` recovers.
        try "{\"server\":".write(to: ada.appendingPathComponent("constellation/credentials.json"), atomically: true, encoding: .utf8)
        let corrupt = try Binaries.cli(["me"], home: ada, server: server.url)
        #expect(corrupt.status == 77)
        #expect(corrupt.stderr.contains("credentials.json is corrupt") && corrupt.stderr.contains("register --force"))
        #expect(try Binaries.cli(["register", "--name", "Ada"], home: ada, server: server.url).status == 77)
        #expect(try Binaries.cli(["register", "--name", "Ada", "--force"], home: ada, server: server.url).status == 0)
        #expect(try Binaries.cli(["me"], home: ada, server: server.url).status == 0)
    }

    /// The tokens in a CLI's offline queue.
    func queuedTokens(home: URL) throws -> [String] {
        let file = home.appendingPathComponent("constellation/queue.json")
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        let queue = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        return queue.compactMap { $0["token"] as? String }
    }

    /// `token`'s claims signed by a key the server never had, under the server key's kid:
    /// only the signature is wrong, so only a signature check can refuse it.
    func forge(_ token: String) throws -> String {
        let parts = try PASETOv4Public.parse(token)
        return try PASETOv4Public.sign(
            message: parts.message, footer: parts.footer,
            implicitAssertion: Array(ConnectionTokens.implicitAssertion.utf8), key: SigningKey.generate())
    }

    /// A scan made while the server is down is verified with cached keys, queued once, and synced later.
    @Test func offlineScanIsQueuedAndSynced() async throws {
        let databaseURL = try await TestDatabase.createEmpty()
        let dataDirectory = workspace.serverData
        var server = try ServerProcess(databaseURL: databaseURL, dataDirectory: dataDirectory)
        let (ada, bob) = try workspace.homes("ada", "bob")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        _ = try workspace.register("Bob", home: bob, server: server.url)
        let token = try workspace.token(home: ada, server: server.url)
        let forged = try forge(token)
        #expect(try forged != token && PASETOv4Public.parse(forged).message == PASETOv4Public.parse(token).message)
        #expect(try ConnectionTokens.keyId(of: forged) == ConnectionTokens.keyId(of: token))
        #expect(server.stop() == 0)

        // The forged token is refused offline by the cached keys' signature check, and not queued.
        let forgedScan = try Binaries.cli(["scan", forged], home: bob, server: server.url)
        #expect(forgedScan.status == 65)
        #expect(
            forgedScan.stderr.contains("signature is invalid") && !forgedScan.stderr.lowercased().contains("malformed"),
            "\(forgedScan.stderr)")
        #expect(try queuedTokens(home: bob).isEmpty)

        // The genuine token, scanned twice, is queued once.
        let offline = try Binaries.cli(["scan", token], home: bob, server: server.url)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout.contains("the scan is saved offline"))
        let again = try Binaries.cli(["scan", token], home: bob, server: server.url)
        #expect(again.status == 0 && again.stdout.contains("already saved offline"), "\(again.stderr)")
        #expect(try queuedTokens(home: bob) == [token])

        server = try ServerProcess(databaseURL: databaseURL, dataDirectory: dataDirectory)
        defer { _ = server.stop() }
        // Sent with a key the server does not know (a revoked device), the scan is refused for its
        // sender, not for itself: it stays queued for the next try (it was dropped as "refused").
        let credentials = bob.appendingPathComponent("constellation/credentials.json")
        let saved = try Data(contentsOf: credentials)
        var wrong = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
        wrong["apiKey"] = String(repeating: "x", count: 43)
        try JSONSerialization.data(withJSONObject: wrong).write(to: credentials)
        let refused = try Binaries.cli(["sync"], home: bob, server: server.url)
        #expect(refused.status == 77 && refused.stdout.contains("Still pending") && refused.stderr.contains("register"), "\(refused)")
        #expect(try queuedTokens(home: bob) == [token])
        try saved.write(to: credentials)
        let sync = try Binaries.cli(["sync", "--json"], home: bob, server: server.url)
        #expect(sync.status == 0, "\(sync.stderr)")
        struct Synced: Decodable { let status: String }
        #expect(try JSONDecoder().decode([Synced].self, from: Data(sync.stdout.utf8)).map(\.status) == ["connected"])
        let view = try network(home: bob, server: server.url)
        #expect(Set(view.nodes.map(\.label)) == ["Ada", "Bob"] && view.edges.count == 1)
        #expect(try Binaries.cli(["sync"], home: bob, server: server.url).stdout.contains("Nothing to sync"))
    }

    /// A server that takes the connection and never answers: `--timeout` says how long the CLI
    /// waits before it saves the scan offline; a timeout that is not a number of seconds is refused.
    @Test func aServerThatNeverAnswersIsWaitedForTheTimeoutThenTheScanIsSavedOffline() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        let (ada, bob) = try workspace.homes("ada", "bob")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        _ = try workspace.register("Bob", home: bob, server: server.url)
        let token = try workspace.token(home: ada, server: server.url)
        #expect(server.stop() == 0)

        let silent = try LoopbackSocket(listening: true)
        defer { silent.close() }
        let silentURL = "http://127.0.0.1:\(silent.port)"
        for bad in ["0", "-3", "soon", "nan", "7200"] {
            let refused = try Binaries.cli(["scan", token], home: bob, server: silentURL, environment: ["CONSTELLATION_TIMEOUT": bad])
            #expect(refused.status == 65 && refused.stderr.contains("the timeout must be a number of seconds"), "\(bad): \(refused)")
        }
        #expect(try queuedTokens(home: bob).isEmpty)

        let started = ContinuousClock.now
        let scan = try Binaries.cli(["scan", "--timeout", "1.5", token], home: bob, server: silentURL)
        #expect(ContinuousClock.now - started >= .seconds(1.5))
        #expect(scan.status == 0 && scan.stdout.contains("did not answer in time"), "\(scan)")
        #expect(scan.stdout.contains("the scan is saved offline"), "\(scan.stdout)")
        #expect(try queuedTokens(home: bob) == [token])
    }

    /// A scan while the database is gone (a failover, a restart) gets 503 from a server that is up:
    /// the CLI keeps the genuine scan in its queue, as when the network is gone, and says why;
    /// `sync` sends it once the database is back.
    @Test func aScanTheDatabaseCannotTakeNowIsQueuedAndSynced() async throws {
        let databaseURL = try await TestDatabase.createEmpty()
        let server = try ServerProcess(databaseURL: databaseURL, dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let (ada, bob) = try workspace.homes("ada", "bob")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        _ = try workspace.register("Bob", home: bob, server: server.url)
        let token = try workspace.token(home: ada, server: server.url)

        try await TestDatabase.closeToConnections(databaseURL)
        let scan = try Binaries.cli(["scan", token], home: bob, server: server.url)
        try await TestDatabase.closeToConnections(databaseURL, false)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(
            scan.stdout.contains("cannot record scans just now (database_unavailable)")
                && scan.stdout.contains("the scan is saved offline"),
            "\(scan.stdout)")
        #expect(try queuedTokens(home: bob) == [token])

        let sync = try Binaries.cli(["sync", "--json"], home: bob, server: server.url)
        struct Synced: Decodable { let status: String }
        #expect(try JSONDecoder().decode([Synced].self, from: Data(sync.stdout.utf8)).map(\.status) == ["connected"], "\(sync.stdout)")
        #expect(try network(home: bob, server: server.url).edges.count == 1)
    }
}
