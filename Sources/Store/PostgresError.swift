import Foundation

/// A failure talking to PostgreSQL. `description` leaks no SQL or data; `debugDescription` has the query.
public struct PostgresError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The server could not be reached or refused the connection.
        case connectionFailed
        /// The server reported an error for a statement.
        case server
        /// A value in a result was not of the expected type.
        case decoding
        /// A migration file could not be read or was changed after being applied.
        case migration
        /// The embedded server could not be set up or started.
        case embeddedServer
        /// The pool is shut down.
        case shutdown
        /// A bound value PostgreSQL cannot store (a string holding NUL), refused before sending.
        case invalidParameter
        /// No pooled connection became free within the pool's wait limit.
        case poolExhausted
        /// `pg_dump` or `pg_restore` failed or could not be run.
        case clientTool
        /// Another process's embedded server runs on the data directory: it is left alone.
        case alreadyRunning
    }

    public let kind: Kind
    /// The five-character SQLSTATE: the server's, or `nulInText` for a refused parameter.
    public let sqlState: String?
    public let message: String
    let query: String?
    /// The constraint that refused a row, and its table, as the server names them: the schema's
    /// names, never the row's data.
    public let constraint: String?
    public let table: String?
    /// The key of the row a check constraint refused: the first column of the failing row the
    /// server reports, when it is a UUID (the key of every table whose rules a restore relies on).
    public let refusedRowKey: UUID?

    init(
        _ kind: Kind, sqlState: String? = nil, message: String, query: String? = nil, constraint: String? = nil, table: String? = nil,
        refusedRowKey: UUID? = nil
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.query = query
        self.constraint = constraint
        self.table = table
        self.refusedRowKey = refusedRowKey
    }

    /// SQLSTATE 22021 (character not in repertoire): what the server answers for NUL in text.
    static let nulInText = "22021"

    /// SQLSTATE 23505: a unique constraint decided against this row.
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// SQLSTATE class 22: a value the database could not take (too long, out of range, bad encoding).
    public var isDataException: Bool { sqlState?.hasPrefix("22") == true }

    /// SQLSTATE 57014: the statement ran past `statement_timeout` (or was cancelled).
    public var isQueryCanceled: Bool { sqlState == "57014" }

    /// SQLSTATE 40001 or 40P01: PostgreSQL rolled the transaction back to let another go on
    /// (a serialization failure, a deadlock); the same request may well succeed again.
    public var isTransactionConflict: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// SQLSTATE 23514: a check constraint refused the row.
    public var isCheckViolation: Bool { sqlState == "23514" }

    /// SQLSTATE class 23: a constraint (check, unique, foreign key, not null) refused the row.
    public var isIntegrityViolation: Bool { sqlState?.hasPrefix("23") == true }

    public var description: String {
        "PostgreSQL \(kind)\(sqlState.map { " [\($0)]" } ?? ""): \(message)"
    }

    public var debugDescription: String {
        description + (query.map { "\nquery: \($0)" } ?? "")
    }
}
