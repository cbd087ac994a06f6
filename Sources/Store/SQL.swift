/// One SQL statement whose values are bound parameters, never spliced text.
///
/// Write it as a string literal; each interpolated value becomes a `$n` placeholder cast to its
/// PostgreSQL type (`\(id)` is `$1::uuid`, a `nil` binds NULL) and is sent apart from the text:
///
///     let rows = try connection.query("SELECT name FROM profiles WHERE id = \(id)")
///
/// A `SQL` interpolated into another keeps its values bound. Text that is not a literal enters
/// only by a path that says so: `\(unsafeSQL: table)` or `SQL(unsafe: columns)`.
package struct SQL: Sendable, ExpressibleByStringInterpolation {
    fileprivate enum Piece: Sendable {
        case text(String)
        /// A value in PostgreSQL's text format (nil: NULL) and the type it is cast to.
        case value(String?, type: String)
    }

    private var pieces: [Piece]

    /// Whether PostgreSQL plans the statement anew for each execution's values (see `plannedPerExecution()`).
    /// It belongs to the statement sent: one interpolated into another takes the outer one's.
    package private(set) var isPlannedPerExecution = false

    /// This statement, planned for each execution's values instead of prepared once per connection.
    /// For a statement whose rows range from a handful to thousands with its values (a person's
    /// network to depth 2): after five executions of a prepared statement PostgreSQL may settle on
    /// one generic plan, which for that query ran ten times slower (3 ms against 42 ms on 300 people).
    package func plannedPerExecution() -> SQL {
        var sql = self
        sql.isPlannedPerExecution = true
        return sql
    }

    /// Raw SQL text, taken as it is: never build it from input.
    package init(unsafe text: String) {
        pieces = [.text(text)]
    }

    package init(stringLiteral value: String) {
        pieces = [.text(value)]
    }

    package init(stringInterpolation: StringInterpolation) {
        pieces = stringInterpolation.pieces
    }

    /// The statement text with `$1`, `$2`, … in place of the values, and the values in that order.
    package var rendered: (text: String, values: [String?]) {
        var text = ""
        var values: [String?] = []
        for piece in pieces {
            switch piece {
            case .text(let literal):
                text += literal
            case .value(let value, let type):
                values.append(value)
                text += "$\(values.count)::\(type)"
            }
        }
        return (text, values)
    }

    package struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var pieces: [Piece] = []

        package init(literalCapacity: Int, interpolationCount: Int) {
            pieces.reserveCapacity(2 * interpolationCount + 1)
        }

        package mutating func appendLiteral(_ literal: String) {
            pieces.append(.text(literal))
        }

        /// Binds `value` as the next parameter.
        package mutating func appendInterpolation<Value: PostgresBindable>(_ value: Value) {
            pieces.append(.value(value.postgresText, type: Value.postgresType))
        }

        /// Binds `value` as the next parameter; `nil` binds NULL of the same type.
        package mutating func appendInterpolation<Value: PostgresBindable>(_ value: Value?) {
            pieces.append(.value(value?.postgresText, type: Value.postgresType))
        }

        /// Embeds another statement's text and binds its values.
        package mutating func appendInterpolation(_ sql: SQL) {
            pieces += sql.pieces
        }

        /// Splices raw SQL text (a column list, a constant identifier): never build it from input.
        package mutating func appendInterpolation(unsafeSQL text: String) {
            pieces.append(.text(text))
        }
    }
}
