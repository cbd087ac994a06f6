import Client
import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing

/// A wall that may no longer show its event (its link revoked, its event purged or ended) clears
/// the picture, every name and the join QR within a poll, and says why: read from the canvas's
/// pixels and the document's text in a real Chromium at 1080p, against the release server.
@Suite(.serialized, .tier(.browser)) struct WallEndingTests {
    let workspace = Workspace()
    static let names = ["Grace Hopper", "Alan Turing", "Ada Lovelace"]

    /// An event running now (`slug`), its people connected to its organizer and named on its walls.
    private func event(_ slug: String, organizer: ConstellationClient, on server: ServerProcess) async throws {
        let start = Date().addingTimeInterval(-3600)
        _ = try await organizer.createEvent(
            NewEvent(name: "Wall \(slug)", slug: slug, startsAt: start, endsAt: start.addingTimeInterval(8 * 3600), timeZone: "UTC"))
        for name in Self.names {
            let person = server.client.authenticated(try await server.client.register(NewProfile(displayName: name)).apiKey)
            _ = try await person.redeem(RedeemRequest(token: try await organizer.issueToken(event: slug).token))
            _ = try await person.setWallName(true, at: slug)
        }
    }

    /// What the wall shows: 4 people drawn and named, the join QR shown.
    private func expectShowing(_ wall: Browser) async throws {
        try await wall.wait(
            for: "the picture", until: "document.getElementById('live-count').dataset.nodes === '4' && \(Self.paintedPixels) > 0")
        try await wall.wait(for: "the join QR", until: "document.getElementById('join-qr').naturalWidth > 0")
        for name in Self.names { #expect(try await Self.shows(name, wall), "\(name) is on the wall") }
    }

    /// Waits until the wall shows nothing of the event: no pixel painted on its canvas, no
    /// name in its text, no QR; returns what the wall says. Within `bound` of `since`.
    private func expectCleared(
        _ wall: Browser, _ what: String, since: ContinuousClock.Instant, within bound: Duration = .seconds(15)
    ) async throws -> String {
        // The wall polls every 3 s; the bound leaves room for CI's loaded cores (the note gives the measured times).
        try await wall.wait(
            for: "\(what): the wall cleared",
            until: """
                \(Self.paintedPixels) === 0 && document.getElementById('join').hidden
                  && !document.getElementById('join-qr').getAttribute('src')
                  && document.getElementById('live-state').dataset.state === 'stopped'
                """)
        let took = ContinuousClock.now - since
        print("wall ending: \(what): cleared \(took) after the server refused it")
        // Within a poll (3 s) and its answer: the issue's bar is 5 s, measured here at 2.3-2.9 s.
        // 15 s leaves room for CI's loaded cores and still fails a wall that waits for its 30 s
        // idle check or never clears.
        #expect(took < bound, "\(what): cleared after \(took)")
        for name in Self.names { #expect(try await !Self.shows(name, wall), "\(what): \(name) is gone") }
        return try await wall.text("#status")
    }

    /// How many pixels of the picture's canvas differ from its first (its background).
    static let paintedPixels = """
        (() => { const c = document.getElementById('network'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          let n = 0; for (let i = 4; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2] || d[i + 3] !== d[3]) n++;
          return n; })()
        """

    static func shows(_ name: String, _ wall: Browser) async throws -> Bool {
        let labels = try await wall.run("return JSON.stringify(window.constellationLive.view.nodes.map((n) => n.label));") as? String ?? ""
        let text = try await wall.run("return document.body.innerText;") as? String ?? ""
        return labels.contains(name) || text.contains(name)
    }

    /// A live page on a view link (not a wall) that nobody touches still asks every 30 s: its link
    /// revoked, it clears at that ask (the bound adds 15 s for CI's loaded cores).
    @Test func anIdleLivePageClearsAtItsNextAsk() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let ada = server.client.authenticated(try await server.client.register(NewProfile(displayName: "Ada")).apiKey)
        try await event("idle-page", organizer: ada, on: server)
        try await Browser.with(width: 1280, height: 800) { page in
            try await page.open(server.url + (try await ada.issueViewToken(for: "idle-page")).path)
            try await page.wait(
                for: "the picture", until: "document.getElementById('live-count').dataset.nodes === '4' && \(Self.paintedPixels) > 0")
            _ = try await ada.revokeViewLinks(of: "idle-page")
            let said = try await expectCleared(page, "an idle live page", since: .now, within: .seconds(45))
            #expect(said.contains("revoked this view link"), "\(said)")
        }
    }

    @Test func aRevokedPurgedOrEndedWallShowsNothingWithinAPoll() async throws {
        let databaseURL = try await TestDatabase.createEmpty()
        let server = try ServerProcess(databaseURL: databaseURL, dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let ada = server.client.authenticated(try await server.client.register(NewProfile(displayName: "Ada")).apiKey)
        let database = Database(conninfo: databaseURL, maximumConnections: 1, logger: TestDatabase.logger)
        // What ends each wall, and what it then says.
        let endings: [(slug: String, end: @Sendable () async throws -> Void, says: String)] = [
            ("revoked-wall", { _ = try await ada.revokeViewLinks(of: "revoked-wall") }, "revoked this view link"),
            // Marked as a purge's 202 marks it (a purge now needs the event over).
            (
                "purged-wall",
                {
                    try await database.withConnection {
                        try $0.execute(unsafeSQL: "UPDATE events SET purged_at = now() WHERE slug = 'purged-wall'")
                    }
                },
                "purged"
            ),
            (
                "ended-wall",
                {
                    try await database.withConnection {
                        // Ended longer ago than the offline grace (2 h): no scan of it can come any more.
                        try $0.execute(
                            unsafeSQL:
                                "UPDATE events SET starts_at = now() - interval '4 hours', ends_at = now() - interval '3 hours' WHERE slug = 'ended-wall'"
                        )
                    }
                }, "has ended"
            ),
        ]
        try await Browser.with(width: 1920, height: 1080) { wall in
            for ending in endings {
                try await event(ending.slug, organizer: ada, on: server)
                try await wall.open(server.url + (try await ada.issueViewToken(for: ending.slug, wall: true)).path)
                try await expectShowing(wall)
                try await ending.end()
                let said = try await expectCleared(wall, ending.slug, since: .now)
                #expect(said.contains(ending.says), "\(ending.slug): \(said)")
            }
            #expect(try await wall.text("#live-state") == "Ended")
        }
        await database.shutdown()
    }
}
