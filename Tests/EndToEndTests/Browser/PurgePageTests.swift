import Client
import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing

/// The purge in a real headless Chromium against the release server: an attendee's home page says
/// when their attendance is forgotten and lets them leave; the organizer's page shows the purge
/// date, refuses a date out of bounds next to its field, moves it, and purges after a
/// confirmation, then shows the figures the event left.
@Suite(.serialized, .tier(.browser)) struct PurgePageTests {
    let workspace = Workspace()

    /// Puts `key`'s profile in the browser, as the home page would have stored it.
    static func signIn(_ browser: Browser, url: String, key: String, id: UUID, name: String) async throws {
        try await browser.open(url + "/")
        try await browser.run(
            "localStorage.setItem('constellation.apiKey', arguments[0]); localStorage.setItem('constellation.profile', JSON.stringify({id: arguments[1], displayName: arguments[2]}));",
            [key, id.uuidString, name])
    }

    @Test func anAttendeeSeesWhenTheyAreForgottenAndAnOrganizerMovesThePurgeAndPurges() async throws {
        let databaseURL = try await TestDatabase.createEmpty()
        let server = try ServerProcess(
            databaseURL: databaseURL, dataDirectory: workspace.serverData,
            environment: ["CONSTELLATION_OFFLINE_GRACE_SECONDS": "0", "CONSTELLATION_PURGE_INTERVAL_SECONDS": "1"])
        defer { _ = server.stop() }
        let anonymous = server.client
        let adaRegistered = try await anonymous.register(NewProfile(displayName: "Ada"))
        let bobRegistered = try await anonymous.register(NewProfile(displayName: "Bob"))
        let (ada, bob) = (anonymous.authenticated(adaRegistered.apiKey), anonymous.authenticated(bobRegistered.apiKey))
        let created = try await ada.createEvent(
            NewEvent(
                name: "Purge Fest", slug: "purge-fest", startsAt: Date().addingTimeInterval(-3600), endsAt: Date().addingTimeInterval(3600),
                timeZone: "UTC"))
        _ = try await bob.joinEvent("purge-fest", code: created.joinCode)
        _ = try await bob.redeem(RedeemRequest(token: try await ada.issueToken(event: "purge-fest").token))

        try await Browser.with(width: 1280, height: 1400) { laptop in
            // Bob's page: when his attendance is forgotten, and leaving (his connection with Ada stays).
            try await Self.signIn(laptop, url: server.url, key: bobRegistered.apiKey, id: bobRegistered.profile.id, name: "Bob")
            try await laptop.open(server.url + "/")
            try await laptop.wait(
                for: "the forgotten date", until: "/forgotten here on/.test(document.getElementById('my-events').textContent)")
            #expect(try await laptop.seriousAccessibilityProblems() == [])
            try await laptop.click("#my-events button[aria-label='Leave Purge Fest now']")
            try await laptop.wait(for: "the event gone", until: "!/Purge Fest/.test(document.getElementById('my-events').textContent)")
            #expect(try await bob.myEvents().items.isEmpty)
            #expect(try await bob.connections().items.map(\.peer.displayName) == ["Ada"])

            // Ada's organizer page: the date, a refused one said next to its field, a moved one.
            try await Self.signIn(laptop, url: server.url, key: adaRegistered.apiKey, id: adaRegistered.profile.id, name: "Ada")
            try await laptop.open(server.url + "/events/purge-fest/organize")
            try await laptop.wait(
                for: "the purge date", until: "/is purged on/.test(document.getElementById('purge-date-text').textContent)")
            #expect(try await laptop.run("return document.getElementById('purge-now').hidden;") as? Bool == true, "not while it runs")
            #expect(try await laptop.text("#purge-early").contains("possible from"), "it says from when")
            try await laptop.run("document.getElementById('purge-on').value = '2099-01-01';")
            try await laptop.click("#move-purge")
            try await laptop.wait(for: "the field's refusal", until: "!document.getElementById('purge-on-error').hidden")
            #expect(try await laptop.run("return document.getElementById('purge-on').getAttribute('aria-invalid');") as? String == "true")
            let before = try await ada.purgeDate(of: "purge-fest").purgeOn
            #expect(try await ada.event("purge-fest").purgeOn == before, "nothing moved")
            let later = Date().addingTimeInterval(20 * 86_400)
            let day = later.formatted(Date.ISO8601FormatStyle().year().month().day())
            try await laptop.run("document.getElementById('purge-on').value = arguments[0];", [day])
            try await laptop.click("#move-purge")
            try await laptop.wait(for: "the move said", until: "document.getElementById('status').dataset.kind === 'success'")
            #expect(try await laptop.run("return document.getElementById('purge-on-error').hidden;") as? Bool == true)
            let moved = try await ada.purgeDate(of: "purge-fest").purgeOn
            #expect(moved.formatted(Date.ISO8601FormatStyle().year().month().day()) == day, "moved to \(moved)")

            // Once the event is over: purged after a confirmation naming what goes; then its figures.
            let database = Database(conninfo: databaseURL, maximumConnections: 1, logger: TestDatabase.logger)
            _ = try await database.withConnection { try $0.query("UPDATE events SET ends_at = now() WHERE slug = 'purge-fest'") }
            await database.shutdown()
            try await laptop.open(server.url + "/events/purge-fest/organize")
            try await laptop.wait(for: "purging offered", until: "!document.getElementById('purge-now').hidden")
            try await laptop.click("#purge-now")
            #expect(try await laptop.text("#purge-now-question").contains("view links (open walls go dark)"))
            #expect(try await laptop.seriousAccessibilityProblems() == [])
            try await laptop.click("#purge-now-yes")
            try await laptop.wait(for: "the figures it left", until: "!document.getElementById('record').hidden")
            #expect(try await laptop.text("#refused-text").contains("Purge Fest was purged"))
            #expect(try await laptop.text("#record").contains("Connections"))
            #expect(try await ada.event("purge-fest").purgedAt != nil)
            #expect(try await laptop.seriousAccessibilityProblems() == [])
            // The report stays, made from the record.
            try await laptop.run(OrganizerPageTests.catchDownloads)
            try await laptop.click("#purged-report")
            try await laptop.wait(for: "the report saved", until: "window.saved.length === 1")
            let saved = try #require(try await laptop.run("return window.saved[0];") as? [String: String])
            #expect(saved["name"]?.hasSuffix(".report.html") == true && saved["text"]?.contains("<html lang=\"en\">") == true)
        }
    }
}
