import Backup
import Client
import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing

/// `constellation-server backup` and `restore`, the release binaries on real PostgreSQL databases:
/// the drill an operator runs, and the archives a restore must refuse.
@Suite(.tier(.endToEnd)) struct BackupTests {
    let workspace = Workspace()

    /// An event's people and connections, one of them pseudonymous; a code shown before the backup
    /// and not yet scanned. The backup runs while the server serves; the restore goes into a new
    /// database and data directory, and a server started there redeems the old code, with every
    /// pseudonym and the event's network as they were.
    @Test func aBackupRestoresIntoANewDatabaseWithItsKeysAndPseudonyms() async throws {
        let (source, target) = (try await TestDatabase.createEmpty(), try await TestDatabase.createEmpty(ownedBy: Self.role))
        let (dataBefore, dataAfter) = (workspace.root.appendingPathComponent("before"), workspace.root.appendingPathComponent("after"))
        let before = try ServerProcess(databaseURL: source, dataDirectory: dataBefore, environment: ["CONSTELLATION_RATE_LIMITS": "off"])
        let anonymous = before.client
        var keys: [String] = []
        for name in ["Ada", "Bob", "Cleo", "Dan"] { keys.append(try await anonymous.register(NewProfile(displayName: name)).apiKey) }
        let people = keys.map { anonymous.authenticated($0) }
        let created = try await people[0].createEvent(
            NewEvent(
                name: "Drill", slug: "drill", startsAt: Date().addingTimeInterval(-3_600), endsAt: Date().addingTimeInterval(36_000),
                timeZone: "UTC"))
        for person in people.dropFirst() { _ = try await person.joinEvent("drill", code: created.joinCode) }
        _ = try await people[1].setEventVisibility(.pseudonymous, at: "drill")
        for (owner, scanner) in [(0, 1), (1, 2), (2, 3)] {
            _ = try await people[scanner].redeem(RedeemRequest(token: try await people[owner].issueToken(event: "drill").token))
        }
        let shownBefore = try await people[0].issueToken().token
        let networkBefore = try await people[0].eventNetwork("drill")
        #expect(networkBefore.nodes.contains { $0.label.hasPrefix("Attendee ") }, "Bob shows under a pseudonym")

        let archive = workspace.root.appendingPathComponent("drill.backup")
        let backup = try Binaries.server(
            ["backup", "--data-dir", dataBefore.path, "--output", archive.path], databaseURL: source, scratch: workspace.root)
        #expect(backup.status == 0, "\(backup.stderr)")
        _ = before.stop()
        let mode = try FileManager.default.attributesOfItem(atPath: archive.path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the archive holds secrets: mode \(String(mode ?? 0, radix: 8))")

        // As a superuser: refused unless asked for, and nothing written.
        let superuserTarget = try await TestDatabase.createEmpty()
        let asSuperuser = try Binaries.server(
            ["restore", "--data-dir", workspace.root.appendingPathComponent("superuser").path, archive.path], databaseURL: superuserTarget,
            scratch: workspace.root)
        #expect(asSuperuser.status == 78 && asSuperuser.stderr.contains("superuser"), "\(asSuperuser.status) \(asSuperuser.stderr)")
        #expect(try await Self.isEmpty(superuserTarget))

        let restore = try Binaries.server(
            ["restore", "--data-dir", dataAfter.path, archive.path], databaseURL: target, scratch: workspace.root)
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stdout.contains("4 people, 1 events, 3 connections"), "\(restore.stdout)")
        let after = try ServerProcess(databaseURL: target, dataDirectory: dataAfter)
        defer { _ = after.stop() }
        let restored = people.map { after.client.authenticated($0.apiKey!) }
        let networkAfter = try await restored[0].eventNetwork("drill")
        #expect(
            networkAfter.nodes == networkBefore.nodes && networkAfter.edges == networkBefore.edges, "the same people, pseudonyms and edges")
        let redeemed = try await restored[3].redeem(RedeemRequest(token: shownBefore))
        #expect(
            redeemed.created && redeemed.connection.peer.displayName == "Ada", "a code shown before the backup connects after the restore")
        print("backup drill: \(backup.stdout.trimmingCharacters(in: .newlines)) / \(restore.stdout.trimmingCharacters(in: .newlines))")

        // Two restores into one empty database at once: one restores, the other finds its tables (73).
        let contested = try await TestDatabase.createEmpty(ownedBy: Self.role)
        let outcomes = try await withThrowingTaskGroup(of: Int32.self) { group in
            for side in ["left", "right"] {
                group.addTask {
                    try Binaries.server(
                        ["restore", "--data-dir", workspace.root.appendingPathComponent("contested-\(side)").path, archive.path],
                        databaseURL: contested, scratch: workspace.root
                    ).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }.sorted()
        }
        #expect(outcomes == [0, 73], "\(outcomes)")
        let contestedServer = try ServerProcess(
            databaseURL: contested, dataDirectory: workspace.root.appendingPathComponent("contested-check"))
        #expect(try await contestedServer.client.authenticated(people[0].apiKey!).connections().items.count == 1, "restored once")
        _ = contestedServer.stop()

        // Again onto what now holds data: refused, nothing changed.
        let again = try Binaries.server(
            ["restore", "--data-dir", dataAfter.path, archive.path], databaseURL: target, scratch: workspace.root)
        #expect(again.status == 73 && again.stderr.contains("holds keys already"), "\(again.status) \(again.stderr)")
        let elsewhere = workspace.root.appendingPathComponent("elsewhere")
        let ontoData = try Binaries.server(
            ["restore", "--data-dir", elsewhere.path, archive.path], databaseURL: target, scratch: workspace.root)
        #expect(ontoData.status == 73 && ontoData.stderr.contains("holds tables already"), "\(ontoData.status) \(ontoData.stderr)")
        #expect(!FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("signing-key").path))
        #expect(try await restored[3].connections().items.count == 2, "the restored database is as it was")
    }

    /// A truncated, altered or foreign archive, or one whose schema is newer than the binary's:
    /// one clear line, its exit code, and the empty database and data directory stay empty.
    @Test func brokenForeignAndNewerArchivesAreRefusedAndWriteNothing() async throws {
        let source = try await TestDatabase.createEmpty()
        let data = workspace.root.appendingPathComponent("source")
        let server = try ServerProcess(databaseURL: source, dataDirectory: data)
        _ = try await server.client.register(NewProfile(displayName: "Ada"))
        _ = server.stop()
        let archive = workspace.root.appendingPathComponent("good.backup")
        let backup = try Binaries.server(
            ["backup", "--data-dir", data.path, "--output", archive.path], databaseURL: source, scratch: workspace.root)
        try #require(backup.status == 0, "\(backup.stderr)")
        let good = try Data(contentsOf: archive)

        // The same files, with a manifest that names a migration from the future.
        let unpacked = workspace.root.appendingPathComponent("unpacked")
        let manifest = try BackupArchive.extract(archive, into: unpacked)
        let newer = workspace.root.appendingPathComponent("newer.backup")
        try BackupArchive.write(
            to: newer, files: manifest.files.map { ($0.name, unpacked.appendingPathComponent($0.name)) },
            migrations: manifest.migrations + ["9999_from_the_future"], keysFromEnvironment: false)

        var altered = good
        altered[2_000] ^= 0x01  // inside the database dump
        let cases: [(name: String, bytes: Data, status: Int32, says: String)] = [
            ("truncated", good.prefix(good.count / 2), 65, "truncated"),
            ("altered", altered, 65, "altered"),
            ("foreign", Data("not a backup at all\n".utf8) + Data(count: 1_024), 65, "not a Constellation backup"),
            ("empty", Data(), 65, "truncated"),
            ("newer", try Data(contentsOf: newer), 78, "newer than this constellation-server"),
        ]
        for refused in cases {
            let file = workspace.root.appendingPathComponent("\(refused.name).archive")
            try refused.bytes.write(to: file)
            let target = try await TestDatabase.createEmpty(ownedBy: Self.role)
            let directory = workspace.root.appendingPathComponent("target-\(refused.name)")
            let restore = try Binaries.server(
                ["restore", "--data-dir", directory.path, file.path], databaseURL: target, scratch: workspace.root)
            #expect(
                restore.status == refused.status && restore.stderr.contains(refused.says),
                "\(refused.name): \(restore.status) \(restore.stderr)")
            #expect(restore.stderr.split(separator: "\n").count == 1, "\(refused.name): one line")
            #expect(try await Self.isEmpty(target), "\(refused.name): the database stays empty")
            #expect(Self.keys(in: directory).isEmpty, "\(refused.name): no keys written")
        }
        // A backup is never written over a file, and needs the server's data directory.
        let over = try Binaries.server(
            ["backup", "--data-dir", data.path, "--output", archive.path], databaseURL: source, scratch: workspace.root)
        #expect(over.status == 73 && over.stderr.contains("exists already"), "\(over.status) \(over.stderr)")
        let noKeys = try Binaries.server(
            [
                "backup", "--data-dir", workspace.root.appendingPathComponent("nothing").path, "--output",
                workspace.root.appendingPathComponent("x").path,
            ],
            databaseURL: source, scratch: workspace.root)
        #expect(noKeys.status == 66 && noKeys.stderr.contains("no signing key"), "\(noKeys.status) \(noKeys.stderr)")
    }

    /// The role the restores connect as: it owns its database and is no superuser, as the server's should be.
    static let role = "constellation_restorer"

    static func isEmpty(_ conninfo: String) async throws -> Bool {
        let database = Database(conninfo: conninfo, maximumConnections: 1, logger: TestDatabase.logger)
        let empty = try await DatabaseDump.isEmpty(database)
        await database.shutdown()
        return empty
    }

    /// The key files in `directory`, and anything else a restore might have left there.
    static func keys(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { !$0.hasPrefix("postgres") }
    }
}
