import ConstellationModel
import Foundation
import QR
import TestSupport
import Testing

/// `constellation event badge`, `print-badge` and `badges` with the release binaries: a badge
/// written as PNG is read back by zbar, fits QR version 10 with a 40-character public URL, and
/// connects when scanned from the picture; the organizer's sheet holds whoever asked; a reset
/// revokes the printed badge; bad input gets a clear message and an exit code.
@Suite(.serialized, .tier(.endToEnd)) struct BadgeCommandTests {
    let workspace = Workspace()
    static let publicURL = "https://constellation.example-events.org"

    @Test func aPrintedBadgeReadsBackConnectsAndIsRevokedByAReset() async throws {
        let server = try ServerProcess(
            databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData,
            environment: ["CONSTELLATION_PUBLIC_URL": Self.publicURL])
        defer { _ = server.stop() }
        let (ada, bob, cleo, dan) = try workspace.homes("ada", "bob", "cleo", "dan")
        for (name, home) in [("Ada", ada), ("Bob", bob), ("Cleo", cleo), ("Dan", dan)] {
            _ = try workspace.register(name, home: home, server: server.url)
        }
        func cli(_ arguments: [String], _ home: URL) throws -> Binaries.Output {
            try Binaries.cli(arguments, home: home, server: server.url)
        }
        let created = try workspace.createEvent("Badge Day", slug: "badge-day", home: ada, server: server.url)
        #expect(try cli(["event", "join", "badge-day", "--code", created.joinCode], bob).status == 0)

        let png = workspace.root.appendingPathComponent("bob-badge.png").path
        let written = try cli(["event", "badge", "badge-day", "--format", "png", "--output", png], bob)
        #expect(written.status == 0 && written.stdout.contains("Wrote your badge for badge-day"), "\(written)")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: png)))
        let read = try QRDecoder.decode(imageFile: bytes)
        #expect(read.count == 1 && read[0].hasPrefix(Self.publicURL + "/c#b1."), "\(read)")
        // The PNG draws 8 pixels a module with a quiet zone of 4: its width gives the symbol's version.
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let version = (width / 8 - 2 * QRCode.quietZone - 17) / 4
        print(
            "badge QR code: version \(version) at level M, \(read[0].utf8.count) bytes, with a \(Self.publicURL.count)-character public URL"
        )
        #expect(version <= 10, "version \(version)")

        let svg = workspace.root.appendingPathComponent("bob-badge.svg")
        #expect(try cli(["event", "badge", "badge-day", "--output", svg.path], bob).status == 0)
        #expect(try String(contentsOf: svg, encoding: .utf8).contains(">Bob</text>"))

        let scanned = try cli(["scan", "--image", png], cleo)
        #expect(scanned.status == 0 && scanned.stdout.contains("Connected with Bob"), "\(scanned)")

        #expect(try cli(["event", "print-badge", "badge-day", "yes"], bob).stdout.contains("print your badge"))
        // The other yes-or-no of a member: the wall's label, off until asked for, read back.
        #expect(try cli(["event", "on-wall", "badge-day"], bob).stdout.contains("without a label"))
        #expect(try cli(["event", "on-wall", "badge-day", "yes"], bob).stdout.contains("label you by name"))
        let json = try cli(["event", "on-wall", "badge-day", "--json"], bob).stdout
        #expect(try JSONDecoder().decode([String: Bool].self, from: Data(json.utf8)) == ["onWall": true], "\(json)")
        #expect(try cli(["event", "on-wall", "badge-day", "maybe"], bob).status == 64)
        let sheet = workspace.root.appendingPathComponent("sheet.html")
        let printed = try cli(["event", "badges", "badge-day", "--paper", "letter", "--output", sheet.path], ada)
        #expect(printed.status == 0 && printed.stdout.contains("Wrote 1 badge for badge-day"), "\(printed)")
        #expect(try String(contentsOf: sheet, encoding: .utf8).contains(">Bob</text>"))
        // Any language the server writes, with no list in the CLI to keep.
        let german = workspace.root.appendingPathComponent("german.html")
        #expect(try cli(["event", "badges", "badge-day", "--language", "de", "--output", german.path], ada).status == 0)
        #expect(try String(contentsOf: german, encoding: .utf8).contains("Scannen zum Vernetzen"))

        // Refusals: a clear line and exit 65 (the server said no) or 64 (the command is wrong).
        let stranger = try cli(["event", "badge", "badge-day", "--output", png + ".x"], dan)
        #expect(stranger.status == 65 && stranger.stderr.contains("not_a_member"), "\(stranger)")
        let notOrganizer = try cli(["event", "badges", "badge-day", "--output", sheet.path + ".x"], bob)
        #expect(notOrganizer.status == 65 && notOrganizer.stderr.contains("not_an_organizer"), "\(notOrganizer)")
        #expect(try cli(["event", "badges", "badge-day", "--paper", "legal", "--output", "x"], ada).status == 64)
        let french = try cli(["event", "badges", "badge-day", "--language", "fr", "--output", sheet.path + ".x"], ada)
        #expect(french.status == 65 && french.stderr.contains("lang must be one of de, en"), "\(french)")
        #expect(!FileManager.default.fileExists(atPath: png + ".x") && !FileManager.default.fileExists(atPath: sheet.path + ".x"))

        // Bob resets his codes: the badge printed before is refused, with the server's reason.
        #expect(try cli(["qr", "reset"], bob).status == 0)
        let revoked = try cli(["scan", "--image", png], dan)
        #expect(revoked.status != 0 && revoked.stderr.contains("token_revoked"), "\(revoked)")
    }
}
