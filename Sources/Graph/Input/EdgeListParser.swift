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
    /// Parses `text` in `format`; throws `EdgeListError` for the first malformed line. It reads
    /// the text's UTF-8 bytes (separators are ASCII, which never occurs inside a multi-byte
    /// character) by index, lines and fields as ranges: slicing each line and field was most of the
    /// time of importing a conference. A node id is its exact bytes; a tij file's person is a number
    /// (`007` is `7`).
    public static func parse(_ text: String, format: EdgeListFormat) throws(EdgeListError) -> ParsedGraph {
        try parse(utf8: Array(text.utf8), format: format)
    }

    /// Parses a file's bytes as `parse(_:format:)` parses its text, without making a `String` of
    /// it first; bytes that are not UTF-8 are refused, with the first line that holds some.
    public static func parse(bytes: [UInt8], format: EdgeListFormat) throws(EdgeListError) -> ParsedGraph {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            let lines = bytes.split(separator: .newline, omittingEmptySubsequences: false)
            let line = lines.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0
            throw EdgeListError(line: line + 1, reason: "not UTF-8 text")
        }
        return try parse(utf8: bytes, format: format)
    }

    private static func parse(utf8 bytes: [UInt8], format: EdgeListFormat) throws(EdgeListError) -> ParsedGraph {
        var index: [ArraySlice<UInt8>: Int32] = [:]
        var ids: [String] = []
        var sources: [Int32] = []
        var targets: [Int32] = []
        var firstContacts: [FirstContact] = []
        var contactSlot: [UInt64: Int] = [:]
        var times: ClosedRange<Int>?
        func intern(_ field: Range<Int>) -> Int32 {
            let id = bytes[field]
            if let existing = index[id] { return existing }
            let next = Int32(ids.count)
            index[id] = next
            ids.append(String(decoding: id, as: UTF8.self))
            return next
        }
        // A tij file's people are whole numbers, most of them small: a small one is looked up by
        // place in an array (a file names each person thousands of times), any other by hash.
        var smallPeople: [Int32] = []
        var people: [Int: Int32] = [:]
        func intern(person: Int) -> Int32 {
            let small = (0..<Self.smallPersonLimit).contains(person)
            if small, person < smallPeople.count, smallPeople[person] >= 0 { return smallPeople[person] }
            if !small, let existing = people[person] { return existing }
            let next = Int32(ids.count)
            if small {
                if person >= smallPeople.count {
                    smallPeople += repeatElement(-1, count: max(person + 1, 2 * smallPeople.count) - smallPeople.count)
                }
                smallPeople[person] = next
            } else {
                people[person] = next
            }
            ids.append(String(person))
            return next
        }
        func excerpt(_ line: Range<Int>) -> Substring { String(decoding: bytes[line], as: UTF8.self).prefix(80) }
        var lineNumber = 0
        var dataLines = 0
        var sawHeader = format != .csv
        var fields: [Range<Int>] = []
        var lineStart = 0
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != .newline { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            lineNumber += 1
            let line = lineStart..<(lineEnd > lineStart && bytes[lineEnd - 1] == .carriageReturn ? lineEnd - 1 : lineEnd)
            var first = line.lowerBound
            while first < line.upperBound, bytes[first] == .space || bytes[first] == .tab { first += 1 }
            if first == line.upperBound || bytes[first] == .hash || bytes[first] == .percent { continue }
            fields.removeAll(keepingCapacity: true)
            if format == .csv {
                Self.split(bytes, first..<line.upperBound, into: &fields, at: { $0 == .comma }, keepingEmpty: true)
                for (position, field) in fields.enumerated() { fields[position] = Self.trimmingSpacesAndQuotes(bytes, field) }
            } else {
                Self.split(bytes, first..<line.upperBound, into: &fields, at: { $0 == .space || $0 == .tab }, keepingEmpty: false)
            }
            if !sawHeader {
                sawHeader = true
                guard fields.count >= 2 else { throw EdgeListError(line: lineNumber, reason: "the CSV header needs at least two columns") }
                continue
            }
            dataLines += 1
            switch format {
            case .edgeList, .csv:
                guard fields.count >= 2, !fields[0].isEmpty, !fields[1].isEmpty else {
                    throw EdgeListError(line: lineNumber, reason: "expected two node ids, found '\(excerpt(line))'")
                }
                sources.append(intern(fields[0]))
                targets.append(intern(fields[1]))
            case .tij:
                guard fields.count >= 3, let time = Self.wholeNumber(bytes, fields[0]), let i = Self.wholeNumber(bytes, fields[1]),
                    let j = Self.wholeNumber(bytes, fields[2])
                else {
                    throw EdgeListError(
                        line: lineNumber,
                        reason: "expected 't i j' (a time in seconds and two person ids, whole numbers), found '\(excerpt(line))'")
                }
                times = times.map { min($0.lowerBound, time)...max($0.upperBound, time) } ?? time...time
                let u = intern(person: i)
                let v = intern(person: j)
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
        return ParsedGraph(
            graph: Graph(ids: ids, sources: sources, targets: targets),
            firstContacts: format == .tij ? firstContacts : nil, times: times, lines: dataLines)
    }

    /// Person numbers below this are interned through an array (4 bytes per number up to the largest).
    private static let smallPersonLimit = 1 << 20

    /// Appends to `fields` the pieces of `bytes[range]` between separators; empty pieces only if `keepingEmpty`.
    private static func split(
        _ bytes: [UInt8], _ range: Range<Int>, into fields: inout [Range<Int>], at isSeparator: (UInt8) -> Bool, keepingEmpty: Bool
    ) {
        var start = range.lowerBound
        for position in range where isSeparator(bytes[position]) {
            if keepingEmpty || position > start { fields.append(start..<position) }
            start = position + 1
        }
        if keepingEmpty || range.upperBound > start { fields.append(start..<range.upperBound) }
    }

    private static func trimmingSpacesAndQuotes(_ bytes: [UInt8], _ field: Range<Int>) -> Range<Int> {
        let unwanted: (UInt8) -> Bool = { $0 == .space || $0 == .tab || $0 == .quote }
        var (start, end) = (field.lowerBound, field.upperBound)
        while start < end, unwanted(bytes[start]) { start += 1 }
        while end > start, unwanted(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// The field as an `Int` (an optional sign, then ASCII digits, as `Int(_:)` reads text), or nil.
    private static func wholeNumber(_ bytes: [UInt8], _ field: Range<Int>) -> Int? {
        guard !field.isEmpty else { return nil }
        var digits = field
        let negative = bytes[field.lowerBound] == .minus
        if negative || bytes[field.lowerBound] == .plus { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value = 0
        for position in digits {
            let byte = bytes[position]
            guard byte >= .zero && byte <= .nine else { return nil }
            let digit = Int(byte - .zero)
            let (times10, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            guard !overflowA && !overflowB else { return nil }
            value = next
        }
        return value
    }
}

extension UInt8 {
    fileprivate static let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
    fileprivate static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), comma = UInt8(ascii: ",")
    fileprivate static let hash = UInt8(ascii: "#"), percent = UInt8(ascii: "%"), quote = UInt8(ascii: "\"")
    fileprivate static let plus = UInt8(ascii: "+"), minus = UInt8(ascii: "-"), zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")
}
