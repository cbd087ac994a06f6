import ConstellationModel
import Foundation
import Testing

/// The pages' and the server's words come from one folder of catalogs per language
/// (`assets/locales/en/`, `…/de/`): `common.json`, which every page loads, the organizer's pages',
/// the live page's and the devices' own, and `documents.json`, the server's report and badges.
/// Each language's folder has every catalog English has, each with every key, the same
/// `{placeholders}`, and for a message with forms one for each category of its language's plural
/// rule, or a page or document shows a key or a sentence with a hole in one language. A language
/// is added with one folder and one entry in i18n.js's list, which names the folders.
@Suite struct MessageCatalogTests {
    static let locales = DocumentationLinksTests.root.appendingPathComponent("Sources/WebClient/Web/assets/locales")
    static let parts = ["common", "organizer", "live", "device", "documents"]

    /// Every language with a folder of catalogs.
    static func languages() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: locales.path).filter { !$0.contains(".") }.sorted()
    }

    /// Each key with what its message needs: its plural forms (`form:one`, …) and its placeholders.
    static func catalog(_ language: String, of part: String = "common") throws -> [String: Set<String>] {
        let data = try Data(contentsOf: locales.appendingPathComponent("\(language)/\(part).json"))
        let messages = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(language)/\(part).json")
        return try messages.mapValues { message in
            let texts: [String]
            var needs: Set<String> = []
            if let text = message as? String {
                texts = [text]
            } else {
                let forms = try #require(message as? [String: String], "a message is a string or its forms")
                texts = Array(forms.values)
                needs.formUnion(forms.keys.map { "form:\($0)" })
            }
            for text in texts { needs.formUnion(text.matches(of: /\{([A-Za-z]+)\}/).map { "{\($0.output.1)}" }) }
            return needs
        }
    }

    @Test func eachLanguageIsAFolderAndAnEntryInTheList() throws {
        let languages = try Self.languages()
        #expect(languages.contains("en") && languages.count >= 2, "\(languages)")
        let i18n = try String(contentsOf: Self.locales.deletingLastPathComponent().appendingPathComponent("i18n.js"), encoding: .utf8)
        let list = try #require(i18n.firstMatch(of: /const LANGUAGES = \[([^\]]*)\]/)?.output.1)
        #expect(list.matches(of: /'([a-z]+)'/).map { String($0.output.1) }.sorted() == languages, "i18n.js LANGUAGES")
        for language in languages {
            #expect(PluralRule.of(language) != nil, "\(language): no plural rule in PluralRule")
            let files = try FileManager.default.contentsOfDirectory(atPath: Self.locales.appendingPathComponent(language).path)
            #expect(Set(files) == Set(Self.parts.map { "\($0).json" }), "\(language): \(files.sorted())")
        }
    }

    @Test(arguments: parts)
    func everyLanguageHasEveryKeyFormAndPlaceholder(part: String) throws {
        let english = try Self.catalog("en", of: part)
        #expect(english.count > 20, "the catalog was read: \(english.count) keys")
        for other in Self.parts where other != part {
            #expect(Set(english.keys).isDisjoint(with: try Self.catalog("en", of: other).keys), "\(part) and \(other) share keys")
        }
        for language in try Self.languages() {
            let translated = try Self.catalog(language, of: part)
            #expect(Set(english.keys).subtracting(translated.keys).sorted() == [], "missing in \(language)")
            #expect(Set(translated.keys).subtracting(english.keys).sorted() == [], "\(language) only")
            let forms = Set((PluralRule.of(language)?.categories ?? []).map { "form:\($0.rawValue)" })
            for (key, needs) in english.sorted(by: { $0.key < $1.key }) {
                guard let theirs = translated[key] else { continue }
                let plural = needs.contains { $0.hasPrefix("form:") }
                let expected = plural ? needs.filter { !$0.hasPrefix("form:") }.union(forms) : needs
                if theirs != expected { Issue.record("\(language) \(key): \(theirs.sorted()), English needs \(expected.sorted())") }
            }
        }
    }

    /// The problem codes are declared once (`ProblemCode`, with their statuses and titles), and
    /// nothing else names one that is not there: `openapi.json` lists every code and no other, each
    /// where its status is answered, and the catalog every page loads (`common.json`) says each
    /// one in every language (`problem.CODE`) and no other, so a page never shows the
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
        for language in try Self.languages() {
            let messages = Set(try Self.catalog(language).keys.filter { $0.hasPrefix("problem.") }.map { String($0.dropFirst(8)) })
            #expect(answered.subtracting(messages).sorted() == [], "no message in \(language)/common.json")
            #expect(messages.subtracting(declared).sorted() == [], "a message in \(language)/common.json for a code nobody answers")
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
