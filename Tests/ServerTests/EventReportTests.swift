import Client
import ConstellationModel
import Foundation
import Testing

/// The event's report (`GET /v1/events/{event}/report`): its figures are the API's, its charts the
/// growth route's, its picture one dot per person; it names only those who chose to be named (no
/// pseudonymous attendee's name, card entry, pseudonym or id appears in it); after the purge it is
/// made from the record and says so; in English or German, for the event's organizers only.
@Suite(.tier(.database)) struct EventReportTests {
    /// The value of the report's `<data id="figure-NAME">`.
    static func figure(_ html: String, _ name: String) -> String? {
        guard let match = html.firstMatch(of: try! Regex("id=\"figure-\(name)\" value=\"([^\"]*)\"")) else { return nil }
        return match.output[1].substring.map(String.init)
    }

    /// Every `data-value` of the chart's bars, and the `data-values` of each of its lines, in order.
    static func bars(_ html: String) -> [Int] {
        html.matches(of: /<rect [^>]*data-value="(\d+)"/).map { Int($0.output.1)! }
    }

    static func lines(_ html: String) -> [[Double]] {
        html.matches(of: /data-values="([^"]*)"/).map { $0.output.1.split(separator: " ").map { Double($0)! } }
    }

    static func count(_ part: String, in html: String) -> Int { html.components(separatedBy: part).count - 1 }

    /// The report's texts (its elements' text and its `aria-label`s and titles, styles aside) that
    /// hold a letter outside the pseudo-locale's ⟦…⟧ once the event's `data` is taken out.
    static func wordsOutsideTheCatalog(_ html: String, data: [String]) -> [String] {
        var text = html.replacing(/<style>[^<]*<\/style>/, with: "")
        text = text.replacing(/(?:aria-label|title)="([^"]*)"/) { ">\($0.output.1)<" }.replacing(/<[^>]*>/, with: "\n")
        for datum in data { text = text.replacingOccurrences(of: datum, with: " ") }
        while text.contains(/⟦[^⟦⟧]*⟧/) { text = text.replacing(/⟦[^⟦⟧]*⟧/, with: " ") }
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.contains(/\p{L}/) }
    }

    @Test func itsFiguresAreTheAPIsAndItNamesOnlyThoseWhoChoseToBeNamed() async throws {
        try await EventPurgeTests.run { server throws in
            let (ada, bob, cleo, dora, event) = try await EventPurgeTests.busyEvent(server)
            // Cleo, pseudonymous, fills her card and headline: none of it may reach the report.
            let card = ContactCard(entries: [
                ContactEntry(kind: .email, label: "work", value: "cleo@kites.example", audience: .connections),
                ContactEntry(kind: .organization, value: "Kite Works", audience: .connections),
            ])
            _ = try await cleo.client.replaceCard(card)
            _ = try await cleo.client.updateMe(ProfileChanges(headline: "Maker of tall kites"))
            let record = try await ada.client.record(of: "rustconf-2026")
            let summary = try await ada.client.eventSummary("rustconf-2026")
            let network = try await ada.client.eventNetwork("rustconf-2026")
            let growth = try await ada.client.eventGrowth("rustconf-2026", bucket: "5m", from: event.startsAt, to: event.endsAt).buckets

            let html = String(decoding: try await ada.client.report(of: "rustconf-2026"), as: UTF8.self)

            let figures = record.figures
            #expect(figures == summary.figures && figures.connections == 3)
            for (name, value) in [
                ("attendees", figures.attendees), ("people", figures.people), ("connections", figures.connections),
                ("communities", figures.communities), ("largest-group", figures.largestComponent),
                ("peak-connections", figures.peakHour?.newConnections ?? -1),
            ] {
                #expect(Self.figure(html, name) == String(value), "\(name)")
            }
            #expect(Self.figure(html, "connected-share").flatMap(Double.init) == figures.connectedShare)
            #expect(Self.figure(html, "modularity").flatMap(Double.init) == figures.modularity)
            #expect(Self.figure(html, "peak-hour") == figures.peakHour.map { ISO8601Seconds.string($0.start) })
            // The growth: an 8-hour event in 5-minute buckets, as the growth route gives them.
            #expect(Self.bars(html) == growth.map(\.newConnections).filter { $0 > 0 })
            let lines = Self.lines(html)
            #expect(lines.count == 3)
            // Each gridline stands at the value its label names (a top of 5 has no whole middle: 0 to 5 in ones).
            let gridlines = html.matches(of: /<line class="grid" [^>]*data-value="([^"]+)"\/><text [^>]*>([^<]*)<\/text>/)
                .map { (value: String($0.output.1), label: String($0.output.2)) }
            #expect(gridlines.count >= 9, "\(gridlines)")
            for line in gridlines where !line.label.contains("%") { #expect(line.label == line.value, "\(line)") }
            #expect(gridlines.map(\.value).contains("3") || gridlines.map(\.value).contains("2"), "\(gridlines)")
            #expect(!gridlines.map(\.value).contains("2.5") && !gridlines.map(\.value).contains("1.5"), "\(gridlines)")
            // Two series drawn over each other both show: the first wide, the second dashed on it.
            #expect(Self.count("stroke-width=\"4\"", in: html) == 2 && Self.count("stroke-dasharray=\"6 4\"", in: html) == 1)
            #expect(lines.first == growth.map { Double($0.cumulativePeople) })
            #expect(lines.dropFirst().first == growth.map { Double($0.cumulativeConnections) })
            #expect(lines.last == growth.map { $0.cumulativePeople == 0 ? 0 : Double($0.largestComponent) / Double($0.cumulativePeople) })
            // The picture: a dot per person and a line per connection, no label.
            #expect(Self.count("<circle ", in: html) == figures.people && Self.count("<line x1=", in: html) == figures.connections)
            // Top connectors: Bob alone, who chose to be named, with his connections at the event.
            let bobsDegree = try #require(network.nodes.first { $0.label == "Bob" }).degree
            #expect(html.contains("<tr><td>Bob</td><td><data value=\"\(bobsDegree)\">"))
            let pseudonymous = network.nodes.filter { $0.pseudonymous == true }
            #expect(pseudonymous.count == 2)
            for hidden in ["Cleo", "Dora", "Ada", "cleo@kites.example", "Kite Works", "Maker of tall kites"]
                + pseudonymous.flatMap({ [$0.label, $0.id] })
                + [ada, bob, cleo, dora].map(\.profile.id.uuidString)
            {
                #expect(!html.localizedCaseInsensitiveContains(hidden), "\(hidden) is in the report")
            }
            // One page that fetches nothing.
            for outside in ["<script", "src=", "<link", "url("] { #expect(!html.contains(outside), "\(outside)") }
        }
    }

    @Test func inEveryLanguageForOrganizersOnly() async throws {
        try await EventPurgeTests.run { server throws in
            let (ada, bob, _, _, event) = try await EventPurgeTests.busyEvent(server)
            let german = try await ada.client.send(.GET, "/v1/events/rustconf-2026/report?lang=de")
            let html = String(decoding: german.body, as: UTF8.self)
            #expect(german.contentType == "text/html; charset=utf-8")
            #expect(german.header("Content-Disposition") == "attachment; filename=\"report-rustconf-2026.html\"")
            #expect(html.contains("<html lang=\"de\">") && html.contains("Teilnehmende") && html.contains("Am besten vernetzt"))
            #expect(!html.contains("Attendees"))
            // Without ?lang, the reader's languages by weight (a browser opening the link), English if none is written here.
            for (accepted, expected) in [
                ("de-CH, fr;q=0.9, en;q=0.8", "de"), ("fr, en;q=0.5, de;q=0.4", "en"), ("fr, it", "en"), ("en;q=0.2, de;q=0.7", "de"),
                ("de;q=0", "en"), ("*", "en"),
            ] {
                let answer = try await ada.client.send(.GET, "/v1/events/rustconf-2026/report", headers: [("Accept-Language", accepted)])
                #expect(String(decoding: answer.body, as: UTF8.self).contains("<html lang=\"\(expected)\">"), "\(accepted)")
            }
            let asked = try await ada.client.send(.GET, "/v1/events/rustconf-2026/report?lang=en", headers: [("Accept-Language", "de")])
            #expect(String(decoding: asked.body, as: UTF8.self).contains("<html lang=\"en\">"), "?lang wins")
            await expectProblem(400, "unsupported_language") { _ = try await ada.client.report(of: "rustconf-2026", language: "fr") }
            // In the pseudo-locale every word of the report is the catalog's: none is left outside ⟦…⟧ but the event's data.
            let pseudo = String(decoding: try await ada.client.report(of: "rustconf-2026", language: "qps"), as: UTF8.self)
            #expect(pseudo.contains("<html lang=\"qps\">"))
            #expect(Self.wordsOutsideTheCatalog(pseudo, data: [event.name, event.timeZone, "Bob"]) == [])
            #expect(
                Self.wordsOutsideTheCatalog(html, data: [event.name, event.timeZone, "Bob"]).contains("Teilnehmende"),
                "the check sees words")
            await expectProblem(403, "not_an_organizer") { _ = try await bob.client.report(of: "rustconf-2026") }
            await expectProblem(404, "unknown_event") { _ = try await ada.client.report(of: "no-such-event") }
            await expectProblem(401, "missing_credentials") { _ = try await server.client.report(of: "rustconf-2026") }
        }
    }

    @Test func afterThePurgeItIsMadeFromTheRecordWithoutPictureOrNamesAndSaysSo() async throws {
        try await EventPurgeTests.run { server throws in
            let (ada, _, _, _, event) = try await EventPurgeTests.busyEvent(server)
            try await EventPurgeTests.due(event.id, server)
            let before = try await ada.client.record(of: "rustconf-2026")
            try await EventPurgeTests.purgeAll(server)

            let html = String(decoding: try await ada.client.report(of: "rustconf-2026"), as: UTF8.self)

            #expect(html.contains("id=\"purged\"") && html.contains("made from the figures kept then"))
            #expect(Self.figure(html, "connections") == String(before.figures.connections))
            #expect(Self.figure(html, "people") == String(before.figures.people))
            #expect(Self.figure(html, "communities") == String(before.figures.communities))
            #expect(Self.bars(html).reduce(0, +) == before.figures.connections)
            #expect(!html.contains("<circle") && !html.contains("<table"), "no picture, no connectors")
            for name in ["Bob", "Cleo", "Dora"] { #expect(!html.contains(name)) }
        }
    }
}
