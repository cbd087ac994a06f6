/// Reads graphs from text: an edge list (`u v` per line, whitespace separated, `#` comments, an
/// optional third column ignored), CSV with a header row (`source,target[,…]`), or a
/// SocioPatterns contact file (`t i j` per line; the edge's time is its first contact).
public enum EdgeListFormat: String, Sendable, CaseIterable {
    case edgeList = "edgelist"
    case csv
    case tij

    /// The format a file name suggests: `.csv` is CSV, a SocioPatterns `…tij…` name is tij.
    public static func guess(fileName: String) -> EdgeListFormat {
        let lower = fileName.lowercased()
        if lower.hasSuffix(".csv") { return .csv }
        if lower.contains("tij") { return .tij }
        return .edgeList
    }
}

/// A line that could not be read, with its number (1-based) for the error message.
public struct EdgeListError: Error, Equatable, Sendable, CustomStringConvertible {
    public let line: Int
    public let reason: String
    public var description: String { "line \(line): \(reason)" }

    package init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }
}

/// The graph read from a file, with when each edge first appeared (tij files only).
public struct ParsedGraph: Sendable {
    public let graph: Graph<String>
    /// For tij files: the time of each input edge in input order (parallel to the raw edges read).
    public let firstContact: [String: Int]?
    /// Data lines read (comments and blank lines excluded).
    public let lines: Int
}

public enum EdgeListParser {
    /// Parses `text` in `format`; throws `EdgeListError` for the first malformed line.
    public static func parse(_ text: String, format: EdgeListFormat) throws(EdgeListError) -> ParsedGraph {
        var index: [Substring: Int32] = [:]
        var ids: [String] = []
        var sources: [Int32] = [], targets: [Int32] = []
        var firstContact: [String: Int]? = format == .tij ? [:] : nil
        func intern(_ id: Substring) -> Int32 {
            if let existing = index[id] { return existing }
            let next = Int32(ids.count)
            index[id] = next
            ids.append(String(id))
            return next
        }
        var lineNumber = 0, dataLines = 0
        var sawHeader = format != .csv
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.last == "\r" ? rawLine.dropLast() : rawLine
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.first == "#" || trimmed.first == "%" { continue }
            let fields = format == .csv
                ? trimmed.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
                : trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if !sawHeader {
                sawHeader = true
                guard fields.count >= 2 else { throw EdgeListError(line: lineNumber, reason: "the CSV header needs at least two columns") }
                continue
            }
            dataLines += 1
            switch format {
            case .edgeList, .csv:
                guard fields.count >= 2, !fields[0].isEmpty, !fields[1].isEmpty else {
                    throw EdgeListError(line: lineNumber, reason: "expected two node ids, found '\(line.prefix(80))'")
                }
                sources.append(intern(fields[0]))
                targets.append(intern(fields[1]))
            case .tij:
                guard fields.count >= 3, let time = Int(fields[0]) else {
                    throw EdgeListError(line: lineNumber, reason: "expected 't i j' with a numeric time, found '\(line.prefix(80))'")
                }
                let u = intern(fields[1]), v = intern(fields[2])
                sources.append(u)
                targets.append(v)
                let key = u < v ? "\(fields[1]) \(fields[2])" : "\(fields[2]) \(fields[1])"
                if firstContact![key] == nil { firstContact![key] = time }
            }
        }
        return ParsedGraph(graph: Graph(ids: ids, sources: sources, targets: targets), firstContact: firstContact, lines: dataLines)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\"" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\"" { text = text.dropLast() }
        return text
    }
}
