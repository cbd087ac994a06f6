import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing

/// The contact card on the phone, in a real headless Chromium against the release server: I fill
/// in my card on the home page, ticking what my connections see; after "Connected with Ada", one
/// tap saves Ada to the phone's contacts (her vCard, with what she shares); my connections list
/// offers her address to write to. A bad link is refused and changes nothing.
@Suite(.serialized, .tier(.browser)) struct CardPageTests {
    let workspace = Workspace()

    @Test func fillMyCardConnectAndSaveTheOtherPersonsContact() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let anonymous = server.client
        let ada = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: "Ada")).apiKey)
        _ = try await ada.replaceCard(
            ContactCard(entries: [
                ContactEntry(kind: .email, label: "work", value: "ada@engines.example", audience: .connections),
                ContactEntry(kind: .phone, value: "+442079460958", audience: .nobody),
            ]))
        try await Browser.with { phone in
            try await phone.open(server.url + "/")
            try await phone.type("#name", "Bob\n")
            try await phone.wait(for: "my card", until: "/empty/.test(document.getElementById('card-entries').textContent)")
            try await phone.type("#card-value", "bob@telescopes.example")
            try await phone.click("#card-share")
            try await phone.click("#card-add button")
            try await phone.wait(for: "saved", until: "/saved/.test(document.getElementById('card-status').textContent)")
            try await phone.type("#card-value", "javascript:alert(1)")
            _ = try await phone.run("document.getElementById('card-kind').value = 'link';")
            try await phone.click("#card-add button")
            try await phone.wait(
                for: "the bad link refused", until: "document.getElementById('card-status').dataset.kind === 'error'")
            // Said from the catalog by the problem's field error, not the server's English detail.
            #expect(try await phone.text("#card-status") == "Not accepted: give an http or https link, e.g. https://example.org/me.")
            _ = try await phone.consoleProblems()  // the refused PUT's 422, which Chromium logs: expected here
            let problems = try await phone.seriousAccessibilityProblems()
            #expect(problems.isEmpty, "\(problems)")
            let key = try #require(try await phone.run("return localStorage.getItem('constellation.apiKey');") as? String)
            let bob = server.client.authenticated(key)
            let card = try await bob.card()
            #expect(card.entries == [ContactEntry(kind: .email, value: "bob@telescopes.example", audience: .connections)])

            try await phone.open(server.url + "/c#" + (try await ada.issueToken()).token)
            try await phone.wait(for: "connected", until: "/Connected with Ada/.test(document.getElementById('status').textContent)")
            try await phone.wait(
                for: "the contact offered",
                until: "!document.getElementById('save-contact').hidden && document.getElementById('save-contact').download === 'Ada.vcf'")
            #expect(try await phone.text("#save-contact") == "Save Ada to my contacts")
            // What Ada shares came with the scan's answer, shown under "Connected with Ada"; what she keeps did not.
            let shown = try await phone.text("#peer-card")
            #expect(shown.contains("ada@engines.example") && !shown.contains("+442079460958"), "\(shown)")
            // The link holds the vCard the server gave for Ada alone (the page's policy keeps a test from reading the blob back).
            #expect(try await phone.run("return document.getElementById('save-contact').href.startsWith('blob:');") as? Bool == true)
            let adaId = try await ada.me().id
            let vcard = String(decoding: try await bob.send(.GET, "/v1/me/connections?format=vcard&peer=\(adaId)").body, as: UTF8.self)
            #expect(vcard.contains("FN:Ada") && vcard.contains("EMAIL;TYPE=work:ada@engines.example"), "\(vcard)")
            #expect(!vcard.contains("+442079460958"), "what Ada keeps for herself stays hers")

            // Ada shares her mobile after the scan: "Save to contacts" fetches her card when Bob asks for it.
            _ = try await ada.replaceCard(
                ContactCard(entries: [
                    ContactEntry(kind: .email, label: "work", value: "ada@engines.example", audience: .connections),
                    ContactEntry(kind: .phone, value: "+442079460958", audience: .connections),
                ]))
            /// The vCards the page fetched once `selector` was clicked (the request log is read once:
            /// what was asked for before is read first and left out).
            func vCardsFetched(clicking selector: String) async throws -> Int {
                _ = try await phone.requestedURLs()
                try await phone.click(selector)
                var fetched = 0
                let deadline = ContinuousClock.now + .seconds(20)
                while fetched == 0, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(200))
                    fetched += try await phone.requestedURLs().count { $0.contains("format=vcard") }
                }
                return fetched
            }
            #expect(try await vCardsFetched(clicking: "#save-contact") == 1, "one fresh vCard, fetched when asked")

            try await phone.open(server.url + "/")
            try await phone.wait(
                for: "Ada's address to write to",
                until: "document.querySelector('#connections a[href=\"mailto:ada@engines.example\"]') !== null")
            #expect((try await phone.text("#connections")).contains("+442079460958"), "shared since the scan")
            // The list offers her card too, fetched when asked for.
            #expect(try await phone.text("#connections .save-contact") == "Save Ada to my contacts")
            #expect(try await vCardsFetched(clicking: "#connections .save-contact") == 1, "the list's card fetched once, when asked")
            try await phone.expectCleanPage(origin: server.url)
        }
        let seenByAda = try await ada.connections().items.first?.card
        #expect(seenByAda == [ContactEntry(kind: .email, value: "bob@telescopes.example")])
    }

    /// A refused field is said in the page's language: the server's field error (`errors`), not
    /// its English `detail` inside a German sentence.
    @Test func aRefusedFieldIsSaidInThePagesLanguage() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        try await Browser.with(languages: "de-DE,de") { phone in
            try await phone.open(server.url + "/")
            try await phone.type("#name", "Berta\n")
            try await phone.wait(for: "my card", until: "!document.getElementById('home').hidden")
            try await phone.type("#card-value", "keine-adresse")
            try await phone.click("#card-add button")
            try await phone.wait(for: "refused", until: "document.getElementById('card-status').dataset.kind === 'error'")
            #expect(try await phone.text("#card-status") == "Nicht angenommen: Das ist keine E-Mail-Adresse (name@example.org).")
        }
    }
}
