import ConstellationModel
import Foundation

/// An event's view links (`migrations/0010_view_links.sql`): made by its organizers, listed,
/// revoked, and live only while their maker organizes the event.
extension EventRepository {
    /// The condition on `view_links l` that a link is live now.
    private static let live: SQL = """
        l.revoked_at IS NULL AND l.expires_at > now() AND EXISTS (
            SELECT 1 FROM event_members m WHERE m.event_id = l.event_id AND m.profile_id = l.created_by AND m.role = 'organizer')
        """

    /// Records a new link `id` of `event` made by `maker`; links of the event that expired a day
    /// ago or more are forgotten in the same statement.
    package func createViewLink(_ id: UUID, of event: UUID, by maker: UUID, showsNames: Bool, screens: Int, expiresAt: Date) async throws {
        try await database.withConnection { connection in
            _ = try connection.query(
                """
                WITH forgotten AS (DELETE FROM view_links WHERE event_id = \(event) AND expires_at < now() - interval '1 day')
                INSERT INTO view_links (id, event_id, created_by, shows_names, screens, expires_at)
                VALUES (\(id), \(event), \(maker), \(showsNames), \(screens), \(expiresAt))
                """)
        }
    }

    /// Live link `id`: its maker and how many screens it may light; nil when it is unknown,
    /// revoked, expired, or its maker no longer organizes its event.
    package func liveViewLink(_ id: UUID) async throws -> LiveViewLink? {
        try await database.withConnection { connection in
            try connection.query("SELECT l.created_by, l.screens FROM view_links l WHERE l.id = \(id) AND \(Self.live)").first.map {
                row throws(PostgresError) in LiveViewLink(maker: try row.uuid("created_by"), screens: Int(try row.int("screens")))
            }
        }
    }

    /// `event`'s live links, newest first.
    package func viewLinks(of event: UUID) async throws -> [ViewLink] {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT l.id, l.event_id, l.created_by, p.display_name, l.shows_names, l.screens, l.created_at, l.expires_at
                FROM view_links l JOIN profiles p ON p.id = l.created_by
                WHERE l.event_id = \(event) AND \(Self.live) ORDER BY l.created_at DESC, l.id
                """
            ).map { row throws(PostgresError) in
                ViewLink(
                    id: try row.uuid("id"), eventId: try row.uuid("event_id"), createdBy: try row.uuid("created_by"),
                    createdByName: try row.string("display_name"), showsNames: try row.bool("shows_names"),
                    screens: Int(try row.int("screens")), createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"))
            }
        }
    }

    /// Revokes `event`'s live link `id` (every live link with nil): the ids revoked.
    package func revokeViewLinks(of event: UUID, id: UUID? = nil) async throws -> [UUID] {
        let which: SQL = id.map { "AND l.id = \($0)" } ?? ""
        return try await database.withConnection { connection in
            try connection.query(
                """
                UPDATE view_links l SET revoked_at = now() WHERE l.event_id = \(event) \(which) AND \(Self.live) RETURNING l.id
                """
            ).map { row throws(PostgresError) in try row.uuid("id") }
        }
    }
}

/// A live view link as the server needs it for each request: who made it, and how many screens it may light.
public struct LiveViewLink: Sendable, Equatable {
    public let maker: UUID
    public let screens: Int
}
