import Testing

/// The web client's files are served from memory with their media type, `no-cache` and an ETag
/// (304 when it is named), under a strict Content-Security-Policy; an unknown file is 404.
@Suite struct WebAssetsTests {
    @Test func pagesCarryTheirPolicyAndRevalidateWithTheirETag() async throws {
        try await TestServer.run { server throws in
            let page = try await RawHTTP.exchange(port: server.port, "GET /assets/style.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(page.httpStatus == 200)
            #expect(page.httpHeader("Content-Type") == "text/css; charset=utf-8")
            #expect(page.httpHeader("Cache-Control") == "no-cache")
            #expect(page.httpHeader("Content-Security-Policy")?.hasPrefix("default-src 'none'") == true)
            #expect(page.httpHeader("X-Content-Type-Options") == "nosniff")
            #expect(page.httpHeader("Content-Length") == String(page.httpBody.utf8.count))
            let etag = try #require(page.httpHeader("ETag"))
            let again = try await RawHTTP.exchange(
                port: server.port, "GET /assets/style.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\nIf-None-Match: \"0\", \(etag)\r\n\r\n")
            #expect(again.httpStatus == 304)
            #expect(again.httpHeader("ETag") == etag)
            #expect(again.httpHeader("Content-Type") == nil)
            let missing = try await RawHTTP.exchange(port: server.port, "GET /assets/nothing.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(missing.httpStatus == 404)
        }
    }
}
