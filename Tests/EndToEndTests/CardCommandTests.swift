import Foundation
import TestSupport
import Testing

/// `constellation me card` with the release binaries: entries added, shared and hidden; my
/// connection sees, as they scan and in `connections`, what I share and nothing else; bad input is refused with a
/// clear message and an exit code, changing nothing.
@Suite(.serialized, .tier(.endToEnd)) struct CardCommandTests {
    let workspace = Workspace()

    @Test func myConnectionSeesWhatIShareAndOnlyThat() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let (ada, bob) = try workspace.homes("ada", "bob")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        _ = try workspace.register("Bob", home: bob, server: server.url)
        func cli(_ arguments: [String], _ home: URL) throws -> Binaries.Output {
            try Binaries.cli(arguments, home: home, server: server.url)
        }

        let email = try cli(["me", "card", "add", "email", "ada@engines.example", "--label", "work", "--share"], ada)
        #expect(email.status == 0 && email.stdout.contains("1. email (work): ada@engines.example  — seen by your connections"), "\(email)")
        let phone = try cli(["me", "card", "add", "phone", "+44 20 7946 0958", "--label", "mobile"], ada)
        #expect(phone.status == 0 && phone.stdout.contains("2. phone (mobile): +442079460958  — seen by only you"), "\(phone)")
        let scan = try cli(["scan", try workspace.token(home: ada, server: server.url)], bob)
        #expect(scan.status == 0 && scan.stdout.contains("Connected with Ada.\n    email (work): ada@engines.example\n"), "\(scan)")
        #expect(!scan.stdout.contains("+442079460958"), "what Ada keeps is not in the scan's answer")

        let seen = try cli(["connections"], bob)
        #expect(seen.stdout.contains("email (work): ada@engines.example") && !seen.stdout.contains("+442079460958"), "\(seen.stdout)")
        #expect(try cli(["me", "card", "share", "2"], ada).status == 0)
        #expect(try cli(["connections"], bob).stdout.contains("phone (mobile): +442079460958"))
        #expect(try cli(["me", "card", "share", "1", "--nobody"], ada).status == 0)
        #expect(!(try cli(["connections"], bob).stdout.contains("ada@engines.example")), "hidden again at once")

        let javascript = try cli(["me", "card", "add", "link", "javascript:alert(1)", "--share"], ada)
        #expect(javascript.status != 0 && javascript.stderr.contains("http or https link"), "\(javascript)")
        let missing = try cli(["me", "card", "remove", "9"], ada)
        #expect(missing.status == 65 && missing.stderr.contains("there is no entry 9"), "\(missing)")
        let kind = try cli(["me", "card", "add", "fax", "+4930123456"], ada)
        #expect(kind.status == 64, "an unknown kind is a usage error: \(kind)")
        let card = try cli(["me", "card"], ada).stdout
        #expect(card.split(separator: "\n").count == 2, "nothing written by the refusals: \(card)")
    }
}
