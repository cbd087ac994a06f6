import ConstellationModel
import Foundation
import Graph
import Store

/// An event's report for its organizers: one self-contained HTML page (styles inline, charts and
/// picture as inline SVG, nothing to fetch) that prints well and so saves as PDF from any browser.
/// Its figures are the record's (`EventPurge.record`, what `GET /v1/events/{event}/record` says),
/// each also as a `<data>` element's value; its growth is the record's growth over the event.
/// Before the purge it draws the constellation and names the top connectors among those who
/// chose to be named; after it, it is made from the record alone and says so. Nobody pseudonymous
/// appears in it: no pseudonym, no label, no id.
struct EventReport {
    enum Picture {
        case drawn(ReportPicture)
        case tooLarge(people: Int, limit: Int)
        case purged
    }

    let event: Event
    let record: KeptRecord
    /// The growth's bucket size, in seconds (`bucketSize(for:)`).
    let bucket: Int
    let picture: Picture
    /// The top connectors among the named (nil once purged).
    let connectors: [EventSummary.Connector]?
    let words: Words

    /// The report of `event` from what the store read of it: its kept record, or its pairs and
    /// members, from which the record, the picture (up to `limit` people) and the connectors are
    /// computed now. On the graph threads: it lays the network out.
    init(event: Event, source: RecordSource, limit: Int, words: Words) {
        self.event = event
        self.words = words
        bucket = Self.bucketSize(for: event)
        switch source {
        case .kept(let kept):
            record = kept
            picture = .purged
            connectors = nil
        case .graph(let pairs, let members) where event.purgedAt != nil:
            // Marked for its purge, which has not kept the record yet: from the mark on, no picture and no names.
            record = EventPurge.record(pairs: pairs, members: members)
            picture = .purged
            connectors = nil
        case .graph(let pairs, let members):
            record = EventPurge.record(pairs: pairs, members: members)
            let graph = Graph<UUID>(edges: pairs.map { ($0.profileA, $0.profileB) })
            picture =
                graph.nodeCount > limit
                ? .tooLarge(people: graph.nodeCount, limit: limit) : .drawn(ReportPicture(graph, communities: Communities.detect(graph)))
            connectors = EventSummaryBuilder.namedConnectors(pairs: pairs, members: members)
        }
    }

    /// The growth's buckets: the smallest of the growth route's sizes that cuts the event into
    /// at most 96.
    static func bucketSize(for event: Event) -> Int {
        let seconds = event.endsAt.timeIntervalSince(event.startsAt)
        return EventGrowth.bucketSizes.values.sorted().first { seconds / Double($0) <= 96 } ?? 86_400
    }

    /// The growth over the event's dates, and over any pair's time outside them unless that would
    /// take too many buckets (a pair weeks before the event): then the event's dates.
    func growth() throws -> [GrowthBucket] {
        guard let series = GrowthSeries(recorded: record.steps) else { return [] }
        let dates = event.startsAt...event.endsAt
        let whole: GrowthSeries.Window?
        do {
            whole = try series.window(size: bucket, from: .distantPast, to: .distantFuture, within: dates)
        } catch {
            whole = try series.window(size: bucket, from: dates.lowerBound, to: dates.upperBound, within: dates)
        }
        guard let window = whole else { return [] }
        return series.buckets(window)
    }

    func html(now: Date = Date()) throws -> String {
        let zone = TimeZone(identifier: event.timeZone) ?? .gmt
        let title = words("report.title", ["event": event.name]).xmlEscaped
        var out = """
            <!doctype html>
            <html lang="\(words.language)"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><title>\(title)</title>
            <style>\(Self.style)</style></head><body>
            <header><h1>\(title)</h1>
            <p class="dates">\(words.dayAndTime(event.startsAt, in: zone)) – \(words.dayAndTime(event.endsAt, in: zone)) (\(event.timeZone.xmlEscaped))</p>

            """
        if let purgedAt = event.purgedAt {
            out += "<p class=\"notice\" id=\"purged\">\(words("report.purged", ["date": words.day(purgedAt, in: zone)]))</p>\n"
        }
        out += "</header>\n" + figures(zone) + (try growthCharts(zone)) + pictureSection() + connectorsSection()
        let made = words("report.madeOn", ["date": words.dayAndTime(now, in: zone)])
        return out + "<footer><p>\(made) \(words("report.footer"))</p></footer>\n</body></html>\n"
    }

    private func figures(_ zone: TimeZone) -> String {
        let figures = record.figures
        func value(_ id: String, _ number: Int) -> String { "<data id=\"figure-\(id)\" value=\"\(number)\">\(words.number(number))</data>" }
        func share(_ id: String, _ share: Double) -> String {
            "<data id=\"figure-\(id)\" value=\"\(share)\">\(words.percent(share))</data>"
        }
        let peak = figures.peakHour.map { peak in
            let hours = "\(words.dayAndTime(peak.start, in: zone))–\(words.time(peak.start.addingTimeInterval(3_600), in: zone))"
            return "<data id=\"figure-peak-hour\" value=\"\(ISO8601Seconds.string(peak.start))\">\(hours)</data>"
                + "<small>\(words("report.newConnectionsCount", count: peak.newConnections, ["connections": value("peak-connections", peak.newConnections)]))</small>"
        }
        let rows: [(String, String)] = [
            (words("report.attendees"), value("attendees", figures.attendees)),
            (
                words("report.connected"),
                words(
                    "report.connectedValue",
                    ["people": value("people", figures.people), "share": share("connected-share", figures.connectedShare)])
            ),
            (words("report.connections"), value("connections", figures.connections)),
            (
                words("report.communities"),
                words(
                    "report.communitiesValue",
                    [
                        "communities": value("communities", figures.communities),
                        "modularity":
                            "<data id=\"figure-modularity\" value=\"\(figures.modularity)\">\(words.decimal(figures.modularity))</data>",
                    ])
            ),
            (
                words("report.largestGroup"),
                words(
                    "report.largestGroupValue",
                    [
                        "people": value("largest-group", figures.largestComponent),
                        "share": share(
                            "largest-share", figures.people == 0 ? 0 : Double(figures.largestComponent) / Double(figures.people)),
                    ])
            ),
            (words("report.peakHour"), peak ?? words("report.none")),
        ]
        return "<section><h2>\(words("report.inNumbers"))</h2>\n<dl class=\"figures\">\n"
            + rows.map { "<div><dt>\($0.0)</dt><dd>\($0.1)</dd></div>\n" }.joined() + "</dl></section>\n"
    }

    private func growthCharts(_ zone: TimeZone) throws -> String {
        let buckets = try growth()
        guard !buckets.isEmpty else {
            return "<section><h2>\(words("report.growth"))</h2><p>\(words("report.noConnections"))</p></section>\n"
        }
        let starts = buckets.map(\.start)
        let oneDay = words.day(event.startsAt, in: zone) == words.day(event.endsAt, in: zone)
        let timeText = { (date: Date) in
            self.bucket == 86_400 ? words.day(date, in: zone) : oneDay ? words.time(date, in: zone) : words.dayAndTime(date, in: zone)
        }
        let count = { (value: Double) in words.number(Int(value.rounded())) }
        let newConnections = buckets.map { Double($0.newConnections) }
        let charts = [
            ReportChart(
                title: words("report.newConnections", ["bucket": words("report.bucket.\(bucket)")]), starts: starts,
                series: [.init(name: words("report.connections"), values: newConnections, colour: "#4263eb")], style: .bars,
                valueText: count,
                timeText: timeText, highlighted: newConnections.indices.max { newConnections[$0] < newConnections[$1] }),
            ReportChart(
                title: words("report.totals"), starts: starts,
                series: [
                    .init(name: words("report.peopleConnected"), values: buckets.map { Double($0.cumulativePeople) }, colour: "#2f9e44"),
                    .init(name: words("report.connections"), values: buckets.map { Double($0.cumulativeConnections) }, colour: "#4263eb"),
                ], style: .lines, valueText: count, timeText: timeText),
            ReportChart(
                title: words("report.largestShare"), starts: starts,
                series: [
                    .init(
                        name: words("report.largestGroup"),
                        values: buckets.map { $0.cumulativePeople == 0 ? 0 : Double($0.largestComponent) / Double($0.cumulativePeople) },
                        colour: "#c2255c")
                ], style: .lines, valueText: words.percent, timeText: timeText, top: 1, whole: false),
        ]
        return "<section><h2>\(words("report.growth"))</h2>\n"
            + charts.map { "<figure><figcaption>\($0.title.xmlEscaped)</figcaption>\n\($0.svg())\($0.key())</figure>\n" }.joined()
            + "</section>\n"
    }

    private func pictureSection() -> String {
        let body: String
        switch picture {
        case .purged: body = "<p>\(words("report.noPicture"))</p>"
        case .tooLarge(let people, let limit):
            body = "<p>\(words("report.tooLarge", ["people": words.number(people), "limit": words.number(limit)]))</p>"
        case .drawn(let drawing) where drawing.connections == 0: body = "<p>\(words("report.noConnections"))</p>"
        case .drawn(let drawing):
            let sampled =
                drawing.drawn < drawing.connections
                ? " " + words("report.linesDrawn", ["drawn": words.number(drawing.drawn), "all": words.number(drawing.connections)]) : ""
            body =
                "<figure>\(drawing.svg(title: words("report.constellation")))<figcaption>"
                + "\(words("report.pictureCaption", count: record.figures.communities))\(sampled)</figcaption></figure>"
        }
        return "<section class=\"picture\"><h2>\(words("report.constellation"))</h2>\n\(body)\n</section>\n"
    }

    private func connectorsSection() -> String {
        guard let connectors else { return "" }
        var out = "<section><h2>\(words("report.topConnectors"))</h2>\n<p class=\"hint\">\(words("report.topConnectorsNote"))</p>\n"
        guard !connectors.isEmpty else { return out + "<p>\(words("report.nobodyNamed"))</p></section>\n" }
        out +=
            "<table class=\"connectors\"><thead><tr><th>\(words("report.name"))</th><th>\(words("report.connections"))</th></tr></thead><tbody>\n"
        for connector in connectors {
            out +=
                "<tr><td>\(connector.name.xmlEscaped)</td><td><data value=\"\(connector.degree)\">\(words.number(connector.degree))</data></td></tr>\n"
        }
        return out + "</tbody></table></section>\n"
    }

    private static let style = """
        @page { size: A4; margin: 14mm; }
        * { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
        body { font: 11pt/1.45 system-ui, sans-serif; color: #111; background: #fff; max-width: 180mm; margin: 0 auto; padding: 8mm; }
        h1 { font-size: 20pt; margin: 0 0 1mm; }
        h2 { font-size: 13pt; margin: 8mm 0 3mm; padding-bottom: 1mm; border-bottom: 0.3mm solid #ccc; }
        .dates, .hint, footer { color: #555; }
        .notice { border-left: 1mm solid #d9480f; background: #fff4e6; padding: 2mm 3mm; }
        .figures { display: grid; grid-template-columns: repeat(3, 1fr); gap: 3mm; margin: 0; }
        .figures div { border: 0.3mm solid #ddd; border-radius: 2mm; padding: 2mm 3mm; }
        .figures dt { font-size: 9pt; color: #555; }
        .figures dd { margin: 0; font-size: 15pt; font-weight: 600; }
        .figures small { display: block; font-size: 9pt; font-weight: 400; color: #555; }
        figure { margin: 0 0 5mm; break-inside: avoid; }
        figcaption { font-size: 10pt; color: #333; margin-bottom: 1mm; }
        svg { display: block; width: 100%; height: auto; }
        .constellation { max-width: 150mm; margin: 0 auto 2mm; }
        .grid { stroke: #e9ecef; }
        .axis { font-size: 10px; fill: #555; }
        .key { font-size: 9pt; margin: 1mm 0 0; }
        .picture, .connectors { break-inside: avoid; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 1mm 2mm; border-bottom: 0.2mm solid #ddd; }
        td + td, th + th { text-align: right; }
        footer { margin-top: 10mm; font-size: 9pt; }
        @media screen and (max-width: 600px) { .figures { grid-template-columns: 1fr 1fr; } body { padding: 4mm; } }
        """
}
