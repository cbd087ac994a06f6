import Client
import ConstellationModel
import Foundation
import QR
import TestSupport
import Testing

/// Badges in a real headless Chromium against the release server: a phone's camera opening a
/// printed badge's link connects (the page checks the badge code with the published keys first);
/// "Print my badge" prints the badge alone; the organizers' sheet, opened from its file, holds the
/// badges of those who asked, eight to a page, and zbar reads every code of its first page. The
/// printer is the one thing not real: `window.print` is replaced to note the call, and the page is
/// rendered for print by Chromium's own print-to-PDF.
@Suite(.serialized, .tier(.browser)) struct BadgePageTests {
    let workspace = Workspace()

    @Test func aBadgeLinkConnectsAndPrintMyBadgePrintsItAlone() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let anonymous = server.client
        let ada = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: "Ada")).apiKey)
        _ = try await ada.createEvent(
            NewEvent(
                name: "Print & Meet", slug: "print-meet", startsAt: Date().addingTimeInterval(-3600),
                endsAt: Date().addingTimeInterval(3600),
                timeZone: "Europe/Paris"))
        let badge = try await ada.badge(event: "print-meet")

        try await Browser.with { phone in
            // A newcomer's camera opens Ada's printed badge: a name, and they are connected.
            try await phone.open(server.url + "/c#" + badge.token)
            try await phone.wait(for: "the name form", until: "!document.getElementById('join').hidden")
            try await phone.type("#name", "Bob\n")
            try await phone.wait(for: "connected", until: "/Connected with Ada/.test(document.getElementById('status').textContent)")
            #expect(try await ada.connections().items.map(\.peer.displayName) == ["Bob"])

            // Bob, now an attendee, asks for his badge to be printed, then prints one himself.
            try await phone.open(server.url + "/")
            try await phone.wait(for: "my events", until: "document.querySelector('#my-events .badge-controls') !== null")
            try await phone.click("#my-events .badge-controls input[type=checkbox]")
            try await phone.wait(for: "asked", until: "/will print your badge/.test(document.getElementById('event-status').textContent)")
            _ = try await phone.run("window.printed = 0; window.print = () => { window.printed += 1; };")
            try await phone.click("#my-events .badge-controls button[data-event='print-meet']")
            try await phone.wait(for: "printed", until: "window.printed === 1")
            #expect(try await phone.run("return document.getElementById('badge-image').naturalWidth > 0;") as? Bool == true)
            #expect(try await phone.run("return document.body.classList.contains('printing-badge');") as? Bool == true)
            let pages = try await phone.printedPageCount()
            #expect(pages == 1, "the badge alone, on one page: \(pages)")
            try await phone.expectCleanPage(origin: server.url)
        }
        #expect(try await ada.badgeSheet(event: "print-meet", paper: "a4").badges == 1, "Bob asked; Ada did not")
    }

    @Test func theSheetPrintsEightToAPageAndEveryCodeReadsBack() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let anonymous = server.client
        let ada = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: "Ada")).apiKey)
        let created = try await ada.createEvent(
            NewEvent(
                name: "Sheet Fest", slug: "sheet-fest", startsAt: Date().addingTimeInterval(-3600), endsAt: Date().addingTimeInterval(3600),
                timeZone: "Europe/Paris"))
        var names: [String] = []
        for index in 1...10 {
            let name = "Person \(index)"
            let person = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: name)).apiKey)
            _ = try await person.joinEvent("sheet-fest", code: created.joinCode)
            if index != 5 { _ = try await person.setBadgePrinting(true, at: "sheet-fest") }
            if index != 5 { names.append(name) }
        }
        let sheet = try await ada.badgeSheet(event: "sheet-fest", paper: "a4")
        #expect(sheet.badges == 9)
        let file = workspace.root.appendingPathComponent("badges-sheet-fest-a4.html")
        try Data(sheet.html).write(to: file)

        try await Browser.with(width: 1400, height: 2000) { browser in
            try await browser.open(file.absoluteString)
            try await browser.wait(for: "the sheet", until: "document.querySelectorAll('.badge > svg').length === 9")
            #expect(try await browser.run("return document.querySelectorAll('.page').length;") as? Int == 2)
            #expect(try await browser.printedPageCount() == 2, "eight badges fill an A4 page; the ninth goes on the next")
            // Large enough on screen for zbar: the first page's badges at twice their size.
            _ = try await browser.run("document.querySelector('.note').hidden = true; document.body.style.zoom = 2;")
            let shot = workspace.root.appendingPathComponent("sheet.png")
            try await browser.screenshot(to: shot)
            let read = Set(try QRDecoder.decode(imageFile: Array(try Data(contentsOf: shot))))
            #expect(read.count == 8 && read.allSatisfy { $0.hasPrefix("b1.") }, "\(read.count) codes read: \(read)")
            let text = try await browser.run("return document.body.textContent;") as? String ?? ""
            #expect(names.allSatisfy { text.contains($0) } && !text.contains("Person 5"), "\(text)")
        }
    }
}
