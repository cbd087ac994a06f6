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

    /// Every problem code the server can answer (each one `openapi.json` lists, and each the
    /// server's sources write, the HTTP layer's among them) has its message in the catalogs that
    /// every page loads (`problem.CODE` in `messages-en.js` and `messages-de.js`): a page never shows
    /// the server's English title inside its own language.
    @Test func everyProblemCodeHasAMessageOnEveryPage() throws {
        let root = DocumentationLinksTests.root
        let document = try String(contentsOf: root.appendingPathComponent("Sources/Server/OpenAPI/openapi.json"), encoding: .utf8)
        var codes = Set<String>()
        // In the document: each `"code": {"enum": [...]}` of a problem's schema.
        for match in document.matches(of: /"code": \{\s*"enum": \[([^\]]*)\]/) {
            codes.formUnion(match.output.1.matches(of: /"([a-z_]+)"/).map { String($0.output.1) })
        }
        #expect(codes.count > 60, "the document's codes were read: \(codes.count)")
        // In the sources: each problem written with its code.
        let sources = root.appendingPathComponent("Sources/Server")
        for case let file as URL in FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: /Problem\(\s*status: \d+, code: "([a-z_]+)"/) { codes.insert(String(match.output.1)) }
            for match in text.matches(of: /badRequest\("([a-z_]+)"/) { codes.insert(String(match.output.1)) }
        }
        // Never sent: what the log and the metrics count for a client that has gone.
        codes.remove("client_gone")
        for language in ["en", "de"] {
            let messages = Set(try Self.catalog(language).keys)
            let missing = codes.filter { !messages.contains("problem.\($0)") }.sorted()
            #expect(missing == [], "no message in messages-\(language).js")
        }
    }
}
