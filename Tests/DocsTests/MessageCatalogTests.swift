import ConstellationModel
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

    /// The problem codes are declared once (`ProblemCode`, with their statuses and titles), and
    /// nothing else names one that is not there: `openapi.json` lists every code and no other, each
    /// where its status is answered, and the catalogs every page loads (`messages-en.js`,
    /// `messages-de.js`) say each one (`problem.CODE`) and no other, so a page never shows the
    /// server's English title inside its own language, nor keeps a message for a code gone.
    @Test func theProblemCodesTheDocumentAndTheCatalogsAgree() throws {
        let declared = Set(ProblemCode.allCases.map(\.rawValue))
        // Never sent: what the log and the metrics count for a client that has gone.
        let answered = declared.subtracting([ProblemCode.clientGone.rawValue])
        let root = DocumentationLinksTests.root
        let data = try Data(contentsOf: root.appendingPathComponent("Sources/Server/OpenAPI/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        // Each response's problem schema: its status, and the codes its `code` enum lists; the
        // `default` response's codes (what any route may answer, the HTTP layer's) with any status.
        var documented: [String: Set<Int>] = [:]
        var anyStatus: Set<String> = []
        func codes(in schema: Any?) -> [String] {
            guard let schema = schema as? [String: Any] else { return [] }
            if let reference = schema["$ref"] as? String, reference.hasPrefix("#/components/schemas/") {
                let components = document["components"] as? [String: Any]
                let schemas = components?["schemas"] as? [String: Any]
                return codes(in: schemas?[String(reference.dropFirst("#/components/schemas/".count))])
            }
            let properties = schema["properties"] as? [String: Any]
            let own = ((properties?["code"] as? [String: Any])?["enum"] as? [String]) ?? []
            return own + ((schema["allOf"] as? [Any]) ?? []).flatMap(codes(in:))
        }
        func responses(_ object: Any?) -> [(Int?, Any)] {
            guard let object = object as? [String: Any] else { return [] }
            return object.compactMap { key, value in key == "default" ? (nil, value) : Int(key).map { ($0, value) } }
        }
        let components = document["components"] as? [String: Any]
        let shared = components?["responses"] as? [String: Any] ?? [:]
        for case let path as [String: Any] in (document["paths"] as? [String: Any] ?? [:]).values {
            for case let operation as [String: Any] in path.values {
                for (status, response) in responses(operation["responses"]) {
                    var response = response as? [String: Any] ?? [:]
                    if let reference = response["$ref"] as? String {
                        response = shared[String(reference.split(separator: "/").last!)] as? [String: Any] ?? [:]
                    }
                    let content = (response["content"] as? [String: Any])?["application/problem+json"] as? [String: Any]
                    for code in codes(in: content?["schema"]) {
                        if let status { documented[code, default: []].insert(status) } else { anyStatus.insert(code) }
                    }
                }
            }
        }
        #expect(documented.count > 60, "the document's codes were read: \(documented.count)")
        #expect(Set(documented.keys).union(anyStatus).subtracting(declared).sorted() == [], "in openapi.json, not in ProblemCode")
        #expect(answered.subtracting(documented.keys).subtracting(anyStatus).sorted() == [], "in ProblemCode, not in openapi.json")
        for code in ProblemCode.allCases {
            guard let statuses = documented[code.rawValue] else { continue }
            #expect(statuses == [code.status], "\(code.rawValue): openapi.json answers it with \(statuses.sorted()), not \(code.status)")
        }
        for language in ["en", "de"] {
            let messages = Set(try Self.catalog(language).keys.filter { $0.hasPrefix("problem.") }.map { String($0.dropFirst(8)) })
            #expect(answered.subtracting(messages).sorted() == [], "no message in messages-\(language).js")
            #expect(messages.subtracting(declared).sorted() == [], "a message in messages-\(language).js for a code nobody answers")
        }
    }

    /// docs/http-api.md's table of problem codes is `ProblemCode`, row for row: each code with its
    /// status and title, and no other.
    @Test func theDocumentedTableOfProblemCodesIsTheDeclaredOne() throws {
        let text = try String(
            contentsOf: DocumentationLinksTests.root.appendingPathComponent("docs/http-api.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n## Problem codes\n").last)
        let rows = section.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^\| (\d+) \| `([a-z_]+)` \| (.+) \|$/).map { "\($0.output.1) \($0.output.2) \($0.output.3)" }
        }
        let declared = ProblemCode.allCases.sorted { ($0.status, $0.rawValue) < ($1.status, $1.rawValue) }
            .map { "\($0.status) \($0.rawValue) \($0.title)" }
        #expect(rows == declared, "the table differs from ProblemCode: \(Set(rows).symmetricDifference(declared).sorted())")
    }
}
