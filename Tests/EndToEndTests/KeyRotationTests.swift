import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing
import Tokens

/// `constellation-server keys rotate` against the running server binary and the CLI's offline check.
@Suite(.serialized, .tier(.endToEnd)) struct KeyRotationTests {
    let workspace = Workspace()

    /// `GET /v1/keys` until it lists `count` keys, for at most 30 seconds.
    func published(on url: String, count: Int) async throws -> [PublishedKey] {
        let client = ConstellationClient(baseURL: url, timeout: .seconds(60))
        var keys: [PublishedKey] = []
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            keys = try await client.keys().keys
            if keys.count == count { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        return keys
    }

    @Test func theRunningServerTakesARotationAndOldTokensStillConnectOnlineAndOffline() async throws {
        let databaseURL = try await TestDatabase.createEmpty()
        let data = workspace.serverData
        // At "notice" the server logs each reload of its keys: a failure shows what the watcher saw.
        var server = try ServerProcess(databaseURL: databaseURL, dataDirectory: data, logLevel: "notice")
        let (ada, bob, cleo) = try workspace.homes("ada", "bob", "cleo")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        _ = try workspace.register("Bob", home: bob, server: server.url)
        _ = try workspace.register("Cleo", home: cleo, server: server.url)
        // Two codes Ada showed before the rotation.
        let shownBefore = try workspace.token(home: ada, server: server.url)
        let alsoBefore = try workspace.token(home: ada, server: server.url)
        let oldKid = try ConnectionTokens.keyId(of: shownBefore)

        let rotate = try Binaries.server(["keys", "rotate", "--data-dir", data.path], databaseURL: databaseURL, scratch: workspace.root)
        #expect(rotate.status == 0, "\(rotate.stderr)")
        #expect(rotate.stdout.contains("Rotated the signing key") && rotate.stdout.contains("\(oldKid), retired"), "\(rotate.stdout)")

        // The server takes the new key without a restart.
        let keys = try await published(on: server.url, count: 2)
        #expect(keys.map(\.status) == [.retired, .current], "\(keys)\n\(server.logText)")
        #expect(keys.first?.kid == oldKid && keys.first?.notAfter != nil && keys.last?.notAfter == nil)
        let newKid = try #require(keys.last?.kid)
        #expect(newKid != oldKid)

        // Bob scans a code shown before the rotation: it connects. Ada's new codes carry the new key.
        let scan = try Binaries.cli(["scan", shownBefore], home: bob, server: server.url)
        #expect(scan.status == 0 && scan.stdout.contains("Connected with Ada"), "\(scan.stderr)")
        #expect(try ConnectionTokens.keyId(of: workspace.token(home: ada, server: server.url)) == newKid)

        // `keys list` says the same as the server.
        let list = try Binaries.server(
            ["keys", "list", "--data-dir", data.path, "--json"], databaseURL: databaseURL, scratch: workspace.root)
        #expect(list.status == 0, "\(list.stderr)")
        let listed = try JSONDecoder.constellation.decode(KeySet.self, from: Data(list.stdout.utf8))
        #expect(listed.keys == keys)
        let table = try Binaries.server(["keys", "list", "--data-dir", data.path], databaseURL: databaseURL, scratch: workspace.root)
        let rows = table.stdout.split(separator: "\n")
        #expect(
            rows.count == 3 && rows[0].hasPrefix("KID") && rows[1].hasPrefix("\(oldKid)  retired")
                && rows[2].hasPrefix("\(newKid)  current"),
            "\(table.stdout)")

        // Cleo's CLI learns the rotated keys at its next contact; then, with the server down, it checks
        // the other code of before the rotation against the retired key, and queues it.
        #expect(try Binaries.cli(["view", "--json"], home: cleo, server: server.url).status == 0)
        #expect(server.stop() == 0)
        let offline = try Binaries.cli(["scan", alsoBefore], home: cleo, server: server.url)
        #expect(offline.status == 0 && offline.stdout.contains("the scan is saved offline"), "\(offline.stderr)")

        // The restarted server reads the rotated keys from its files and accepts the queued scan.
        server = try ServerProcess(databaseURL: databaseURL, dataDirectory: data)
        defer { _ = server.stop() }
        #expect(try await server.client.keys().keys.map(\.kid) == [oldKid, newKid])
        let sync = try Binaries.cli(["sync", "--json"], home: cleo, server: server.url)
        #expect(sync.status == 0, "\(sync.stderr)")
        struct Synced: Decodable { let status: String }
        #expect(try JSONDecoder().decode([Synced].self, from: Data(sync.stdout.utf8)).map(\.status) == ["connected"], "\(sync.stdout)")
    }

    @Test func badKeyInputGetsClearMessagesAndExitCodes() async throws {
        let databaseURL = try await TestDatabase.createEmpty()
        let scratch = try workspace.home("scratch")
        func server(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Binaries.Output {
            try Binaries.server(arguments, databaseURL: databaseURL, scratch: scratch, environment: environment, timeout: 60)
        }

        // No key in the data directory: nothing to rotate or list (66), and nothing written.
        let empty = workspace.root.appendingPathComponent("empty")
        for command in [["keys", "rotate"], ["keys", "list"]] {
            let output = try server(command + ["--data-dir", empty.path])
            #expect(output.status == 66, "\(command): \(output.stderr)")
            #expect(
                output.stderr == "constellation-server: there is no signing key at \(empty.path)/signing-key "
                    + "(the server creates one when it first starts); check --data-dir\n")
        }
        #expect(!FileManager.default.fileExists(atPath: empty.path))

        // Keys in the environment: `keys rotate` cannot change them (78) and says what to do instead.
        let environment = ["CONSTELLATION_SIGNING_KEY": PASERK.encode(try SigningKey.generate())]
        let refused = try server(["keys", "rotate", "--data-dir", empty.path], environment)
        #expect(refused.status == 78)
        #expect(refused.stderr.contains("CONSTELLATION_SIGNING_KEY") && refused.stderr.contains("--print-environment"), "\(refused.stderr)")
        let printed = try server(["keys", "rotate", "--print-environment"], environment)
        #expect(printed.status == 0, "\(printed.stderr)")
        let values = printed.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "=", maxSplits: 1) }
        #expect(values.map { String($0[0]) } == ["CONSTELLATION_SIGNING_KEY", "CONSTELLATION_RETIRED_KEYS", "CONSTELLATION_PSEUDONYM_KEY"])
        #expect(values.first.map { $0[1].hasPrefix("k4.secret.") } == true)
        #expect(
            try server(["keys", "rotate", "--print-environment", "--data-dir", empty.path]).status == 64, "a flag for environment keys only"
        )

        // A malformed retired-keys line stops the server at start (78), naming the file and the line.
        let data = workspace.root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(
                atPath: data.appendingPathComponent("signing-key").path,
                contents: Data((PASERK.encode(try SigningKey.generate()) + "\n").utf8),
                attributes: [.posixPermissions: 0o600]))
        // Keys another user keeps (the service's, rotated as root): refused (78), nothing written;
        // the server could not have read the new key. Only root can give a file away.
        if geteuid() == 0, let nobody = getpwnam("nobody") {
            let key = data.appendingPathComponent("signing-key")
            let before = try Data(contentsOf: key)
            #expect(chown(key.path, nobody.pointee.pw_uid, nobody.pointee.pw_gid) == 0)
            let foreign = try server(["keys", "rotate", "--data-dir", data.path])
            #expect(foreign.status == 78 && foreign.stderr.contains("are nobody's: rotate them as nobody"), "\(foreign.stderr)")
            #expect(try Data(contentsOf: key) == before)
            #expect(chown(key.path, 0, 0) == 0)
        }
        let retired = data.appendingPathComponent("retired-keys")
        try "k4.public.AAAA yesterday\n".write(to: retired, atomically: true, encoding: .utf8)
        let serve = try server(["serve", "--port", "0", "--data-dir", data.path])
        #expect(serve.status == 78, "\(serve.stderr)")
        #expect(
            serve.stderr.contains("constellation-server: \(retired.path) line 1: expected `k4.public.… SINCE RETIRED-AT TRUSTED-UNTIL`"),
            "\(serve.stderr)")
        #expect(try server(["keys", "list", "--data-dir", data.path]).status == 78)
        #expect(try server(["keys", "rotate", "--data-dir", data.path]).status == 78)
    }
}
