import Client
import ConstellationModel
import Foundation
import Server
import TestSupport
import Testing

/// After the event: my private note and tags on a connection, seen by me only, searched and
/// filtered, exported with my data and gone with the connection.
@Suite(.tier(.database)) struct ConnectionNotesTests {
    typealias User = EventNetworkTests.User

    @Test func myNoteAndTagsAreMineAloneAndFoundBySearch() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Björn Borg", "Cleo")
            let event = try await ada.client.createEvent(EventRoutesTests.newEvent("rust-meetup"))
            _ = try await bob.client.joinEvent("rust-meetup", code: event.joinCode)
            try await EventNetworkTests.connect(bob, ada, at: "rust-meetup")
            try await EventNetworkTests.connect(cleo, ada)

            let noted = try await ada.client.annotate(
                bob.profile.id,
                ConnectionNoteChanges(
                    note: "  Works on async runtimes;\r\nsend him the ÉCOLE paper ", tags: ["rust", "Hiring", "RUST", " follow-up "]))
            #expect(noted.note == "Works on async runtimes;\nsend him the ÉCOLE paper")
            #expect(noted.tags == ["rust", "Hiring", "follow-up"], "trimmed, repeats (any case) dropped, first spelling kept")
            #expect(noted.eventId == event.event.id && noted.eventName == event.event.name)

            // Changing the tags keeps the note; an empty note clears it.
            let retagged = try await ada.client.annotate(bob.profile.id, ConnectionNoteChanges(tags: ["rust"]))
            #expect(retagged.note == noted.note && retagged.tags == ["rust"])

            func names(_ search: String? = nil, tag: String? = nil, event: String? = nil) async throws -> [String] {
                try await ada.client.connections(search: search, tag: tag, event: event).items.map(\.peer.displayName)
            }
            #expect(try await names() == ["Cleo", "Björn Borg"])
            #expect(try await names("école") == ["Björn Borg"], "my note, whatever the case, beyond ASCII")
            #expect(try await names("BJÖRN") == ["Björn Borg"], "the name")
            #expect(try await names("ust") == ["Björn Borg"], "part of a tag")
            #expect(try await names(tag: "RUST") == ["Björn Borg"])
            #expect(try await names(tag: "rus") == [], "a tag filter takes the whole tag")
            #expect(try await names(event: "rust-meetup") == ["Björn Borg"])
            #expect(try await names("%") == [], "no pattern characters")
            #expect(try await names("_") == [], "no pattern characters")
            await expectProblem(404, "unknown_event") { _ = try await names(event: "no-such-event") }

            // Bob sees none of it: not in his list, not in his export.
            let seenByBob = try await bob.client.connections().items
            #expect(seenByBob.first?.note == nil && seenByBob.first?.tags == [])
            let bobsExport = String(decoding: try await bob.client.exportPersonalData(), as: UTF8.self)
            #expect(!bobsExport.contains("async runtimes") && !bobsExport.contains("\"rust\""))
            // Nor does the organizer, in the event's network and its exports.
            for format in ["json", "csv", "gexf", "graphml"] {
                let exported = String(decoding: try await ada.client.exportEventNetwork("rust-meetup", format: format), as: UTF8.self)
                #expect(!exported.contains("async runtimes"), "\(format)")
            }
            // Mine has it.
            let export = try JSONDecoder.constellation.decode(PersonalData.self, from: Data(try await ada.client.exportPersonalData()))
            #expect(export.connections.first { $0.peer.id == bob.profile.id }?.tags == ["rust"])
            #expect(export.connections.first { $0.peer.id == bob.profile.id }?.note == noted.note)

            let cleared = try await ada.client.annotate(bob.profile.id, ConnectionNoteChanges(note: ""))
            #expect(cleared.note == nil && cleared.tags == ["rust"])
        }
    }

    @Test func badNotesAndStrangersAreRefusedAndChangeNothing() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Bob", "Cleo")
            try await EventNetworkTests.connect(bob, ada)
            _ = try await ada.client.annotate(bob.profile.id, ConnectionNoteChanges(note: "kept", tags: ["kept"]))
            let refusals: [(ConnectionNoteChanges, String)] = [
                (ConnectionNoteChanges(), "nothing to change"),
                (ConnectionNoteChanges(note: String(repeating: "x", count: 2_001)), "a note too long"),
                (ConnectionNoteChanges(note: "ok\u{202E}evil"), "a direction override"),
                (ConnectionNoteChanges(tags: [""]), "an empty tag"),
                (ConnectionNoteChanges(tags: [String(repeating: "t", count: 41)]), "a tag too long"),
                (ConnectionNoteChanges(tags: (0..<21).map { "tag\($0)" }), "too many tags"),
                (ConnectionNoteChanges(tags: ["a\nb"]), "a line break in a tag"),
            ]
            for (changes, _) in refusals {
                await expectProblem(422, "validation_failed") { _ = try await ada.client.annotate(bob.profile.id, changes) }
            }
            // Not connected (Cleo), myself, another person's connection: all the same 404.
            await expectProblem(404, "not_connected") {
                _ = try await ada.client.annotate(cleo.profile.id, ConnectionNoteChanges(note: "x"))
            }
            await expectProblem(404, "not_connected") {
                _ = try await ada.client.annotate(ada.profile.id, ConnectionNoteChanges(note: "x"))
            }
            await expectProblem(404, "not_connected") {
                _ = try await cleo.client.annotate(bob.profile.id, ConnectionNoteChanges(note: "x"))
            }
            let raw = try await server.client.authenticated(ada.client.apiKey!).send(.GET, "/v1/me/connections")
            let page = try JSONDecoder.constellation.decode(ConnectionPage.self, from: Data(raw.body))
            #expect(page.items.first?.note == "kept" && page.items.first?.tags == ["kept"])
            #expect(try await server.count("connection_notes") == 1)
        }
    }

    /// The note belongs to the connection: when it goes, the note goes.
    @Test func aNoteGoesWithItsConnection() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            try await EventNetworkTests.connect(bob, ada)
            _ = try await ada.client.annotate(bob.profile.id, ConnectionNoteChanges(note: "met at the door"))
            _ = try await bob.client.annotate(ada.profile.id, ConnectionNoteChanges(note: "Ada's note is not mine"))
            #expect(try await server.count("connection_notes") == 2)
            try await bob.client.disconnect(from: ada.profile.id)
            #expect(try await server.count("connection_notes") == 0)
            try await EventNetworkTests.connect(bob, ada)
            #expect(try await ada.client.connections().items.first?.note == nil, "a new connection starts blank")

            // Erased with me: my notes, devices, links and recovery code.
            _ = try await ada.client.annotate(bob.profile.id, ConnectionNoteChanges(note: "again"))
            _ = try await ada.client.createDeviceLink()
            _ = try await ada.client.createRecoveryCode()
            try await ada.client.deleteMe()
            for table in ["connection_notes", "device_links", "recovery_codes"] {
                #expect(try await server.count(table) == 0, "\(table)")
            }
        }
    }
}
