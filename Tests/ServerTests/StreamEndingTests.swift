import ConstellationModel
import Foundation
import Server
import Store
import TestSupport
import Testing

/// How a live stream ends, on a real server and PostgreSQL, through raw sockets: when its client
/// closes its side of the connection (a FIN is enough), after its lifetime (its client resumes with
/// `Last-Event-ID`), and when its client stops reading. Each frees the stream's slot.
@Suite(.tier(.database)) struct StreamEndingTests {
    typealias Stream = EventStreamTests.Stream

    /// A client that closes its side of the connection (a FIN, as a browser leaving a page does, or
    /// nginx for it) frees its stream's slot at once, not at the next keep-alive 15 s later: with four
    /// streams open and their clients gone, four more open and only a fifth is refused. The server
    /// ends each stream cleanly and closes the connection. 5 s is generous: an idle machine takes
    /// milliseconds, two cores busy with the whole suite may hold a task back for seconds, and it is
    /// still well below the keep-alive that freed the slot before.
    @Test(arguments: ["/v1/me/stream", "/v1/events/stream-fin/stream"])
    func aClientsFINEndsItsStreamAndFreesItsSlotAtOnce(path: String) async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("stream-fin"))
            let key = try #require(ada.client.apiKey)
            var open: [RawHTTP] = []
            for _ in 0..<4 {
                let connection = try RawHTTP(port: server.port)
                connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\n\r\n")
                // All it was sent is read, so that its close is a FIN, not a reset.
                #expect(try await connection.read(until: "event: hello", timeout: 30).httpStatus == 200)
                open.append(connection)
            }
            #expect(try await Stream(port: server.port, path: path, credential: key).status == 429, "four streams are the limit")

            for connection in open { connection.finishSending() }
            for connection in open {
                let rest = try await connection.readUntilClosed(timeout: 5)
                #expect(rest.closed && rest.text.hasSuffix("0\r\n\r\n"), "the stream ended and the connection closed: \(rest)")
            }
            var again: [Stream] = []
            for _ in 0..<4 { again.append(try await Stream(port: server.port, path: path, credential: key)) }
            let fifth = try await Stream(port: server.port, path: path, credential: key)
            #expect(again.map(\.status) == [200, 200, 200, 200] && fifth.status == 429, "four slots were freed, no more")
        }
    }

    /// A stream ends cleanly after `streamLifetime`, its slot freed; its client, which heard nothing
    /// but the hello, resumes from the hello's `id:` and hears what happened meanwhile.
    @Test func aStreamEndsAfterItsLifetimeAndItsClientResumes() async throws {
        try await TestServer.run(configure: { $0.streamLifetime = .seconds(2) }) { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let key = try #require(ada.client.apiKey)
            let connection = try RawHTTP(port: server.port)
            // Timed from before the request: on loaded cores the read may begin well after the
            // server started the stream (a whole-suite run once timed 1.49 s from the read).
            let sent = ContinuousClock.now
            connection.send("GET /v1/me/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\nConnection: close\r\n\r\n")
            let whole = try await connection.readUntilClosed(timeout: 30)
            let lasted = (ContinuousClock.now - sent) / .seconds(1)
            #expect(whole.closed && whole.text.hasSuffix("0\r\n\r\n"), "the stream ended: \(whole)")
            #expect(lasted > 1.5, "not before its lifetime: \(lasted) s")
            #expect(server.services.personalFeeds.watcherCount == 0)
            let id = try #require(whole.text.firstMatch(of: /id: ([0-9]+)\nevent: hello\n/)?.output.1, "\(whole.text)")

            _ = try await bob.client.scan(ada.client)
            let back = try await Stream(port: server.port, path: "/v1/me/stream", credential: key, lastEventId: String(id))
            #expect(try await back.next().name == "hello")
            let missed = try await back.next()
            #expect(try JSONDecoder.constellation.decode(Connection.self, from: Data(missed.data.utf8)).peer.displayName == "Bob")
        }
    }

    /// A client that stops reading is disconnected once what waits for it has not drained for
    /// `drainTimeout`, and its stream's slot is freed. Its replay of 6,000 connections (about 1 KB each: names of four-byte
    /// characters at their longest) fills the socket buffers, a few MB on loopback, long before.
    @Test func aClientThatStopsReadingIsDisconnected() async throws {
        try await TestServer.run(configure: { $0.drainTimeout = .seconds(2) }) { server throws in
            let ada = try await server.user("Ada")
            let key = try #require(ada.client.apiKey)
            _ = try await server.services.database.withConnection { connection in
                try connection.query(
                    """
                    WITH peers AS (
                        INSERT INTO profiles (display_name, headline)
                        SELECT repeat('🌟', 80), repeat('🌟', 160) FROM generate_series(1, 6000) RETURNING id)
                    INSERT INTO connections (profile_a, profile_b, token_id)
                    SELECT least(id, \(ada.profile.id)::uuid), greatest(id, \(ada.profile.id)::uuid), 'test-' || id FROM peers
                    """)
            }
            let connection = try RawHTTP(port: server.port, receiveBuffer: 4096)
            connection.send("GET /v1/me/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\nLast-Event-ID: 0\r\n\r\n")
            let feeds = server.services.personalFeeds
            let opened = ContinuousClock.now + .seconds(30)
            while feeds.watcherCount == 0, ContinuousClock.now < opened { try await Task.sleep(for: .milliseconds(20)) }
            #expect(feeds.watcherCount == 1, "the stream opened")
            let deadline = ContinuousClock.now + .seconds(30)
            while feeds.watcherCount > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(feeds.watcherCount == 0, "let go")

            let received = try await connection.readUntilClosed(timeout: 30)
            #expect(received.closed && !received.text.hasSuffix("0\r\n\r\n"), "disconnected, not ended")
            #expect(received.text.utf8.count > 1_000_000, "the socket's buffers were full: \(received.text.utf8.count) bytes")
        }
    }
}
