import Client
import ConstellationModel
import Foundation
import Server
import TestSupport
import Testing

/// A contact card with consent per entry: what is for connections reaches my connections (their
/// lists and exports, as it is now), what is for nobody stays mine, and no other view shows either,
/// searched for in the raw bodies.
@Suite(.tier(.database)) struct ContactCardTests {
    typealias User = EventNetworkTests.User

    static let card = ContactCard(entries: [
        ContactEntry(kind: .email, label: "work", value: "ada@engines.example", audience: .connections),
        ContactEntry(kind: .phone, label: "mobile", value: "+44 20 7946 0958", audience: .nobody),
        ContactEntry(kind: .link, label: "website", value: "https://ada.example/notes?a=1", audience: .connections),
        ContactEntry(kind: .organization, value: "Analytical Engines; Ltd", audience: .connections),
        ContactEntry(kind: .role, value: "Countess of Lovelace", audience: .nobody),
    ])
    static let shared = ["ada@engines.example", "https://ada.example/notes?a=1", "Analytical Engines"]
    static let kept = ["+442079460958", "Countess of Lovelace"]

    /// The raw body of `GET path` as `client` sees it.
    private static func raw(_ client: ConstellationClient, _ path: String) async throws -> String {
        String(decoding: try await client.send(.GET, path).body, as: UTF8.self)
    }

    @Test func eachEntryAppearsExactlyWhereItIsMeantTo() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo, dan, eve) = try await server.users("Ada", "Bob", "Cleo", "Dan", "Eve")
            let event = try await eve.client.createEvent(EventRoutesTests.newEvent("card-night"))
            for person in [ada, bob] { _ = try await person.client.joinEvent("card-night", code: event.joinCode) }
            _ = try await ada.client.setEventVisibility(.named, at: "card-night")
            _ = try await ada.client.setBadgePrinting(true, at: "card-night")
            let saved = try await ada.client.replaceCard(Self.card)
            #expect(saved.entries.map(\.value)[1] == "+442079460958", "a phone number is kept in E.164")
            #expect(saved.entries.allSatisfy { $0.audience != nil })
            try await EventNetworkTests.connect(ada, bob, at: "card-night")
            try await EventNetworkTests.connect(bob, dan)

            // Ada: all of it, with who sees what; in her export too.
            #expect(try await ada.client.card() == saved)
            let export = try await Self.raw(ada.client, "/v1/me/export")
            for value in Self.shared + Self.kept { #expect(export.contains(value), "Ada's export holds \(value)") }

            // Bob, connected: what is for connections, in his list, the CSV and the vCard; nothing kept.
            let seen = try await bob.client.connections().items.first { $0.peer.id == ada.profile.id }
            #expect(seen?.card?.map(\.value) == ["ada@engines.example", "https://ada.example/notes?a=1", "Analytical Engines; Ltd"])
            #expect(seen?.card?.allSatisfy { $0.audience == nil } == true)
            for path in ["/v1/me/connections", "/v1/me/connections?format=csv", "/v1/me/connections?format=vcard"] {
                let body = try await Self.raw(bob.client, path)
                for value in Self.shared { #expect(body.contains(value), "\(path) shows \(value)") }
                for value in Self.kept { #expect(!body.contains(value), "\(path) hides \(value)") }
            }
            // Nobody else, anywhere: a stranger, a second-degree person, the organizer (her badge sheet too), a view
            // link, Bob's own export, Ada's own badge.
            let link = try await eve.client.issueViewToken(for: "card-night")
            let viewer = ConstellationClient(baseURL: server.client.baseURL).authenticated(link.token)
            let elsewhere: [(ConstellationClient, String)] = [
                (cleo.client, "/v1/profiles/\(ada.profile.id)"), (dan.client, "/v1/me/network?depth=2"),
                (dan.client, "/v1/me/connections"), (bob.client, "/v1/me/export"), (bob.client, "/v1/me/network?depth=2"),
                (eve.client, "/v1/events/card-night/network"), (eve.client, "/v1/events/card-night/summary"),
                (eve.client, "/v1/events/card-night/network?format=csv"), (eve.client, "/v1/events/card-night/network?format=gexf"),
                (eve.client, "/v1/events/card-night/network?format=graphml"), (viewer, "/v1/events/card-night/network"),
                (eve.client, "/v1/events/card-night/badges"), (ada.client, "/v1/me/badge?event=card-night&format=svg"),
            ]
            for (client, path) in elsewhere {
                let body = try await Self.raw(client, path)
                for value in Self.shared + Self.kept { #expect(!body.contains(value), "\(path) shows \(value)") }
            }

            // Cleo scans Ada's code: the answer to the scan already holds what Ada shares, and nothing kept.
            let scan = try await cleo.client.send(
                .POST, "/v1/connections", body: RedeemRequest(token: try await ada.client.issueToken().token))
            let answer = String(decoding: scan.body, as: UTF8.self)
            #expect(scan.status == 201)
            for value in Self.shared { #expect(answer.contains(value), "the scan's answer shows \(value)") }
            for value in Self.kept { #expect(!answer.contains(value), "the scan's answer hides \(value)") }
            let again = try await cleo.client.redeem(RedeemRequest(token: try await ada.client.issueToken().token))
            #expect(again.connection.card?.map(\.kind) == [.email, .link, .organization], "a scan of a known person too, in order")

            // A card, not a snapshot: an entry made private is gone for Bob at once.
            var changed = Self.card
            changed.entries[0].audience = .nobody
            _ = try await ada.client.replaceCard(changed)
            let now = try await bob.client.connections().items.first { $0.peer.id == ada.profile.id }
            #expect(now?.card?.map(\.kind) == [.link, .organization])

            // Erasing the profile erases the card.
            try await ada.client.deleteMe()
            #expect(try await server.count("contact_entries") == 0)
        }
    }

    /// A copy read before another device's change never undoes it: `If-Match` names the card read.
    @Test func aStaleCopyNeverUndoesANewerChoice() async throws {
        try await TestServer.run { server throws in
            let (ada) = try await server.users("Ada")
            _ = try await ada.client.replaceCard(Self.card)
            let (old, etag) = try await ada.client.taggedCard()
            var hidden = Self.card
            hidden.entries[0].audience = .nobody
            let newer = try await ada.client.replaceCard(hidden)  // another device makes the address private
            var stale = old
            stale.entries.removeLast()
            await expectProblem(412, "card_changed") { _ = try await ada.client.replaceCard(stale, ifMatch: etag) }
            #expect(try await ada.client.card() == newer, "nothing changed")
            let (current, fresh) = try await ada.client.taggedCard()
            #expect(fresh != nil && fresh != etag)
            #expect(try await ada.client.replaceCard(current, ifMatch: fresh) == newer)
        }
    }

    /// A block ends the connection, and with it what the blocked person saw of the card.
    @Test func aBlockTakesTheCardAwayAndPeerNeedsAFile() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            _ = try await ada.client.replaceCard(Self.card)
            try await EventNetworkTests.connect(ada, bob)
            #expect(try await Self.raw(bob.client, "/v1/me/connections").contains("ada@engines.example"))
            _ = try await ada.client.block(bob.profile.id)
            for path in ["/v1/me/connections", "/v1/me/connections?format=vcard&peer=\(ada.profile.id)", "/v1/me/connections?format=csv"] {
                #expect(!(try await Self.raw(bob.client, path)).contains("ada@engines.example"), "\(path)")
            }
            await expectProblem(400, "invalid_peer") { _ = try await bob.client.send(.GET, "/v1/me/connections?peer=\(ada.profile.id)") }
        }
    }

    @Test func theVCardCarriesEveryFieldWithItsType() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            var card = Self.card
            for index in card.entries.indices { card.entries[index].audience = .connections }
            _ = try await ada.client.replaceCard(card)
            try await EventNetworkTests.connect(ada, bob)
            let vcard = try await Self.raw(bob.client, "/v1/me/connections?format=vcard")
            for line in [
                "EMAIL;TYPE=work:ada@engines.example", "TEL;VALUE=uri;TYPE=cell:tel:+442079460958", "URL:https://ada.example/notes?a=1",
                "ORG:Analytical Engines\\; Ltd", "TITLE:Countess of Lovelace",
            ] {
                #expect(vcard.contains(line + "\r\n"), "\(line) in \(vcard)")
            }
            // Read back by an independent parser (vobject, from PyPI, in the project's .venv).
            let read = try Self.readWithVobject(vcard)
            #expect(read["fn"] as? String == "Ada")
            #expect(read["email"] as? [[String]] == [["ada@engines.example", "work"]])
            #expect(read["tel"] as? [[String]] == [["tel:+442079460958", "cell"]])
            #expect(read["url"] as? [String] == ["https://ada.example/notes?a=1"])
            #expect(read["org"] as? [String] == ["Analytical Engines; Ltd"], "one organization, its semicolon kept")
            #expect(read["title"] as? String == "Countess of Lovelace")

            // One contact, as a phone saves it after connecting: only that person's card.
            let (cleo) = try await server.users("Cleo")
            try await EventNetworkTests.connect(cleo, bob)
            let one = try await Self.raw(bob.client, "/v1/me/connections?format=vcard&peer=\(ada.profile.id)")
            #expect(one.components(separatedBy: "BEGIN:VCARD").count == 2 && one.contains("FN:Ada") && !one.contains("FN:Cleo"))
            await expectProblem(400, "invalid_peer") { _ = try await bob.client.send(.GET, "/v1/me/connections?format=vcard&peer=ada") }
        }
    }

    /// `vcard`'s first card as vobject reads it: `fn`, `email` and `tel` as [value, TYPE], `url`, `org` (its parts joined by "; "), `title`.
    private static func readWithVobject(_ vcard: String) throws -> [String: Any] {
        let script = """
            import json, sys, vobject
            card = next(vobject.readComponents(sys.stdin.read()))
            typed = lambda name: [[p.value, (p.params.get('TYPE') or [''])[0]] for p in card.contents.get(name, [])]
            print(json.dumps({'fn': card.fn.value, 'email': typed('email'), 'tel': typed('tel'),
                              'url': [p.value for p in card.contents.get('url', [])],
                              'org': ['; '.join(p.value) for p in card.contents.get('org', [])], 'title': card.title.value}))
            """
        let python = Process()
        python.executableURL = TestDatabase.repositoryRoot.appendingPathComponent(".venv/bin/python")
        python.arguments = ["-c", script]
        let input = Pipe()
        let output = Pipe()
        python.standardInput = input
        python.standardOutput = output
        try python.run()
        input.fileHandleForWriting.write(Data(vcard.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0, "vobject could not read the vCard")
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    @Test(arguments: [
        ContactEntry(kind: .email, value: "not-an-address"), ContactEntry(kind: .email, value: "ada@localhost"),
        ContactEntry(kind: .email, value: "ada\u{7}@engines.example"), ContactEntry(kind: .phone, value: "12345"),
        ContactEntry(kind: .phone, value: "+0123456789"), ContactEntry(kind: .phone, value: "+44 20 CALL ME"),
        ContactEntry(kind: .link, value: "javascript:alert(1)"), ContactEntry(kind: .link, value: "data:text/html,<b>hi</b>"),
        ContactEntry(kind: .link, value: "ftp://files.example/"), ContactEntry(kind: .link, value: "https://user:secret@ada.example/"),
        ContactEntry(kind: .link, value: "https://ada.example/a b"), ContactEntry(kind: .link, value: "//ada.example/"),
        ContactEntry(kind: .organization, value: "Ada\u{202E}evil"), ContactEntry(kind: .role, value: String(repeating: "r", count: 161)),
        ContactEntry(kind: .email, label: String(repeating: "l", count: 41), value: "ada@engines.example"),
        ContactEntry(kind: .email, value: "   "),
    ])
    func aBadEntryIsRefusedAndChangesNothing(entry: ContactEntry) async throws {
        try await TestServer.run { server throws in
            let (ada) = try await server.users("Ada")
            let before = try await ada.client.replaceCard(ContactCard(entries: [Self.card.entries[0]]))
            await expectProblem(422, "validation_failed") { _ = try await ada.client.replaceCard(ContactCard(entries: [entry])) }
            #expect(try await ada.client.card() == before)
        }
    }

    /// A misspelled key (`audiance`) would have left the entry at its default audience: refused,
    /// naming the key, and the card stays as it was. So is an unknown key at the top.
    @Test func anEntryWithAKeyItDoesNotTakeIsRefusedAndChangesNothing() async throws {
        try await TestServer.run { server throws in
            let (ada) = try await server.users("Ada")
            let before = try await ada.client.replaceCard(ContactCard(entries: [Self.card.entries[0]]))
            let bodies = [
                (#"{"entries":[{"kind":"email","value":"ada@engines.example","audiance":"nobody"}]}"#, "entries[0].audiance"),
                (#"{"entries":[],"owner":"someone else"}"#, "owner"),
            ]
            for (body, key) in bodies {
                do {
                    _ = try await ada.client.send(.PUT, "/v1/me/card", rawBody: Array(body.utf8))
                    Issue.record("\(key) was taken")
                } catch ClientError.problem(let problem) {
                    #expect(
                        problem.status == 400 && problem.code == "malformed_json" && problem.detail?.contains("`\(key)`") == true,
                        "\(problem)")
                }
                #expect(try await ada.client.card() == before)
            }
        }
    }

    @Test func tooManyEntriesAreRefusedAndChangeNothing() async throws {
        try await TestServer.run { server throws in
            let (ada) = try await server.users("Ada")
            let link = ContactEntry(kind: .link, value: "https://ada.example/", audience: .connections)
            await expectProblem(422, "validation_failed") {
                _ = try await ada.client.replaceCard(ContactCard(entries: Array(repeating: link, count: 21)))
            }
            let twoRoles = [ContactEntry(kind: .role, value: "Countess"), ContactEntry(kind: .role, value: "Writer")]
            await expectProblem(422, "validation_failed") { _ = try await ada.client.replaceCard(ContactCard(entries: twoRoles)) }
            // Ten thousand links: refused before they are read through (too large a body), or as too many.
            let flood = try JSONEncoder().encode(ContactCard(entries: Array(repeating: link, count: 10_000)))
            do {
                _ = try await ada.client.send(.PUT, "/v1/me/card", rawBody: [UInt8](flood))
                Issue.record("ten thousand links were taken")
            } catch ClientError.problem(let problem) {
                #expect([413, 422].contains(problem.status), "\(problem)")
            }
            #expect(try await ada.client.card().entries.isEmpty)
            #expect(try await server.count("contact_entries") == 0)
        }
    }
}
