import Client
import ConstellationModel
import Foundation
import Logging
import Server
import Synchronization
import TestSupport
import Testing

/// What an operator sees: one request id per request, in the response and in every log line it
/// writes; JSON log lines; Prometheus metrics counting requests, tokens, graph work, caches and
/// the pool, with bounded labels.
@Suite(.tier(.database)) struct OperationsTests {
    /// Log lines written by a server, as JSON objects.
    final class CapturedLog: Sendable {
        private let lines = Mutex<[[UInt8]]>([])

        var logger: Logger {
            var logger = Logger(label: "constellation.test") { [self] label in
                JSONLogHandler(label: label) { line in self.lines.withLock { $0.append(line) } }
            }
            logger.logLevel = .info
            return logger
        }

        /// The lines with `message`, each parsed (a line that is not a JSON object shows as an empty one).
        func entries(_ message: String) -> [[String: Any]] {
            lines.withLock { $0 }
                .map { ((try? JSONSerialization.jsonObject(with: Data($0))) as? [String: Any]) ?? [:] }
                .filter { $0["message"] as? String == message }
        }
    }

    @Test func everyResponseCarriesARequestIdThatItsLogLinesCarryToo() async throws {
        let log = CapturedLog()
        try await TestServer.run(logger: log.logger) { server throws in
            let given = try await server.client.send(.GET, "/health", headers: [("X-Request-ID", "lb-7f3a.91")])
            #expect(given.header("X-Request-ID") == "lb-7f3a.91", "a sane id from the client or proxy is kept")
            let made = try await server.client.send(.POST, "/v1/profiles", body: NewProfile(displayName: "Ada"))
            let id = try #require(made.header("X-Request-ID"))
            #expect(id.wholeMatch(of: /[0-9a-f]{16}/) != nil, "\(id)")
            let registered = log.entries("profile registered")
            #expect(registered.count == 1 && registered.first?["request.id"] as? String == id, "\(registered)")
            #expect(registered.first?["level"] as? String == "info" && registered.first?["time"] is String)

            for odd in [String(repeating: "x", count: 129), "has space", "naïve"] {
                let raw = try await RawHTTP.exchange(
                    port: server.port, "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Request-ID: \(odd)\r\n\r\n")
                let answered = try #require(raw.httpHeader("X-Request-ID"))
                #expect(answered != odd && answered.count == 16, "an odd id is replaced: \(odd)")
            }
            let missing = try await RawHTTP.exchange(
                port: server.port, "GET /no/such/route HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(missing.httpStatus == 404 && missing.httpHeader("X-Request-ID")?.count == 16, "problems carry one too")
        }
    }

    @Test func metricsCountRequestsTokensGraphWorkCachesAndThePool() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            _ = try await bob.client.scan(ada.client)
            _ = try await ada.client.network()
            _ = try await ada.client.network()  // the same graph: the layout is remembered
            _ = try await server.client.send(.GET, "/health")
            _ = try? await server.client.send(.GET, "/v1/secret-\(UUID())")

            let answer = try await server.client.send(.GET, "/metrics")
            #expect(answer.contentType == "text/plain; version=0.0.4; charset=utf-8")
            let text = String(decoding: answer.body, as: UTF8.self)
            for line in [
                #"constellation_http_requests_total{route="/v1/profiles",method="POST",status="201"} 2"#,
                #"constellation_http_requests_total{route="/v1/me/network",method="GET",status="200"} 2"#,
                #"constellation_http_requests_total{route="unmatched",method="GET",status="404"} 1"#,
                #"constellation_tokens_minted_total 1"#,
                #"constellation_tokens_redeemed_total{created="true"} 1"#,
                #"constellation_tokens_redeemed_total{created="false"} 0"#,
                #"constellation_graph_computations_total{kind="layout"} 1"#,
                #"constellation_cache_lookups_total{cache="layouts",result="miss"} 1"#,
                #"constellation_cache_lookups_total{cache="layouts",result="hit"} 1"#,
                #"constellation_db_pool_waiting_requests 0.0"#,
                #"constellation_redemptions_waiting_requests 0.0"#,
                // One scan, sent alone: a batch of one.
                #"constellation_redemption_batches_total 1"#,
                #"constellation_redemptions_batched_total 1"#,
            ] {
                #expect(text.contains(line + "\n"), "missing: \(line)")
            }
            #expect(text.contains(#"constellation_http_request_duration_seconds_bucket{route="/health",method="GET",le="+Inf"} 1"#))
            #expect(text.contains(#"constellation_db_pool_connections{state="idle"}"#))
            #expect(!text.contains("secret-"), "a path a client made up never becomes a label")
        }
    }

    @Test func metricsCanAskForAToken() async throws {
        try await TestServer.run(configure: { $0.metricsToken = "scrape-me" }) { server throws in
            await expectProblem(401, "invalid_credentials") { _ = try await server.client.send(.GET, "/metrics") }
            let answer = try await server.client.send(.GET, "/metrics", headers: [("Authorization", "Bearer scrape-me")])
            #expect(String(decoding: answer.body, as: UTF8.self).contains("constellation_db_pool_waiting_requests"))
        }
    }
}
