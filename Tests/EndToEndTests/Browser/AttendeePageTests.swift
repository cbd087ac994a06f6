import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing
import Tokens

/// The attendee pages in a real headless Chromium, phone-sized, against the release server binary
/// and a real PostgreSQL: join on `/`, open someone's `/c#TOKEN`, see "Connected"; the bad codes a
/// camera can bring (scans with no network: `OfflinePageTests`).
@Suite(.serialized, .tier(.browser)) struct AttendeePageTests {
    let workspace = Workspace()

    /// A running server with one attendee, Ada, made through the API.
    private func serverWithAda() async throws -> (ServerProcess, ConstellationClient) {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        let anonymous = server.client
        let ada = anonymous.authenticated(
            try await anonymous.register(NewProfile(displayName: "Ada", headline: "Analytical engines")).apiKey)
        return (server, ada)
    }

    @Test func joinOnTheHomePageThenScanSomeonesCode() async throws {
        let (server, ada) = try await serverWithAda()
        defer { _ = server.stop() }
        try await Browser.with { phone in
            try await phone.open(server.url + "/")
            try await phone.type("#name", "Bob")
            try await phone.type("#headline", "Telescopes\n")  // Enter submits
            try await phone.wait(
                for: "my code",
                until:
                    "document.getElementById('qr').naturalWidth > 0 && /Valid until/.test(document.getElementById('valid-until').textContent)"
            )
            try await Screenshots.save(phone, as: "home")

            try await phone.open(server.url + "/c#" + (try await ada.issueToken()).token)
            try await phone.wait(
                for: "connected", until: "/Connected with Ada \\(Analytical engines\\)/.test(document.getElementById('status').textContent)"
            )
            #expect(try await phone.run("return location.href;") as? String == server.url + "/c", "the token is out of the address bar")
            let adasPeers = try await ada.connections().items.map(\.peer.displayName)
            #expect(adasPeers == ["Bob"], "the connection is committed on the server")

            try await phone.open(server.url + "/")
            try await phone.wait(for: "Ada in my connections", until: "document.getElementById('connections').textContent.includes('Ada')")
            try await phone.wait(
                for: "my constellation",
                until: "/2 people, 1 connection$/.test(document.getElementById('network').getAttribute('aria-label'))")
            // The canvas's text alternative says who is in the picture, not only how many.
            let described = try await phone.run("return document.getElementById('network-text').textContent;") as? String ?? ""
            #expect(described.contains("Ada") && described.contains("Bob") && described.contains("2 people, 1 link"), "\(described)")

            // Someone scans my code while my page is open: it says so, by name, and lists them.
            let bobsKey = try #require(try await phone.run("return localStorage.getItem('constellation.apiKey');") as? String)
            let anonymous = server.client
            let cleo = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: "Cleo")).apiKey)
            _ = try await cleo.redeem(RedeemRequest(token: try await anonymous.authenticated(bobsKey).issueToken().token))
            // 2 s is the promise (`Tools/bench-web` measures it); the bound leaves room for a loaded machine.
            try await phone.wait(
                for: "Cleo connected with me", until: "/Cleo connected with you/.test(document.getElementById('heard').textContent)")
            try await phone.wait(
                for: "Cleo in my connections", until: "document.getElementById('connections').textContent.includes('Cleo')")
            try await phone.expectCleanPage(origin: server.url)
        }
    }

    /// A phone whose stream is cut before it heard any connection (the network gone, as in a
    /// venue's dead spot) resumes from the hello's id when it is back, and says who connected
    /// meanwhile: reconnecting without it, the server would start from its newest connection and
    /// the scan made in the gap would never be said.
    @Test func aPhoneCutBeforeItsFirstConnectionHearsWhoConnectedMeanwhile() async throws {
        let (server, _) = try await serverWithAda()
        defer { _ = server.stop() }
        try await Browser.with { phone in
            try await phone.open(server.url + "/")
            try await phone.type("#name", "Bob\n")
            try await phone.wait(for: "my code", until: "document.getElementById('qr').naturalWidth > 0")
            try await phone.wait(for: "the stream open", until: "document.getElementById('heard').dataset.stream === 'open'")
            try await phone.setOffline(true)
            try await phone.wait(for: "the stream cut", until: "document.getElementById('heard').dataset.stream === 'reconnecting'")

            let bobsKey = try #require(try await phone.run("return localStorage.getItem('constellation.apiKey');") as? String)
            let anonymous = server.client
            let cleo = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: "Cleo")).apiKey)
            _ = try await cleo.redeem(RedeemRequest(token: try await anonymous.authenticated(bobsKey).issueToken().token))

            try await phone.setOffline(false)
            // The bound is for a loaded machine: the page comes back at once, the reader asks twice a second.
            try await phone.wait(
                for: "Cleo said once back", until: "/Cleo connected with you/.test(document.getElementById('heard').textContent)")
        }
    }

    /// A venue's crowd behind one address meets a limit: the page waits as the server says
    /// (`Retry-After`), says so, and registers by itself; nothing is lost and nobody has to press
    /// again. Here the address may register 5 a minute, and 5 already did: the 6th waits 12 s.
    @Test func aPageRefusedByALimitWaitsSaysSoAndGoesOn() async throws {
        let server = try ServerProcess(
            databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData,
            environment: ["CONSTELLATION_RATE_LIMITS": "register_address=5/min"])
        defer { _ = server.stop() }
        try await Browser.with { phone in
            try await phone.open(server.url + "/")
            try await phone.type("#name", "Bob")
            for index in 0..<5 { _ = try await server.client.register(NewProfile(displayName: "Early \(index)")) }
            try await phone.type("#name", "\n")
            try await phone.wait(
                for: "the wait said",
                until: "/Many people at once: trying again in \\d+ s/.test(document.getElementById('status').textContent)")
            try await phone.wait(for: "registered after the wait", until: "document.getElementById('qr').naturalWidth > 0")
            #expect(try await phone.run("return localStorage.getItem('constellation.apiKey');") is String)
        }
    }

    /// A join link (the wall's QR code) registers the newcomer into its event, against the event's
    /// budget; "My events" then offers how its organizers see them, a pseudonym until they choose.
    @Test func aJoinLinkRegistersIntoItsEventAndTheNewcomerChoosesHowOrganizersSeeThem() async throws {
        let (server, ada) = try await serverWithAda()
        defer { _ = server.stop() }
        let start = Date().addingTimeInterval(-3600)
        let created = try await ada.createEvent(
            NewEvent(name: "Link Night", slug: "link-night", startsAt: start, endsAt: start.addingTimeInterval(8 * 3600), timeZone: "UTC"))
        try await Browser.with { phone in
            try await phone.open(server.url + "/#join=link-night&code=" + created.joinCode)
            try await phone.type("#name", "Nina\n")
            try await phone.wait(for: "joined", until: "/You joined Link Night/.test(document.getElementById('status').textContent)")
            try await phone.wait(for: "my events", until: "document.querySelector('#my-events input[type=checkbox]') !== null")
            #expect(try await phone.run("return document.querySelector('#my-events input').checked;") as? Bool == false)
            try await phone.click("#my-events input")
            try await phone.wait(for: "named", until: "/now see your name/.test(document.getElementById('event-status').textContent)")
            let key = try #require(try await phone.run("return localStorage.getItem('constellation.apiKey');") as? String)
            let nina = server.client.authenticated(key)
            let mine = try await nina.myEvents().items
            #expect(mine.map(\.event.slug) == ["link-night"] && mine.first?.visibility == .named && mine.first?.role == .attendee)
            try await phone.expectCleanPage(origin: server.url)

            // With a profile, another event's link only offers to join it (a link from anyone joined
            // it at once, and the code shown became that event's): Nina's press joins.
            let other = try await ada.createEvent(
                NewEvent(
                    name: "Other Night", slug: "other-night", startsAt: start, endsAt: start.addingTimeInterval(8 * 3600), timeZone: "UTC"))
            try await phone.open(server.url + "/#join=other-night&code=" + other.joinCode)
            try await phone.wait(
                for: "the join offered",
                until: "/A link asks you to join Other Night/.test(document.getElementById('event-status').textContent)")
            #expect(try await nina.myEvents().items.map(\.event.slug) == ["link-night"], "not joined by the link alone")
            #expect(try await phone.run("return document.activeElement.textContent;") as? String == "Join the event")
            try await phone.click("#event-join button[type=submit]")
            try await phone.wait(for: "joined", until: "/You joined Other Night/.test(document.getElementById('event-status').textContent)")
            #expect(Set(try await nina.myEvents().items.map(\.event.slug)) == ["link-night", "other-night"])
        }
    }

    /// A phone whose key the server no longer knows (its profile deleted from another device) says
    /// so and offers to join again, keeping no key or name: it once failed every call, for good.
    @Test func aPhoneWhoseKeyIsGoneSaysSoAndOffersToJoinAgain() async throws {
        let (server, _) = try await serverWithAda()
        defer { _ = server.stop() }
        try await Browser.with { phone in
            try await phone.open(server.url + "/")
            try await phone.type("#name", "Nina\n")
            try await phone.wait(for: "my code", until: "document.getElementById('qr').naturalWidth > 0")
            let key = try #require(try await phone.run("return localStorage.getItem('constellation.apiKey');") as? String)
            try await server.client.authenticated(key).deleteMe()
            try await phone.open(server.url + "/")
            try await phone.wait(
                for: "the join form, said why",
                until: "!document.getElementById('join').hidden && /no longer valid/.test(document.getElementById('status').textContent)")
            #expect(try await phone.run("return localStorage.getItem('constellation.apiKey');") == nil)
            #expect(try await phone.run("return localStorage.getItem('constellation.profile');") == nil)
        }
    }

    /// "My events" lists every event, page after page of the API's (200 a page): someone in 205
    /// sees 205, the earliest to start among them (the last page's) included.
    @Test func myEventsListsEveryPage() async throws {
        let server = try ServerProcess(
            databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData,
            environment: ["CONSTELLATION_RATE_LIMITS": "off"])
        defer { _ = server.stop() }
        let anonymous = server.client
        let key = try await anonymous.register(NewProfile(displayName: "Ada")).apiKey
        let ada = anonymous.authenticated(key)
        for index in 0..<205 {
            let start = Date().addingTimeInterval(Double(index) * 86_400)
            _ = try await ada.createEvent(
                NewEvent(
                    name: "Day \(index)", slug: "day-\(index)", startsAt: start, endsAt: start.addingTimeInterval(3600), timeZone: "UTC"))
        }
        try await Browser.with { phone in
            try await phone.open(server.url + "/")
            _ = try await phone.run("localStorage.setItem('constellation.apiKey', arguments[0]);", [key])
            try await phone.open(server.url + "/")
            try await phone.wait(for: "every event", until: "document.querySelectorAll('#my-events > li').length === 205")
            #expect(try await phone.run("return document.getElementById('my-events').innerText.includes('Day 0');") as? Bool == true)
        }
    }

    /// At 360 px a long unbroken name wraps instead of making the page scroll sideways; after
    /// registering, the focus moves on to the code and the welcome is announced (a live region).
    @Test func aLongNameWrapsAndRegisteringMovesTheFocusToTheCode() async throws {
        let (server, _) = try await serverWithAda()
        defer { _ = server.stop() }
        try await Browser.with(width: 360, height: 740) { phone in
            try await phone.open(server.url + "/")
            try await phone.type("#name", String(repeating: "W", count: 80) + "\n")
            try await phone.wait(
                for: "the welcome", until: "/Welcome, W{80}\\. Your code is ready/.test(document.getElementById('status').textContent)")
            #expect(try await phone.run("return document.activeElement.id;") as? String == "code-title")
            #expect(
                try await phone.run("return document.documentElement.scrollWidth <= document.documentElement.clientWidth;") as? Bool
                    == true, "nothing sticks out sideways")
            try await phone.expectCleanPage(origin: server.url)
        }
    }

    @Test func aVisitorWithoutAProfileTypesANameAndIsConnected() async throws {
        let (server, ada) = try await serverWithAda()
        defer { _ = server.stop() }
        try await Browser.with { phone in
            try await phone.open(server.url + "/c#" + (try await ada.issueToken()).token)
            try await phone.wait(for: "the name form", until: "!document.getElementById('join').hidden")
            try await Screenshots.save(phone, as: "connect")
            try await phone.type("#name", "Cleo\n")
            try await phone.wait(for: "connected", until: "/Connected with Ada/.test(document.getElementById('status').textContent)")
            #expect(try await ada.connections().items.map(\.peer.displayName) == ["Cleo"])
            try await phone.expectCleanPage(origin: server.url)
        }
    }

    @Test func badCodesGetClearMessagesAndChangeNothing() async throws {
        let (server, ada) = try await serverWithAda()
        defer { _ = server.stop() }
        // Another server's code: genuine, but signed by a key this server never published.
        let otherRing = try KeyRing(current: try SigningKey.generate(), since: Date())
        let (foreign, _) = try ConnectionTokens.issue(subject: UUID(), lifetime: .seconds(300), keys: otherRing)
        let adaId = try await ada.me().id
        let mine = (try await ada.issueToken()).token
        let cases: [(fragment: String, message: String)] = [
            ("", "holds no code"),
            ("garbage%F0%9F%92%A5\u{202E}", "not a Constellation code"),
            (foreign, "another Constellation server"),
            (Self.tamperedSignature(of: mine), "not genuine"),
            (mine, "your own code"),
        ]
        try await Browser.with { phone in
            // Ada's own phone: her key in this browser, as `/` would have stored it.
            try await phone.open(server.url + "/")
            try await phone.run(
                "localStorage.setItem('constellation.apiKey', arguments[0]); localStorage.setItem('constellation.profile', JSON.stringify({id: arguments[1], displayName: 'Ada'}));",
                [ada.apiKey ?? "", adaId.uuidString])
            for (fragment, message) in cases {
                try await phone.open(server.url + "/c#" + fragment)
                try await phone.wait(
                    for: "'\(message)' for #\(fragment.prefix(20))",
                    until:
                        "document.getElementById('status').dataset.kind === 'error' && document.getElementById('status').textContent.includes(\(Browser.literal(message)))"
                )
            }
        }
        #expect(try await ada.connections().items.isEmpty, "no bad code made a connection")
    }

    /// The lowest WCAG contrast ratio between any visible text on the page and what lies behind it
    /// (the nearest ancestor with a background colour), with the element it was found on.
    static let lowestContrast = """
        const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
        const luminance = (rgb) => 0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2]);
        const parse = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
        const background = (element) => {
          for (let e = element; e; e = e.parentElement) {
            const c = parse(getComputedStyle(e).backgroundColor);
            if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) return c;
          }
          return [255, 255, 255];
        };
        let lowest = { ratio: 21, element: '' };
        for (const element of document.querySelectorAll('body *')) {
          const own = [...element.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
          if (!own || !element.offsetParent) continue;
          const [a, b] = [luminance(parse(getComputedStyle(element).color)), luminance(background(element))];
          const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
          if (ratio < lowest.ratio) lowest = { ratio, element: element.tagName + '#' + element.id + ' ' + element.textContent.trim().slice(0, 40) };
        }
        return lowest;
        """

    @Test func theJoinFormWorksFromTheKeyboardAndItsTextIsReadable() async throws {
        let (server, _) = try await serverWithAda()
        defer { _ = server.stop() }
        try await Browser.with { phone in
            try await phone.open(server.url + "/")
            try await phone.wait(for: "the name field focused", until: "document.activeElement.id === 'name'")
            // Each field has a label a screen reader announces.
            #expect(
                try await phone.run("return [...document.querySelectorAll('#join input')].every((i) => i.labels.length === 1);") as? Bool
                    == true)
            try await phone.press("Eve\u{E004}Cryptographer\u{E004}")
            #expect(
                try await phone.run("return document.activeElement.tagName + ' ' + document.activeElement.textContent;") as? String
                    == "BUTTON Join")
            let lowest = try #require(try await phone.run(Self.lowestContrast) as? [String: Any])
            #expect((lowest["ratio"] as? Double ?? 0) >= 4.5, "WCAG AA wants 4.5:1 for text: \(lowest)")
            try await phone.press("\u{E007}")
            try await phone.wait(for: "my code", until: "document.getElementById('qr').naturalWidth > 0")
            let after = try #require(try await phone.run(Self.lowestContrast) as? [String: Any])
            #expect((after["ratio"] as? Double ?? 0) >= 4.5, "\(after)")
        }
    }

    /// `token` with one character of its signature changed (the body is message + signature).
    private static func tamperedSignature(of token: String) -> String {
        var characters = Array(token)
        let index = characters.lastIndex(of: ".")! - 10
        characters[index] = characters[index] == "A" ? "B" : "A"
        return String(characters)
    }
}
