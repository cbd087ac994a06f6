import Client
import ConstellationModel
import Foundation
import QR
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The organizer's back office in a real headless Chromium against the release server, from a
/// blank browser and no CLI: create an event (its mistakes said next to their fields, nothing
/// made), its organizer page (the door, the poster, the wall opened in a new tab, the code
/// replaced while the wall is open, the wall's link revoked, the exports, the badge sheet), and
/// the page a non-organizer gets. Only the downloads are not real files: the page's save link is
/// caught in the page and its contents read back, as a file on disk would be.
@Suite(.serialized, .tier(.browser)) struct OrganizerPageTests {
    let workspace = Workspace()
    static let slug = "swift-meetup-berlin"

    /// Catches the page's downloads: each saved file's name and text in `window.saved` (the page's
    /// policy lets it read back no blob: URL, so the blobs are kept as they are made).
    static let catchDownloads = """
        window.saved = [];
        const blobs = new Map();
        const create = URL.createObjectURL;
        URL.createObjectURL = (blob) => { const url = create(blob); blobs.set(url, blob); return url; };
        const click = HTMLAnchorElement.prototype.click;
        HTMLAnchorElement.prototype.click = function () {
          if (!this.download) return click.call(this);
          const name = this.download;
          blobs.get(this.href).text().then((text) => window.saved.push({ name, text }));
        };
        """

    @Test func anOrganizerWithOnlyABrowserCreatesAnEventAndRunsItsDoor() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let anonymous = server.client
        let someoneElse = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: "Ida")).apiKey)
        _ = try await someoneElse.createEvent(
            NewEvent(
                name: "Taken", slug: "taken-slug", startsAt: Date().addingTimeInterval(-3600), endsAt: Date().addingTimeInterval(3600),
                timeZone: "UTC"))

        try await Browser.with(width: 1280, height: 1400) { laptop in
            try await laptop.open(server.url + "/")
            try await laptop.type("#name", "Olga\n")
            try await laptop.wait(for: "my page", until: "document.getElementById('qr').naturalWidth > 0")
            try await laptop.click("#create-event")
            try await laptop.wait(for: "the event form", until: "!document.getElementById('new-event').hidden")
            #expect(try await laptop.seriousAccessibilityProblems() == [])
            try await laptop.type("#event-name", "Swift Meetup Berlin")
            #expect(try await laptop.run("return document.getElementById('event-slug').value;") as? String == Self.slug)

            // Bad input is answered next to its field, and nothing is made.
            func fill(slug: String, starts: String, ends: String) async throws {
                try await laptop.run(
                    """
                    const [slug, starts, ends] = arguments;
                    document.getElementById('event-slug').value = slug;
                    document.getElementById('event-zone').value = 'Europe/Berlin';
                    document.getElementById('event-starts').value = starts;
                    document.getElementById('event-ends').value = ends;
                    """, [slug, starts, ends])
                try await laptop.click("#new-event button[type=submit]")
            }
            try await fill(slug: Self.slug, starts: "2027-03-01T18:00", ends: "2027-03-01T09:00")
            try await laptop.wait(
                for: "the end's mistake", until: "/after the start/.test(document.getElementById('event-ends-error').textContent)")
            #expect(try await laptop.run("return document.activeElement.id;") as? String == "event-ends", "the focus goes to the field")
            try await fill(slug: "Bad Slug!", starts: "2027-03-01T09:00", ends: "2027-03-01T18:00")
            try await laptop.wait(
                for: "the slug's mistake", until: "/lowercase letters/.test(document.getElementById('event-slug-error').textContent)")
            try await fill(slug: "taken-slug", starts: "2027-03-01T09:00", ends: "2027-03-01T18:00")
            try await laptop.wait(
                for: "the server's refusal at the slug",
                until: "/Another event has this address/.test(document.getElementById('event-slug-error').textContent)")
            #expect(
                try await laptop.run("return document.getElementById('event-ends-error').hidden;") as? Bool == true,
                "fixed fields are clear")
            // The refusal is the one thing the console says.
            #expect(try await laptop.consoleProblems().allSatisfy { $0.contains("/v1/events - ") && $0.contains("409") })
            do {
                _ = try await anonymous.event(Self.slug)
                Issue.record("a refused form made the event")
            } catch ClientError.problem(let problem) {
                #expect(problem.code == "unknown_event", "nothing was made")
            }

            // Right: the event is made in its zone's time, and its organizer page opens with its code.
            try await fill(slug: Self.slug, starts: "2027-03-01T09:00", ends: "2027-03-01T18:00")
            try await laptop.wait(
                for: "the organizer page",
                until:
                    "location.pathname === '/events/\(Self.slug)/organize' && /^[A-Z2-9]{4}-[A-Z2-9]{4}$/.test(document.getElementById('join-code').textContent)"
            )
            let event = try await anonymous.event(Self.slug)
            #expect(event.startsAt == Date(timeIntervalSince1970: 1_803_888_000), "09:00 in Berlin is 08:00 UTC on 2027-03-01")
            #expect(event.timeZone == "Europe/Berlin" && event.name == "Swift Meetup Berlin")
            let olga = anonymous.authenticated(
                try #require(try await laptop.run("return localStorage.getItem('constellation.apiKey');") as? String))
            let code = try await olga.joinCode(of: Self.slug)
            #expect(try await laptop.text("#join-code") == code.joinCode)
            #expect(try await laptop.text("#join-link") == code.link)
            #expect(try await laptop.seriousAccessibilityProblems() == [])

            // The join poster: one A4 page, whose QR code reads back as the join link.
            try await laptop.open(server.url + "/events/\(Self.slug)/poster?paper=a4")
            try await laptop.wait(
                for: "the poster",
                until: "!document.getElementById('poster').hidden && document.getElementById('poster-qr').naturalWidth > 0")
            #expect(try await laptop.text("#poster-code") == code.joinCode)
            try await Screenshots.save(laptop, as: "poster")
            #expect(try await laptop.printedPageCount() == 1, "the poster fits its page")
            #expect(try await laptop.seriousAccessibilityProblems() == [])
            let shot = workspace.root.appendingPathComponent("poster.png")
            try await laptop.screenshot(to: shot)
            #expect(try QRDecoder.decode(imageFile: Array(try Data(contentsOf: shot))) == [code.link])

            // A phone joins through the poster's link; it gets no organizer page.
            let nina = try await Self.joinThrough(code.link, server: server)
            _ = try await nina.setBadgePrinting(true, at: Self.slug)

            // A co-organizer, through an invitation link that a third, blank browser opens and accepts.
            try await laptop.open(server.url + "/events/\(Self.slug)/organize")
            try await laptop.wait(for: "the organizer page", until: "document.querySelectorAll('#organizers li').length === 1")
            // Who came, as the API's summary says it: Olga and Nina, both within the hour, nobody connected yet.
            try await laptop.wait(for: "who came", until: "document.getElementById('figure-attendees').textContent === '2'")
            let summary = try await olga.eventSummary(Self.slug)
            #expect(summary.attendees == 2 && summary.joinedLastHour == 2 && summary.connectedShare == 0)
            #expect(try await laptop.text("#figure-joined") == "2")
            #expect(try await laptop.text("#figure-connected") == "0%")
            try await laptop.click("#invite")
            try await laptop.wait(for: "the invitation", until: "document.getElementById('invitation-link').textContent !== ''")
            let invitationLink = try await laptop.text("#invitation-link")
            #expect(invitationLink.hasPrefix(server.url + "/invitation#code="))
            // The pending list is read again after the link shows: waited for (under load it came later).
            try await laptop.wait(
                for: "the pending invitation", until: "document.querySelectorAll('#pending-invitations button').length === 1")
            #expect(try await laptop.seriousAccessibilityProblems() == [])
            let paul = try await Self.acceptThrough(invitationLink, server: server)
            #expect(try await paul.myEvents().items.map(\.role) == [.attendee], "Paul accepted, then stepped down")
            #expect(try await olga.organizers(of: Self.slug).items.map(\.displayName) == ["Olga"])

            // The wall, opened in a new tab from the organizer page, follows a replaced code by itself.
            try await laptop.open(server.url + "/events/\(Self.slug)/organize")
            try await laptop.wait(for: "the organizer page", until: "!document.getElementById('organizer').hidden")
            let organizerTab = try #require(try await laptop.tabs().first)
            try await laptop.click("#open-wall")
            try await laptop.wait(for: "a second tab", until: "document.querySelectorAll('#view-links button[data-revoke]').length === 1")
            let wallTab = try #require(try await laptop.tabs().first { $0 != organizerTab })
            try await laptop.switchTo(tab: wallTab)
            try await laptop.wait(
                for: "the wall's code",
                until:
                    "document.getElementById('join').dataset.code === '\(code.joinCode)' && document.getElementById('join-qr').naturalWidth > 0"
            )
            #expect(try await laptop.run("return location.search;") as? String == "?wall")
            try await laptop.switchTo(tab: organizerTab)
            try await laptop.click("#rotate")
            #expect(try await laptop.run("return document.activeElement.id;") as? String == "rotate-no", "the safe answer has the focus")
            try await laptop.click("#rotate-yes")
            try await laptop.wait(for: "the new code", until: "document.getElementById('join-code').textContent !== '\(code.joinCode)'")
            let rotated = try await olga.joinCode(of: Self.slug)
            try await Screenshots.save(laptop, as: "organize")
            #expect(try await laptop.text("#join-code") == rotated.joinCode)
            try await laptop.switchTo(tab: wallTab)
            let rotatedAt = ContinuousClock.now
            // The wall asks every 3 s; the bound leaves room for a loaded machine.
            try await laptop.wait(
                for: "the wall's new code",
                until:
                    "document.getElementById('join').dataset.code === '\(rotated.joinCode)' && document.getElementById('join-qr').naturalWidth > 0"
            )
            print("organizer page: the wall showed the new code \(ContinuousClock.now - rotatedAt) after the rotation was seen")

            // Renamed and an hour longer from the organizer page: the wall shows the new name by itself.
            try await laptop.switchTo(tab: organizerTab)
            #expect(try await laptop.run("return document.getElementById('edit-ends').value;") as? String == "2027-03-01T18:00")
            try await laptop.run(
                """
                document.getElementById('edit-name').value = arguments[0];
                document.getElementById('edit-ends').value = '2027-03-01T19:00';
                """, ["Swift Meetup Berlin, spring"])
            try await laptop.click("#save-event")
            try await laptop.wait(
                for: "the new name", until: "document.getElementById('event-name').textContent === 'Swift Meetup Berlin, spring'")
            let changed = try await anonymous.event(Self.slug)
            #expect(changed.name == "Swift Meetup Berlin, spring" && changed.endsAt == event.endsAt.addingTimeInterval(3_600))
            #expect(changed.purgeOn == event.purgeOn.addingTimeInterval(3_600), "the default purge date moved with the end")
            #expect(try await laptop.seriousAccessibilityProblems() == [])
            try await laptop.switchTo(tab: wallTab)
            try await laptop.wait(
                for: "the wall's new name", until: "document.getElementById('event-name').textContent === 'Swift Meetup Berlin, spring'")

            // Extended from the organizer page to the event's end, without a new link; then revoked, and the wall says so.
            try await laptop.switchTo(tab: organizerTab)
            try await laptop.click("#view-links button[data-link]")
            try await laptop.wait(for: "extended", until: "/now lives until/.test(document.getElementById('status').textContent)")
            #expect(
                try await olga.viewLinks(of: Self.slug).items.map(\.expiresAt) == [event.endsAt],
                "the wall's link lives until the end its token was signed for (a link keeps its bounds when the event is extended)")
            #expect(try await laptop.run("return document.querySelectorAll('#view-links button[data-link]').length;") as? Int == 0)
            try await laptop.click("#revoke-all")
            try await laptop.wait(for: "revoked", until: "/One link revoked/.test(document.getElementById('status').textContent)")
            try await laptop.switchTo(tab: wallTab)
            try await laptop.wait(
                for: "the wall says it was revoked", until: "/revoked this view link/.test(document.getElementById('status').textContent)")
            #expect(try await laptop.consoleProblems().allSatisfy { $0.contains("401") }, "the revoked link's refusals, and nothing else")
            try await laptop.switchTo(tab: organizerTab)

            // Every export, and the badge sheet, saved with the slug and the date, each as its format reads.
            try await laptop.run(Self.catchDownloads)
            for format in ["gexf", "graphml", "csv", "graphology", "cytoscape", "summary", "report"] {
                try await laptop.click("#exports button[data-format='\(format)']")
            }
            // The sheet after the exports: the status says what finished last, and a report that
            // finished after the sheet once said "Report … downloaded" where the badge count was awaited.
            try await laptop.wait(for: "seven files", until: "window.saved.length === 7")
            try await laptop.click("#badges button[data-paper='a4']")
            try await laptop.wait(for: "eight files", until: "window.saved.length === 8")
            try await laptop.wait(for: "the badge count", until: "/1 badge/.test(document.getElementById('status').textContent)")
            let saved = try #require(try await laptop.run("return window.saved;") as? [[String: String]])
            let files = Dictionary(uniqueKeysWithValues: saved.map { ($0["name"] ?? "", $0["text"] ?? "") })
            let date = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withFullDate])
            for name in ["gexf", "graphml"] {
                let text = try #require(files["\(Self.slug)-\(date).\(name)"], "\(files.keys)")
                #expect(XMLParser(data: Data(text.utf8)).parse(), "\(name) is well-formed XML")
            }
            let report = try #require(files["\(Self.slug)-\(date).report.html"], "\(files.keys)")
            #expect(
                report.contains("<html lang=\"en\">") && report.contains("id=\"figure-connections\""), "the report, in the page's language")
            for name in ["graphology.json", "cytoscape.json", "summary.json"] {
                let text = try #require(files["\(Self.slug)-\(date).\(name)"], "\(files.keys)")
                #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "\(name) is JSON")
            }
            #expect(files["\(Self.slug)-\(date).csv"]?.hasPrefix("source,target,first_at") == true)
            #expect(files["badges-\(Self.slug)-a4-\(date).html"]?.contains("<html lang=\"en\">") == true, "in the page's language")
            #expect(try await laptop.text("#badge-count") == "One attendee asked for a printed badge.")
            try await laptop.expectCleanPage(origin: server.url)
        }
    }

    /// An event made through the API, begun, with times to the second: renaming it from the page
    /// changes its name only (the start the page shows to the minute is not sent back), and a new
    /// time zone keeps the end's clock time (its start has come, and stays).
    @Test func aRunningEventIsRenamedAndGivenAnotherZoneFromThePage() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        try await Browser.with(width: 1280, height: 1400) { laptop in
            try await laptop.open(server.url + "/")
            try await laptop.type("#name", "Rita\n")
            try await laptop.wait(for: "my page", until: "document.getElementById('qr').naturalWidth > 0")
            let rita = server.client.authenticated(
                try #require(try await laptop.run("return localStorage.getItem('constellation.apiKey');") as? String))
            let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3_600).rounded(.down) - 17)
            let created = try await rita.createEvent(
                NewEvent(
                    name: "Runing Late", slug: "running-late", startsAt: start, endsAt: start.addingTimeInterval(6 * 3_600), timeZone: "UTC"
                ))
            try await laptop.open(server.url + "/events/running-late/organize")
            try await laptop.wait(for: "the event's form", until: "document.getElementById('edit-name').value === 'Runing Late'")
            #expect(try await laptop.run("return document.getElementById('edit-starts').disabled;") as? Bool == true, "its start has come")
            try await laptop.run("document.getElementById('edit-name').value = 'Running Late';")
            try await laptop.click("#save-event")
            try await laptop.wait(for: "renamed", until: "document.getElementById('event-name').textContent === 'Running Late'")
            var event = try await rita.event("running-late")
            #expect(event.name == "Running Late" && event.startsAt == created.event.startsAt && event.endsAt == created.event.endsAt)

            try await laptop.run("document.getElementById('edit-zone').value = 'Europe/Berlin';")
            try await laptop.click("#save-event")
            try await laptop.wait(for: "the new zone", until: "/Berlin/.test(document.getElementById('event-dates').textContent)")
            event = try await rita.event("running-late")
            #expect(event.timeZone == "Europe/Berlin" && event.startsAt == created.event.startsAt, "a start that has come stays")
            let offset = TimeInterval(TimeZone(identifier: "Europe/Berlin")!.secondsFromGMT(for: created.event.endsAt))
            #expect(
                abs(event.endsAt.timeIntervalSince(created.event.endsAt) + offset) < 60,
                "the end keeps its clock time in the new zone: \(event.endsAt) for \(created.event.endsAt)")
            try await laptop.expectCleanPage(origin: server.url)
        }
    }

    /// A second browser registers through `link` (the poster's): it joins the event as an attendee,
    /// and the event's organizer page tells it that it is not for them.
    private static func joinThrough(_ link: String, server: ServerProcess) async throws -> ConstellationClient {
        var key = ""
        try await Browser.with { phone in
            try await phone.open(link)
            try await phone.type("#name", "Nina\n")
            try await phone.wait(
                for: "joined", until: "/You joined Swift Meetup Berlin/.test(document.getElementById('status').textContent)")
            key = try #require(try await phone.run("return localStorage.getItem('constellation.apiKey');") as? String)
            try await phone.open(server.url + "/events/\(slug)/organize")
            try await phone.wait(
                for: "refused", until: "/You do not organize Swift Meetup Berlin/.test(document.getElementById('refused-text').textContent)"
            )
            #expect(try await phone.run("return document.getElementById('organizer').hidden;") as? Bool == true)
        }
        let nina = server.client.authenticated(key)
        #expect(try await nina.myEvents().items.map(\.role) == [.attendee])
        return nina
    }

    /// A third browser opens the invitation `link`: it says who invites to what before anything
    /// else, makes a profile with a name, accepts, and opens the organizer page, where Paul is
    /// one of two; the link then works no more. Paul steps down after the confirmation.
    private static func acceptThrough(_ link: String, server: ServerProcess) async throws -> ConstellationClient {
        var key = ""
        try await Browser.with(width: 1024, height: 1200) { browser in
            try await browser.open(link)
            try await browser.wait(
                for: "the invitation",
                until: "/Olga invites you to organize Swift Meetup Berlin/.test(document.getElementById('invitation-text').textContent)")
            #expect(try await browser.run("return location.hash;") as? String == "", "the code leaves the address bar")
            #expect(try await browser.seriousAccessibilityProblems() == [])
            try await browser.type("#name", "Paul\n")
            try await browser.wait(for: "the answer", until: "!document.getElementById('answer').hidden")
            try await browser.click("#accept")
            try await browser.wait(
                for: "accepted", until: "/You organize Swift Meetup Berlin now/.test(document.getElementById('status').textContent)")
            key = try #require(try await browser.run("return localStorage.getItem('constellation.apiKey');") as? String)
            try await browser.click("#next-link")
            try await browser.wait(
                for: "the organizer page", until: "/Paul \\(you\\)/.test(document.getElementById('organizers').textContent)")
            #expect(try await browser.text("#organizers").contains("Olga"))
            #expect(try await browser.seriousAccessibilityProblems() == [])

            try await browser.click("#step-down")
            #expect(
                try await browser.run("return document.activeElement.id;") as? String == "step-down-no", "the safe answer has the focus")
            #expect(try await browser.text("#step-down-question").contains("go dark"))
            try await browser.click("#step-down-yes")
            try await browser.wait(
                for: "stepped down",
                until: "/You no longer organize Swift Meetup Berlin/.test(document.getElementById('refused-text').textContent)")

            // The link worked once.
            try await browser.open(link)
            try await browser.wait(for: "used", until: "/answered already/.test(document.getElementById('code-error').textContent)")
        }
        return server.client.authenticated(key)
    }

    /// In German from a blank browser: the form's words and its mistakes, and the organizer page.
    @Test func theOrganizerPagesSpeakThePagesLanguage() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        try await Browser.with(width: 1280, height: 1400, languages: "de-DE,de") { laptop in
            // A blank browser finds "create an event" beside joining, within a laptop's first screen
            // (1366 × 768), and gives its name on the way.
            try await laptop.open(server.url + "/")
            try await laptop.wait(for: "the home page", until: "!document.getElementById('join').hidden")
            #expect(try await laptop.text("#start-organizing") == "Eine Veranstaltung anlegen")
            let bottom = try await laptop.run("return document.getElementById('start-organizing').getBoundingClientRect().bottom;")
            #expect(((bottom as? Double) ?? (bottom as? Int).map(Double.init) ?? .infinity) <= 768, "at \(String(describing: bottom)) px")
            try await laptop.click("#start-organizing")
            try await laptop.wait(for: "the name first", until: "!document.getElementById('no-profile').hidden")
            #expect(try await laptop.seriousAccessibilityProblems() == [])
            try await laptop.type("#organizer-name", "Greta\n")
            try await laptop.wait(for: "the event form", until: "!document.getElementById('new-event').hidden")
            #expect(try await laptop.run("return localStorage.getItem('constellation.apiKey') !== null;") as? Bool == true)
            #expect(try await laptop.run("return document.documentElement.lang;") as? String == "de")
            try await laptop.type("#event-name", "Treffen in München")
            #expect(try await laptop.run("return document.getElementById('event-slug').value;") as? String == "treffen-in-muenchen")
            try await laptop.run("document.getElementById('event-ends').value = document.getElementById('event-starts').value;")
            try await laptop.click("#new-event button[type=submit]")
            try await laptop.wait(
                for: "the German mistake",
                until: "document.getElementById('event-ends-error').textContent === 'Das Ende muss nach dem Beginn liegen.'")
            try await laptop.run(
                "document.getElementById('event-ends').value = document.getElementById('event-starts').value.replace('T09', 'T18');")
            try await laptop.click("#new-event button[type=submit]")
            try await laptop.wait(for: "the organizer page", until: "!document.getElementById('organizer').hidden")
            #expect(try await laptop.text("#door-title") == "Der Eingang")
            #expect(try await laptop.text("#open-wall") == "Projektorwand öffnen")
            #expect(try await laptop.text("#organizers-title") == "Mitveranstalter")
            #expect(try await laptop.seriousAccessibilityProblems() == [])
            try await laptop.open(server.url + "/events/treffen-in-muenchen/poster?paper=letter")
            try await laptop.wait(for: "the poster", until: "!document.getElementById('poster').hidden")
            #expect(try await laptop.text(".poster-code span") == "Beitrittscode")
            #expect(try await laptop.printedPageCount(width: 21.59, height: 27.94) == 1, "the Letter poster fits its page")
            try await laptop.expectCleanPage(origin: server.url)

            // The only organizer cannot step down, and is told so in German.
            try await laptop.open(server.url + "/events/treffen-in-muenchen/organize")
            try await laptop.wait(for: "the organizer page", until: "!document.getElementById('organizer').hidden")
            try await laptop.click("#step-down")
            try await laptop.click("#step-down-yes")
            try await laptop.wait(
                for: "refused in German",
                until: "/einzige Veranstalter von Treffen in München/.test(document.getElementById('status').textContent)")
            #expect(try await laptop.consoleProblems().allSatisfy { $0.contains("409") }, "the refusal, and nothing else")
        }
    }
}
