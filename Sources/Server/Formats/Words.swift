import ConstellationModel
import Foundation
import Hummingbird

/// A language's words for the documents the server draws (the event's report, badges and their
/// print sheet), and how it writes numbers and dates: the catalog `documents.json` in the web
/// client's folder for the language (`assets/locales/LANG/`), in the format the pages' catalogs
/// share (a message is a string, or its forms by the language's `PluralRule`; `{name}` marks a
/// value filled in). A language the server writes is a folder there; `qps`, the pseudo-locale,
/// is made from English, every message as ⟦Áççéñţéd⟧, as the pages make theirs.
package struct Words: Sendable {
    /// The catalog's name in each language's folder.
    static let catalog = "documents"
    static let pseudoLocale = "qps"

    /// The language's code: `en`, `de`, `qps`.
    package let language: String
    private let messages: [String: Message]
    private let plural: PluralRule

    private enum Message: Decodable, Sendable {
        case text(String)
        case forms([String: String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .forms(try container.decode([String: String].self))
            }
        }
    }

    /// The words of `language` from its catalog's `json`.
    init(language: String, json: [UInt8]) throws {
        self.init(language: language, messages: try JSONDecoder().decode([String: Message].self, from: Data(json)))
    }

    private init(language: String, messages: [String: Message]) {
        self.language = language
        self.messages = messages
        plural = PluralRule.of(language) ?? PluralRule.of("en")!
    }

    /// Every language's words the web client holds, by code, the pseudo-locale's among them.
    package static let all: [String: Words] = inFolders(of: WebAssets.bundled)

    /// English: where no request names a language.
    static var english: Words { all["en"] ?? Words(language: "en", messages: [:]) }

    /// The words of each folder under `assets/locales/` of `assets` whose catalog reads, and the
    /// pseudo-locale's made from English's.
    static func inFolders(of assets: WebAssets) -> [String: Words] {
        var all: [String: Words] = [:]
        for path in assets.paths {
            let parts = path.split(separator: "/")
            guard parts.count == 4, parts[0] == "assets", parts[1] == "locales", parts[3] == "\(catalog).json",
                let asset = assets[path], let words = try? Words(language: String(parts[2]), json: Array(asset.bytes.readableBytesView))
            else { continue }
            all[words.language] = words
        }
        if let english = all["en"] { all[pseudoLocale] = english.pseudo() }
        return all
    }

    /// The words of the language `request` asks for: `?lang=` (400 `unsupported_language` for one
    /// the server does not write), else the first of its `Accept-Language` the server writes, by
    /// weight (a browser opening a link sends its reader's), else English; 503 if the server was
    /// installed without the web client's files.
    static func of(_ request: Request) throws -> Words {
        guard let english = all["en"] else {
            throw Problem(.webClientMissing, detail: WebAssets.bundled.loadError ?? "the web client's catalogs are missing")
        }
        guard let code = request.uri.queryParameters.get("lang") else {
            return preferred(by: request.headers[.acceptLanguage]).flatMap { all[$0] } ?? english
        }
        guard let words = all[String(code)] else {
            throw Problem(.unsupportedLanguage, detail: "lang must be one of \(all.keys.sorted().joined(separator: ", "))")
        }
        return words
    }

    /// The language of `header` (`de-DE,de;q=0.9,en;q=0.8`) that the server writes with the most
    /// weight (the first of equals); nil when it names none. Never the pseudo-locale.
    package static func preferred(by header: String?) -> String? {
        guard let header, header.utf8.count <= 1_024 else { return nil }
        var best: (language: String, weight: Double)?
        for range in header.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, let primary = tag.lowercased().split(separator: "-").first.map(String.init),
                primary != pseudoLocale, all[primary] != nil
            else { continue }
            let weight = parts.dropFirst().first { $0.lowercased().hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            guard weight > 0, weight <= 1, weight > (best?.weight ?? 0) else { continue }
            best = (primary, weight)
        }
        return best?.language
    }

    /// The message `key`, its `{name}`s filled from `values`; with `count`, the form the
    /// language's rule calls for, and `{count}` the number as the language writes it. A key the
    /// catalog lacks is itself.
    package func callAsFunction(_ key: String, count: Int? = nil, _ values: [String: String] = [:]) -> String {
        let message: String
        switch messages[key] {
        case .text(let text): message = text
        case .forms(let forms): message = forms[plural.category(of: count ?? 0).rawValue] ?? forms["other"] ?? key
        case nil: message = key
        }
        var values = values
        if let count, values["count"] == nil { values["count"] = number(count) }
        return Self.filling(message, with: values)
    }

    /// `message` with each `{name}` that `values` holds replaced, in one pass (a value's own braces stay as they are).
    private static func filling(_ message: String, with values: [String: String]) -> String {
        guard !values.isEmpty else { return message }
        var out = ""
        var rest = message[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}"), let value = values[String(rest[rest.index(after: open)..<close])]
            else {
                out.append("{")
                rest = rest[rest.index(after: open)...]
                continue
            }
            out += value
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// These words in the pseudo-locale: accented and bracketed, `{placeholders}` intact; the
    /// number separators are kept, so that numbers still read as numbers.
    private func pseudo() -> Words {
        let accents: [Character: Character] = [
            "a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú", "c": "ç", "n": "ñ", "t": "ţ", "y": "ý",
            "A": "Á", "E": "É", "I": "Í", "O": "Ó", "U": "Ú", "C": "Ç", "N": "Ñ",
        ]
        func pseudo(_ text: String) -> String {
            var out = "⟦"
            var inPlaceholder = false
            for character in text {
                if character == "{" { inPlaceholder = true } else if character == "}" { inPlaceholder = false }
                out.append(inPlaceholder ? character : accents[character] ?? character)
            }
            return out + "⟧"
        }
        return Words(
            language: Self.pseudoLocale,
            messages: messages.reduce(into: [:]) { pseudoMessages, entry in
                switch entry.value {
                case .text(let text): pseudoMessages[entry.key] = .text(entry.key.hasPrefix("number.") ? text : pseudo(text))
                case .forms(let forms): pseudoMessages[entry.key] = .forms(forms.mapValues(pseudo))
                }
            })
    }

    // MARK: Numbers and dates

    /// `value` with the language's grouping separator.
    package func number(_ value: Int) -> String {
        let digits = String(value.magnitude)
        let separator = self("number.grouping")
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += separator }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// `value` with two decimals.
    package func decimal(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = String(hundredths.magnitude % 100)
        return (hundredths < 0 ? "-" : "") + number(Int(hundredths.magnitude / 100)) + self("number.decimal")
            + String(repeating: "0", count: 2 - fraction.count) + fraction
    }

    /// `share` (0…1) in whole percent.
    package func percent(_ share: Double) -> String { self("number.percent", ["value": number(Int((share * 100).rounded()))]) }

    /// "2 December 2026" or "2. Dezember 2026", in `zone`.
    func day(_ date: Date, in zone: TimeZone) -> String {
        let parts = Self.calendar(zone).dateComponents([.day, .month, .year], from: date)
        return self(
            "date.day",
            ["day": String(parts.day ?? 1), "month": self("date.month.\(parts.month ?? 1)"), "year": String(parts.year ?? 1970)])
    }

    /// "09:05", in `zone`.
    func time(_ date: Date, in zone: TimeZone) -> String {
        let parts = Self.calendar(zone).dateComponents([.hour, .minute], from: date)
        let two = { (value: Int?) in String(format: "%02d", value ?? 0) }
        return "\(two(parts.hour)):\(two(parts.minute))"
    }

    /// "2 December 2026, 09:05", in `zone`.
    func dayAndTime(_ date: Date, in zone: TimeZone) -> String {
        self("date.dayAndTime", ["day": day(date, in: zone), "time": time(date, in: zone)])
    }

    private static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}
