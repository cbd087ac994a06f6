import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing

/// The pages' words come from message catalogs (English, German) in a real headless Chromium
/// against the release server: in the pseudo-locale (`?lang=qps`: every message as ⟦Áççéñţéd⟧) no
/// page, in any state a person meets it, shows text from anywhere else; a German browser gets
/// German, and the language switch changes it and keeps the choice.
@Suite(.serialized, .tier(.browser)) struct LanguageTests {
    let workspace = Workspace()

    /// The text the page shows (every visible text node, the placeholder, aria-label, alt and title
    /// attributes, the document's title) that has letters outside the pseudo-locale's ⟦…⟧, is no
    /// word of `arguments[0]` (what the test made: names, an event, codes) and no month, weekday or
    /// AM/PM the browser writes in dates; each as "where: text". The language switch names each
    /// language in that language, on purpose; what a page marks `translate="no"` is data (time zone
    /// names, links), as it tells a translating browser.
    static let untranslated = """
        if (document.documentElement.lang !== 'qps') return ['the page is not in the pseudo-locale'];
        const words = (text) => text.match(/\\p{L}+/gu) || [];
        const known = new Set(arguments[0].flatMap(words));
        const dates = (options, date) => new Intl.DateTimeFormat('qps', options).formatToParts(date)
          .filter((part) => ['month', 'weekday', 'dayPeriod'].includes(part.type)).forEach((part) => words(part.value).forEach((word) => known.add(word)));
        for (let i = 0; i < 12; i += 1) {
          dates({ month: 'short' }, new Date(2024, i, 1));
          dates({ weekday: 'short', hour: '2-digit' }, new Date(2024, 0, 1 + i, i * 2));
        }
        const found = [];
        const check = (text, where) => {
          let rest = text; let before = null;
          while (rest !== before) { before = rest; rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' '); }
          if (words(rest).some((word) => !known.has(word))) found.push(`${where}: ${text.trim()}`);
        };
        const shown = (element) => (element.closest('select') || element).checkVisibility();
        const name = (element) => element.tagName.toLowerCase() + (element.id ? '#' + element.id : '');
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const element = node.parentElement;
          if (node.textContent.trim() && shown(element) && !element.closest('#language, [translate="no"]')) check(node.textContent, name(element));
        }
        for (const element of document.body.querySelectorAll('[placeholder], [aria-label], [alt], [title]')) {
          if (!shown(element)) continue;
          for (const attribute of ['placeholder', 'aria-label', 'alt', 'title']) {
            if (element.hasAttribute(attribute)) check(element.getAttribute(attribute), `${name(element)}[${attribute}]`);
          }
        }
        check(document.title, 'title');
        return found;
        """

    private func expectTranslated(
        _ browser: Browser, _ state: String, userData: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let found = try await browser.run(Self.untranslated, [userData]) as? [String] ?? ["no answer"]
        if !found.isEmpty { _ = try await browser.evidence("untranslated \(state)") }
        #expect(found.isEmpty, "\(state): \(found)", sourceLocation: sourceLocation)
    }

    /// `path` (a page's, perhaps with a query and a fragment) in the pseudo-locale.
    private static func pseudo(_ path: String) -> String {
        let parts = path.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let page = String(parts[0])
        return page + (page.contains("?") ? "&" : "?") + "lang=qps" + (parts.count > 1 ? "#" + parts[1] : "")
    }

    @Test func thePseudoLocaleFindsNoTextOutsideTheCatalogs() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let anonymous = server.client
        let ada = anonymous.authenticated(
            try await anonymous.register(NewProfile(displayName: "Ada", headline: "Analytical engines")).apiKey)
        let start = Date().addingTimeInterval(-3600)
        let created = try await ada.createEvent(
            NewEvent(
                name: "Polyglot Night", slug: "polyglot-night", startsAt: start, endsAt: start.addingTimeInterval(8 * 3600),
                timeZone: "UTC"))
        // Two attendees scan Ada's code for the event: Margaret named, Linus by pseudonym.
        for (name, named) in [("Margaret Hamilton", true), ("Linus", false)] {
            let person = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: name)).apiKey)
            _ = try await person.redeem(RedeemRequest(token: try await ada.issueToken(event: "polyglot-night").token))
            if named { _ = try await person.setEventVisibility(.named, at: "polyglot-night") }
        }
        let userData = [
            "Ada", "Analytical engines", "Bob", "Cleo", "Laptop", "Margaret Hamilton", "Linus", "Polyglot Night", "polyglot-night",
            "UTC", created.joinCode,
        ]

        try await Browser.with { phone in
            try await phone.open(server.url + "/?lang=qps")
            try await phone.wait(for: "the join form", until: "document.activeElement.id === 'name'")
            try await expectTranslated(phone, "the join form", userData: userData)

            try await phone.open(server.url + Self.pseudo("/c#" + (try await ada.issueToken()).token))
            try await phone.wait(for: "the name form", until: "!document.getElementById('join').hidden")
            try await expectTranslated(phone, "a code opened without a profile", userData: userData)
            try await phone.type("#name", "Bob\n")
            try await phone.wait(for: "connected", until: "document.getElementById('status').dataset.kind === 'success'")
            try await expectTranslated(phone, "connected", userData: userData)

            try await phone.open(server.url + "/c?lang=qps#garbage")
            try await phone.wait(for: "the refusal", until: "document.getElementById('status').dataset.kind === 'error'")
            try await expectTranslated(phone, "a bad code", userData: userData)

            // Bob's profile on a laptop too, so that the device list has one to revoke.
            let bobsKey = try #require(try await phone.run("return localStorage.getItem('constellation.apiKey');") as? String)
            let bob = anonymous.authenticated(bobsKey)
            let link = try await bob.createDeviceLink()
            _ = try await anonymous.redeemDeviceLink(DeviceLinkRedemption(code: link.code, deviceName: "Laptop"))
            try await phone.open(server.url + "/?lang=qps")
            try await phone.wait(for: "my code", until: "document.getElementById('qr').naturalWidth > 0")
            try await phone.wait(for: "my connections", until: "document.getElementById('connections').textContent.includes('Ada')")
            try await phone.wait(for: "my devices", until: "document.querySelector('#devices button') !== null")
            try await phone.wait(for: "my constellation", until: "document.getElementById('network-text').textContent.includes('Bob')")
            try await phone.type("#event-slug", "polyglot-night")
            try await phone.type("#event-code", created.joinCode + "\n")
            try await phone.wait(for: "joined", until: "document.getElementById('event-status').dataset.kind === 'success'")
            try await phone.wait(for: "my events", until: "document.querySelector('#my-events input') !== null")
            try await phone.click("#link-device")
            try await phone.wait(for: "the device link", until: "document.getElementById('device-link-caption').textContent !== ''")
            let cleo = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: "Cleo")).apiKey)
            _ = try await cleo.redeem(RedeemRequest(token: try await bob.issueToken().token))
            try await phone.wait(for: "Cleo heard", until: "!document.getElementById('heard').hidden")
            try await expectTranslated(phone, "my code, connections, network, devices and events", userData: userData)
        }

        try await Browser.with(width: 1280, height: 800) { laptop in
            let live = try await ada.issueViewToken(for: "polyglot-night")
            try await laptop.open(server.url + Self.pseudo(live.path))
            try await laptop.wait(for: "the picture", until: "document.getElementById('live-count').dataset.edges === '2'")
            try await laptop.wait(for: "the stream", until: "document.getElementById('live-state').dataset.state === 'live'")
            try await laptop.wait(for: "the summary", until: "document.querySelectorAll('#summary dd').length > 0")
            try await laptop.wait(for: "the growth chart", until: "document.querySelector('#growth text.readout') !== null")
            try await laptop.wait(
                for: "the picture in words", until: "document.getElementById('network-text').textContent.includes('Margaret')")
            _ = try await laptop.run("document.getElementById('growth').focus();")
            try await laptop.press("\u{E010}")  // End: the last bar's values
            try await laptop.wait(for: "a bar's values", until: "document.getElementById('growth-value').textContent !== ''")
            try await laptop.type("#search", "Zq")
            try await laptop.wait(for: "no match", until: "!document.getElementById('search-results').hidden")
            try await expectTranslated(laptop, "the live page", userData: userData)

            let wall = try await ada.issueViewToken(for: "polyglot-night", wall: true)
            try await laptop.open(server.url + Self.pseudo(wall.path) + "&code=" + created.joinCode)
            try await laptop.wait(for: "the join QR", until: "document.getElementById('join-qr').naturalWidth > 0")
            try await laptop.wait(for: "the stream", until: "document.getElementById('live-state').dataset.state === 'live'")
            try await laptop.wait(for: "the picture in words", until: "document.getElementById('network-text').textContent.includes('⟦')")
            try await expectTranslated(laptop, "the wall", userData: userData)

            // The organizer's pages, in Ada's browser: the new event's form with a mistake, her event's page, its poster.
            try await laptop.run("localStorage.setItem('constellation.apiKey', arguments[0]);", [ada.apiKey ?? ""])
            try await laptop.open(server.url + "/events/new?lang=qps")
            try await laptop.wait(for: "the event form", until: "!document.getElementById('new-event').hidden")
            try await laptop.click("#new-event button[type=submit]")
            try await laptop.wait(for: "a mistake", until: "!document.getElementById('event-name-error').hidden")
            try await expectTranslated(laptop, "the new event's form", userData: userData)
            try await laptop.open(server.url + "/events/polyglot-night/organize?lang=qps")
            try await laptop.wait(for: "the door", until: "document.getElementById('join-code').textContent === '\(created.joinCode)'")
            try await laptop.wait(for: "the links", until: "document.querySelectorAll('#view-links button[data-revoke]').length === 2")
            try await laptop.click("#rotate")
            try await laptop.click("#invite")
            try await laptop.wait(for: "the invitation", until: "document.getElementById('invitation-code').textContent !== ''")
            try await laptop.click("#step-down")
            try await expectTranslated(laptop, "the organizer's page", userData: userData)
            let invitationCode = try await laptop.text("#invitation-code")
            try await laptop.open(server.url + "/invitation?lang=qps#code=" + invitationCode)
            try await laptop.wait(for: "the invitation", until: "!document.getElementById('answer').hidden")
            try await expectTranslated(laptop, "the invitation", userData: userData)
            try await laptop.open(server.url + "/events/polyglot-night/poster?lang=qps")
            try await laptop.wait(for: "the poster", until: "!document.getElementById('poster').hidden")
            try await expectTranslated(laptop, "the join poster", userData: userData)
        }
    }

    /// A browser asking for German gets the pages in German (the join form, a connection made); the
    /// switch on the page turns it to English, which stays for the next pages; a link's `?lang=`
    /// chooses too, and stays for the pages after it.
    @Test func aGermanBrowserGetsGermanUntilEnglishIsChosen() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let anonymous = server.client
        let ada = anonymous.authenticated(
            try await anonymous.register(NewProfile(displayName: "Ada", headline: "Analytical engines")).apiKey)
        try await Browser.with(languages: "de-DE,de") { phone in
            try await phone.open(server.url + "/")
            try await phone.wait(
                for: "the join form in German",
                until: "document.documentElement.lang === 'de' && document.querySelector('#join button').textContent === 'Mitmachen'")
            try await phone.type("#name", "Bob\n")
            try await phone.wait(
                for: "my code, in German", until: "/^Gültig bis /.test(document.getElementById('valid-until').textContent)")

            try await phone.open(server.url + "/c#" + (try await ada.issueToken()).token)
            try await phone.wait(
                for: "connected, in German",
                until: "/^Verbunden mit Ada \\(Analytical engines\\)\\.$/.test(document.getElementById('status').textContent)")

            try await phone.open(server.url + "/")
            try await phone.wait(for: "Ada in my connections", until: "document.getElementById('connections').textContent.includes('Ada')")
            let shown = try await phone.run("return document.getElementById('language').value;") as? String
            #expect(shown == "de", "the switch shows the page's language")
            try await phone.click("#language option[value=en]")
            try await phone.wait(
                for: "English after the switch",
                until:
                    "document.documentElement.lang === 'en' && /^My connections/.test(document.getElementById('connections-title').textContent)"
            )
            let kept = try await phone.run("return localStorage.getItem('constellation.language');") as? String
            #expect(kept == "en")

            try await phone.open(server.url + "/c#" + (try await ada.issueToken()).token)
            try await phone.wait(
                for: "English on the next page",
                until: "/^You were already connected with Ada/.test(document.getElementById('status').textContent)")
            try await phone.open(server.url + "/?lang=de")
            try await phone.wait(
                for: "German from the link",
                until:
                    "document.documentElement.lang === 'de' && /^Meine Verbindungen/.test(document.getElementById('connections-title').textContent)"
            )
            // The link's language stays on the next page; switching on `/c` reloads it, and the scan it
            // shows survives (in the history entry's state).
            try await phone.open(server.url + "/c#" + (try await ada.issueToken()).token)
            try await phone.wait(
                for: "the scan, still in German",
                until: "document.documentElement.lang === 'de' && /Ada/.test(document.getElementById('status').textContent)")
            try await phone.click("#language option[value=en]")
            try await phone.wait(
                for: "the same scan after switching to English",
                until:
                    "document.documentElement.lang === 'en' && document.getElementById('status').dataset.kind === 'success' && /Ada/.test(document.getElementById('status').textContent)"
            )
            try await phone.expectCleanPage(origin: server.url)
        }
    }
}
