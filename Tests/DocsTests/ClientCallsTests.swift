import Foundation
import Testing

/// What the clients call is what the document describes: every path the Swift client
/// (`Sources/Client`) and the pages (`call`, `json` and `everyItem` of api.js, and the streams and
/// keys they open themselves) send a request to is a path of `openapi.json`, with the method it is
/// sent with where the call names one. A route renamed or removed in the document and not in a
/// client fails here, naming the file and the call.
@Suite struct ClientCallsTests {
    /// A call: where it is, its path with each interpolated value as `{}` and no query, and its
    /// method (nil where the call takes it from a variable).
    struct Call: CustomStringConvertible {
        let file: String
        let path: String
        let method: String?
        var description: String { "\(file): \(method ?? "*") \(path)" }
    }

    static let root = DocumentationLinksTests.root

    /// The document's operations: each path's segments (a `{parameter}` as `{}`) and its methods.
    static func operations() throws -> [(segments: [String], methods: Set<String>)] {
        let data = try Data(contentsOf: root.appendingPathComponent("Sources/Server/OpenAPI/openapi.json"))
        let paths = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["paths"] as? [String: Any])
        return paths.map { path, item in
            (segments(path), Set(((item as? [String: Any]) ?? [:]).keys.map { $0.uppercased() }))
        }
    }

    /// `path`'s segments, a parameter (`{event}`, or a value interpolated whole) as `{}`; a value
    /// interpolated at the end of a segment (`network${query}`) is the query, and left out.
    static func segments(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            if segment.hasPrefix("{") && segment.hasSuffix("}") { return "{}" }
            return segment.hasSuffix("{}") ? String(segment.dropLast(2)) : String(segment)
        }
    }

    /// Whether the document has `call`'s path (a `{}` of either side matching any segment), with its method.
    static func documents(_ call: Call, in operations: [(segments: [String], methods: Set<String>)]) -> Bool {
        let wanted = segments(call.path)
        return operations.contains { operation in
            operation.segments.count == wanted.count
                && zip(operation.segments, wanted).allSatisfy { $0 == $1 || $0 == "{}" || $1 == "{}" }
                && (call.method.map(operation.methods.contains) ?? true)
        }
    }

    static func sources(in folder: String, ending: String) throws -> [(name: String, text: String)] {
        let url = root.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(ending) }.sorted().map {
            ($0, try String(contentsOf: url.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// The Swift client's calls: each `"/v1/…"` literal, its method the `send(.METHOD,` it is sent with.
    static func swiftCalls() throws -> [Call] {
        try sources(in: "Sources/Client", ending: ".swift").flatMap { file in
            file.text.matches(of: /(?:send\(\s*\.([A-Z]+),\s*)?"(\/v1\/(?:[^"\\]|\\\((?:[^()]|\([^()]*\))*\))*)"/).map { match in
                let path = String(match.output.2).replacing(/\\\((?:[^()]|\([^()]*\))*\)/, with: "{}")
                return Call(file: file.name, path: String(path.prefix { $0 != "?" }), method: match.output.1.map(String.init))
            }
        }
    }

    /// The pages' calls: `call(`, `json(` and `everyItem(` with a literal path under `/v1`, their
    /// method the options' `method: 'X'` (GET without one), and every other literal `/v1/…`.
    static func pageCalls() throws -> [Call] {
        try sources(in: "Sources/WebClient/Web/assets", ending: ".js").flatMap { file in
            var calls: [Call] = []
            let text = Array(file.text)
            var index = 0
            while index < text.count {
                if text[index] == "/", index + 1 < text.count, text[index + 1] == "/" || text[index + 1] == "*" {
                    // A comment, whose apostrophes open no string.
                    let close: [Character] = text[index + 1] == "/" ? ["\n"] : ["*", "/"]
                    index += 2
                    while index < text.count, Array(text[index..<min(text.count, index + close.count)]) != close { index += 1 }
                    index += close.count
                    continue
                }
                guard text[index] == "'" || text[index] == "`" else {
                    index += 1
                    continue
                }
                let (literal, end) = Self.literal(text, from: index)
                let before = String(text[max(0, index - 12)..<index])
                let wrapped = before.hasSuffix("call(") || before.hasSuffix("json(") || before.hasSuffix("everyItem(")
                let path = String(literal.prefix { $0 != "?" })
                if wrapped, path.hasPrefix("/") {
                    calls.append(Call(file: file.name, path: "/v1" + path, method: Self.method(text, after: end)))
                } else if path.hasPrefix("/v1/") {
                    calls.append(Call(file: file.name, path: path, method: nil))
                }
                index = end
            }
            return calls
        }
    }

    /// The string literal opening at `start` (a quote or a backtick), each `${…}` as `{}`, and the index after it.
    static func literal(_ text: [Character], from start: Int) -> (String, Int) {
        let quote = text[start]
        var out = ""
        var index = start + 1
        while index < text.count, text[index] != quote {
            if text[index] == "\\" {
                index += 2
                continue
            }
            if quote == "`", text[index] == "$", index + 1 < text.count, text[index + 1] == "{" {
                var depth = 0
                index += 1
                repeat {
                    if text[index] == "`" {
                        index = literal(text, from: index).1 - 1
                    } else if text[index] == "{" {
                        depth += 1
                    } else if text[index] == "}" {
                        depth -= 1
                    }
                    index += 1
                } while index < text.count && depth > 0
                out += "{}"
                continue
            }
            out.append(text[index])
            index += 1
        }
        return (out, index + 1)
    }

    /// The method of the call whose path ends at `index`: its options' `method: 'X'`, GET with no
    /// options or none named, nil when a variable gives it.
    static func method(_ text: [Character], after index: Int) -> String? {
        var depth = 0
        var end = index
        while end < text.count {
            if "({[".contains(text[end]) { depth += 1 }
            if ")}]".contains(text[end]) {
                if depth == 0 { break }
                depth -= 1
            }
            end += 1
        }
        let options = String(text[index..<end])
        if let named = options.firstMatch(of: /method: '([A-Z]+)'/) { return String(named.output.1) }
        return options.contains("method") ? nil : "GET"
    }

    @Test func theSwiftClientCallsOnlyWhatTheDocumentDescribes() throws {
        let (calls, operations) = (try Self.swiftCalls(), try Self.operations())
        #expect(calls.count > 60, "the client's calls were read: \(calls.count)")
        #expect(calls.contains { $0.path == "/v1/events/{}/report" && $0.method == "GET" }, "\(calls)")
        #expect(calls.filter { !Self.documents($0, in: operations) }.map(\.description) == [])
    }

    @Test func thePagesCallOnlyWhatTheDocumentDescribes() throws {
        let (calls, operations) = (try Self.pageCalls(), try Self.operations())
        #expect(calls.count > 40, "the pages' calls were read: \(calls.count)")
        #expect(calls.contains { $0.path == "/v1/profiles" && $0.method == "POST" }, "\(calls)")
        #expect(calls.filter { !Self.documents($0, in: operations) }.map(\.description) == [])
    }

    /// The check itself: a path or a method the document does not have is found.
    @Test func aCallTheDocumentLacksIsFound() throws {
        let operations = try Self.operations()
        #expect(Self.documents(Call(file: "", path: "/v1/events/{}/report", method: "GET"), in: operations))
        #expect(!Self.documents(Call(file: "", path: "/v1/events/{}/reports", method: "GET"), in: operations))
        #expect(!Self.documents(Call(file: "", path: "/v1/events/{}/report", method: "DELETE"), in: operations))
        let page = Array("await json(`/events/${encodeURIComponent(slug)}/me?x=${a ? `&b=${c}` : ''}`, { method: 'PATCH', body })")
        let (literal, end) = Self.literal(page, from: page.firstIndex(of: "`")!)
        #expect(literal == "/events/{}/me?x={}" && Self.method(page, after: end) == "PATCH")
    }
}
