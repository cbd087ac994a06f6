import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing

/// Scans with no signal, in a real headless Chromium against the release server: the network is
/// cut before the camera's link is opened (the browser told it is offline, and the server itself
/// stopped, so nothing can answer but the service worker), then given back (the server started
/// again on the same port, with the same database and keys).
@Suite(.serialized, .tier(.browser)) struct OfflinePageTests {
    let workspace = Workspace()

    /// A server on `port` (any, if 0) over `database`, with this test's data directory.
    /// The server, on a port it can be started again on (`port`, once it was stopped there).
    private func start(_ database: String, port: Int? = nil) throws -> ServerProcess {
        guard let port else { return try ServerProcess.restartable(databaseURL: database, dataDirectory: workspace.serverData) }
        return try ServerProcess(databaseURL: database, dataDirectory: workspace.serverData, port: port)
    }

    /// Ada, made through the API, and a code of hers to scan.
    private func adaAndHerCode(on server: ServerProcess) async throws -> (ConstellationClient, String) {
        let anonymous = server.client
        let ada = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: "Ada")).apiKey)
        return (ada, try await ada.issueToken().token)
    }

    /// Opens `/` and waits until its service worker controls the page and has kept `/c`.
    private func visitOnce(_ phone: Browser, _ server: ServerProcess) async throws {
        try await phone.open(server.url + "/")
        try await phone.wait(
            for: "the pages kept for offline use",
            until: """
                (caches.open('constellation-pages-v1').then((cache) => cache.match('/c')).then((kept) => { window.offlineReady = Boolean(kept); }),
                 navigator.serviceWorker.controller !== null && window.offlineReady === true)
                """)
    }

    /// A newcomer's first visit was online; at the venue, no signal: the camera opens `/c#TOKEN`,
    /// the page comes from the phone, the scan and the name typed are kept; the tab is closed. Back
    /// online, the next visit makes the profile and the connection, once.
    @Test func aNewcomersOfflineScanSurvivesAClosedTab() async throws {
        let database = try await TestDatabase.createEmpty()
        var server = try start(database)
        let port = server.port
        defer { _ = server.stop() }
        let (ada, token) = try await adaAndHerCode(on: server)
        try await Browser.with { phone in
            try await visitOnce(phone, server)
            _ = server.stop()
            try await phone.setOffline(true)
            try await phone.open(server.url + "/c#" + token)
            try await phone.wait(
                for: "the name asked, the scan kept",
                until:
                    "/No network: the scan is saved/.test(document.getElementById('status').textContent) && !document.getElementById('join').hidden"
            )
            try await phone.type("#name", "Nina\n")
            try await phone.wait(
                for: "the name kept", until: "/your name and the scan are saved/.test(document.getElementById('status').textContent)")
            try await phone.open("about:blank")

            server = try start(database, port: port)
            try await phone.setOffline(false)
            try await phone.open(server.url + "/")
            // What is asserted is that the scan arrives, once, not how soon: on two loaded cores a restarted
            // server and a page retrying every 5 s once took longer than 10 s (the offline bench measures it).
            try await phone.wait(
                for: "connected at the next visit",
                until: "/Connected with Ada/.test(document.getElementById('heard').textContent)"
                    + " && document.getElementById('connections').textContent.includes('Ada')")
            // Nina scanned; Ada did not scan her: the personal stream (read twice a second) must not say
            // "Ada connected with you" over it, as it once did.
            try await Task.sleep(for: .seconds(3))
            #expect(try await phone.run("return document.getElementById('heard').textContent;") as? String == "Connected with Ada.")
            #expect(try await phone.run("return localStorage.getItem('constellation.pendingProfile');") == nil)
            #expect(try await phone.run("return JSON.parse(localStorage.getItem('constellation.pendingScans')).length;") as? Int == 0)
        }
        #expect(try await ada.connections().items.map(\.peer.displayName) == ["Nina"], "one profile, one connection")
    }

    /// Someone with a profile scans with no signal and keeps the tab open: the scan connects by
    /// itself once the server answers again.
    @Test func aScanInAnOpenTabConnectsWhenTheServerAnswersAgain() async throws {
        let database = try await TestDatabase.createEmpty()
        var server = try start(database)
        let port = server.port
        defer { _ = server.stop() }
        let (ada, token) = try await adaAndHerCode(on: server)
        try await Browser.with { phone in
            try await visitOnce(phone, server)
            try await phone.type("#name", "Dan\n")
            try await phone.wait(for: "my code", until: "document.getElementById('qr').naturalWidth > 0")
            _ = server.stop()
            try await phone.setOffline(true)
            try await phone.open(server.url + "/c#" + token)
            try await phone.wait(
                for: "the scan kept offline", until: "/saved on this phone/.test(document.getElementById('status').textContent)")
            // No empty "save to contacts" button before there is a contact (a.button's display once beat `hidden`).
            #expect(try await phone.run("return getComputedStyle(document.getElementById('save-contact')).display;") as? String == "none")
            server = try start(database, port: port)
            try await phone.setOffline(false)
            try await phone.wait(
                for: "connected once online", until: "/Connected with Ada/.test(document.getElementById('status').textContent)")
            #expect(try await phone.run("return JSON.parse(localStorage.getItem('constellation.pendingScans')).length;") as? Int == 0)
        }
        #expect(try await ada.connections().items.map(\.peer.displayName) == ["Dan"])
    }

    /// A queued scan the server refuses for itself (a code whose signature does not hold: 401, as
    /// an expired code or one past the offline grace is) leaves the queue, and the scan behind it
    /// goes: such a refusal once stopped the queue for good, every scan behind it aging past its grace.
    @Test func aScanRefusedForItselfLeavesTheQueueAndTheOneBehindItGoes() async throws {
        let server = try start(try await TestDatabase.createEmpty())
        defer { _ = server.stop() }
        let (ada, token) = try await adaAndHerCode(on: server)
        // One character of the signature changed: a well-formed code that does not verify.
        var characters = Array(token.split(separator: ".")[2])
        let spoiled = characters.count - 10
        characters[spoiled] = characters[spoiled] == "A" ? "B" : "A"
        let forged = token.split(separator: ".").prefix(2).joined(separator: ".") + "." + String(characters)
        try await Browser.with { phone in
            try await phone.open(server.url + "/")
            try await phone.type("#name", "Dan\n")
            try await phone.wait(for: "my code", until: "document.getElementById('qr').naturalWidth > 0")
            let now = Date().formatted(.iso8601)
            _ = try await phone.run(
                """
                localStorage.setItem('constellation.pendingScans', JSON.stringify([
                  { token: '\(forged)', scannedAt: '\(now)', clientNonce: crypto.randomUUID() },
                  { token: '\(token)', scannedAt: '\(now)', clientNonce: crypto.randomUUID() }]));
                return true;
                """)
            try await phone.open(server.url + "/")
            try await phone.wait(
                for: "the queue sent", until: "JSON.parse(localStorage.getItem('constellation.pendingScans') || '[]').length === 0")
        }
        #expect(try await ada.connections().items.map(\.peer.displayName) == ["Dan"], "the genuine scan went")
    }
}
