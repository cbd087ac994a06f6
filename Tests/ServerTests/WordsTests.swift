import Foundation
import Server
import Testing

/// The server's documents read their words from the web client's folders of catalogs, as the
/// pages do: each language's plural rule picks the form, values fill `{placeholders}` once, and
/// the pseudo-locale is made from English with its numbers still numbers.
@Suite struct WordsTests {
    @Test func everyFolderIsALanguageAndThePseudoLocaleIsMadeFromEnglish() throws {
        #expect(Set(Words.all.keys).isSuperset(of: ["en", "de", "qps"]), "\(Words.all.keys.sorted())")
        let pseudo = try #require(Words.all["qps"])
        let title = pseudo("report.title", ["event": "RustConf"])
        #expect(title.hasPrefix("⟦") && title.hasSuffix("⟧") && title.contains("RustConf") && !title.contains("Report"), "\(title)")
        #expect(pseudo.number(1_234_567) == "1,234,567", "numbers stay numbers")
        #expect(pseudo("badge.sheetNote", count: 2, ["perPage": "8", "paper": "A4"]).contains("2 bádgés"))
    }

    @Test func eachLanguagePicksItsFormAndFillsItsValuesOnce() throws {
        let (english, german) = (try #require(Words.all["en"]), try #require(Words.all["de"]))
        let note = { (words: Words, count: Int) in words("badge.sheetNote", count: count, ["perPage": "8", "paper": "A4"]) }
        #expect(note(english, 1).hasPrefix("1 badge, 8 to a page: print on A4"))
        #expect(note(english, 1_200).hasPrefix("1,200 badges, 8 to a page"))
        #expect(note(german, 1).hasPrefix("Ein Namensschild, 8 pro Seite"))
        #expect(note(german, 1_200).hasPrefix("1.200 Namensschilder"))
        // An event named like a placeholder is written as it is, not filled again.
        #expect(english("report.title", ["event": "{event} {date}"]) == "Report: {event} {date}")
        #expect(english("no.such.key") == "no.such.key")
        #expect(german.percent(0.425) == "43 %" && english.percent(0.425) == "43%" && german.decimal(1_234.5) == "1.234,50")
    }

    @Test func theReadersLanguageIsTheHeaviestOneWritten() {
        for (header, expected) in [
            ("de-DE,de;q=0.9,en;q=0.8", "de"), ("fr, en;q=0.5, de;q=0.4", "en"), ("fr, it", nil), ("qps", nil), ("qps, de;q=0.1", "de"),
            ("de;q=0", nil), (String(repeating: "de,", count: 400), nil),
        ] as [(String, String?)] {
            #expect(Words.preferred(by: header) == expected, "\(header.prefix(40))")
        }
    }
}
