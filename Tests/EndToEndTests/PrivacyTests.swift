import ConstellationModel
import Foundation
import TestSupport
import Testing

/// An attendee's privacy commands with the real CLI and server binaries: vCard and CSV exports,
/// revoking shown codes, disconnecting, exporting, blocking and deleting a profile.
@Suite(.serialized, .tier(.endToEnd)) struct PrivacyTests {
    let workspace = Workspace()

    func connections(home: URL, server: String) throws -> [Connection] {
        let output = try Binaries.cli(["connections", "--json"], home: home, server: server)
        #expect(output.status == 0, "\(output.stderr)")
        return try JSONDecoder.constellation.decode([Connection].self, from: Data(output.stdout.utf8))
    }

    func mode(_ file: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) & 0o777
    }

    @Test func exportsResetDisconnectAndDelete() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { #expect(server.stop() == 0) }
        let (ada, bob, cleo) = try workspace.homes("ada", "bob", "cleo")
        let adaId = try workspace.register("Ada", home: ada, server: server.url)
        let bobId = try workspace.register("Bob, Jr.", home: bob, server: server.url)
        let cleoId = try workspace.register("Cleo", home: cleo, server: server.url)
        let shown = try workspace.token(home: ada, server: server.url)
        #expect(try Binaries.cli(["scan", shown], home: bob, server: server.url).status == 0)

        // connections --vcard: one card, CRLF lines, the comma escaped; --output writes a private file.
        let vcard = try Binaries.cli(["connections", "--vcard"], home: ada, server: server.url)
        #expect(vcard.status == 0, "\(vcard.stderr)")
        #expect(vcard.stdout.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\n"))
        #expect(vcard.stdout.contains("\r\nFN:Bob\\, Jr.\r\n"))
        #expect(vcard.stdout.contains("UID:urn:uuid:\(bobId.uuidString.lowercased())\r\n"))
        #expect(vcard.stdout.components(separatedBy: "BEGIN:VCARD").count == 2)
        let cards = ada.appendingPathComponent("connections.vcf")
        let written = try Binaries.cli(["connections", "--vcard", "--output", cards.path], home: ada, server: server.url)
        #expect(written.status == 0 && written.stdout.isEmpty)
        #expect(try String(contentsOf: cards, encoding: .utf8) == vcard.stdout)
        #expect(try mode(cards) == 0o600)
        let csv = try Binaries.cli(["connections", "--csv"], home: ada, server: server.url)
        #expect(
            csv.stdout.hasPrefix(
                "profile_id,display_name,headline,connected_at,event_id,email,phone,link,organization,role\r\n\(bobId.uuidString.lowercased()),\"Bob, Jr.\",,"
            ))
        #expect(try Binaries.cli(["connections", "--csv", "--vcard"], home: ada, server: server.url).status == 64)

        // qr reset: the code shown before no longer scans, with its own code; a fresh one does.
        let reset = try Binaries.cli(["qr", "reset"], home: ada, server: server.url)
        #expect(reset.status == 0, "\(reset.stderr)")
        let revoked = try Binaries.cli(["scan", shown], home: cleo, server: server.url)
        #expect(revoked.status == 65)
        #expect(revoked.stderr.contains("[token_revoked]"), "\(revoked.stderr)")
        let fresh = try Binaries.cli(["scan", try workspace.token(home: ada, server: server.url)], home: cleo, server: server.url)
        #expect(fresh.status == 0 && fresh.stdout.contains("Connected with Ada"), "\(fresh.stderr)")

        // disconnect: Bob is gone from Ada's connections; again, or a malformed id, is an error.
        let disconnected = try Binaries.cli(["disconnect", bobId.uuidString], home: ada, server: server.url)
        #expect(disconnected.status == 0 && disconnected.stdout.contains("no longer connected with Bob, Jr."), "\(disconnected.stderr)")
        #expect(try connections(home: ada, server: server.url).map(\.peer.displayName) == ["Cleo"])
        let twice = try Binaries.cli(["disconnect", bobId.uuidString], home: ada, server: server.url)
        #expect(twice.status == 65 && twice.stderr.contains("[not_connected]"), "\(twice.stderr)")
        #expect(try Binaries.cli(["disconnect", "bob"], home: ada, server: server.url).status == 64)

        // me export: everything of Ada's as JSON, in a private file.
        let exportFile = ada.appendingPathComponent("me.json")
        #expect(try Binaries.cli(["me", "export", "--output", exportFile.path], home: ada, server: server.url).status == 0)
        let data = try JSONDecoder.constellation.decode(PersonalData.self, from: Data(contentsOf: exportFile))
        #expect(data.profile.id == adaId && data.connections.map(\.peer.displayName) == ["Cleo"] && data.tokensValidFrom != nil)
        #expect(try mode(exportFile) == 0o600)

        // block: Cleo leaves Ada's connections and cannot scan Ada's fresh code; unblock lifts it.
        let blocked = try Binaries.cli(["block", cleoId.uuidString], home: ada, server: server.url)
        #expect(blocked.status == 0 && blocked.stdout.contains("You blocked Cleo"), "\(blocked.stderr)")
        #expect(try connections(home: ada, server: server.url).isEmpty)
        let refusedScan = try Binaries.cli(["scan", try workspace.token(home: ada, server: server.url)], home: cleo, server: server.url)
        #expect(refusedScan.status == 65 && refusedScan.stderr.contains("[blocked]"), "\(refusedScan.stderr)")
        let list = try Binaries.cli(["block", "--list", "--json"], home: ada, server: server.url)
        #expect(try JSONDecoder.constellation.decode(BlockList.self, from: Data(list.stdout.utf8)).items.map(\.profile.id) == [cleoId])
        #expect(try Binaries.cli(["block"], home: ada, server: server.url).status == 64)
        #expect(try Binaries.cli(["unblock", cleoId.uuidString], home: ada, server: server.url).status == 0)
        let notBlocked = try Binaries.cli(["unblock", cleoId.uuidString], home: ada, server: server.url)
        #expect(notBlocked.status == 65 && notBlocked.stderr.contains("[not_blocked]"), "\(notBlocked.stderr)")

        // me delete: refused without --yes (nothing happens), then done, and the local key is gone.
        let refused = try Binaries.cli(["me", "delete"], home: ada, server: server.url)
        #expect(refused.status == 64 && refused.stderr.contains("--yes"), "\(refused.stderr)")
        #expect(try Binaries.cli(["me"], home: ada, server: server.url).status == 0)
        let deleted = try Binaries.cli(["me", "delete", "--yes"], home: ada, server: server.url)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ada.appendingPathComponent("constellation/credentials.json").path))
        #expect(try Binaries.cli(["me"], home: ada, server: server.url).status == 77)
        #expect(try connections(home: cleo, server: server.url).isEmpty, "Cleo's connections no longer list Ada")
    }
}
