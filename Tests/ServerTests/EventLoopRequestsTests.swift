import ConstellationModel
import Foundation
import HTTPTypes
import Server
import Testing

/// Short requests are answered on their connection's event loop, every other one on Swift's global
/// executor; one connection moves between the two from one request to the next.
@Suite struct EventLoopRequestsTests {
    @Test func onlyShortRequestsOnTheHotPathStayOnTheEventLoop() {
        #expect(EventLoopRequests.contains(.post, "/v1/connections"))
        #expect(EventLoopRequests.contains(.post, "/v1/tokens"))
        #expect(EventLoopRequests.contains(.get, "/health"))
        // Work that may take milliseconds: pictures, documents, exports, badges, the web client.
        for (method, path) in [
            (HTTPRequest.Method.get, "/v1/me/connections"), (.get, "/v1/me/network"), (.get, "/v1/me/qr.png"),
            (.get, "/v1/events/a/network"), (.get, "/v1/events/a/badges"), (.get, "/metrics"), (.get, "/ready"),
            (.get, "/"), (.get, "/v1/connections"), (.head, "/health"), (.post, "/v1/connections/"), (.post, "/V1/connections"),
        ] {
            #expect(!EventLoopRequests.contains(method, path), "\(method) \(path)")
        }
    }

    @Test func pipelinedRequestsOnBothSidesAreAnsweredInOrder() async throws {
        try await TestServer.run { server throws in
            let registered = try await server.client.register(NewProfile(displayName: "Ada"))
            let auth = "Authorization: Bearer \(registered.apiKey)\r\n"
            let redeem = #"{"token":"not-a-token"}"#
            // Sent in one write, so the server reads them back to back on one connection:
            // loop, global, loop, global, loop, loop.
            let requests = [
                "GET /health HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /v1/keys HTTP/1.1\r\nHost: x\r\n\r\n",
                "POST /v1/tokens HTTP/1.1\r\nHost: x\r\n\(auth)Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
                "GET /v1/me HTTP/1.1\r\nHost: x\r\n\(auth)\r\n",
                "POST /v1/connections HTTP/1.1\r\nHost: x\r\n\(auth)Content-Type: application/json\r\n"
                    + "Content-Length: \(redeem.utf8.count)\r\n\r\n\(redeem)",
                "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            ]
            let connection = try RawHTTP(port: server.port)
            connection.send(requests.joined())
            let answer = try await connection.readUntilClosed(timeout: 60)
            let responses = answer.text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { "HTTP/1.1 " + $0 }
            #expect(responses.map(\.httpStatus) == [200, 200, 201, 200, 400, 200])
            #expect(responses.count == 6 && responses[1].contains("\"keys\""))
            #expect(responses.count == 6 && responses[2].contains("\"token\""))
            #expect(responses.count == 6 && responses[3].contains("Ada"))
            #expect(answer.closed)
        }
    }
}
