import Client
import ConstellationModel
import Foundation
import Glibc
import TestSupport
import Testing

/// The nginx site shipped as an example (`Tools/deploy/nginx-constellation.conf`), with a
/// certificate of a private authority made here, in front of the release server on loopback: the
/// CLI's whole loop over HTTPS and HTTP/2, HSTS, the live stream passed on as it comes.
@Suite(.tier(.cluster)) struct TLSProxyTests {
    let workspace = Workspace()

    @Test func theCLIsLoopRunsThroughTheExampleNginxSiteWithTLS() async throws {
        let (server, nginx, tls) = try await Self.serverBehindNginx(workspace)
        defer {
            nginx.stop()
            _ = server.stop()
        }
        let https = "https://127.0.0.1:\(nginx.httpsPort)"
        let trusted = ["CONSTELLATION_CA_FILE": tls.appendingPathComponent("ca.pem").path]

        // Without the authority, the CLI says the certificate is not trusted.
        let stranger = try workspace.home("stranger")
        let refused = try Binaries.cli(["register", "--name", "Eve"], home: stranger, server: https)
        #expect(refused.status != 0 && refused.stderr.contains("certificate is not trusted"), "\(refused.status) \(refused.stderr)")

        let (ada, bob, cleo) = try workspace.homes("ada", "bob", "cleo")
        var keys: [String] = []
        for (name, home) in [("Ada", ada), ("Bob", bob), ("Cleo", cleo)] {
            let registered = try Binaries.cli(["register", "--name", name, "--json"], home: home, server: https, environment: trusted)
            try #require(registered.status == 0, "\(registered.stderr)")
            keys.append(
                try #require(try JSONSerialization.jsonObject(with: Data(registered.stdout.utf8)) as? [String: Any])["apiKey"] as! String)
        }
        let token = try Binaries.cli(["show", "--token"], home: ada, server: https, environment: trusted).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let scanned = try Binaries.cli(["scan", token], home: bob, server: https, environment: trusted)
        #expect(scanned.status == 0 && scanned.stdout.contains("Connected with Ada"), "\(scanned.stdout) \(scanned.stderr)")
        let connections = try Binaries.cli(["connections"], home: ada, server: https, environment: trusted)
        #expect(connections.status == 0 && connections.stdout.contains("Bob"), "\(connections.stdout) \(connections.stderr)")

        // Ada's live stream through nginx hears Cleo's scan as it happens, not when the stream ends.
        let ca = tls.appendingPathComponent("ca.pem").path
        let stream = Process()
        stream.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        stream.arguments = [
            "-sN", "--http2", "--max-time", "90", "--cacert", ca, "-H", "Authorization: Bearer \(keys[0])", "\(https)/v1/me/stream",
        ]
        let heard = Pipe()
        stream.standardOutput = heard
        try stream.run()
        defer { if stream.isRunning { stream.terminate() } }
        try await Task.sleep(for: .seconds(1))
        let second = try Binaries.cli(["show", "--token"], home: ada, server: https, environment: trusted).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try Binaries.cli(["scan", second], home: cleo, server: https, environment: trusted).status == 0)
        var received = Data()
        // Generous for two loaded cores (15 s was once not enough on CI); the stream itself stays open 90 s.
        let deadline = ContinuousClock.now + .seconds(60)
        while !String(decoding: received, as: UTF8.self).contains("Cleo"), ContinuousClock.now < deadline {
            let chunk = heard.fileHandleForReading.availableData  // waits for bytes; empty once curl ends (90 s at most)
            if chunk.isEmpty { break }
            received += chunk
        }
        #expect(String(decoding: received, as: UTF8.self).contains("Cleo"), "the stream said: \(String(decoding: received, as: UTF8.self))")
        #expect(stream.isRunning, "heard while the stream was still open")

        // HTTP/2 with HSTS, and plain HTTP sent to HTTPS.
        let head = try Self.curl([
            "--http2", "-sS", "-D", "-", "-o", "/dev/null", "--cacert", tls.appendingPathComponent("ca.pem").path, "\(https)/health",
        ])
        #expect(head.hasPrefix("HTTP/2 200"), "\(head)")
        #expect(head.lowercased().contains("strict-transport-security: max-age=63072000"), "\(head)")
        let plain = try Self.curl(["-sS", "-D", "-", "-o", "/dev/null", "http://127.0.0.1:\(nginx.httpPort)/health"])
        #expect(plain.hasPrefix("HTTP/1.1 301") && plain.contains("Location: https://"), "\(plain)")
    }

    /// A phone's browser through the same site: the page is a secure context, joins, shows its code
    /// and connects from a scanned link, every request on the HTTPS origin. Without the certificate
    /// trusted, Chromium refuses the site (the check is real, not switched off).
    @Test func aPhonesBrowserJoinsAndConnectsThroughTLS() async throws {
        let (server, nginx, tls) = try await Self.serverBehindNginx(workspace)
        defer {
            nginx.stop()
            _ = server.stop()
        }
        let https = "https://127.0.0.1:\(nginx.httpsPort)"
        let anonymous = server.client
        let ada = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: "Ada")).apiKey)

        try await Browser.with { stranger in
            try await stranger.open(https + "/")
            let title = try await stranger.run("return document.title;") as? String ?? ""
            #expect(!title.contains("Constellation"), "an untrusted certificate is refused, not the page shown: \(title)")
        }
        try await Browser.with(trusting: try Self.publicKeyHash(of: tls.appendingPathComponent("server.pem"))) { phone in
            try await phone.open(https + "/")
            #expect(try await phone.run("return window.isSecureContext;") as? Bool == true)
            try await phone.type("#name", "Bob\n")
            try await phone.wait(
                for: "my code",
                until:
                    "document.getElementById('qr').naturalWidth > 0 && /Valid until/.test(document.getElementById('valid-until').textContent)"
            )
            try await phone.open(https + "/c#" + (try await ada.issueToken()).token)
            try await phone.wait(for: "connected", until: "/Connected with Ada/.test(document.getElementById('status').textContent)")
            #expect(try await ada.connections().items.map(\.peer.displayName) == ["Bob"], "the connection is committed")
            try await phone.expectCleanPage(origin: https)
        }
    }

    /// The server believes nginx's `X-Forwarded-For` (`CONSTELLATION_TRUSTED_PROXIES=127.0.0.1`): two
    /// clients at two addresses behind the one proxy have a registration limit each, and a client
    /// that writes its own `X-Forwarded-For` is still counted at its real address.
    @Test func theRealClientAddressComesThroughTheProxy() async throws {
        let (server, nginx, tls) = try await Self.serverBehindNginx(
            workspace, environment: ["CONSTELLATION_RATE_LIMITS": "register_address=2/h"])
        defer {
            nginx.stop()
            _ = server.stop()
        }
        let ca = tls.appendingPathComponent("ca.pem").path
        /// The status of a registration sent from loopback address `source`, with `extra` curl arguments.
        func register(from source: String, _ extra: [String] = []) throws -> String {
            try Self.curl(
                [
                    "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", ca, "--interface", source, "-H",
                    "Content-Type: application/json", "-d", #"{"displayName":"Someone"}"#,
                ] + extra + ["https://127.0.0.1:\(nginx.httpsPort)/v1/profiles"])
        }
        #expect(try register(from: "127.0.0.5") == "201")
        #expect(try register(from: "127.0.0.5") == "201")
        #expect(try register(from: "127.0.0.5") == "429", "127.0.0.5 has used its two")
        #expect(try register(from: "127.0.0.6") == "201", "another client behind the same proxy is counted apart")
        #expect(
            try register(from: "127.0.0.5", ["-H", "X-Forwarded-For: 198.51.100.7"]) == "429",
            "a forwarded-for the client wrote itself does not make it someone else")
    }

    /// A phone that leaves a page closes its connection to nginx, and nginx its own to the server (a
    /// FIN: the phone's close never reaches the server): the stream's slot is free at once, not at the
    /// next keep-alive 15 s later. With four streams open and their clients gone, four more open
    /// within 5 s and only a fifth is refused. 5 s is generous: an idle machine takes milliseconds,
    /// two cores busy with the whole suite may hold a process back for seconds, and it is still well
    /// below the keep-alive that freed the slot before.
    @Test func aStreamsSlotIsFreeAsSoonAsItsClientLeavesThroughTheProxy() async throws {
        let (server, nginx, tls) = try await Self.serverBehindNginx(workspace)
        let key = try await server.client.register(NewProfile(displayName: "Ada")).apiKey
        let newStream = { try Self.openStream("https://127.0.0.1:\(nginx.httpsPort)/v1/me/stream", key: key, tls: tls) }
        var streams: [Process] = []
        defer {
            for curl in streams where curl.isRunning { kill(curl.processIdentifier, SIGKILL) }
            nginx.stop()
            _ = server.stop()
        }
        for _ in 0..<4 {
            let (status, curl) = try newStream()
            streams.append(curl)
            #expect(status == 200)
        }
        #expect(try newStream().status == 429, "four streams are the limit")

        for curl in streams where curl.isRunning {
            kill(curl.processIdentifier, SIGKILL)  // gone, as a phone that leaves; `terminate()` left curl running here
            curl.waitUntilExit()
        }
        var reopened = 0
        let deadline = ContinuousClock.now + .seconds(5)
        while reopened < 4, ContinuousClock.now < deadline {
            let (status, curl) = try newStream()
            streams.append(curl)
            if status == 200 { reopened += 1 } else { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(reopened == 4, "the four slots were freed")
        #expect(try newStream().status == 429, "and no more")
    }

    /// A stream opened through nginx by curl, on a connection of its own (HTTP/2), read up to its
    /// hello (or, refused, to its end): its status, and curl, left running on an open stream.
    private static func openStream(_ url: String, key: String, tls: URL) throws -> (status: Int, curl: Process) {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = [
            "-sN", "--http2", "-D", "-", "--max-time", "60", "--cacert", tls.appendingPathComponent("ca.pem").path, "-H",
            "Authorization: Bearer \(key)", url,
        ]
        let output = Pipe()
        curl.standardOutput = output
        try curl.run()
        var text = ""
        while !text.contains("event: hello") {
            let chunk = output.fileHandleForReading.availableData  // waits for bytes; empty once curl ends
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return (text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0, curl)
    }

    /// The release server trusting loopback as its proxy, behind the example site with a fresh certificate.
    private static func serverBehindNginx(
        _ workspace: Workspace, environment: [String: String] = [:]
    ) async throws -> (ServerProcess, Nginx, URL) {
        let tls = workspace.root.appendingPathComponent("tls")
        try FileManager.default.createDirectory(at: tls, withIntermediateDirectories: true)
        try makeCertificates(in: tls)
        let server = try ServerProcess(
            databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData,
            environment: ["CONSTELLATION_TRUSTED_PROXIES": "127.0.0.1"].merging(environment) { $1 })
        do {
            let nginx = try Nginx(site: site(upstream: server.url, tls: tls), in: workspace.root.appendingPathComponent("nginx"))
            return (server, nginx, tls)
        } catch {
            _ = server.stop()
            throw error
        }
    }

    /// The base64 SHA-256 of the certificate's public key (its SPKI), as Chromium pins it.
    private static func publicKeyHash(of certificate: URL) throws -> String {
        let hash = try run(
            "/bin/sh",
            [
                "-c",
                "openssl x509 -in '\(certificate.path)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64",
            ]
        ).output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard hash.count == 44 else { throw TLSSetupFailed(step: "public key hash: \(hash)") }
        return hash
    }

    /// The example site with this test's ports, certificate and server.
    static func site(upstream: String, tls: URL) throws -> (String, (Int, Int) -> String) {
        let example = try String(
            contentsOf: TestDatabase.migrations.deletingLastPathComponent().appendingPathComponent("Tools/deploy/nginx-constellation.conf"),
            encoding: .utf8)
        return (
            example,
            { http, https in
                example
                    .replacingOccurrences(of: "    listen [::]:80;\n", with: "")
                    .replacingOccurrences(of: "    listen [::]:443 ssl http2;\n", with: "")
                    .replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(http);")
                    .replacingOccurrences(of: "listen 443 ssl http2;", with: "listen 127.0.0.1:\(https) ssl http2;")
                    .replacingOccurrences(
                        of: "server 127.0.0.1:8080;", with: "server \(upstream.replacingOccurrences(of: "http://", with: ""));"
                    )
                    .replacingOccurrences(
                        of: "/etc/letsencrypt/live/connect.example.org/fullchain.pem", with: tls.appendingPathComponent("server.pem").path
                    )
                    .replacingOccurrences(
                        of: "/etc/letsencrypt/live/connect.example.org/privkey.pem", with: tls.appendingPathComponent("server.key").path)
            }
        )
    }

    /// A private authority (`ca.pem`) and a certificate it signed for 127.0.0.1 and localhost.
    static func makeCertificates(in directory: URL) throws {
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n".write(
            toFile: path("server.ext"), atomically: true, encoding: .utf8)
        for arguments in [
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2", "-subj",
                "/CN=Constellation test authority",
            ],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=127.0.0.1"],
            [
                "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-CAcreateserial", "-out",
                path("server.pem"),
                "-days", "2", "-extfile", path("server.ext"),
            ],
        ] {
            let status = try run("/usr/bin/openssl", arguments).status
            guard status == 0 else { throw TLSSetupFailed(step: arguments.prefix(2).joined(separator: " ")) }
        }
    }

    struct TLSSetupFailed: Error { let step: String }

    static func curl(_ arguments: [String]) throws -> String {
        try run("/usr/bin/curl", arguments).output
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// nginx in the foreground with one site, on two free loopback ports, its files in `directory`.
struct Nginx {
    let process: Process
    let httpPort, httpsPort: Int

    init(site: (example: String, render: (Int, Int) -> String), in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        (httpPort, httpsPort) = (try LoopbackSocket.freePort(), try LoopbackSocket.freePort())
        let user = getuid() == 0 ? "user root;\n" : ""
        let temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map { "  \($0)_temp_path \(directory.path)/\($0);" }.joined(
            separator: "\n")
        let configuration = """
            \(user)worker_processes 1;
            daemon off;
            pid \(directory.path)/nginx.pid;
            error_log \(directory.path)/error.log warn;
            events { worker_connections 256; }
            http {
              access_log off;
            \(temp)
            \(site.render(httpPort, httpsPort))
            }
            """
        try configuration.write(to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = [
            "-p", directory.path, "-c", directory.appendingPathComponent("nginx.conf").path, "-e",
            directory.appendingPathComponent("error.log").path,
        ]
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, process.isRunning {
            if (try? TLSProxyTests.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "http://127.0.0.1:\(httpPort)/"]).status) == 0 { return }
            usleep(100_000)
        }
        let log = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        stop()
        throw NginxFailed(log: log)
    }

    struct NginxFailed: Error { let log: String }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
