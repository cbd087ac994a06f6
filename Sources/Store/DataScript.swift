/// The SQL text `pg_restore --data-only` writes, read a line at a time and allowed to hold only
/// what the same text of this binary's own schema holds: the settings pg_restore writes first,
/// comments, each table's `COPY … FROM stdin;` statement exactly as pg_dump wrote it for the
/// schema the migrations build (then its rows, up to `\.`), and `setval` of its own sequences with
/// a number. Nothing it reads is run: the caller runs the statements of the reference, and sends
/// the rows, which PostgreSQL's own types and constraints then check.
struct DataScript {
    /// What a line is.
    enum Step: Equatable {
        /// A comment, a blank line, or a setting pg_restore writes first.
        case nothing
        /// The start of a table's rows: the reference's statement for it.
        case copy(table: String, statement: String)
        /// A row of the table being copied, in COPY's text format.
        case row(ArraySlice<UInt8>)
        case endOfCopy
        case setval(sequence: String, value: Int64, called: Bool)
    }

    private var settings: Set<String> = []
    /// Table by statement.
    private var copies: [String: String] = [:]
    private var sequences: Set<String> = []
    /// The table whose rows are being read.
    private(set) var copying: String?

    /// The grammar of `reference`: the data script of this binary's schema, its tables empty.
    init(reference: String) {
        for line in reference.split(separator: "\n").map(String.init) where !Self.isNothing(line) {
            if let table = Self.copiedTable(line) {
                copies[line] = table
            } else if let (sequence, _, _) = Self.setval(line) {
                sequences.insert(sequence)
            } else if line != Self.endOfCopy {
                settings.insert(line)
            }
        }
    }

    /// The tables the reference copies.
    var tables: Set<String> { Set(copies.values) }

    /// Reads the next line; throws at the first that a dump of this schema would not hold.
    mutating func read(_ bytes: ArraySlice<UInt8>) throws(RestoreError) -> Step {
        if copying != nil {
            guard !bytes.elementsEqual(Self.endOfCopy.utf8) else {
                copying = nil
                return .endOfCopy
            }
            return .row(bytes)
        }
        guard let line = String(validating: bytes, as: UTF8.self) else {
            throw .foreign("its data holds a statement that is not UTF-8")
        }
        if Self.isNothing(line) || settings.contains(line) { return .nothing }
        if let table = copies[line] {
            copying = table
            return .copy(table: table, statement: line)
        }
        if let (sequence, value, called) = Self.setval(line), sequences.contains(sequence) {
            return .setval(sequence: sequence, value: value, called: called)
        }
        throw .foreign("its data holds a statement a dump of this schema does not: \(line.prefix(100))")
    }

    private static let endOfCopy = "\\."

    /// Blank lines, comments, and the psql meta-commands that fence a script (their key is random).
    private static func isNothing(_ line: String) -> Bool {
        line.isEmpty || line.hasPrefix("--") || line.hasPrefix("\\restrict ") || line.hasPrefix("\\unrestrict ")
    }

    /// `profiles` of `COPY public.profiles (id, …) FROM stdin;`.
    private static func copiedTable(_ line: String) -> String? {
        guard line.hasPrefix("COPY public."), line.hasSuffix(" FROM stdin;") else { return nil }
        return String(line.dropFirst("COPY public.".count).prefix { $0 != " " })
    }

    /// The parts of `SELECT pg_catalog.setval('public.NAME', VALUE, true|false);`, and nothing else.
    private static func setval(_ line: String) -> (String, Int64, Bool)? {
        let prefix = "SELECT pg_catalog.setval('public."
        guard line.hasPrefix(prefix), line.hasSuffix(");") else { return nil }
        let arguments = line.dropFirst(prefix.count).dropLast(2).split(separator: ", ", omittingEmptySubsequences: false)
        guard arguments.count == 3, arguments[0].hasSuffix("'"), let value = Int64(arguments[1]), ["true", "false"].contains(arguments[2])
        else { return nil }
        let name = arguments[0].dropLast()
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else { return nil }
        return (String(name), value, arguments[2] == "true")
    }
}
