import Client
import ConstellationModel
import Foundation
import QR
import TestSupport
import Testing

/// `GET /v1/events/{event}/join-qr?code=…`: the wall's QR code of the event's join link, for organizers
/// who give the current join code.
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
            for query in ["?code=ABCD-EFGH", "?code=not%20a%20code", "?code=", "", "?code=" + String(repeating: "A", count: 100)]
            where query != "?code=\(created.joinCode)" {
                await expectProblem(400, "invalid_join_code") {
                    _ = try await ada.client.send(.GET, "/v1/events/rustconf-2026/join-qr\(query)")
                }
            }
            let rotated = try await ada.client.rotateJoinCode(of: "rustconf-2026")
            await expectProblem(400, "invalid_join_code") {
                _ = try await ada.client.send(.GET, "/v1/events/rustconf-2026/join-qr?code=\(created.joinCode)")
            }
            let new = try await ada.client.send(.GET, "/v1/events/rustconf-2026/join-qr?code=\(rotated.joinCode)")
            #expect(new.status == 200)
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
            await expectProblem(401, "missing_credentials") { _ = try await server.client.send(.GET, path) }
            await expectProblem(404, "not_found") {
                _ = try await ada.client.send(.GET, "/v1/events/no-such-event/join-qr?code=\(created.joinCode)")
            }
        }
    }
}
