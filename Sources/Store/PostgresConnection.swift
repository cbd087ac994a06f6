internal import CLibPQ
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One libpq connection. The only type that touches `PGconn`/`PGresult` (with `RawRow`, a row of a
/// result it lends for the time of a call): results are copied into Swift values at once. Every
/// call blocks, so connections are used on the pool's threads, never on an event loop; the pool
/// lends a connection to one thread at a time.
package final class PostgresConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// Prepared statement names by SQL text: each statement is parsed and planned once per connection.
    private var prepared: [String: String] = [:]

    /// Connects with a libpq connection string or URL; empty uses libpq's `PG*` environment variables.
    /// An attempt gives up after `connectTimeout` seconds a host (nil: `PGCONNECT_TIMEOUT`, else
    /// 10) unless the string names its own `connect_timeout`: libpq alone waits forever, for a host
    /// that is starting up or gone without a word, and every request behind the attempt with it.
    init(conninfo: String, connectTimeout: Int? = nil) throws(PostgresError) {
        let timeout = connectTimeout.map(String.init) ?? ProcessInfo.processInfo.environment["PGCONNECT_TIMEOUT"] ?? "10"
        let connected = timeout.withCString { timeout in
            conninfo.withCString { conninfo in
                // Later entries override earlier ones; `dbname` holding a whole string is expanded.
                let keywords = [Self.cString("connect_timeout"), Self.cString("dbname"), nil]
                let values = [timeout, conninfo, nil]
                return PQconnectdbParams(keywords, values, 1)
            }
        }
        guard let handle = connected else {
            throw PostgresError(.connectionFailed, message: "out of memory")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.errorMessage(handle)
            PQfinish(handle)
            throw PostgresError(.connectionFailed, message: message)
        }
        self.handle = handle
        // Text timestamps are parsed as UTC; no notices on stderr.
        try execute(unsafeSQL: "SET TimeZone = 'UTC'")
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    private static func cString(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    deinit { PQfinish(handle) }

    /// Set when a statement sent without blocking could not be followed to its end (its answer
    /// unread, or not known to be): the connection is not lent again.
    private var abandoned = false

    /// Whether the connection is still usable; a broken one is dropped by the pool.
    var isHealthy: Bool { !abandoned && PQstatus(handle) == CONNECTION_OK }

    /// Whether the connection is encrypted. libpq may then hold decrypted bytes that the socket no
    /// longer shows as readable, so a statement is not awaited on the poller (`Database.query`).
    var usesTLS: Bool { PQsslInUse(handle) == 1 }

    /// Whether a server answers at `conninfo` (libpq `PQping`), without logging in.
    static func ping(_ conninfo: String) -> Bool {
        PQping(conninfo) == PQPING_OK
    }

    /// `conninfo` (a URL or `key=value` pairs, as libpq reads it) without its password, as
    /// `key=value` pairs, and the password: a child process is given the password in its
    /// environment, where other users cannot read it, rather than on its command line, where they
    /// can. Nil when libpq cannot read `conninfo`.
    package static func withoutPassword(_ conninfo: String) -> (conninfo: String, password: String?)? {
        guard let options = PQconninfoParse(conninfo, nil) else { return nil }
        defer { PQconninfoFree(options) }
        var pairs: [String] = []
        var password: String?
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val.map({ String(cString: $0) }) {
                let name = String(cString: keyword)
                if name == "password" {
                    password = value
                } else {
                    let quoted = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
                    pairs.append("\(name)='\(quoted)'")
                }
            }
            option += 1
        }
        return (pairs.joined(separator: " "), password)
    }

    /// Runs one statement with its bound values (prepared once per connection, unless it is planned
    /// per execution) and returns its rows.
    /// A string holding NUL is refused before anything is sent: libpq would cut it short there.
    @discardableResult
    package func query(_ sql: SQL) throws(PostgresError) -> [Row] {
        let (text, values) = try Self.rendered(sql)
        return try consume(try run(sql.isPlannedPerExecution, text, values, binary: false), sql: text)
    }

    /// Runs one statement as `query` does, without blocking: it is sent at once, and the caller is
    /// suspended, holding no thread, until `poller` says the answer can be read.
    package func query(_ sql: SQL, waitingOn poller: SocketPoller) async throws(PostgresError) -> [Row] {
        let (text, values) = try Self.rendered(sql)
        PQsetnonblocking(handle, 1)
        defer { PQsetnonblocking(handle, 0) }
        let sent: Int32
        if sql.isPlannedPerExecution {
            sent = withCStrings(values) { PQsendQueryParams(handle, text, Int32($0.count), nil, $0.baseAddress, nil, nil, 0) }
        } else {
            let (name, isNew) = preparedName(of: text)
            if isNew {
                guard PQsendPrepare(handle, name, text, Int32(values.count), nil) == 1 else { throw abandon(sql: text) }
                _ = try consume(try await result(waitingOn: poller, sql: text), sql: text)
                prepared[text] = name
            }
            sent = withCStrings(values) { PQsendQueryPrepared(handle, name, Int32($0.count), $0.baseAddress, nil, nil, 0) }
        }
        guard sent == 1 else { throw abandon(sql: text) }
        return try consume(try await result(waitingOn: poller, sql: text), sql: text)
    }

    /// Marks the connection as not to be lent again, and returns the error to throw.
    private func abandon(sql: String) -> PostgresError {
        abandoned = true
        return PostgresError(.connectionFailed, message: Self.errorMessage(handle), query: sql)
    }

    /// Sends what libpq still holds of a statement sent without blocking, then reads its answer as
    /// it arrives, until PostgreSQL is ready for the next: after the implicit transaction's commit.
    /// A commit that fails (a deferred constraint) reports its error after the statement's rows,
    /// and the error is what is returned: as `PQexec` does, a failure wins over a result.
    private func result(waitingOn poller: SocketPoller, sql: String) async throws(PostgresError) -> OpaquePointer {
        let socket = PQsocket(handle)
        do {
            while case let pending = PQflush(handle), pending != 0 {
                guard pending > 0 else { throw abandon(sql: sql) }
                try await poller.wait(until: .writable, socket: socket)
            }
            var kept: OpaquePointer?
            while true {
                while PQisBusy(handle) == 1 {
                    do {
                        try await poller.wait(until: .readable, socket: socket)
                    } catch {
                        if let kept { PQclear(kept) }
                        throw error
                    }
                    guard PQconsumeInput(handle) == 1 else {
                        if let kept { PQclear(kept) }
                        throw abandon(sql: sql)
                    }
                }
                guard let next = PQgetResult(handle) else { break }
                if let failed = kept, PQresultStatus(failed) == PGRES_FATAL_ERROR {
                    PQclear(next)
                } else {
                    if let kept { PQclear(kept) }
                    kept = next
                }
            }
            guard let kept else { throw abandon(sql: sql) }
            return kept
        } catch let error as PostgresError {
            abandoned = true
            throw error
        } catch {
            // The poller could not watch the socket: the answer, if any, is left unread.
            abandoned = true
            throw PostgresError(.connectionFailed, message: "\(error)", query: sql)
        }
    }

    /// Runs one statement as `query` does, with its rows in PostgreSQL's binary format, and turns
    /// each into a `T` straight from libpq's result: no `Row`, no `String` per value, and the server
    /// formats no text. For large results (an event's 100,000 pairs), where all that costs more than
    /// the query itself. `decode` reads columns by position and must not keep the `RawRow` it is lent.
    package func query<T>(_ sql: SQL, decoding decode: (RawRow) throws(PostgresError) -> T) throws(PostgresError) -> [T] {
        let (text, values) = try Self.rendered(sql)
        let result = try checked(try run(sql.isPlannedPerExecution, text, values, binary: true), sql: text)
        defer { PQclear(result) }
        let count = PQntuples(result)
        var decoded: [T] = []
        decoded.reserveCapacity(Int(count))
        for row in 0..<count {
            decoded.append(try decode(RawRow(result: result, row: row)))
        }
        return decoded
    }

    /// Runs raw SQL text that may hold several statements and binds nothing (migrations,
    /// transaction control). Never build `sql` from input: use `query` for anything with values.
    package func execute(unsafeSQL sql: String) throws(PostgresError) {
        _ = try consume(PQexec(handle, sql), sql: sql)
    }

    /// Copies `rows` into `table (columns)` with `COPY … FROM STDIN` in text format (nil is NULL),
    /// and returns how many rows the server took. A value holding NUL is refused as in `query`:
    /// the copy is cancelled, so none of its rows is kept (and a transaction around it is
    /// aborted). `table` and `columns` are quoted as identifiers.
    @discardableResult
    package func copy(into table: String, columns: [String], rows: some Sequence<[String?]>) throws(PostgresError) -> Int {
        let sql = "COPY \(Self.identifier(table)) (\(columns.map(Self.identifier).joined(separator: ", "))) FROM STDIN"
        do {
            return try copy(sql) { write in
                var line: [UInt8] = []
                for row in rows {
                    line.removeAll(keepingCapacity: true)
                    for (index, value) in row.enumerated() {
                        if index > 0 { line.append(UInt8(ascii: "\t")) }
                        guard Self.appendCopyText(value, to: &line) else {
                            throw PostgresError(
                                .invalidParameter, sqlState: PostgresError.nulInText,
                                message: "column \(columns[index]) holds a NUL character, which PostgreSQL text cannot store", query: sql)
                        }
                    }
                    line.append(UInt8(ascii: "\n"))
                    try write(line[...])
                }
            }
        } catch let error as PostgresError {
            throw error
        } catch {
            throw PostgresError(.invalidParameter, message: "\(error)", query: sql)
        }
    }

    /// Runs `statement`, a `COPY … FROM STDIN`, and sends it the bytes `feed` writes (COPY's
    /// text format: rows ending in newlines), about 64 KiB at a time; returns how many rows the
    /// server took. When `feed` throws, the copy is cancelled, so none of its rows is kept (and a
    /// transaction around it is aborted), and its error is thrown.
    @discardableResult
    package func copy(
        _ statement: String, sending feed: (_ write: (ArraySlice<UInt8>) throws(PostgresError) -> Void) throws -> Void
    ) throws -> Int {
        guard let started = PQexec(handle, statement) else {
            throw PostgresError(.connectionFailed, message: Self.errorMessage(handle), query: statement)
        }
        defer { PQclear(started) }
        guard PQresultStatus(started) == PGRES_COPY_IN else { throw failure(of: started, sql: statement) }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(2 * Self.copyChunk)
        var error: (any Error)?
        do {
            try feed { bytes throws(PostgresError) in
                buffer += bytes
                guard buffer.count >= Self.copyChunk else { return }
                if let failed = send(buffer, sql: statement) { throw failed }
                buffer.removeAll(keepingCapacity: true)
            }
            if !buffer.isEmpty { error = send(buffer, sql: statement) }
        } catch let failed {
            error = failed
        }
        // Ending with an error message makes the server fail the COPY and keep none of its rows.
        PQputCopyEnd(handle, error == nil ? nil : "copy cancelled by the client")
        var copied = 0
        while let result = PQgetResult(handle) {
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                copied = Int(String(cString: PQcmdTuples(result))) ?? 0
            } else if error == nil {
                error = failure(of: result, sql: statement)
            }
            PQclear(result)
        }
        if let error { throw error }
        return copied
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    /// A read-only transaction sees one snapshot (repeatable read) and runs on a hot standby too.
    package func transaction<T>(readOnly: Bool = false, _ body: (PostgresConnection) throws -> T) throws -> T {
        try execute(unsafeSQL: readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN")
        do {
            let value = try body(self)
            try execute(unsafeSQL: "COMMIT")
            return value
        } catch {
            if isHealthy { try? execute(unsafeSQL: "ROLLBACK") }
            throw error
        }
    }

    /// Sends `text` with `values` and returns libpq's result: as the connection's prepared statement
    /// for `text`, or, planned per execution, as an unnamed statement that PostgreSQL plans for these
    /// values. Rows come in text or binary format.
    private func run(_ plannedPerExecution: Bool, _ text: String, _ values: [String?], binary: Bool) throws(PostgresError) -> OpaquePointer?
    {
        let format: Int32 = binary ? 1 : 0
        if plannedPerExecution {
            return withCStrings(values) { values in
                PQexecParams(handle, text, Int32(values.count), nil, values.baseAddress, nil, nil, format)
            }
        }
        let name = try statementName(for: text, parameterCount: values.count)
        return withCStrings(values) { values in
            PQexecPrepared(handle, name, Int32(values.count), values.baseAddress, nil, nil, format)
        }
    }

    /// `sql`'s text and values, once no value holds NUL: libpq would cut such a string short there.
    private static func rendered(_ sql: SQL) throws(PostgresError) -> (text: String, values: [String?]) {
        let (text, values) = sql.rendered
        if let index = values.firstIndex(where: { $0?.utf8.contains(0) == true }) {
            throw PostgresError(
                .invalidParameter, sqlState: PostgresError.nulInText,
                message: "parameter $\(index + 1) holds a NUL character, which PostgreSQL text cannot store", query: text)
        }
        return (text, values)
    }

    private func statementName(for sql: String, parameterCount: Int) throws(PostgresError) -> String {
        let (name, isNew) = preparedName(of: sql)
        if isNew {
            _ = try consume(PQprepare(handle, name, sql, Int32(parameterCount), nil), sql: sql)
            prepared[sql] = name
        }
        return name
    }

    /// The name `sql` is prepared under on this connection, and whether it is new: then the caller
    /// prepares it under that name and records it in `prepared`.
    private func preparedName(of sql: String) -> (name: String, isNew: Bool) {
        if let known = prepared[sql] { return (known, false) }
        return ("s\(prepared.count)", true)
    }

    private func consume(_ result: OpaquePointer?, sql: String) throws(PostgresError) -> [Row] {
        let result = try checked(result, sql: sql)
        defer { PQclear(result) }
        return PQresultStatus(result) == PGRES_TUPLES_OK ? Self.rows(of: result) : []
    }

    /// `result` if the statement succeeded (the caller clears it); else it is cleared and its error thrown.
    private func checked(_ result: OpaquePointer?, sql: String) throws(PostgresError) -> OpaquePointer {
        guard let result else {
            throw PostgresError(.connectionFailed, message: Self.errorMessage(handle), query: sql)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY, PGRES_TUPLES_OK:
            return result
        default:
            defer { PQclear(result) }
            throw failure(of: result, sql: sql)
        }
    }

    /// The error a failed result reports: the primary message only, since the full one quotes
    /// the statement, which may hold data.
    private func failure(of result: OpaquePointer, sql: String) -> PostgresError {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let message =
            PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            ?? Self.errorMessage(handle)
        let kind: PostgresError.Kind = isHealthy ? .server : .connectionFailed
        func field(_ code: Character) -> String? { PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) } }
        // A check violation's detail is "Failing row contains (key, …)": only the key is kept.
        let key = field("D").flatMap { detail -> UUID? in
            guard detail.hasPrefix(Self.failingRow) else { return nil }
            return UUID(uuidString: String(detail.dropFirst(Self.failingRow.count).prefix { $0 != "," && $0 != ")" }))
        }
        return PostgresError(
            kind, sqlState: state, message: message, query: sql, constraint: field("n"), table: field("t"),
            refusedRowKey: state == "23514" ? key : nil)
    }

    private static let failingRow = "Failing row contains ("

    /// COPY data is sent in pieces of about this many bytes.
    private static let copyChunk = 65_536

    /// Sends COPY data; the error when the connection failed.
    private func send(_ bytes: [UInt8], sql: String) -> PostgresError? {
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
        }
        return sent == 1 ? nil : PostgresError(.connectionFailed, message: Self.errorMessage(handle), query: sql)
    }

    /// Appends `value` as a field of COPY's text format: `\N` for nil, and backslash, tab, newline
    /// and carriage return escaped. False, and nothing appended, when `value` holds NUL.
    private static func appendCopyText(_ value: String?, to buffer: inout [UInt8]) -> Bool {
        guard let value else {
            buffer += [UInt8(ascii: "\\"), UInt8(ascii: "N")]
            return true
        }
        guard !value.utf8.contains(0) else { return false }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\t"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\n"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default: buffer.append(byte)
            }
        }
        return true
    }

    /// `name` as a quoted SQL identifier.
    private static func identifier(_ name: String) -> String {
        "\"" + name.replacing("\"", with: "\"\"") + "\""
    }

    private static func rows(of result: OpaquePointer) -> [Row] {
        let columnCount = PQnfields(result)
        var columns: [String: Int] = [:]
        for column in 0..<columnCount {
            columns[String(cString: PQfname(result, column))] = Int(column)
        }
        return (0..<PQntuples(result)).map { row in
            Row(
                columns: columns,
                values: (0..<columnCount).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                })
        }
    }

    private static func errorMessage(_ handle: OpaquePointer) -> String {
        String(cString: PQerrorMessage(handle)).trimmingSuffixNewlines()
    }
}

/// Lends `body` an array of C strings (NULL for nil) that lives only for the call.
private func withCStrings<R>(
    _ strings: [String?], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> R
) -> R {
    let copies = strings.map { $0.flatMap { strdup($0) } }
    defer { for copy in copies { free(copy) } }
    return copies.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer(body)
}

extension String {
    fileprivate func trimmingSuffixNewlines() -> String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}

/// One row of a binary-format result as libpq holds it, lent to the closure of
/// `PostgresConnection.query(_:decoding:)`: columns by position (as the statement lists them).
package struct RawRow {
    fileprivate let result: OpaquePointer
    fileprivate let row: Int32

    /// A `text` value (UTF-8, the server's encoding here).
    package func string(_ column: Int) throws(PostgresError) -> String {
        String(decoding: try bytes(column), as: UTF8.self)
    }

    package func uuid(_ column: Int) throws(PostgresError) -> UUID {
        let bytes = try bytes(column)
        guard bytes.count == 16 else { throw decoding(column, as: "a UUID") }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// A `boolean`: one byte, 1 for true.
    package func bool(_ column: Int) throws(PostgresError) -> Bool {
        let bytes = try bytes(column)
        guard bytes.count == 1 else { throw decoding(column, as: "a boolean") }
        return bytes[0] != 0
    }

    /// A `timestamptz`: microseconds since 2000-01-01 00:00 UTC (not ±infinity).
    package func date(_ column: Int) throws(PostgresError) -> Date {
        let bytes = try bytes(column)
        guard bytes.count == 8 else { throw decoding(column, as: "a timestamp") }
        let microseconds = Int64(bigEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(as: Int64.self))
        guard microseconds != .max, microseconds != .min else { throw decoding(column, as: "a finite timestamp") }
        // Whole seconds, then the fraction, as the text form is read (`PostgresTimestamp`).
        var (seconds, fraction) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        if fraction < 0 {
            seconds -= 1
            fraction += 1_000_000
        }
        return Date(timeIntervalSince1970: Double(seconds + 946_684_800) + Double(fraction) / 1_000_000)
    }

    /// A `bigint`.
    package func int64(_ column: Int) throws(PostgresError) -> Int64 {
        let bytes = try bytes(column)
        guard bytes.count == 8 else { throw decoding(column, as: "a bigint") }
        return Int64(bigEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(as: Int64.self))
    }

    /// An `integer`.
    package func int32(_ column: Int) throws(PostgresError) -> Int32 {
        let bytes = try bytes(column)
        guard bytes.count == 4 else { throw decoding(column, as: "an integer") }
        return Int32(bigEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(as: Int32.self))
    }

    /// A `bytea`: its bytes.
    package func byteArray(_ column: Int) throws(PostgresError) -> [UInt8] {
        Array(try bytes(column))
    }

    /// A one-dimensional `uuid[]` without NULLs (empty when it has no dimension).
    package func uuids(_ column: Int) throws(PostgresError) -> [UUID] {
        let bytes = try bytes(column)
        var reader = BigEndianReader(bytes)
        guard let dimensions = reader.int32(), let hasNulls = reader.int32(), reader.int32() != nil else {
            throw decoding(column, as: "an array")
        }
        guard dimensions != 0 else { return [] }
        guard dimensions == 1, hasNulls == 0, let count = reader.int32(), count >= 0, reader.int32() != nil else {
            throw decoding(column, as: "a one-dimensional array without NULLs")
        }
        var ids: [UUID] = []
        ids.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard reader.int32() == 16, let id = reader.take(16) else { throw decoding(column, as: "an array of UUIDs") }
            ids.append(
                UUID(
                    uuid: (
                        id[0], id[1], id[2], id[3], id[4], id[5], id[6], id[7], id[8], id[9], id[10], id[11], id[12], id[13], id[14], id[15]
                    )))
        }
        guard reader.isAtEnd else { throw decoding(column, as: "an array of UUIDs") }
        return ids
    }

    /// The value's bytes, valid while the result is.
    private func bytes(_ column: Int) throws(PostgresError) -> UnsafeBufferPointer<UInt8> {
        guard column >= 0, column < Int(PQnfields(result)) else {
            throw PostgresError(.decoding, message: "no column \(column) in the result")
        }
        guard PQgetisnull(result, row, Int32(column)) == 0, let value = PQgetvalue(result, row, Int32(column)) else {
            throw PostgresError(.decoding, message: "column \(column) is null")
        }
        return UnsafeBufferPointer(
            start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self),
            count: Int(PQgetlength(result, row, Int32(column))))
    }

    private func decoding(_ column: Int, as type: String) -> PostgresError {
        PostgresError(.decoding, message: "column \(column) is not \(type)")
    }
}

/// Reads big-endian integers and byte runs from a binary-format value, never past its end.
private struct BigEndianReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    /// The next `count` bytes, if there are that many.
    mutating func take(_ count: Int) -> UnsafeBufferPointer<UInt8>? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return UnsafeBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    mutating func int32() -> Int32? {
        guard let four = take(4) else { return nil }
        return four.reduce(0) { $0 << 8 | Int32($1) }
    }
}
