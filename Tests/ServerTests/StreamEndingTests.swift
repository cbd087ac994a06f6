import ConstellationModel
import Foundation
import Server
import Store
import Testing

/// How a live stream ends, on a real server and PostgreSQL, through raw sockets: when its client
/// closes its side of the connection (a FIN is enough). It frees the stream's slot.
@Suite struct StreamEndingTests {
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
}
