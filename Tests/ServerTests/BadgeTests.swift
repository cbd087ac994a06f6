import Client
import ConstellationModel
import Foundation
import QR
import TestSupport
import Testing
import Tokens

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Printed badges: a badge code connects like a shown one until its event ends, a QR reset revokes
/// it, its use is capped; the organizers' print sheet holds only those who asked, and only
/// organizers get it; every code printed is read back by zbar.
@Suite(.tier(.database)) struct BadgeTests {
    /// A public URL of 40 characters, the longest the badge's QR code is promised to fit at version 10.
    static let publicURL = "https://constellation.example-events.org"

    @Test func aBadgeConnectsUntilTheEventEndsIsCappedAndAResetRevokesIt() async throws {
        try await TestServer.run(configure: {
            $0.maximumRedemptionsPerBadge = 3
            $0.publicURL = Self.publicURL
        }) { server throws in
            let (ada, bob, cleo, dan, eve, fay) = try await server.users("Ada", "Bob", "Cleo", "Dan", "Eve", "Fay")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("badge-con"))
            _ = try await bob.client.joinEvent("badge-con", code: created.joinCode)

            let badge = try await bob.client.badge(event: "badge-con")
            #expect(badge.token.hasPrefix("b1.") && badge.eventId == created.event.id)
            #expect(badge.expiresAt == created.event.endsAt, "a badge lives until its event ends")
            #expect(badge.link == Self.publicURL + "/c#" + badge.token)
            #expect(try QRCode(encoding: badge.qrText).version <= 10)

            // Whoever scans it connects with Bob, and joins the event, as with a shown event code.
            let first = try await cleo.client.redeem(RedeemRequest(token: badge.token))
            #expect(first.created && first.connection.peer.displayName == "Bob")
            #expect(try await cleo.client.myEvents().items.map(\.event.slug) == ["badge-con"])
            #expect(try await cleo.client.redeem(RedeemRequest(token: badge.token)).created == false, "the same scan twice: one connection")
            _ = try await dan.client.redeem(RedeemRequest(token: badge.token))
            _ = try await eve.client.redeem(RedeemRequest(token: badge.token))
            await expectProblem(409, "token_used_up") { _ = try await fay.client.redeem(RedeemRequest(token: badge.token)) }
            #expect(try await bob.client.connections().items.count == 3, "the cap held: Fay is not connected")

            // A reset revokes the printed badge; one printed after it works.
            _ = try await bob.client.resetTokens()
            let fresh = try await bob.client.badge(event: "badge-con")
            await expectProblem(401, "token_revoked") { _ = try await fay.client.redeem(RedeemRequest(token: badge.token)) }
            #expect(try await fay.client.redeem(RedeemRequest(token: fresh.token)).created)
        }
    }

    @Test func aBadgeIsRefusedToStrangersAfterTheEndAndForBadRequests() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, eve) = try await server.users("Ada", "Bob", "Eve")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("open-day"))
            _ = try await bob.client.joinEvent("open-day", code: created.joinCode)
            // Bob joined while it ran; its organizer ended it since.
            let ended = try await ada.client.createEvent(EventRoutesTests.newEvent("last-year", startsIn: -10 * 3600, hours: 12))
            _ = try await bob.client.joinEvent("last-year", code: ended.joinCode)
            let tag = try #require(try await ada.client.taggedEvent("last-year").etag)
            _ = try await ada.client.changeEvent("last-year", EventChangeRequest(endsAt: Date()), ifMatch: tag)

            await expectProblem(403, "not_a_member") { _ = try await eve.client.badge(event: "open-day") }
            await expectProblem(404, "unknown_event") { _ = try await bob.client.badge(event: "no-such-day") }
            await expectProblem(410, "event_ended") { _ = try await bob.client.badge(event: "last-year") }
            await expectProblem(400, "missing_event") { _ = try await bob.client.send(.GET, "/v1/me/badge") }
            await expectProblem(400, "unsupported_format") { _ = try await bob.client.send(.GET, "/v1/me/badge?event=open-day&format=pdf") }
            await expectProblem(401, "missing_credentials") {
                _ = try await server.client.send(.GET, "/v1/me/badge?event=open-day")
            }
            // A shown code's bytes under a badge's header, and a badge cut short: refused, nothing written.
            let shown = try await bob.client.issueToken(event: "open-day").token
            await expectProblem(400, "bad_token_encoding") {
                _ = try await eve.client.redeem(RedeemRequest(token: "b1." + shown.dropFirst("v4.public.".count)))
            }
            let badge = try await bob.client.badge(event: "open-day").token
            let cut = "b1." + Base64URL.encode(try Base64URL.decode(badge.dropFirst(3)).dropLast(3))
            await expectProblem(400, "malformed_token") { _ = try await eve.client.redeem(RedeemRequest(token: cut)) }
            #expect(try await server.count("connections") == 0)
        }
    }

    @Test func theBadgeToPrintIsWellFormedEscapedAndItsCodeReadsBack() async throws {
        try await TestServer.run(configure: { $0.publicURL = Self.publicURL }) { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("ink-day", name: "Ink & <Paper> Day"))
            _ = try await bob.client.joinEvent("ink-day", code: created.joinCode)
            _ = try await bob.client.updateMe(
                ProfileChanges(displayName: "Bartholomew \"Bob\" Featherstonehaugh-Cholmondeley 鳥", headline: "<script>x</script>"))
            let svg = String(decoding: try await bob.client.badgeDrawing(event: "ink-day"), as: UTF8.self)
            #expect(svg.hasPrefix("<svg") && svg.contains("width=\"90.0mm\""))
            #expect(!svg.contains("<script>") && svg.contains("&lt;script&gt;") && svg.contains("Ink &amp; &lt;Paper&gt; Day"))
            #expect(try Self.wellFormed(svg), "the badge parses as XML")
            let texts = try Self.codes(in: svg)
            #expect(texts.count == 1 && texts[0].hasPrefix(Self.publicURL + "/c#b1."), "\(texts)")
            let claims = try ConnectionTokens.verify(
                String(texts[0].dropFirst(Self.publicURL.count + 3)), keys: server.services.keyRing.verificationKeys)
            #expect(claims.subject == bob.profile.id && claims.kind == .badge)
        }
    }

    /// A member whose codes are revoked until after the event (a restored row) is left off the
    /// sheet; before, signing their badge failed the whole sheet (400) for every organizer.
    @Test func aMemberRevokedPastTheEndIsLeftOffTheSheetNotEveryone() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Bobolink", "Cleopatra")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("print-fest"))
            for person in [bob, cleo] {
                _ = try await person.client.joinEvent("print-fest", code: created.joinCode)
                _ = try await person.client.setBadgePrinting(true, at: "print-fest")
            }
            _ = try await server.services.database.withConnection {
                try $0.query("UPDATE profiles SET tokens_valid_from = '2100-01-01 00:00:00+00' WHERE id = \(cleo.profile.id)")
            }
            let (html, count) = try await ada.client.badgeSheet(event: "print-fest", paper: "a4")
            let page = String(decoding: html, as: UTF8.self)
            #expect(count == 1 && page.contains("Bobolink") && !page.contains("Cleopatra"))
        }
    }

    @Test func theSheetHoldsOnlyThoseWhoAskedAndOnlyOrganizersGetIt() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo, dan) = try await server.users("Ada", "Bobolink", "Cleopatra", "Dandelion")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("print-fest"))
            for person in [bob, cleo, dan] { _ = try await person.client.joinEvent("print-fest", code: created.joinCode) }
            #expect(try await bob.client.setBadgePrinting(true, at: "print-fest").printsBadge)
            _ = try await cleo.client.setBadgePrinting(true, at: "print-fest")
            #expect(try await cleo.client.setBadgePrinting(false, at: "print-fest").printsBadge == false, "changed her mind")
            #expect(try await bob.client.myEvents().items.first?.printsBadge == true)
            #expect(try await dan.client.myEvents().items.first?.printsBadge == false, "nobody is printed by default")
            _ = try await bob.client.replaceCard(
                ContactCard(entries: [ContactEntry(kind: .email, value: "bobolink@example.org", audience: .connections)]))

            #expect(try await ada.client.badgeRequests(of: "print-fest").count == 1, "counted before the sheet is made")
            await expectProblem(403, "not_an_organizer") { _ = try await bob.client.badgeRequests(of: "print-fest") }
            let (html, count) = try await ada.client.badgeSheet(event: "print-fest", paper: "letter")
            let page = String(decoding: html, as: UTF8.self)
            #expect(count == 1 && page.contains("Bobolink") && page.contains("size: letter"))
            #expect(page.contains("<html lang=\"en\">") && page.contains("Scan to connect") && page.contains("1 badge, 8 to a page"))
            // In the language of the page that asked.
            let german = String(
                decoding: try await ada.client.badgeSheet(event: "print-fest", paper: "a4", language: "de").html, as: UTF8.self)
            #expect(
                german.contains("<html lang=\"de\">") && german.contains("Scannen zum Vernetzen")
                    && german.contains("Ein Namensschild, 8 pro Seite"))
            #expect(!german.contains("Scan to connect"))
            await expectProblem(400, "unsupported_language") {
                _ = try await ada.client.badgeSheet(event: "print-fest", paper: "a4", language: "fr")
            }
            for hidden in ["Cleopatra", "Dandelion", "bobolink@example.org", cleo.profile.id.uuidString.lowercased()] {
                #expect(!page.contains(hidden), "\(hidden) is not on the sheet")
            }
            let codes = try Self.codes(in: page)
            #expect(codes.count == 1)
            let claims = try ConnectionTokens.verify(codes[0], keys: server.services.keyRing.verificationKeys)
            #expect(claims.subject == bob.profile.id && claims.eventId == created.event.id)
            #expect(try await dan.client.redeem(RedeemRequest(token: codes[0])).connection.peer.displayName == "Bobolink")

            let raw = try await ada.client.send(.GET, "/v1/events/print-fest/badges")
            #expect(raw.contentType == "text/html; charset=utf-8" && raw.header("Content-Security-Policy")?.contains("script") == false)
            #expect(raw.header("Content-Disposition") == "attachment; filename=\"badges-print-fest-a4.html\"")
            await expectProblem(403, "not_an_organizer") { _ = try await bob.client.badgeSheet(event: "print-fest", paper: "a4") }
            await expectProblem(400, "invalid_paper") { _ = try await ada.client.badgeSheet(event: "print-fest", paper: "legal") }
            let viewer = server.client.authenticated(try await ada.client.issueViewToken(for: "print-fest").token)
            await expectProblem(403, "view_token_read_only") { _ = try await viewer.badgeSheet(event: "print-fest", paper: "a4") }
            await expectProblem(403, "not_a_member") {
                _ = try await server.user("Eve").client.setBadgePrinting(true, at: "print-fest")
            }
            await expectProblem(422, "validation_failed") {
                _ = try await bob.client.send(.PATCH, "/v1/events/print-fest/me", rawBody: Array("{}".utf8))
            }
        }
    }

    /// Whether `xml` parses as XML.
    static func wellFormed(_ xml: String) throws -> Bool {
        XMLParser(data: Data(xml.utf8)).parse()
    }

    /// What zbar reads from each QR code drawn in `document` (a badge's SVG or the sheet's HTML):
    /// each code's path, in module units, is painted 4 pixels a module and decoded.
    static func codes(in document: String) throws -> [String] {
        try document.matches(of: /<path fill="#000" d="([^"]+)"\/>/).flatMap { match in
            var modules: [(x: Int, y: Int, run: Int)] = []
            for run in match.output.1.matches(of: /M(\d+) (\d+)h(\d+)v1h-\d+z/) {
                modules.append((Int(run.output.1)!, Int(run.output.2)!, Int(run.output.3)!))
            }
            let side = (modules.map { $0.x + $0.run }.max() ?? 0) + QRCode.quietZone
            let scale = 4
            var pixels = [UInt8](repeating: 255, count: side * side * scale * scale)
            for module in modules {
                for y in module.y * scale..<(module.y + 1) * scale {
                    for x in module.x * scale..<(module.x + module.run) * scale { pixels[y * side * scale + x] = 0 }
                }
            }
            return try QRDecoder.decode(GrayImage(width: side * scale, height: side * scale, pixels: pixels))
        }
    }
}
