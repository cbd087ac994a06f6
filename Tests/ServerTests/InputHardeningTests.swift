import Client
import ConstellationModel
import Foundation
import QR
import TestSupport
import Testing

/// Input a stranger on the internet sends, refused with a 4xx that says what was wrong and nothing
/// of the inside, and with nothing written.
@Suite(.tier(.database)) struct InputHardeningTests {
    static func event(startsAt: String, endsAt: String = "2026-12-01T18:00:00Z") -> [UInt8] {
        Array(
            #"{"name":"Dated","slug":"dated","startsAt":"\#(startsAt)","endsAt":"\#(endsAt)","timeZone":"UTC"}"#.utf8)
    }

    /// One accepted range and one reading of a date everywhere: past 9999, before 1970 (where
    /// PostgreSQL and Foundation disagree on the calendar), a leap second, a day that does not exist,
    /// and an event outside 2000–2199 are 422 `invalid_date`; the database never sees them.
    @Test(arguments: [
        "10000-01-01T00:00:00Z", "99999-12-31T00:00:00Z", "1582-10-10T00:00:00Z", "0001-01-01T00:00:00Z", "0000-01-01T00:00:00Z",
        "2016-12-31T23:59:60Z", "2026-02-30T09:00:00Z", "1999-12-31T23:59:59Z", "2200-01-01T00:00:00Z", "2026-12-01T09:00:00",
        "2026-12-01 09:00:00Z",
    ])
    func anEventDateOutsideItsRangeIs422(date: String) async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let headers = [("Content-Type", "application/json")]
            await expectProblem(422, "invalid_date") {
                _ = try await ada.client.send(.POST, "/v1/events", rawBody: Self.event(startsAt: date), headers: headers)
            }
            await expectProblem(422, "invalid_date") {
                _ = try await ada.client.send(
                    .POST, "/v1/events", rawBody: Self.event(startsAt: "2026-12-01T09:00:00Z", endsAt: date), headers: headers)
            }
            #expect(try await server.count("events") == 0)
        }
    }

    /// The same instant, however it is written, and fractions kept to the database's microsecond.
    @Test func anEventDateIsReadAsTheSameInstantEverywhere() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let created = try await ada.client.send(
                .POST, "/v1/events", rawBody: Self.event(startsAt: "2026-12-01T10:30:00.250+01:00", endsAt: "2026-12-01t18:00:00z"),
                headers: [("Content-Type", "application/json")])
            let event = try JSONDecoder.constellation.decode(CreatedEvent.self, from: Data(created.body)).event
            #expect(event.startsAt == Date(timeIntervalSince1970: 1_796_117_400))
            #expect(event.endsAt == Date(timeIntervalSince1970: 1_796_148_000))
        }
    }

    @Test(arguments: ["2016-12-31T23:59:60Z", "10000-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "2026-11-26T09:00:00"])
    func aScanTimeThatIsNoDateIs422(scannedAt: String) async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let token = try await ada.client.issueToken().token
            await expectProblem(422, "invalid_date") {
                _ = try await bob.client.send(
                    .POST, "/v1/connections", rawBody: Array(#"{"token":"\#(token)","scannedAt":"\#(scannedAt)"}"#.utf8),
                    headers: [("Content-Type", "application/json")])
            }
            #expect(try await server.count("connections") == 0)
        }
    }

    /// An event reference that could not be an id or a slug (a NUL, odd Unicode, too long) names
    /// no event: 404, and the database's words are not in the answer.
    @Test(arguments: ["%00", "ev%00nt", "%F0%9F%98%80", "caf%C3%A9", String(repeating: "a", count: 65), "a%0Ab"])
    func anEventReferenceThatCannotBeOneIs404(reference: String) async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            for path in ["/v1/events/\(reference)", "/v1/events/\(reference)/network", "/v1/events/\(reference)/growth"] {
                do {
                    _ = try await ada.client.send(.GET, path)
                    Issue.record("\(path) answered 2xx")
                } catch {
                    guard case .problem(let problem)? = error as? ClientError else {
                        Issue.record("\(path): \(error)")
                        continue
                    }
                    #expect(problem.status == 404, "\(path): \(problem)")
                    #expect(!(problem.detail ?? "").contains("SQLSTATE"), "\(path): \(problem)")
                }
            }
        }
    }

    /// The join QR's link comes from the server's own address, never from the request's `Host`.
    @Test func theJoinQRIgnoresTheHostHeader() async throws {
        try await TestServer.run { server throws in
            let registered = try await server.client.register(NewProfile(displayName: "Ada"))
            let created = try await server.client.authenticated(registered.apiKey).createEvent(EventRoutesTests.newEvent())
            let answer = try await RawHTTP.exchange(
                port: server.port,
                "GET /v1/events/\(created.event.slug)/join-qr?code=\(created.joinCode) HTTP/1.1\r\nHost: evil.example\r\n"
                    + "Authorization: Bearer \(registered.apiKey)\r\nConnection: close\r\n\r\n")
            #expect(answer.httpStatus == 200)
            let link = "http://127.0.0.1:\(server.port)/#join=\(created.event.slug)&code=\(created.joinCode)"
            #expect(answer.httpBody == (try QRCode(encoding: link)).svg())
        }
    }

    /// Personal data is not kept by any cache on the way; no answer is sniffed as another type.
    @Test func personalAnswersAreNotStored() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            for path in ["/v1/me", "/v1/me/connections", "/v1/me/events", "/v1/me/devices"] {
                let response = try await ada.client.send(.GET, path)
                #expect(response.header("Cache-Control") == "no-store", "\(path)")
                #expect(response.header("X-Content-Type-Options") == "nosniff", "\(path)")
            }
        }
    }
}
