import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing

/// Every page, in each state a person meets it, checked with axe-core 4.x (WCAG 2.x A and AA,
/// 2.2's target size too) in a real headless Chromium against the release server: no critical and
/// no serious finding.
@Suite(.serialized, .tier(.browser)) struct AccessibilityTests {
    let workspace = Workspace()

    private func expectAccessible(_ browser: Browser, _ state: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let problems = try await browser.seriousAccessibilityProblems()
        #expect(problems.isEmpty, "\(state): \(problems)", sourceLocation: sourceLocation)
    }

    @Test func theAttendeePagesInEveryState() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let anonymous = server.client
        let ada = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: "Ada", headline: "Engines")).apiKey)
        try await Browser.with { phone in
            try await phone.open(server.url + "/")
            try await phone.wait(for: "the join form", until: "document.activeElement.id === 'name'")
            try await expectAccessible(phone, "the join form")

            try await phone.open(server.url + "/c#" + (try await ada.issueToken()).token)
            try await phone.wait(for: "the name form", until: "!document.getElementById('join').hidden")
            try await expectAccessible(phone, "a code opened without a profile")
            try await phone.type("#name", "Bob\n")
            try await phone.wait(for: "connected", until: "/Connected with Ada/.test(document.getElementById('status').textContent)")
            try await expectAccessible(phone, "connected")

            try await phone.open(server.url + "/c#garbage")
            try await phone.wait(for: "the refusal", until: "document.getElementById('status').dataset.kind === 'error'")
            try await expectAccessible(phone, "a bad code")

            try await phone.open(server.url + "/")
            try await phone.wait(for: "my code", until: "document.getElementById('qr').naturalWidth > 0")
            try await phone.wait(for: "my connections", until: "document.getElementById('connections').textContent.includes('Ada')")
            try await expectAccessible(phone, "my code, connections and network")
        }
    }

    @Test func theLivePageAndTheWall() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let anonymous = server.client
        let ada = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: "Ada")).apiKey)
        let bob = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: "Bob")).apiKey)
        let start = Date().addingTimeInterval(-3600)
        let created = try await ada.createEvent(
            NewEvent(name: "A11y Night", slug: "a11y-night", startsAt: start, endsAt: start.addingTimeInterval(8 * 3600), timeZone: "UTC"))
        _ = try await bob.redeem(RedeemRequest(token: try await ada.issueToken(event: "a11y-night").token))
        let link = try await ada.issueViewToken(for: "a11y-night")
        try await Browser.with(width: 1280, height: 800) { laptop in
            try await laptop.open(server.url + link.path)
            try await laptop.wait(for: "the picture", until: "document.getElementById('live-count').dataset.edges === '1'")
            try await laptop.wait(for: "the growth chart", until: "document.querySelector('#growth text.readout') !== null")
            try await expectAccessible(laptop, "the live page")
            let wall = try await ada.issueViewToken(for: "a11y-night", wall: true)
            try await laptop.open(server.url + wall.path + "&code=" + created.joinCode)
            try await laptop.wait(for: "the join QR", until: "document.getElementById('join-qr').naturalWidth > 0")
            try await expectAccessible(laptop, "the wall")
        }
    }
}
