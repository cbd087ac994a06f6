import ConstellationModel
import Hummingbird

/// The paging convention of every list that can grow without bound: `?limit=` from 1 to 200 (50
/// unless given, else 400 `invalid_limit`) and `?cursor=`, the previous page's `nextCursor` as it
/// was given (one this server did not give is 400 `invalid_cursor`); the last page has no
/// `nextCursor`.
struct PageQuery {
    static let limits = 1...200
    static let defaultLimit = 50

    let limit: Int
    let cursor: String?

    init(_ parameters: Parameters) throws {
        limit =
            try parameters.get("limit").map { text in
                guard let value = Int(text), Self.limits.contains(value) else {
                    throw Problem(.invalidLimit, detail: "limit must be an integer from 1 to 200")
                }
                return value
            } ?? Self.defaultLimit
        cursor = parameters.get("cursor")
    }

    /// The cursor read by `read`, nil without one; 400 `invalid_cursor` when `read` cannot.
    func cursor<Cursor>(_ read: (String) -> Cursor?) throws -> Cursor? {
        try cursor.map { text in
            guard let cursor = read(text) else { throw Problem(.invalidCursor, detail: "cursor is not one this server gave") }
            return cursor
        }
    }
}
