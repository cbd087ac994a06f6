import Foundation
import Testing

/// README.md is what a newcomer reads first and docs/ holds the rest: every relative link and
/// `#anchor` in them leads somewhere, and the README stays short. Web links are not followed.
@Suite struct DocumentationLinksTests {
    /// The repository: this file is Tests/DocsTests/DocumentationLinksTests.swift.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theReadmeHasAtMost200Lines() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.utf8.filter { $0 == UInt8(ascii: "\n") }.count
        #expect(lines <= 200, "README.md has \(lines) lines, more than 200: move the detail to docs/")
    }

    @Test func everyRelativeLinkAndAnchorResolves() throws {
        let docs = Self.root.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
        let pages = [Self.root.appendingPathComponent("README.md")] + names.sorted().map { docs.appendingPathComponent($0) }
        var checked = 0
        for page in pages {
            let name = page.path.replacingOccurrences(of: Self.root.path + "/", with: "")
            for link in try Markdown(page).links
            where !["http://", "https://", "mailto:"].contains(where: { link.hasPrefix($0) }) {
                checked += 1
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let target = path.isEmpty ? page.path : page.deletingLastPathComponent().path + "/" + path
                let exists = FileManager.default.fileExists(atPath: target)
                #expect(exists, "\(name): broken link \(link): \(path) does not exist")
                guard exists, parts.count == 2 else { continue }
                let anchor = String(parts[1])
                let anchors: Set<String> = try target.hasSuffix(".md") ? Markdown(URL(fileURLWithPath: target)).anchors : []
                #expect(anchors.contains(anchor), "\(name): broken link \(link): no heading makes #\(anchor)")
            }
        }
        #expect(checked > 0, "no relative links found at all: is the parser broken?")
    }
}

/// The links and heading anchors of one Markdown file, outside fenced code blocks and code spans.
struct Markdown {
    var links: [String] = []
    var anchors: Set<String> = []

    init(_ file: URL) throws {
        let link = try NSRegularExpression(pattern: #"\[[^\]]*\]\(([^)\s]+)\)"#)
        let codeSpan = try NSRegularExpression(pattern: "`[^`]*`")
        var inFence = false
        for line in try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if inFence { continue }
            let hashes = line.prefix(while: { $0 == "#" }).count
            if (1...6).contains(hashes), line.dropFirst(hashes).first == " " {
                anchors.insert(Self.slug(String(line.dropFirst(hashes))))
            }
            let text = codeSpan.stringByReplacingMatches(
                in: line, options: [], range: NSRange(line.startIndex..., in: line), withTemplate: "")
            for match in link.matches(in: text, options: [], range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { links.append(String(text[range])) }
            }
        }
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped (but `-` and `_`), spaces → `-`.
    static func slug(_ heading: String) -> String {
        heading.trimmingCharacters(in: .whitespaces).lowercased()
            .filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " " }
            .replacingOccurrences(of: " ", with: "-")
    }
}
