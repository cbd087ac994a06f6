import ConstellationModel
import Foundation
import TestSupport
import Testing

/// One person on two computers, with the real binaries: the first CLI shows a link and waits, the
/// second joins with the code it showed, and both see the same network; devices are listed and
/// revoked; a recovery code brings the profile back; notes and tags follow up after the event.
@Suite(.serialized, .tier(.endToEnd)) struct DeviceCommandTests {
    let workspace = Workspace()

    func json<T: Decodable>(_ type: T.Type, _ arguments: [String], home: URL, server: String) throws -> T {
        let output = try Binaries.cli(arguments + ["--json"], home: home, server: server)
        #expect(output.status == 0, "\(arguments): \(output.stderr)")
        return try JSONDecoder.constellation.decode(T.self, from: Data(output.stdout.utf8))
    }

    @Test func aSecondComputerJoinsByTheCodeTheFirstShows() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let (desk, laptop, bob) = try workspace.homes("desk", "laptop", "bob")
        let adaId = try workspace.register("Ada", home: desk, server: server.url)
        _ = try workspace.register("Bob", home: bob, server: server.url)
        #expect(try Binaries.cli(["scan", try workspace.token(home: desk, server: server.url)], home: bob, server: server.url).status == 0)

        // The desk shows a QR code and a code to type, and waits.
        let linking = try Binaries.launchCLI(["device", "link"], home: desk, server: server.url)
        var code: String?
        let deadline = Date().addingTimeInterval(30)
        while code == nil, Date() < deadline, linking.process.isRunning {
            code = linking.stdout.firstMatch(of: /device join ([A-Z0-9]{5}-[A-Z0-9]{5})/).map { String($0.output.1) }
            if code == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        let typed = try #require(code, "the link command showed no code: \(linking.stdout)")
        #expect(linking.stdout.contains("▀"), "a QR code is drawn too")

        let joined = try Binaries.cli(["device", "join", typed.lowercased(), "--name", "Laptop"], home: laptop, server: server.url)
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout.contains("Welcome, Ada!"))
        let linked = try linking.wait(timeout: 30)
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.stdout.contains("Linked: Laptop"))

        // Both computers are Ada and see the same network.
        let fromDesk = try json(Network.self, ["view"], home: desk, server: server.url)
        let fromLaptop = try json(Network.self, ["view"], home: laptop, server: server.url)
        #expect(fromDesk.nodes.first(where: \.isMe)?.id == adaId.uuidString)
        #expect(Set(fromLaptop.nodes.map(\.id)) == Set(fromDesk.nodes.map(\.id)) && fromLaptop.edges.count == 1)

        // The code works once; a third computer is told so.
        let third = try workspace.home("third")
        let again = try Binaries.cli(["device", "join", typed], home: third, server: server.url)
        #expect(again.status == 65 && again.stderr.contains("used already"), "\(again.stderr)")

        // The laptop lists both and revokes the desk; the desk's next command is refused.
        let devices = try json([Device].self, ["device", "list"], home: laptop, server: server.url)
        #expect(devices.map(\.name) == [devices[0].name, "Laptop"] && devices.map(\.current) == [false, true])
        #expect(try Binaries.cli(["device", "revoke", devices[0].id.uuidString], home: laptop, server: server.url).status == 0)
        let refused = try Binaries.cli(["me"], home: desk, server: server.url)
        #expect(refused.status == 77, "\(refused.stderr)")
        // The last device goes only on purpose.
        let last = try Binaries.cli(["device", "revoke", devices[1].id.uuidString], home: laptop, server: server.url)
        #expect(last.status == 65 && last.stderr.contains("--last"), "\(last.stderr)")
        let notADevice = try Binaries.cli(["device", "revoke", "not-an-id"], home: laptop, server: server.url)
        #expect(notADevice.status == 64, "a usage error: \(notADevice.stderr)")
        let gone = try Binaries.cli(["device", "revoke", devices[1].id.uuidString, "--last"], home: laptop, server: server.url)
        #expect(gone.status == 0 && gone.stdout.contains("forgotten here too"), "\(gone.stderr)")
        let after = try Binaries.cli(["me"], home: laptop, server: server.url)
        #expect(after.status == 77 && after.stderr.contains("not registered"), "\(after.stderr)")
    }

    /// The server logs everything it can (trace), and still never a recovery code, link or key.
    @Test func aRecoveryCodeBringsTheProfileBackOnce() async throws {
        let server = try ServerProcess(
            databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData, logLevel: "trace")
        defer { _ = server.stop() }
        let (phone, newPhone, other) = try workspace.homes("phone", "new-phone", "other")
        let adaId = try workspace.register("Ada", home: phone, server: server.url)
        let made = try Binaries.cli(["me", "recovery-code"], home: phone, server: server.url)
        #expect(made.status == 0 && made.stdout.contains("shown this once"))
        let code = try #require(made.stdout.firstMatch(of: /([A-Z0-9]{4}(?:-[A-Z0-9]{4}){7})/).map { String($0.output.1) })

        let recovered = try Binaries.cli(["me", "recover", code, "--json"], home: newPhone, server: server.url)
        #expect(recovered.status == 0, "\(recovered.stderr)")
        struct Saved: Decodable { let profileId: UUID }
        #expect(try JSONDecoder().decode(Saved.self, from: Data(recovered.stdout.utf8)).profileId == adaId)
        let reused = try Binaries.cli(["me", "recover", code], home: other, server: server.url)
        #expect(reused.status == 65 && reused.stderr.contains("recovery_code_unknown"), "\(reused.stderr)")
        // A computer with a profile keeps it unless told.
        let kept = try Binaries.cli(["me", "recover", code], home: phone, server: server.url)
        #expect(kept.status == 73 && kept.stderr.contains("--force"), "\(kept.stderr)")

        let linked = try Binaries.cli(["device", "link", "--no-wait", "--json"], home: phone, server: server.url)
        let link = try JSONDecoder.constellation.decode(DeviceLink.self, from: Data(linked.stdout.utf8))
        let joined = try Binaries.cli(["device", "join", link.token, "--json"], home: other, server: server.url)
        #expect(joined.status == 0, "\(joined.stderr)")
        let keys = try [phone, newPhone, other].map { home in
            String(decoding: try Data(contentsOf: home.appendingPathComponent("constellation/credentials.json")), as: UTF8.self)
                .firstMatch(of: /cst_[A-Za-z0-9_-]{43}/).map { String($0.output) } ?? "no key in \(home.path)"
        }
        let log = server.logText
        #expect(log.contains("device linked") && log.contains("profile recovered"), "the log is on")
        for secret in [code, code.replacingOccurrences(of: "-", with: ""), link.code, link.token] + keys {
            #expect(!log.contains(secret), "\(secret.prefix(12))… is in the server's log")
        }
    }

    @Test func notesAndTagsFollowUpAfterTheEvent() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let (ada, bob, bella) = try workspace.homes("ada", "bob", "bella")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        let bobId = try workspace.register("Bob Stone", home: bob, server: server.url)
        _ = try workspace.register("Bella Stone", home: bella, server: server.url)
        for home in [bob, bella] {
            #expect(
                try Binaries.cli(["scan", try workspace.token(home: home, server: server.url)], home: ada, server: server.url).status == 0)
        }
        // A name that fits two people is refused with both; enough of it picks one.
        let ambiguous = try Binaries.cli(["note", "stone", "hi"], home: ada, server: server.url)
        #expect(
            ambiguous.status == 65 && ambiguous.stderr.contains("Bob Stone") && ambiguous.stderr.contains("Bella Stone"),
            "\(ambiguous.stderr)")
        #expect(try Binaries.cli(["note", "bob", "Sails; owes me a book"], home: ada, server: server.url).status == 0)
        #expect(try Binaries.cli(["tag", bobId.uuidString, "sailing", "books"], home: ada, server: server.url).status == 0)
        let removed = try Binaries.cli(["tag", "bob", "BOOKS", "--remove"], home: ada, server: server.url)
        #expect(removed.stdout.contains("Bob Stone: sailing"), "\(removed.stdout)")

        let found = try Binaries.cli(["connections", "--search", "BOOK"], home: ada, server: server.url)
        #expect(
            found.stdout.contains("Bob Stone") && found.stdout.contains("#sailing") && found.stdout.contains("    Sails; owes me a book"))
        #expect(!found.stdout.contains("Bella"))
        let tagged = try json([Connection].self, ["connections", "--tag", "sailing"], home: ada, server: server.url)
        #expect(tagged.map(\.peer.displayName) == ["Bob Stone"])
        let nobody = try Binaries.cli(["note", "Zed", "x"], home: ada, server: server.url)
        #expect(nobody.status == 65 && nobody.stderr.contains("no connection named 'Zed'"))
        // Bob sees nothing of it.
        let bobs = try json([Connection].self, ["connections"], home: bob, server: server.url)
        #expect(bobs.first?.note == nil && bobs.first?.tags == [])
    }
}
