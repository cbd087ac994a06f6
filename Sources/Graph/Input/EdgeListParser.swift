/// Reads graphs from text: an edge list (`u v` per line, whitespace separated, `#` comments, an
/// optional third column ignored), CSV with a header row (`source,target[,…]`), or a
/// SocioPatterns contact file (`t i j` per line, whole numbers; the edge's time is its first contact).
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

/// When two people (nodes `a < b` of the parsed graph) were first in contact, in a tij file.
public struct FirstContact: Sendable, Equatable {
    public let a: Int32
    public let b: Int32
    public let time: Int

    public init(a: Int32, b: Int32, time: Int) {
        self.a = a
        self.b = b
        self.time = time
    }
}

/// The graph read from a file, with when each edge first appeared (tij files only).
public struct ParsedGraph: Sendable {
    public let graph: Graph<String>
    /// For tij files: each pair's earliest contact, pairs in order of their first line; a
    /// self-contact (`i` = `j`) is in none, as the graph has no self-loop.
    public let firstContacts: [FirstContact]?
    /// For tij files with a line: the earliest and the latest time of any line.
    public let times: ClosedRange<Int>?
    /// Data lines read (comments and blank lines excluded).
    public let lines: Int
}

public enum EdgeListParser {
    /// Parses `text` in `format`; throws `EdgeListError` for the first malformed line.
    public static func parse(_ text: String, format: EdgeListFormat) throws(EdgeListError) -> ParsedGraph {
        var index: [Substring: Int32] = [:]
        var ids: [String] = []
        var sources: [Int32] = [], targets: [Int32] = []
        var firstContacts: [FirstContact] = []
        var contactSlot: [UInt64: Int] = [:]
        var times: ClosedRange<Int>?
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
                guard fields.count >= 3, let time = Int(fields[0]), Int(fields[1]) != nil, Int(fields[2]) != nil else {
                    throw EdgeListError(
                        line: lineNumber, reason: "expected 't i j' (a time in seconds and two person ids, whole numbers), found '\(line.prefix(80))'")
                }
                times = times.map { min($0.lowerBound, time)...max($0.upperBound, time) } ?? time...time
                let u = intern(fields[1]), v = intern(fields[2])
                sources.append(u)
                targets.append(v)
                guard u != v else { continue }
                let (a, b) = (min(u, v), max(u, v))
                let key = UInt64(UInt32(a)) << 32 | UInt64(UInt32(b))
                if let slot = contactSlot[key] {
                    if time < firstContacts[slot].time { firstContacts[slot] = FirstContact(a: a, b: b, time: time) }
                } else {
                    contactSlot[key] = firstContacts.count
                    firstContacts.append(FirstContact(a: a, b: b, time: time))
                }
            }
        }
        return ParsedGraph(graph: Graph(ids: ids, sources: sources, targets: targets),
                           firstContacts: format == .tij ? firstContacts : nil, times: times, lines: dataLines)
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
