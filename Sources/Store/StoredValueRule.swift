import Foundation

/// A rule on a stored value that the schema cannot hold, because it needs what only Swift knows
/// (Foundation's time zones) or a setting: a restore checks every row by it before its commit,
/// with the same code the API checks a request by.
public struct StoredValueRule: Sendable {
    public let table: String
    /// The column that names a row (its key), and the one the rule reads.
    public let key: String
    public let column: String
    /// What the rule asks, said in a refusal.
    public let rule: String
    /// Whether a value (as text; NULLs are not asked) keeps the rule.
    public let accepts: @Sendable (String) -> Bool

    public init(table: String, key: String, column: String, rule: String, accepts: @escaping @Sendable (String) -> Bool) {
        self.table = table
        self.key = key
        self.column = column
        self.rule = rule
        self.accepts = accepts
    }

    /// A rule on a `timestamptz` column, read as the server reads it (a value it cannot read breaks it).
    public init(table: String, key: String, column: String, rule: String, acceptsDate: @escaping @Sendable (Date) -> Bool) {
        self.init(table: table, key: key, column: column, rule: rule) { text in PostgresTimestamp.parse(text).map(acceptsDate) ?? false }
    }

    /// The keys of at most `limit` rows of `table` whose value breaks the rule.
    func breakingKeys(on connection: PostgresConnection, limit: Int = 5) throws -> [String] {
        var keys: [String] = []
        let rows = try connection.query(
            """
            SELECT \(unsafeSQL: key)::text AS key, \(unsafeSQL: column)::text AS value FROM \(unsafeSQL: "public.\(table)")
            WHERE \(unsafeSQL: column) IS NOT NULL ORDER BY 1
            """)
        for row in rows where keys.count < limit {
            if !accepts(try row.string("value")) { keys.append(try row.string("key")) }
        }
        return keys
    }
}
