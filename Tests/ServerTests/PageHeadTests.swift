import Foundation
import Testing
import WebClient

/// Every page carries the one head (written out in each page, as pages with no build step must):
/// what differs from page to page is its title, its module and whether it has a dark scheme. A
/// line added to one page's head and not the others' fails here, naming the page.
@Suite struct PageHeadTests {
    /// The head's lines in order; `TITLE`, `MODULE` and `SCHEME` stand for a page's own.
    static let shared = [
        "<meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        "<meta name=\"color-scheme\" content=\"SCHEME\">",
        "<title data-i18n=\"TITLE\">",
        "<link rel=\"stylesheet\" href=\"/assets/style.css\">",
        "<link rel=\"icon\" href=\"/assets/icon.svg\" type=\"image/svg+xml\">",
        "<script type=\"module\" src=\"/assets/MODULE.js\"></script>",
    ]

    static var pages: [URL] {
        let folder = WebClient.folder!
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".html") }.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test func everyPageCarriesTheSharedHead() throws {
        #expect(Self.pages.count >= 7, "the pages: \(Self.pages.map(\.lastPathComponent))")
        for page in Self.pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            let name = page.lastPathComponent
            #expect(text.hasPrefix("<!doctype html>\n<html lang=\"en\">\n<head>\n"), "\(name) starts otherwise")
            guard let end = text.range(of: "</head>") else {
                Issue.record("\(name) has no </head>")
                continue
            }
            let head = text[..<end.lowerBound].split(separator: "\n").dropFirst(3).map { $0.trimmingCharacters(in: .whitespaces) }
            // A page's own stylesheets (the poster's print sheet) follow the shared one.
            let own = head.filter { $0.hasPrefix("<link rel=\"stylesheet\"") && !$0.contains("/assets/style.css") }
            let lines = head.filter { !own.contains($0) }
            #expect(lines.count == Self.shared.count, "\(name)'s head: \(lines)")
            for (line, expected) in zip(lines, Self.shared) {
                #expect(Self.matches(line, expected), "\(name): \(line) where the shared head has \(expected)")
            }
        }
    }

    /// Whether `line` is `pattern` with its placeholder filled: a key, a module name, a scheme.
    static func matches(_ line: String, _ pattern: String) -> Bool {
        for placeholder in ["TITLE", "MODULE", "SCHEME"] {
            guard let range = pattern.range(of: placeholder) else { continue }
            let (before, after) = (String(pattern[..<range.lowerBound]), String(pattern[range.upperBound...]))
            guard line.hasPrefix(before) else { return false }
            let value = line.dropFirst(before.count)
            switch placeholder {
            case "TITLE":
                // The key, then the English title up to `</title>`.
                guard let close = value.range(of: "\">") else { return false }
                return value[..<close.lowerBound].allSatisfy { $0.isLetter || $0 == "." } && line.hasSuffix(" · Constellation</title>")
                    || line == "<title data-i18n=\"app.name\">Constellation</title>"
            case "MODULE":
                return line.hasSuffix(after) && value.dropLast(after.count).allSatisfy { $0.isLetter || $0 == "-" }
            default:
                return line.hasSuffix(after) && ["light dark", "light"].contains(String(value.dropLast(after.count)))
            }
        }
        return line == pattern
    }
}
