import Client
import Foundation
import Glibc
import TestSupport
import Testing

/// A real headless Chromium (Debian's `chromium`), driven through Debian's `chromedriver` over the
/// W3C WebDriver protocol: plain JSON over HTTP on loopback, so a small client here does what a
/// Selenium install would, inside `swift test`, with the same servers and databases as the other
/// end-to-end tests. One chromedriver per browser; `quit()` ends both.
final class Browser: @unchecked Sendable {
    private let driver: Process
    private let endpoint: URL
    private let session: String
    private let profile: URL
    /// Where a failing check leaves its screenshot (and the page's text) for a person to look at.
    static let failures = FileManager.default.temporaryDirectory.appendingPathComponent("constellation-browser-failures")

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A phone-sized window (390 × 844) unless told otherwise; `languages` are the ones the browser
    /// asks for (`Accept-Language`, `navigator.languages`: "de-DE,de"), else Chromium's own (en-US).
    /// `trusting`: the base64 SHA-256 of a TLS certificate's public key (SPKI) the browser accepts
    /// though no authority it knows signed it, as a phone trusts a real site's (every other stays refused).
    init(width: Int = 390, height: Int = 844, languages: String? = nil, trusting certificateKey: String? = nil) async throws {
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        var attempt = 0
        var started: (driver: Process, port: Int)?
        var seen = ""
        // With `--port=0` chromedriver takes a free IPv6 port, then gives up if that number is taken on
        // IPv4 ("IPv4 port not available"): a busy machine meets that now and then, so it is started again.
        while started == nil, attempt < 3 {
            attempt += 1
            (started, seen) = try await Self.launchDriver(profile: profile)
        }
        guard let started else { throw Failure(description: "chromedriver did not start: \(seen)") }
        driver = started.driver
        endpoint = URL(string: "http://127.0.0.1:\(started.port)")!
        var arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--window-size=\(width),\(height)", "--user-data-dir=\(profile.path)",
        ]
        if let certificateKey { arguments.append("--ignore-certificate-errors-spki-list=\(certificateKey)") }
        var options: [String: Any] = ["binary": "/usr/bin/chromium", "args": arguments]
        // Headless Chromium ignores `--lang`; it takes the languages from this preference.
        if let languages { options["prefs"] = ["intl.accept_languages": languages] }
        let capabilities: [String: Any] = [
            "browserName": "chrome",
            "goog:chromeOptions": options,
            "goog:loggingPrefs": ["browser": "ALL", "performance": "ALL"],
        ]
        let created = try? await Self.send(
            endpoint.appendingPathComponent("session"), "POST", ["capabilities": ["alwaysMatch": capabilities]])
        guard let value = created as? [String: Any], let id = value["sessionId"] as? String else {
            await Self.stop(started.driver, endpoint: endpoint, profile: profile)
            throw Failure(description: "no WebDriver session: \(String(describing: created))")
        }
        session = id
    }

    /// Starts chromedriver on a port of its choosing: the process and its port, or what it printed if it did not start.
    private static func launchDriver(profile: URL) async throws -> ((driver: Process, port: Int)?, String) {
        let driver = Process()
        let output = Pipe()
        driver.executableURL = URL(fileURLWithPath: "/usr/bin/chromedriver")
        driver.arguments = ["--port=0"]
        driver.standardOutput = output
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        var seen = ""
        var port: Int?
        let deadline = Date().addingTimeInterval(20)
        while port == nil, Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
            port = seen.firstMatch(of: /started successfully on port (\d+)/).flatMap { Int($0.output.1) }
        }
        guard let port else {
            await stop(driver, endpoint: nil, profile: profile)
            return (nil, seen)
        }
        // Keep draining its output so that it never blocks on a full pipe.
        output.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
        return ((driver, port), seen)
    }

    /// Ends the browser session and chromedriver (which ignores SIGTERM: it is asked to shut down,
    /// then killed), and any Chromium process still using this browser's profile.
    func quit() async {
        _ = try? await command("", method: "DELETE")
        await Self.stop(driver, endpoint: endpoint, profile: profile)
    }

    private static func stop(_ driver: Process, endpoint: URL?, profile: URL) async {
        if let endpoint { _ = try? await send(endpoint.appendingPathComponent("shutdown"), "GET", nil) }
        if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
        driver.waitUntilExit()
        killProcesses(using: profile)
        try? FileManager.default.removeItem(at: profile)
    }

    /// SIGKILL to every process whose command line names `profile` (Chromium's own processes).
    private static func killProcesses(using profile: URL) {
        let needle = Array(profile.path.utf8)
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                [UInt8](line).firstRange(of: needle) != nil
            else { continue }
            kill(pid, SIGKILL)
        }
    }

    func open(_ url: String) async throws {
        _ = try await command("url", ["url": url])
    }

    /// The browser's tabs, in the order WebDriver lists them (the first opened first).
    func tabs() async throws -> [String] {
        try await command("window/handles", method: "GET") as? [String] ?? []
    }

    /// Makes `tab` (one of `tabs()`) the one the next commands drive.
    func switchTo(tab: String) async throws {
        _ = try await command("window", ["handle": tab])
    }

    /// Runs `script` (a function body; `arguments[i]` are `arguments`) in the page; its JSON result.
    @discardableResult
    func run(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await command("execute/sync", ["script": script, "args": arguments])
    }

    /// Runs an async `script` that calls `arguments[arguments.length - 1](result)` when done.
    func runAsync(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await command("execute/async", ["script": script, "args": arguments])
    }

    /// Types `text` into the element `selector` finds (`\n` presses Enter).
    func type(_ selector: String, _ text: String) async throws {
        let element = try await shown(selector)
        _ = try await command("element/\(element)/value", ["text": text.replacingOccurrences(of: "\n", with: "\u{E007}")])
    }

    /// Presses `keys` on whatever has the focus, as a person at a keyboard would (`\u{E004}` Tab,
    /// `\u{E007}` Enter).
    func press(_ keys: String) async throws {
        let strokes = keys.unicodeScalars.flatMap { key in
            [["type": "keyDown", "value": String(key)], ["type": "keyUp", "value": String(key)]]
        }
        _ = try await command("actions", ["actions": [["type": "key", "id": "keyboard", "actions": strokes]]])
    }

    func click(_ selector: String) async throws {
        _ = try await command("element/\(try await shown(selector))/click", [:])
    }

    /// The text of the element `selector` finds, as shown.
    func text(_ selector: String) async throws -> String {
        try await command("element/\(try await element(selector))/text", method: "GET") as? String ?? ""
    }

    /// Waits until `condition` (a JavaScript expression) is true in the page; else a screenshot is
    /// saved and the failure says what was awaited, what the page showed, and where to look. The
    /// default bound is generous on purpose: a wait ends as soon as its condition holds, and CI runs
    /// the whole suite on two loaded cores, where a newcomer's registration and scan once took over 30 s.
    func wait(for what: String, until condition: String, timeout: TimeInterval = 90) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? await run("return Boolean(\(condition));")) as? Bool == true { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure(description: "waited \(timeout) s for \(what) (\(condition)). \(try await evidence(what))")
    }

    /// `text` as a JavaScript string literal.
    static func literal(_ text: String) -> String {
        (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "''"
    }

    /// A screenshot in `failures` and the page's visible text, for a failure message.
    func evidence(_ name: String) async throws -> String {
        let file = Self.failures.appendingPathComponent(
            name.replacingOccurrences(of: "[^A-Za-z0-9-]+", with: "-", options: .regularExpression) + ".png")
        try await screenshot(to: file)
        let text = (try? await run("return document.body.innerText;")) as? String ?? ""
        return "Screenshot: \(file.path). Page text: \(text.prefix(600))"
    }

    /// A PNG of the window.
    func screenshot(to file: URL) async throws {
        guard let encoded = try await command("screenshot", method: "GET") as? String, let data = Data(base64Encoded: encoded) else {
            throw Failure(description: "no screenshot")
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    /// The console's errors and warnings since the last call (a CSP violation is one of them).
    func consoleProblems() async throws -> [String] {
        try await log("browser").compactMap { entry in
            guard let level = entry["level"] as? String, level == "SEVERE" || level == "WARNING" else { return nil }
            return entry["message"] as? String
        }
    }

    /// Every URL the page requested since the last call (from Chromium's performance log).
    func requestedURLs() async throws -> [String] {
        try await log("performance").compactMap { entry in
            guard let message = entry["message"] as? String,
                let object = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any],
                let inner = object["message"] as? [String: Any], inner["method"] as? String == "Network.requestWillBeSent",
                let params = inner["params"] as? [String: Any], let request = params["request"] as? [String: Any]
            else { return nil }
            return request["url"] as? String
        }
    }

    /// Sets the window's outer size, as a person resizing it or turning a phone would.
    func resize(width: Int, height: Int) async throws {
        _ = try await command("window/rect", ["width": width, "height": height])
    }

    /// How many pages Chromium's print-to-PDF (WebDriver's Print) makes of the page, laid out for
    /// print as a printer would get it, on paper of `width` × `height` cm (A4 unless told: Letter is
    /// 21.59 × 27.94).
    func printedPageCount(width: Double = 21.0, height: Double = 29.7) async throws -> Int {
        guard let encoded = try await command("print", ["pageWidth": width, "pageHeight": height, "background": true]) as? String,
            let pdf = Data(base64Encoded: encoded)
        else { throw Failure(description: "no PDF") }
        return String(decoding: pdf, as: UTF8.self).matches(of: /\/Type\s*\/Page[^s]/).count
    }

    func networkConditions(_ conditions: [String: Any]) async throws {
        _ = try await command("chromium/network_conditions", ["network_conditions": conditions])
    }

    private func log(_ type: String) async throws -> [[String: Any]] {
        try await command("se/log", ["type": type]) as? [[String: Any]] ?? []
    }

    /// The element `selector` finds, once the page shows it: a page's script may reveal it after
    /// loading (the join form stays hidden until the page knows nobody is signed in), and typing or
    /// clicking before is refused as "element not interactable", as it once was under CI's load.
    /// An option is shown where its list is.
    private func shown(_ selector: String) async throws -> String {
        let shown = "(e => e !== null && (e.closest('select') ?? e).getClientRects().length > 0)"
        try await wait(for: "\(selector) shown", until: "\(shown)(document.querySelector(\(Self.literal(selector))))")
        return try await element(selector)
    }

    private func element(_ selector: String) async throws -> String {
        let found = try await command("element", ["using": "css selector", "value": selector])
        guard let object = found as? [String: Any], let id = object.values.first as? String else {
            throw Failure(description: "no element \(selector)")
        }
        return id
    }

    private func command(_ path: String, method: String = "POST", _ body: [String: Any]? = nil) async throws -> Any? {
        let url = endpoint.appendingPathComponent("session/\(session)" + (path.isEmpty ? "" : "/\(path)"))
        return try await Self.send(url, method, method == "POST" ? (body ?? [:]) : nil)
    }

    /// One WebDriver command: its `value`, or its error as a `Failure`.
    private static func send(_ url: URL, _ method: String, _ body: [String: Any]?) async throws -> Any? {
        var request = HTTPRequest(method: method, url: url.absoluteString, deadline: .seconds(60))
        if let body {
            request.body = Array(try JSONSerialization.data(withJSONObject: body))
            request.headers.append(("Content-Type", "application/json"))
        }
        let data = Data(try await HTTPTransport().perform(request, limit: 64 << 20).body)
        let reply = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any]
        let value = reply?["value"]
        if let problem = value as? [String: Any], let error = problem["error"] as? String {
            throw Failure(description: "WebDriver \(error): \(problem["message"] as? String ?? "")")
        }
        return value is NSNull ? nil : value
    }
}

extension Browser {
    /// Runs `body` with a fresh browser (its own profile: an empty localStorage), then quits it.
    static func with(
        width: Int = 390, height: Int = 844, languages: String? = nil, trusting certificateKey: String? = nil,
        _ body: (Browser) async throws -> Void
    ) async throws {
        let browser = try await Browser(width: width, height: height, languages: languages, trusting: certificateKey)
        do {
            try await body(browser)
            await browser.quit()
        } catch {
            await browser.quit()
            throw error
        }
    }

    /// No console error or warning, and every request the page made went to `origin`.
    func expectCleanPage(origin: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let problems = try await consoleProblems()
        #expect(problems.isEmpty, "console: \(problems)", sourceLocation: sourceLocation)
        // What the page asked for over the network (not the browser's own chrome:// pages, blob: or data: URLs).
        let elsewhere = try await requestedURLs().filter { ($0.hasPrefix("http") || $0.hasPrefix("ws")) && !$0.hasPrefix(origin + "/") }
        #expect(elsewhere.isEmpty, "requests to another origin: \(elsewhere)", sourceLocation: sourceLocation)
    }

    /// Cuts the page off the network (Chromium's network emulation: fetches fail, `navigator.onLine`
    /// turns false) or gives the network back (the page hears `online`). A stand-in for a phone in a
    /// hall with no signal: the browser is real, only its network is switched.
    func setOffline(_ offline: Bool) async throws {
        try await networkConditions(["offline": offline, "latency": 0, "download_throughput": -1, "upload_throughput": -1])
    }
}

extension Browser {
    /// axe-core 4.x, as `selenium-axe-python` (Tools/requirements-test.txt) bundles it in the
    /// project's `.venv/`: read once.
    static let axeSource: String? = {
        let lib = TestDatabase.repositoryRoot.appendingPathComponent(".venv/lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []
        return versions.lazy.compactMap { version in
            try? String(
                contentsOf: lib.appendingPathComponent("\(version)/site-packages/selenium_axe_python/axe-core/axe.min.js"), encoding: .utf8)
        }.first
    }()

    /// The critical and serious WCAG 2.x A/AA findings (2.2's target size too) of axe-core on the
    /// page as it is now: each as "rule: what it says (the elements)".
    func seriousAccessibilityProblems() async throws -> [String] {
        guard let source = Self.axeSource else {
            throw Failure(description: "axe-core is not installed: run Tools/setup --test (selenium-axe-python in .venv/)")
        }
        try await run(source + "\n;return typeof axe;")
        let found = try await runAsync(
            """
            const done = arguments[arguments.length - 1];
            axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } })
              .then((result) => done({
                passed: result.passes.map((rule) => rule.id),
                problems: result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')
                  .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')})`),
              }))
              .catch((error) => done({ passed: [], problems: [`axe failed: ${error}`] }));
            """)
        guard let answer = found as? [String: Any], let problems = answer["problems"] as? [String],
            let passed = answer["passed"] as? [String]
        else { return ["axe gave no answer: \(String(describing: found))"] }
        // A page axe could not look into passes nothing: that is a failure too, not a clean page.
        guard passed.contains("color-contrast") || passed.contains("document-title") else {
            return problems + ["axe checked almost nothing: \(passed)"]
        }
        return problems
    }
}

/// The pages' screenshots for the README: saved by the tests when `CONSTELLATION_SCREENSHOTS` names a folder.
enum Screenshots {
    static func save(_ browser: Browser, as name: String) async throws {
        guard let folder = ProcessInfo.processInfo.environment["CONSTELLATION_SCREENSHOTS"] else { return }
        try await browser.screenshot(to: URL(fileURLWithPath: folder).appendingPathComponent("\(name).png"))
    }
}
