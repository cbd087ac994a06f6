import Foundation
import NIOCore
import Server
import Testing
import WebClient

/// Every page carries the one head: a page's file opens it with `<head data-module="…">` and
/// writes only its title (and its own stylesheets), and the server writes the shared head
/// (`head.html`) in as it loads the pages. A page whose file writes a shared line itself, or whose
/// served head differs from the shared one, fails here, naming the page.
@Suite struct PageHeadTests {
    /// The served head's lines in order; `MODULE`, `SCHEME` and `TITLE` stand for a page's own.
    static let shared = [
        "<meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        "<meta name=\"color-scheme\" content=\"SCHEME\">",
        "<link rel=\"stylesheet\" href=\"/assets/style.css\">",
        "<link rel=\"icon\" href=\"/assets/icon.svg\" type=\"image/svg+xml\">",
        "<script type=\"module\" src=\"/assets/MODULE.js\"></script>",
        "<title data-i18n=\"TITLE\">",
    ]

    static let pages = WebAssets.bundled.paths.filter { $0.hasSuffix(".html") }

    @Test func everyPageIsServedWithTheSharedHead() throws {
        #expect(Self.pages.count >= 7, "the pages: \(Self.pages)")
        #expect(WebAssets.bundled["head.html"] == nil, "the shared head is not served as a page")
        for name in Self.pages {
            let asset = try #require(WebAssets.bundled[name])
            let text = String(buffer: asset.bytes)
            #expect(text.hasPrefix("<!doctype html>\n<html lang=\"en\">\n<head>\n"), "\(name) starts otherwise")
            guard let end = text.range(of: "</head>") else {
                Issue.record("\(name) has no </head>")
                continue
            }
            let head = text[..<end.lowerBound].split(separator: "\n").dropFirst(3).map { $0.trimmingCharacters(in: .whitespaces) }
            // A page's own stylesheets (the poster's print sheet) follow its title.
            let lines = head.filter { !($0.hasPrefix("<link rel=\"stylesheet\"") && !$0.contains("/assets/style.css")) }
            #expect(lines.count == Self.shared.count, "\(name)'s head: \(lines)")
            for (line, expected) in zip(lines, Self.shared) {
                #expect(Self.matches(line, expected), "\(name): \(line) where the shared head has \(expected)")
            }
        }
    }

    /// A page's file writes none of the shared lines: only its title and its own stylesheets.
    @Test func noPageWritesTheSharedHeadItself() throws {
        for name in Self.pages {
            let text = try String(contentsOf: WebClient.folder!.appendingPathComponent(name), encoding: .utf8)
            let head = try #require(text.firstMatch(of: /<head data-module="[a-z-]+"[^>]*>\n((?:.*\n)*?)<\/head>/)?.output.1, "\(name)")
            for line in head.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                #expect(line.hasPrefix("<title ") || line.hasPrefix("<link rel=\"stylesheet\""), "\(name) writes \(line) itself")
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
