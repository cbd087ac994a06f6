/// How a language chooses a message's form for a count: the Unicode CLDR's plural rules
/// (cldr.unicode.org, "Language Plural Rules") for whole numbers, as a browser's
/// `Intl.PluralRules` applies them to the pages' catalogs, for the server's documents. A catalog's
/// message with forms has one for each of its language's `categories`.
public struct PluralRule: Sendable {
    /// A CLDR plural category.
    public enum Category: String, Sendable, CaseIterable {
        case zero, one, two, few, many, other
    }

    /// The categories a whole number can fall in, each a form a message must have.
    public let categories: Set<Category>
    private let select: @Sendable (UInt) -> Category

    /// The category of `count`, by this language's rule.
    public func category(of count: Int) -> Category { select(count.magnitude) }

    /// The rule of `language` (a primary subtag: `en`, `de`, `fr`, …; `qps`, the pseudo-locale, is
    /// English's); nil for a language this table does not hold yet: add its CLDR rule here.
    public static func of(_ language: String) -> PluralRule? {
        switch language {
        case "en", "qps", "de", "nl", "sv", "da", "nb", "fi", "et", "el", "hu", "tr", "bg": oneIfOne
        case "es", "it": PluralRule(categories: [.one, .many, .other]) { $0 == 1 ? .one : millions($0) ? .many : .other }
        case "fr", "pt": PluralRule(categories: [.one, .many, .other]) { $0 <= 1 ? .one : millions($0) ? .many : .other }
        case "ru", "uk":
            PluralRule(categories: [.one, .few, .many]) { $0 % 10 == 1 && $0 % 100 != 11 ? .one : fewSlavic($0) ? .few : .many }
        case "pl": PluralRule(categories: [.one, .few, .many]) { $0 == 1 ? .one : fewSlavic($0) ? .few : .many }
        case "cs", "sk": PluralRule(categories: [.one, .few, .other]) { $0 == 1 ? .one : (2...4).contains($0) ? .few : .other }
        case "ja", "zh", "ko", "vi", "th", "id": PluralRule(categories: [.other]) { _ in .other }
        default: nil
        }
    }

    private static let oneIfOne = PluralRule(categories: [.one, .other]) { $0 == 1 ? .one : .other }

    /// A whole non-zero number of millions: French's "1 000 000 de personnes".
    private static func millions(_ n: UInt) -> Bool { n != 0 && n % 1_000_000 == 0 }

    /// 2–4, 22–24, …, but not 12–14.
    private static func fewSlavic(_ n: UInt) -> Bool { (2...4).contains(n % 10) && !(12...14).contains(n % 100) }
}
