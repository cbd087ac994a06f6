import Foundation

/// Where a page of a list ordered by a time, latest first, then by an id, ends: the last item's
/// time to the microsecond (as PostgreSQL stores it) and its id. As text (`nextCursor`),
/// `MICROSECONDS.UUID`. Keyset paging: an item added or removed meanwhile moves no other.
public struct PageCursor: Sendable, Equatable {
    let microseconds: Int64
    let id: UUID

    public init?(_ text: String) {
        let parts = text.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let microseconds = Int64(parts[0]), let id = UUID(uuidString: String(parts[1])) else { return nil }
        self.init(microseconds: microseconds, id: id)
    }

    init(microseconds: Int64, id: UUID) {
        self.microseconds = microseconds
        self.id = id
    }

    public var text: String { "\(microseconds).\(id.uuidString.lowercased())" }

    /// `time` (a timestamptz expression) in whole microseconds, as a cursor keeps it.
    static func microseconds(_ time: SQL) -> SQL {
        "floor(extract(epoch FROM \(time)) * 1000000)::bigint"
    }

    /// The condition that a row ordered `time DESC, id DESC` comes after `cursor` ("TRUE" without one).
    static func after(_ cursor: PageCursor?, time: SQL, id: SQL) -> SQL {
        cursor.map { "(\(microseconds(time)), \(id)) < (\($0.microseconds), \($0.id))" } ?? "TRUE"
    }

    /// A page of at most `limit` items out of `rows` (asked for `limit + 1`, each with its cursor),
    /// and the cursor of the page after it, nil on the last.
    static func page<Item>(_ rows: [(item: Item, cursor: PageCursor)], limit: Int) -> (items: [Item], next: PageCursor?) {
        guard rows.count > limit else { return (rows.map(\.item), nil) }
        return (rows.prefix(limit).map(\.item), rows[limit - 1].cursor)
    }
}
