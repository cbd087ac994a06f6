import ConstellationModel
import Foundation

extension Event {
    /// The columns `Event(row:)` reads, for an `events` table aliased `e`.
    static let columns = SQL(
        unsafe: "e.id AS event_id, e.slug, e.name AS event_name, e.starts_at, e.ends_at, e.time_zone, e.purge_on, e.purged_at")

    init(row: Row) throws(PostgresError) {
        self.init(
            id: try row.uuid("event_id"),
            slug: try row.string("slug"),
            name: try row.string("event_name"),
            startsAt: try row.date("starts_at"),
            endsAt: try row.date("ends_at"),
            timeZone: try row.string("time_zone"),
            purgeOn: try row.date("purge_on"),
            purgedAt: try row.optionalDate("purged_at")
        )
    }
}

extension EventRole {
    init(row: Row, column: String = "role") throws(PostgresError) {
        guard let role = EventRole(rawValue: try row.string(column)) else {
            throw PostgresError(.decoding, message: "column '\(column)' is not an event role")
        }
        self = role
    }
}

extension EventRole: PostgresBindable {
    package static var postgresType: String { "text" }
    package var postgresText: String { rawValue }
}
