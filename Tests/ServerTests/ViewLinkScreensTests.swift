import Client
import ConstellationModel
import Foundation
import Server
import TestSupport
import Testing

/// Each view link holds its own streams and graph requests, as many as the `screens` its maker
/// gave it, apart from the maker's own key and their other links: an organizer lights as many walls
/// as they make links for, and a leaked link lights no more than its screens. (Before, every link's
/// streams counted against its maker's 4: a fifth screen of one organizer was refused.)
@Suite(.tier(.database)) struct ViewLinkScreensTests {
    @Test func eachLinkHoldsItsScreensApartFromItsMakersKey() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("many-walls"))
            let wall = try await ada.client.issueViewToken(for: "many-walls", wall: true, screens: 2)
            let laptop = try await ada.client.issueViewToken(for: "many-walls")
            #expect(wall.screens == 2 && laptop.screens == 4)
            let listed = try JSONDecoder.constellation.decode(
                ViewLinkList.self, from: Data(try await ada.client.send(.GET, "/v1/events/many-walls/view-tokens").body))
            #expect(Set(listed.items.map(\.screens)) == [2, 4])

            func open(_ credential: String) async throws -> (RawHTTP, Int?) {
                let connection = try RawHTTP(port: server.port)
                connection.send("GET /v1/events/many-walls/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(credential)\r\n\r\n")
                return (connection, try await connection.read(until: "\r\n\r\n", timeout: 30).httpStatus)
            }
            var held: [RawHTTP] = []
            func expectOpen(_ credential: String, _ count: Int, _ what: String) async throws {
                for _ in 0..<count {
                    let (connection, status) = try await open(credential)
                    #expect(status == 200, "\(what)")
                    held.append(connection)
                }
            }
            // Ten screens for one organizer: 4 on her key, 2 on the wall link, 4 on the laptop link.
            try await expectOpen(try #require(ada.client.apiKey), 4, "Ada's own key")
            try await expectOpen(wall.token, 2, "the wall link's screens")
            try await expectOpen(laptop.token, 4, "the laptop link's screens")
            #expect(try await open(wall.token).1 == 429, "a third screen on a link made for two")
            #expect(try await open(laptop.token).1 == 429, "a fifth on a link made for four")
            #expect(try await open(try #require(ada.client.apiKey)).1 == 429, "a fifth on Ada's key")

            // A link's graph requests are its own too: the wall reads the picture while Ada's key is busy.
            let wallClient = server.client.authenticated(wall.token)
            #expect(try await wallClient.eventNetwork("many-walls", asWall: true).nodes.isEmpty)
        }
    }

    @Test func aLinkForNoScreenOrTooManyIsRefusedAndMakesNothing() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("few-walls"))
            for screens in [0, 51, -1] {
                await expectProblem(422, "validation_failed") {
                    _ = try await ada.client.issueViewToken(for: "few-walls", screens: screens)
                }
            }
            await expectProblem(400, "malformed_json") {
                _ = try await ada.client.send(.POST, "/v1/events/few-walls/view-tokens", rawBody: Array(#"{"screens":"many"}"#.utf8))
            }
            #expect(try await server.count("view_links") == 0)
            #expect(try await ada.client.issueViewToken(for: "few-walls", screens: 50).screens == 50)
        }
    }
}
