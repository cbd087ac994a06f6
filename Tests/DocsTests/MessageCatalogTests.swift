import Foundation
import Testing

/// The web pages' words come from one catalog per language (`messages-en.js`, `messages-de.js`),
/// and the organizer's pages', the live page's and the devices' own (`organizer-messages-en.js`,
/// `live-messages-en.js`, `device-messages-en.js`, `…-de.js`): of each pair, each must
/// have every key the other has, with the same plural forms and the same `{placeholders}`,
/// or a page shows a key or a sentence with a hole in one language.
@Suite struct MessageCatalogTests {
    static let assets = DocumentationLinksTests.root.appendingPathComponent("Sources/WebClient/Web/assets")

    /// Each key with what its message needs: its plural forms (`one`, `other`) and its placeholders.
    static func catalog(_ language: String, of pages: String = "messages") throws -> [String: Set<String>] {
        let text = try String(contentsOf: assets.appendingPathComponent("\(pages)-\(language).js"), encoding: .utf8)
        var entries: [String: Set<String>] = [:]
        var key: String?
        for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
            if let match = line.firstMatch(of: /^  '([^']+)':/) {
                key = String(match.output.1)
                entries[key!] = []
            }
            guard let key else { continue }
            if let form = line.firstMatch(of: /^\s+(zero|one|two|few|many|other):/) { entries[key]!.insert("form:\(form.output.1)") }
            for placeholder in line.matches(of: /\{([A-Za-z]+)\}/) { entries[key]!.insert("{\(placeholder.output.1)}") }
        }
        return entries
    }

    static let pairs = ["messages", "organizer-messages", "live-messages", "device-messages"]

    @Test(arguments: pairs)
    func bothCatalogsHaveTheSameKeysFormsAndPlaceholders(pages: String) throws {
        let (english, german) = (try Self.catalog("en", of: pages), try Self.catalog("de", of: pages))
        #expect(english.count > 20, "the catalog was read: \(english.count) keys")
        for other in Self.pairs where other != pages {
            #expect(Set(english.keys).isDisjoint(with: try Self.catalog("en", of: other).keys), "\(pages) and \(other) share keys")
        }
        #expect(Set(english.keys).subtracting(german.keys).sorted() == [], "missing in German")
        #expect(Set(german.keys).subtracting(english.keys).sorted() == [], "missing in English")
        for (key, needs) in english.sorted(by: { $0.key < $1.key }) where german[key] != nil && german[key] != needs {
            Issue.record("\(key): English \(needs.sorted()), German \(german[key]!.sorted())")
        }
    }
}
