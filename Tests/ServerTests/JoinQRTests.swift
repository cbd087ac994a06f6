import Client
import ConstellationModel
import Foundation
import QR
import Store
import TestSupport
import Testing
import Tokens

/// `GET /v1/events/{event}/join-code` and `…/join-qr`: the event's join code and the QR code of its
/// join link, for its organizers and its view links' pages, which follow a rotation by asking again.
@Suite(.tier(.database)) struct JoinQRTests {
    @Test func theCurrentCodeDrawsTheJoinLinkAsAnSVG() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent())
            // Typed carelessly (lower case, no hyphen), it is still the code; the link shows it as XXXX-XXXX.
            let typed = created.joinCode.lowercased().replacingOccurrences(of: "-", with: "")
            let raw = try await ada.client.send(.GET, "/v1/events/rustconf-2026/join-qr?code=\(typed)")
            #expect(raw.status == 200)
            #expect(raw.contentType == "image/svg+xml")
            #expect(raw.header("Cache-Control") == "no-store")
            let link = "http://127.0.0.1:\(server.port)/#join=rustconf-2026&code=\(created.joinCode)"
            #expect(String(decoding: raw.body, as: UTF8.self) == (try QRCode(encoding: link)).svg())
            // By id too.
            let byId = try await ada.client.send(.GET, "/v1/events/\(created.event.id)/join-qr?code=\(created.joinCode)")
            #expect(byId.body == raw.body)
        }
    }

    @Test func aWrongOrReplacedCodeIsRefusedWith400() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent())
            for query in ["?code=ABCD-EFGH", "?code=not%20a%20code", "?code=", "?code=" + String(repeating: "A", count: 100)]
            where query != "?code=\(created.joinCode)" {
                await expectProblem(400, "stale_join_code") {
                    _ = try await ada.client.send(.GET, "/v1/events/rustconf-2026/join-qr\(query)")
                }
            }
            let rotated = try await ada.client.rotateJoinCode(of: "rustconf-2026")
            await expectProblem(400, "stale_join_code") {
                _ = try await ada.client.send(.GET, "/v1/events/rustconf-2026/join-qr?code=\(created.joinCode)")
            }
            let new = try await ada.client.send(.GET, "/v1/events/rustconf-2026/join-qr?code=\(rotated.joinCode)")
            #expect(new.status == 200)
        }
    }

    /// Asked without a code, the QR code is the current code's, before and after a rotation, for the
    /// organizer and for a wall's view link alike: an open wall follows a new code by asking again.
    @Test func withoutACodeItIsTheCurrentOneForTheOrganizerAndTheWall() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent())
            let wall = server.client.authenticated(try await ada.client.issueViewToken(for: "rustconf-2026", wall: true).token)
            func drawn(by client: ConstellationClient) async throws -> String {
                String(decoding: try await client.send(.GET, "/v1/events/rustconf-2026/join-qr").body, as: UTF8.self)
            }
            let link = "http://127.0.0.1:\(server.port)/#join=rustconf-2026&code=\(created.joinCode)"
            #expect(
                try await wall.joinCode(of: "rustconf-2026")
                    == EventJoinCode(eventId: created.event.id, joinCode: created.joinCode, link: link))
            #expect(try await drawn(by: ada.client) == (try QRCode(encoding: link)).svg())
            #expect(try await drawn(by: wall) == (try QRCode(encoding: link)).svg())

            // A live page's link (names, no code on its page) reads no code: a leaked one cannot follow rotations.
            let livePage = server.client.authenticated(try await ada.client.issueViewToken(for: "rustconf-2026").token)
            await expectProblem(403, "view_token_read_only") { _ = try await livePage.joinCode(of: "rustconf-2026") }
            await expectProblem(403, "view_token_read_only") { _ = try await livePage.send(.GET, "/v1/events/rustconf-2026/join-qr") }

            let rotated = try await ada.client.rotateJoinCode(of: "rustconf-2026")
            #expect(rotated.link == "http://127.0.0.1:\(server.port)/#join=rustconf-2026&code=\(rotated.joinCode)")
            #expect(try await wall.joinCode(of: "rustconf-2026") == rotated)
            #expect(try await drawn(by: wall) == (try QRCode(encoding: rotated.link)).svg())
        }
    }

    /// An event made before codes were derived has only its code's hash: nobody can be shown its code
    /// (409) until an organizer rotates it once; meanwhile the organizer may give it to draw it.
    @Test func anEventOfBeforeShowsItsCodeOnlyAfterARotation() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent())
            let old = "K7MX-3QPA"
            let hash = try #require(try JoinCode.hash(old, eventId: created.event.id))
            _ = try await server.services.database.withConnection { connection in
                try connection.query(
                    "UPDATE events SET join_code_rotation = NULL, join_code_hash = \(ByteString(hash)) WHERE id = \(created.event.id)")
            }
            await expectProblem(409, "join_code_unknown") { _ = try await ada.client.joinCode(of: "rustconf-2026") }
            await expectProblem(409, "join_code_unknown") { _ = try await ada.client.send(.GET, "/v1/events/rustconf-2026/join-qr") }
            #expect(try await ada.client.send(.GET, "/v1/events/rustconf-2026/join-qr?code=\(old)").status == 200)
            let bob = try await server.user("Bob")
            #expect(try await bob.client.joinEvent("rustconf-2026", code: old).role == .attendee, "the old code still works")
            let rotated = try await ada.client.rotateJoinCode(of: "rustconf-2026")
            #expect(try await ada.client.joinCode(of: "rustconf-2026") == rotated)
            let cleo = try await server.user("Cleo")
            await expectProblem(403, "invalid_join_code") { _ = try await cleo.client.joinEvent("rustconf-2026", code: old) }
        }
    }

    @Test func onlyOrganizersGetIt() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Bob", "Cleo")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent())
            _ = try await bob.client.joinEvent("rustconf-2026", code: created.joinCode)
            let path = "/v1/events/rustconf-2026/join-qr?code=\(created.joinCode)"
            await expectProblem(403, "not_an_organizer") { _ = try await bob.client.send(.GET, path) }  // an attendee
            await expectProblem(403, "not_an_organizer") { _ = try await cleo.client.send(.GET, path) }  // a stranger
            for client in [bob.client, cleo.client] {
                await expectProblem(403, "not_an_organizer") { _ = try await client.joinCode(of: "rustconf-2026") }
            }
            await expectProblem(401, "missing_credentials") { _ = try await server.client.send(.GET, path) }
            await expectProblem(404, "unknown_event") {
                _ = try await ada.client.send(.GET, "/v1/events/no-such-event/join-qr?code=\(created.joinCode)")
            }
        }
    }
}
