import Client
import ConstellationModel
import Foundation
import QR
import TestSupport
import Testing
import Tokens

/// The links of issue 9 with the real binaries: `show` draws the server's link, `scan` takes one,
/// `event open` prints an organizer's view link, and a bad `CONSTELLATION_PUBLIC_URL` stops the server.
@Suite(.serialized, .tier(.endToEnd)) struct LinkCommandTests {
    let workspace = Workspace()
    static let publicURL = "https://connect.example.org"

    @Test func showDrawsTheLinkAndScanTakesIt() async throws {
        let server = try ServerProcess(
            databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData,
            environment: ["CONSTELLATION_PUBLIC_URL": Self.publicURL + "/"])
        defer { _ = server.stop() }
        let (ada, bob) = try workspace.homes("ada", "bob")
        let adaId = try workspace.register("Ada", home: ada, server: server.url)
        _ = try workspace.register("Bob", home: bob, server: server.url)

        let json = try Binaries.cli(["show", "--json"], home: ada, server: server.url)
        #expect(json.status == 0, "\(json.stderr)")
        let issued = try JSONDecoder.constellation.decode(IssuedToken.self, from: Data(json.stdout.utf8))
        #expect(issued.link == Self.publicURL + "/c#" + issued.token, "the server's trailing slash is dropped")

        let text = try Binaries.cli(["show"], home: ada, server: server.url)
        #expect(text.status == 0, "\(text.stderr)")
        let code = text.stdout.split(separator: "\n").filter { $0.contains("█") }
        #expect(!code.isEmpty && code.allSatisfy { $0.count <= 80 }, "\(code.map(\.count).max() ?? 0) columns")
        let png = workspace.root.appendingPathComponent("ada.png")
        #expect(try Binaries.cli(["show", "--format", "png", "--output", png.path], home: ada, server: server.url).status == 0)
        let link = try #require(try QRDecoder.decode(imageFile: [UInt8](Data(contentsOf: png))).first)
        #expect(link.hasPrefix(Self.publicURL + "/c#v4.public."))

        // What a phone's camera would open, given to the CLI as it is.
        let scan = try Binaries.cli(["scan", link, "--json"], home: bob, server: server.url)
        #expect(scan.status == 0, "\(scan.stderr)")
        let redemption = try JSONDecoder.constellation.decode(Redemption.self, from: Data(scan.stdout.utf8))
        #expect(redemption.created && redemption.connection.peer.id == adaId)
        let photo = try Binaries.cli(["scan", "--image", png.path], home: bob, server: server.url)
        #expect(photo.status == 0 && photo.stdout.contains("already connected with Ada"), "\(photo.stdout) \(photo.stderr)")
    }

    @Test func eventOpenPrintsAViewLinkForOrganizersOnly() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let (ada, bob) = try workspace.homes("ada", "bob")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        _ = try workspace.register("Bob", home: bob, server: server.url)
        let now = Date()
        let create = try Binaries.cli(
            [
                "event", "create", "--name", "Live", "--slug", "live-2026",
                "--starts", now.addingTimeInterval(-3600).formatted(.iso8601),
                "--ends", now.addingTimeInterval(3600).formatted(.iso8601),
            ], home: ada, server: server.url)
        #expect(create.status == 0, "\(create.stderr)")

        let text = try Binaries.cli(["event", "open", "live-2026"], home: ada, server: server.url)
        #expect(text.status == 0, "\(text.stderr)")
        let link = String(text.stdout.split(separator: "\n").first ?? "")
        #expect(link.hasPrefix(server.url + "/events/live-2026/live#view=v4.public."), "no public URL: the server's own address")
        #expect(text.stdout.contains("until ") && text.stdout.contains("on up to 4 screens at once"), "\(text.stdout)")

        let json = try Binaries.cli(["event", "open", "live-2026", "--wall", "--screens", "12", "--json"], home: ada, server: server.url)
        #expect(json.status == 0, "\(json.stderr)")
        struct Opened: Decodable {
            let link, token, path: String
            let showsNames: Bool
            let screens: Int
            let expiresAt: Date
        }
        let opened = try JSONDecoder.constellation.decode(Opened.self, from: Data(json.stdout.utf8))
        #expect(opened.link == server.url + opened.path && opened.path == "/events/live-2026/live?wall#view=\(opened.token)")
        #expect(!opened.showsNames && opened.screens == 12 && opened.expiresAt > now.addingTimeInterval(700 * 60))
        let noScreen = try Binaries.cli(["event", "open", "live-2026", "--screens", "0"], home: ada, server: server.url)
        #expect(noScreen.status == 64 && noScreen.stderr.contains("--screens must be 1 to 50"), "\(noScreen.stderr)")

        // The token in the link reads the event through the API, and nothing else.
        let token = String(link.split(separator: "#view=").last ?? "")
        let viewer = server.client.authenticated(token)
        #expect(try await viewer.eventSummary("live-2026").people == 0)
        let other = await #expect(throws: ClientError.self) { _ = try await viewer.me() }
        #expect(other?.code == "view_token_read_only")

        let refused = try Binaries.cli(["event", "open", "live-2026"], home: bob, server: server.url)
        #expect(refused.status == 65 && refused.stderr.contains("not_an_organizer"), "\(refused.stderr)")
    }

    /// `event links` lists an event's view links, extends one up to what its token allows, and revokes one or all.
    @Test func eventLinksListsExtendsAndRevokes() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let (ada, bob) = try workspace.homes("ada-links", "bob-links")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        _ = try workspace.register("Bob", home: bob, server: server.url)
        let now = Date()
        let create = try Binaries.cli(
            [
                "event", "create", "--name", "Links", "--slug", "links-2026",
                "--starts", now.addingTimeInterval(-3600).formatted(.iso8601),
                "--ends", now.addingTimeInterval(3 * 86_400).formatted(.iso8601),
            ], home: ada, server: server.url)
        #expect(create.status == 0, "\(create.stderr)")
        let none = try Binaries.cli(["event", "links", "links-2026"], home: ada, server: server.url)
        #expect(none.status == 0 && none.stdout.contains("has no live view link"), "\(none.stdout)")
        for wall in [false, true] {
            #expect(
                try Binaries.cli(["event", "open", "links-2026"] + (wall ? ["--wall"] : []), home: ada, server: server.url).status == 0)
        }
        let listed = try Binaries.cli(["event", "links", "links-2026", "--json"], home: ada, server: server.url)
        let links = try JSONDecoder.constellation.decode(ViewLinkList.self, from: Data(listed.stdout.utf8)).items
        #expect(links.count == 2 && links.allSatisfy { $0.expiresAt < $0.longestUntil }, "\(listed.stdout)")
        let text = try Binaries.cli(["event", "links", "links-2026"], home: ada, server: server.url)
        #expect(text.stdout.contains(links[0].id.uuidString.lowercased()) && text.stdout.contains("wall"), "\(text.stdout)")

        let id = links[0].id.uuidString.lowercased()
        let extended = try Binaries.cli(["event", "links", "links-2026", "--extend", id, "--json"], home: ada, server: server.url)
        #expect(extended.status == 0, "\(extended.stderr)")
        #expect(try JSONDecoder.constellation.decode(ViewLink.self, from: Data(extended.stdout.utf8)).expiresAt == links[0].longestUntil)
        let tooLate = try Binaries.cli(
            ["event", "links", "links-2026", "--extend", id, "--until", now.addingTimeInterval(30 * 86_400).formatted(.iso8601)],
            home: ada, server: server.url)
        #expect(tooLate.status == 65 && tooLate.stderr.contains("at most"), "\(tooLate.stderr)")
        let garbled = try Binaries.cli(["event", "links", "links-2026", "--extend", id, "--until", "soon"], home: ada, server: server.url)
        #expect(garbled.status == 64, "\(garbled.stderr)")
        let both = try Binaries.cli(["event", "links", "links-2026", "--extend", id, "--revoke-all"], home: ada, server: server.url)
        #expect(both.status == 64, "\(both.stderr)")
        let notMine = try Binaries.cli(["event", "links", "links-2026"], home: bob, server: server.url)
        #expect(notMine.status == 65 && notMine.stderr.contains("not_an_organizer"), "\(notMine.stderr)")

        let one = try Binaries.cli(["event", "links", "links-2026", "--revoke", id], home: ada, server: server.url)
        #expect(one.status == 0 && one.stdout.contains("1 link revoked"), "\(one.stdout)\(one.stderr)")
        let all = try Binaries.cli(["event", "links", "links-2026", "--revoke-all"], home: ada, server: server.url)
        #expect(all.status == 0 && all.stdout.contains("1 link revoked"), "\(all.stdout)\(all.stderr)")
        let empty = try Binaries.cli(["event", "links", "links-2026"], home: ada, server: server.url)
        #expect(empty.stdout.contains("has no live view link"), "\(empty.stdout)")
    }

    @Test func aBadPublicURLStopsTheServerWithItsReason() async throws {
        let output = try Binaries.server(
            ["serve", "--port", "0", "--data-dir", workspace.serverData.path],
            databaseURL: try await TestDatabase.createEmpty(), scratch: try workspace.home("scratch"),
            environment: ["CONSTELLATION_PUBLIC_URL": "connect.example.org"], timeout: 30)
        // It stops at once (as for any bad CONSTELLATION_* value, with ArgumentParser's status 1) rather than serve.
        #expect(output.status != 0 && output.status != -1, "\(output.status): \(output.stderr)")
        #expect(output.stderr.contains("CONSTELLATION_PUBLIC_URL=connect.example.org is not valid"), "\(output.stderr)")
    }
}
