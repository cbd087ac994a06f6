import Backup
import Client
import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing

/// Archives crafted to make `constellation-server restore` run something, or write what a backup
/// never holds: each is refused with exit 65 in one line, nothing it carries runs (a canary file
/// that its code would create stays absent), and the database and the data directory stay empty.
@Suite(.tier(.endToEnd)) struct RestoreRefusalTests {
    let workspace = Workspace()
    /// Written by the crafted code if it ever runs, as the PostgreSQL server's user: in /tmp, which that user may write.
    let canary = "/tmp/constellation-canary-\(UUID().uuidString)"

    /// A database with Constellation's schema and a little data, as a server left it, and its key files.
    func source() async throws -> (conninfo: String, keys: URL, migrations: [String]) {
        let conninfo = try await TestDatabase.createEmpty()
        let data = workspace.root.appendingPathComponent("source")
        let server = try ServerProcess(databaseURL: conninfo, dataDirectory: data)
        let ada = server.client.authenticated(try await server.client.register(NewProfile(displayName: "Ada")).apiKey)
        let bob = server.client.authenticated(try await server.client.register(NewProfile(displayName: "Bob")).apiKey)
        _ = try await bob.redeem(RedeemRequest(token: try await ada.issueToken().token))
        _ = server.stop()
        let migrations = try Migrator(directory: TestDatabase.migrations, logger: TestDatabase.logger).migrations().map(\.version)
        return (conninfo, data, migrations)
    }

    /// The source's database changed by `sql` (run by a superuser), dumped as pg_dump does
    /// (with the privileges where asked), in an archive with the source's keys and an honest manifest.
    func craft(
        _ name: String, sql: String, privileges: Bool = false, from source: (conninfo: String, keys: URL, migrations: [String])
    ) async throws -> URL {
        let crafted = try await TestDatabase.createCopy(of: source.conninfo)
        let database = Database(conninfo: crafted, maximumConnections: 1, logger: TestDatabase.logger)
        try await database.withConnection { try $0.execute(unsafeSQL: sql) }
        await database.shutdown()
        let dump = workspace.root.appendingPathComponent("\(name).dump")
        let pgDump = Process()
        pgDump.executableURL = URL(fileURLWithPath: "/usr/lib/postgresql/15/bin/pg_dump")
        pgDump.arguments =
            ["--format=custom", "--no-owner", "--file=\(dump.path)", "--dbname=\(crafted)"] + (privileges ? [] : ["--no-privileges"])
        try pgDump.run()
        pgDump.waitUntilExit()
        try #require(pgDump.terminationStatus == 0, "\(name): pg_dump")
        return try archive(name, files: [(BackupArchive.databaseName, dump)] + keyFiles(source.keys), migrations: source.migrations)
    }

    func keyFiles(_ directory: URL) -> [(String, URL)] {
        ["signing-key", "pseudonym-key"].map { (BackupArchive.keysFolder + $0, directory.appendingPathComponent($0)) }
    }

    func archive(_ name: String, files: [(String, URL)], migrations: [String]) throws -> URL {
        let archive = workspace.root.appendingPathComponent("\(name).backup")
        try BackupArchive.write(to: archive, files: files, migrations: migrations, keysFromEnvironment: false)
        return archive
    }

    /// Restores `archive` into a new empty database and data directory: refused with 65 in one
    /// line saying `says`, nothing run, nothing written.
    func expectRefused(_ name: String, _ archive: URL, says: String) async throws {
        let target = try await TestDatabase.createEmpty(ownedBy: BackupTests.role)
        let directory = workspace.root.appendingPathComponent("target-\(name)")
        let restore = try Binaries.server(
            ["restore", "--data-dir", directory.path, archive.path], databaseURL: target, scratch: workspace.root)
        #expect(restore.status == 65 && restore.stderr.contains(says), "\(name): \(restore.status) \(restore.stderr)")
        #expect(restore.stderr.split(separator: "\n").count == 1, "\(name): one line")
        #expect(!FileManager.default.fileExists(atPath: canary), "\(name): the archive's code ran")
        #expect(try await BackupTests.isEmpty(target), "\(name): the database stays empty")
        #expect(BackupTests.keys(in: directory).isEmpty, "\(name): nothing left in the data directory: \(BackupTests.keys(in: directory))")
    }

    @Test func aDumpHoldingAnythingConstellationDoesNotWriteIsRefusedAndNothingOfItRuns() async throws {
        defer { unlink(canary) }
        let source = try await source()
        let run = "COPY (SELECT 1) TO PROGRAM 'touch \(canary)'"
        let stranger = "stranger_\(UUID().uuidString.prefix(8).lowercased())"
        let evil = "CREATE FUNCTION public.evil() RETURNS integer LANGUAGE plpgsql AS $$ BEGIN \(run); RETURN 1; END $$;"
        let cases: [(name: String, sql: String, privileges: Bool, says: String)] = [
            ("function", evil, false, "FUNCTION public evil()"),
            // Harmless while the view is made and filled, swapped after: the view's refresh would run it.
            (
                "view",
                """
                CREATE FUNCTION public.evil() RETURNS integer LANGUAGE sql AS 'SELECT 1';
                CREATE MATERIALIZED VIEW public.leaderboard AS SELECT public.evil() AS n;
                CREATE OR REPLACE FUNCTION public.evil() RETURNS integer LANGUAGE plpgsql AS $$ BEGIN \(run); RETURN 1; END $$;
                """, false, "public evil()"
            ),
            ("check", evil + "ALTER TABLE public.profiles ADD CONSTRAINT sane CHECK (public.evil() = 1) NOT VALID;", false, "holds"),
            ("default", evil + "ALTER TABLE public.profiles ALTER COLUMN headline SET DEFAULT public.evil()::text;", false, "holds"),
            ("table", "CREATE TABLE public.extra (n integer); INSERT INTO public.extra VALUES (1);", false, "public extra"),
            (
                "grant",
                "CREATE ROLE \(stranger); GRANT SELECT ON public.profiles TO \(stranger);", true,
                "ACL public"
            ),
            ("extension", "CREATE EXTENSION pg_trgm;", false, "EXTENSION"),
            (
                "trigger",
                """
                CREATE FUNCTION public.audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \(run); RETURN NEW; END $$;
                CREATE TRIGGER audit BEFORE INSERT ON public.profiles FOR EACH ROW EXECUTE FUNCTION public.audit();
                """, false, "holds"
            ),
            (
                "swapped body",
                """
                CREATE OR REPLACE FUNCTION public.event_pairs_revised() RETURNS trigger LANGUAGE plpgsql
                AS $$ BEGIN \(run); RETURN NULL; END $$;
                """, false, "its schema is not this release's"
            ),
        ]
        for crafted in cases {
            let archive = try await craft(crafted.name, sql: crafted.sql, privileges: crafted.privileges, from: source)
            try await expectRefused(crafted.name, archive, says: crafted.says)
        }
    }

    @Test func membersAndKeyFilesABackupNeverWritesAreRefusedBeforeAnythingIsWritten() async throws {
        let source = try await source()
        let dump = workspace.root.appendingPathComponent("honest.dump")
        try DatabaseDump.write(conninfo: source.conninfo, to: dump)
        let files = [(BackupArchive.databaseName, dump)] + keyFiles(source.keys)
        func file(_ name: String, _ text: String) throws -> URL {
            let url = workspace.root.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            chmod(url.path, 0o600)
            return url
        }
        let extra = try archive(
            "extra-key", files: files + [("keys/postgres", try file("postgres", "anything"))], migrations: source.migrations)
        try await expectRefused("extra key file", extra, says: "which no backup writes")
        let oversized = try archive(
            "oversized-key", files: files + [("keys/retired-keys", try file("retired", String(repeating: "#\n", count: 40_000)))],
            migrations: source.migrations)
        try await expectRefused("oversized key file", oversized, says: "over 64 KiB")
        let malformed = try archive(
            "malformed-key",
            files: [files[0], ("keys/signing-key", try file("signing", "k4.secret.not-a-key\n")), files[2]],
            migrations: source.migrations)
        try await expectRefused("malformed key file", malformed, says: "its keys cannot be used")

        // A member longer than the manifest says (its manifest kept as it was), and a name that is not UTF-8.
        let honest = try archive("honest", files: files, migrations: source.migrations)
        var bytes = [UInt8](try Data(contentsOf: honest))
        let longer = workspace.root.appendingPathComponent("longer.backup")
        try Data(Self.growingFirstMember(bytes)).write(to: longer)
        try await expectRefused("longer member", longer, says: "not the size its manifest says")
        let header = try #require(Self.headerOffset(of: "keys/pseudonym-key", in: bytes))
        bytes[header + 5] = 0xFF
        Self.resum(&bytes, header: header)
        let notUTF8 = workspace.root.appendingPathComponent("not-utf8.backup")
        try Data(bytes).write(to: notUTF8)
        try await expectRefused("name not UTF-8", notUTF8, says: "not UTF-8")
    }

    /// The offset of the tar header naming `name`.
    static func headerOffset(of name: String, in bytes: [UInt8]) -> Int? {
        stride(from: 0, to: bytes.count - 512, by: 512).first { bytes[$0..<($0 + name.utf8.count)].elementsEqual(name.utf8) }
    }

    /// Writes a tar header's checksum again after a change.
    static func resum(_ bytes: inout [UInt8], header: Int) {
        for index in 148..<156 { bytes[header + index] = UInt8(ascii: " ") }
        let sum = bytes[header..<(header + 512)].reduce(0) { $0 + Int($1) }
        let digits = Array(String(format: "%06o", sum).utf8) + [0, UInt8(ascii: " ")]
        for (index, byte) in digits.enumerated() { bytes[header + 148 + index] = byte }
    }

    /// The archive with its first member (the dump) 512 bytes longer, its header saying so.
    static func growingFirstMember(_ bytes: [UInt8]) -> [UInt8] {
        var grown = bytes
        let size = Int(String(decoding: bytes[124..<135], as: UTF8.self), radix: 8)!
        let padded = (size + 511) / 512 * 512
        grown.insert(contentsOf: [UInt8](repeating: 0x41, count: 512), at: 512 + padded)
        let field = Array(String(format: "%011o", size + 512).utf8)
        for (index, byte) in field.enumerated() { grown[124 + index] = byte }
        resum(&grown, header: 0)
        return grown
    }
}
