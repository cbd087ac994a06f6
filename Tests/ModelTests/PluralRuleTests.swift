import ConstellationModel
import Testing

/// The server's plural rules choose CLDR's category for whole numbers, as a browser's
/// `Intl.PluralRules` does for the pages (the expected values are CLDR's examples).
@Suite struct PluralRuleTests {
    @Test(arguments: [
        ("en", [0: "other", 1: "one", 2: "other", 21: "other"]),
        ("de", [1: "one", 1_000_000: "other"]),
        ("fr", [0: "one", 1: "one", 2: "other", 1_000_000: "many", 2_000_000: "many", 1_000_001: "other"]),
        ("ru", [1: "one", 2: "few", 4: "few", 5: "many", 11: "many", 12: "many", 21: "one", 22: "few", 111: "many", 112: "many"]),
        ("pl", [1: "one", 2: "few", 5: "many", 12: "many", 21: "many", 22: "few"]),
        ("cs", [1: "one", 3: "few", 5: "other"]),
        ("ja", [1: "other", 2: "other"]),
    ])
    func eachLanguageChoosesCLDRsCategory(language: String, expected: [Int: String]) throws {
        let rule = try #require(PluralRule.of(language))
        for (count, category) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(rule.category(of: count).rawValue == category, "\(language) \(count)")
            #expect(rule.categories.contains(rule.category(of: count)), "\(language) \(count) in its categories")
        }
    }

    @Test func negativeCountsAndUnknownLanguages() {
        #expect(PluralRule.of("en")?.category(of: -1) == .one)
        #expect(PluralRule.of("en")?.category(of: Int.min) == .other)
        #expect(PluralRule.of("xx") == nil)
    }
}
