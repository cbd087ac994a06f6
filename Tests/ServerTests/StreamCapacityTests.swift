import Foundation
import Server
import TestSupport
import Testing

/// A server's live streams stop short of its descriptors: at `maximumStreams` (from the open-file
/// limit by default, `OpenFilesTests`) a new stream of either kind is refused with 503
/// `streams_full` and `Retry-After`, while `/health` and short requests still answer; a stream
/// that closes makes room again. (Before, streams took descriptors until none was left: the rest
/// hung and `/health` timed out, with nothing logged.)
@Suite(.tier(.database)) struct StreamCapacityTests {
    @Test func theServerRefusesStreamsPastItsCapacityAndStillAnswers() async throws {
        try await TestServer.run(configure: { $0.maximumStreams = 6 }) { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("full-house"))
            func open(_ key: String, _ path: String) async throws -> (RawHTTP, String) {
                let connection = try RawHTTP(port: server.port)
                connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\n\r\n")
                return (connection, try await connection.read(until: "\r\n\r\n", timeout: 30))
            }
            let adaKey = try #require(ada.client.apiKey)
            let bobKey = try #require(bob.client.apiKey)
            var open6: [RawHTTP] = []
            for path in ["/v1/me/stream", "/v1/me/stream", "/v1/events/full-house/stream", "/v1/events/full-house/stream"] {
                let (connection, head) = try await open(adaKey, path)
                #expect(head.httpStatus == 200, "\(head)")
                open6.append(connection)
            }
            for _ in 0..<2 {
                let (connection, head) = try await open(bobKey, "/v1/me/stream")
                #expect(head.httpStatus == 200, "\(head)")
                open6.append(connection)
            }
            let seventh = try RawHTTP(port: server.port)
            seventh.send("GET /v1/me/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(bobKey)\r\nConnection: close\r\n\r\n")
            let refused = try await seventh.readUntilClosed(timeout: 30).text
            #expect(
                refused.httpStatus == 503 && refused.contains("\"streams_full\"") && refused.httpHeader("Retry-After") == "10", "\(refused)"
            )
            #expect(try await server.client.health())
            _ = try await bob.client.scan(ada.client)

            open6[5].finishSending()
            _ = try await open6[5].readUntilClosed(timeout: 10)
            let deadline = ContinuousClock.now + .seconds(10)
            var again = 0
            while ContinuousClock.now < deadline {
                let (connection, head) = try await open(bobKey, "/v1/me/stream")
                again = head.httpStatus ?? 0
                if again == 200 {
                    open6[5] = connection
                    break
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(again == 200, "a closed stream made room")
        }
    }
}
