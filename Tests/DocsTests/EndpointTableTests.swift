import Foundation
import Testing

/// docs/http-api.md's endpoint tables and `openapi.json` name the same operations: every
/// operation the document describes has its row (the web client's pages share one), and no row
/// names one the document does not (path parameters compared by place, not by name). With
/// `OpenAPITests`, which holds the document to the router, the three cannot drift apart.
@Suite struct EndpointTableTests {
    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]

    /// `METHOD /path`, its parameters written `{}`.
    static func operation(_ method: String, _ path: some StringProtocol) -> String {
        "\(method) \(String(path).replacing(/\{[^}]*\}/, with: "{}"))"
    }

    @Test func theTablesNameTheDocumentsOperations() throws {
        let root = DocumentationLinksTests.root
        let data = try Data(contentsOf: root.appendingPathComponent("Sources/Server/OpenAPI/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let documented = Set(
            paths.flatMap { path, item in
                item.keys.map { $0.uppercased() }.filter(Self.methods.contains).map { Self.operation($0, path) }
            })
        let text = try String(contentsOf: root.appendingPathComponent("docs/http-api.md"), encoding: .utf8)
        var tabled = Set<String>()
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let first = line.split(separator: " | ").first ?? ""
            for match in first.matches(of: /`((?:GET|POST|PUT|PATCH|DELETE)(?:\|(?:GET|POST|PUT|PATCH|DELETE))*) ([^`\s\[?]+)/) {
                for method in match.output.1.split(separator: "|") { tabled.insert(Self.operation(String(method), match.output.2)) }
            }
        }
        #expect(documented.count > 70, "the document's operations were read: \(documented.count)")
        #expect(documented.subtracting(tabled).sorted() == [], "in openapi.json, in no table of docs/http-api.md")
        #expect(tabled.subtracting(documented).sorted() == [], "in docs/http-api.md's tables, not in openapi.json")
    }
}
