import ConstellationModel
import Foundation
import Testing

/// What a stranger's malformed, slow or oversized HTTP gets: a problem+json answer or a closed
/// socket in bounded time, never a hung connection or an empty 400.
@Suite struct HTTPHygieneTests {
    private static func problemCode(_ response: String) -> String? {
        try? JSONDecoder().decode(Problem.self, from: Data(response.httpBody.utf8)).code
    }

    @Test func halfSentHeadersAndBodiesGet408AndAreDisconnected() async throws {
        try await TestServer.run(configure: { $0.requestTimeout = .seconds(1) }) { server throws in
            let headers = try RawHTTP(port: server.port)
            headers.send("GET /health HTTP/1.1\r\nHost: x\r\nX-Half: ")
            let answer = try await headers.readUntilClosed(timeout: 10)
            #expect(answer.closed)
            #expect(answer.seconds < 5)
            #expect(answer.text.httpStatus == 408)
            #expect(Self.problemCode(answer.text) == "request_timeout")

            let body = try RawHTTP(port: server.port)
            body.send(
                "POST /v1/profiles HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"displayName\"")
            let bodyAnswer = try await body.readUntilClosed(timeout: 10)
            #expect(bodyAnswer.closed)
            #expect(bodyAnswer.text.httpStatus == 408)
            #expect(try await server.count("profiles") == 0)
        }
    }

    @Test func idleConnectionsAreClosed() async throws {
        try await TestServer.run(configure: { $0.idleTimeout = .seconds(1) }) { server throws in
            let silent = try (0..<20).map { _ in try RawHTTP(port: server.port) }
            let kept = try RawHTTP(port: server.port)
            kept.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = try await kept.readUntilClosed(timeout: 10)
            #expect(answer.closed, "a keep-alive connection idle after its response is closed")
            #expect(answer.text.httpStatus == 200)
            for connection in silent {
                let result = try await connection.readUntilClosed(timeout: 10)
                #expect(result.closed && result.text.isEmpty, "a connection that never sends is closed without an answer")
            }
        }
    }

    @Test func oversizedAndUnknownRequestsGetProblemJSON() async throws {
        try await TestServer.run { server throws in
            let cases: [(request: String, status: Int, code: String)] = [
                ("GET /\(String(repeating: "a", count: 10_000)) HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
                ("GET /health HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 9_000))\r\n\r\n", 431, "headers_too_large"),
                ("GET /health HTTP/1.1\r\nHost: x\r\n" + (0..<150).map { "X-H\($0): v\r\n" }.joined() + "\r\n", 431, "headers_too_large"),
                ("FOO /health HTTP/1.1\r\nHost: x\r\n\r\n", 501, "not_implemented"),
                ("PROPFIND /v1/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 501, "not_implemented"),
                ("\u{16}\u{03}\u{01}garbage\r\n\r\n", 501, "not_implemented"),
            ]
            for item in cases {
                let response = try await RawHTTP.exchange(port: server.port, item.request)
                #expect(response.httpStatus == item.status, "\(item.code)")
                #expect(response.httpHeader("Content-Type") == Problem.mediaType)
                #expect(Self.problemCode(response) == item.code)
            }
        }
    }

    @Test func wrongMethodsGet405WithAllowAndHeadWorksWhereGetDoes() async throws {
        try await TestServer.run { server throws in
            let wrong = try await RawHTTP.exchange(
                port: server.port, "PUT /v1/me HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            #expect(wrong.httpStatus == 405)
            #expect(wrong.httpHeader("Allow") == "DELETE, GET, HEAD, OPTIONS, PATCH")
            #expect(Self.problemCode(wrong) == "method_not_allowed")

            let put = try await RawHTTP.exchange(
                port: server.port, "PUT /v1/profiles HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            #expect(put.httpStatus == 405)
            #expect(put.httpHeader("Allow") == "OPTIONS, POST")

            // A standard method no path has (Schemathesis sends it): 405, not 501.
            let trace = try await RawHTTP.exchange(port: server.port, "TRACE /v1/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(trace.httpStatus == 405)
            #expect(trace.httpHeader("Allow") == "DELETE, GET, HEAD, OPTIONS, PATCH")
            #expect(Self.problemCode(trace) == "method_not_allowed")

            let options = try await RawHTTP.exchange(
                port: server.port, "OPTIONS /v1/connections HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(options.httpStatus == 204)
            #expect(options.httpHeader("Allow") == "OPTIONS, POST")

            let get = try await RawHTTP.exchange(port: server.port, "GET /v1/keys HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let head = try await RawHTTP.exchange(port: server.port, "HEAD /v1/keys HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(head.httpStatus == 200)
            #expect(head.httpBody.isEmpty)
            #expect(head.httpHeader("Content-Length") == get.httpHeader("Content-Length"))
            #expect(get.httpBody.utf8.count == Int(get.httpHeader("Content-Length") ?? ""))
        }
    }

    @Test func theResponseCarryingANewKeyIsNotStored() async throws {
        try await TestServer.run { server throws in
            let response = try await RawHTTP.exchange(
                port: server.port,
                """
                POST /v1/profiles HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\nConnection: close\r\n\r\n{"displayName":"Ada"}
                """.replacingOccurrences(of: "Content-Length: 20", with: "Content-Length: 21"))
            #expect(response.httpStatus == 201)
            #expect(response.httpHeader("Cache-Control") == "no-store")
        }
    }
}
