import Foundation

/// The words of an event's report (`EventReport`), and how it writes numbers and dates, in the
/// language of the page that asked for it (`?lang=`).
struct ReportWords: Sendable {
    let language: DocumentLanguage
    let title: @Sendable (_ event: String) -> String
    let madeOn: @Sendable (_ date: String) -> String
    let purged: @Sendable (_ date: String) -> String
    let inNumbers: String
    let attendees: String
    let connected: String
    let connectedValue: @Sendable (_ people: String, _ share: String) -> String
    let connections: String
    let communities: String
    let communitiesValue: @Sendable (_ count: String, _ modularity: String) -> String
    let largestGroup: String
    let largestGroupValue: @Sendable (_ people: String, _ share: String) -> String
    let peakHour: String
    let newConnectionsCount: @Sendable (_ count: String) -> String
    let none: String
    let growth: String
    /// The growth's bucket sizes, in seconds, as "per …" says them.
    let buckets: [Int: String]
    let newConnections: @Sendable (_ bucket: String) -> String
    let totals: String
    let peopleConnected: String
    let largestShare: String
    let constellation: String
    let pictureCaption: @Sendable (_ communities: Int, _ written: String) -> String
    let linesDrawn: @Sendable (_ drawn: String, _ all: String) -> String
    let tooLarge: @Sendable (_ people: String, _ limit: String) -> String
    let noConnections: String
    let noPicture: String
    let topConnectors: String
    let topConnectorsNote: String
    let nobodyNamed: String
    let name: String
    let footer: String
    let months: [String]
    /// The grouping and decimal separators.
    let separators: (grouping: String, decimal: String)
    let percentSign: String
    let dayFormat: @Sendable (_ day: Int, _ month: String, _ year: Int) -> String

    /// The words in `language`.
    static func of(_ language: DocumentLanguage) -> ReportWords {
        switch language {
        case .en: english
        case .de: german
        }
    }

    func number(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += separators.grouping }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// `value` with two decimals.
    func decimal(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = String(hundredths.magnitude % 100)
        return (hundredths < 0 ? "-" : "") + number(Int(hundredths.magnitude / 100)) + separators.decimal
            + String(repeating: "0", count: 2 - fraction.count) + fraction
    }

    /// `share` (0…1) in whole percent.
    func percent(_ share: Double) -> String { number(Int((share * 100).rounded())) + percentSign }

    /// "2 December 2026" or "2. Dezember 2026", in `zone`.
    func day(_ date: Date, in zone: TimeZone) -> String {
        let parts = Self.calendar(zone).dateComponents([.day, .month, .year], from: date)
        return dayFormat(parts.day ?? 1, months[(parts.month ?? 1) - 1], parts.year ?? 1970)
    }

    /// "09:05", in `zone`.
    func time(_ date: Date, in zone: TimeZone) -> String {
        let parts = Self.calendar(zone).dateComponents([.hour, .minute], from: date)
        let two = { (value: Int?) in String(format: "%02d", value ?? 0) }
        return "\(two(parts.hour)):\(two(parts.minute))"
    }

    /// "2 December 2026, 09:05", in `zone`.
    func dayAndTime(_ date: Date, in zone: TimeZone) -> String { "\(day(date, in: zone)), \(time(date, in: zone))" }

    private static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    static let english = ReportWords(
        language: .en, title: { "Report: \($0)" }, madeOn: { "Made on \($0)." },
        purged: {
            "This event's personal data was purged on \($0). This report is made from the figures kept then: "
                + "it has no picture of the network and no names."
        },
        inNumbers: "In numbers", attendees: "Attendees", connected: "Connected",
        connectedValue: { "\($0) (\($1) of the attendees)" }, connections: "Connections", communities: "Communities",
        communitiesValue: { "\($0) (modularity \($1))" }, largestGroup: "Largest connected group",
        largestGroupValue: { "\($0) people (\($1) of those connected)" }, peakHour: "Peak hour",
        newConnectionsCount: { "\($0) new connections" }, none: "none yet", growth: "Growth",
        buckets: [300: "5 minutes", 900: "15 minutes", 3_600: "hour", 86_400: "day"], newConnections: { "New connections per \($0)" },
        totals: "People connected and connections, in total", peopleConnected: "people connected",
        largestShare: "How connected the room became: the largest connected group's share of the people connected",
        constellation: "The constellation",
        pictureCaption: {
            $0 == 1
                ? "Each dot is a person, each line a connection; together they make one community. Nobody is named."
                : "Each dot is a person, each line a connection, each colour one of the \($1) communities. Nobody is named."
        },
        linesDrawn: { "\($0) of the \($1) connections are drawn." },
        tooLarge: { "The network is too large to draw here (\($0) people; this server draws up to \($1))." },
        noConnections: "No connections yet.", noPicture: "No picture: the event's pairs were purged.",
        topConnectors: "Top connectors",
        topConnectorsNote: "Only people who chose to be named at this event are listed, by their connections at it.",
        nobodyNamed: "Nobody who chose to be named has connections at the event.", name: "Name",
        footer: "Made with Constellation. This report holds no personal data but the names of people who chose to be named at this event.",
        months: [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
        ],
        separators: (",", "."), percentSign: "%", dayFormat: { "\($0) \($1) \($2)" })

    static let german = ReportWords(
        language: .de, title: { "Bericht: \($0)" }, madeOn: { "Erstellt am \($0)." },
        purged: {
            "Die personenbezogenen Daten dieser Veranstaltung wurden am \($0) gelöscht. Dieser Bericht beruht auf den damals "
                + "aufbewahrten Zahlen: ohne Bild des Netzwerks und ohne Namen."
        },
        inNumbers: "In Zahlen", attendees: "Teilnehmende", connected: "Vernetzt",
        connectedValue: { "\($0) (\($1) der Teilnehmenden)" }, connections: "Verbindungen", communities: "Gemeinschaften",
        communitiesValue: { "\($0) (Modularität \($1))" }, largestGroup: "Größte verbundene Gruppe",
        largestGroupValue: { "\($0) Personen (\($1) der Vernetzten)" }, peakHour: "Stärkste Stunde",
        newConnectionsCount: { "\($0) neue Verbindungen" }, none: "noch keine", growth: "Wachstum",
        buckets: [300: "5 Minuten", 900: "15 Minuten", 3_600: "Stunde", 86_400: "Tag"], newConnections: { "Neue Verbindungen pro \($0)" },
        totals: "Vernetzte Personen und Verbindungen, insgesamt", peopleConnected: "vernetzte Personen",
        largestShare: "Wie vernetzt der Raum wurde: der Anteil der größten verbundenen Gruppe an den Vernetzten",
        constellation: "Die Konstellation",
        pictureCaption: {
            $0 == 1
                ? "Jeder Punkt ist eine Person, jede Linie eine Verbindung; zusammen bilden sie eine Gemeinschaft. Niemand ist benannt."
                : "Jeder Punkt ist eine Person, jede Linie eine Verbindung, jede Farbe eine der \($1) Gemeinschaften. Niemand ist benannt."
        },
        linesDrawn: { "\($0) der \($1) Verbindungen sind gezeichnet." },
        tooLarge: { "Das Netzwerk ist zu groß, um es hier zu zeichnen (\($0) Personen; dieser Server zeichnet bis zu \($1))." },
        noConnections: "Noch keine Verbindungen.", noPicture: "Kein Bild: die Paare der Veranstaltung wurden gelöscht.",
        topConnectors: "Am besten vernetzt",
        topConnectorsNote:
            "Hier stehen nur Personen, die bei dieser Veranstaltung mit Namen erscheinen wollten, nach ihren Verbindungen dort.",
        nobodyNamed: "Niemand, der mit Namen erscheinen wollte, hat Verbindungen bei der Veranstaltung.", name: "Name",
        footer: "Erstellt mit Constellation. Dieser Bericht enthält keine personenbezogenen Daten außer den Namen von Personen, "
            + "die bei dieser Veranstaltung mit Namen erscheinen wollten.",
        months: [
            "Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember",
        ],
        separators: (".", ","), percentSign: " %", dayFormat: { "\($0). \($1) \($2)" })
}
