import ConstellationModel
import Foundation

/// An event's view links (`migrations/0010_view_links.sql`): made by its organizers, listed,
/// revoked, and live only while their maker organizes the event.
extension EventRepository {
    /// The condition on `view_links l` that a link stands: not revoked, and its maker still organizes its event.
    private static let standing: SQL = """
        l.revoked_at IS NULL AND EXISTS (
            SELECT 1 FROM event_members m WHERE m.event_id = l.event_id AND m.profile_id = l.created_by AND m.role = 'organizer')
        """
    /// The condition on `view_links l` that a link is live now: standing and not expired.
    private static let live: SQL = "l.expires_at > now() AND \(standing)"
    /// The columns `ViewLink(row:)` reads.
    private static let columns: SQL = """
        l.id, l.event_id, l.created_by, p.display_name, l.shows_names, l.screens, l.created_at, l.expires_at, l.longest_until
        """

    /// How many live view links an event may have: a link lights up to 50 screens, so this is
    /// far more than a venue's screens, and a bound on the event's list of links.
    public static let liveViewLinkLimit = 100

    /// Records a new link `id` of `event` made by `maker`, live until `expiresAt` and extendable up to
    /// `longestUntil` (its token's own expiry); `tooManyViewLinks` past `liveViewLinkLimit`. Links
    /// of the event past their longest a day ago or more are forgotten in the same statement.
    package func createViewLink(
        _ id: UUID, of event: UUID, by maker: UUID, showsNames: Bool, screens: Int, expiresAt: Date, longestUntil: Date
    ) async throws {
        try await database.withTransaction { connection in
            try Self.lockCappedLists(of: event, on: connection)
            let live = try connection.query("SELECT count(*) AS live FROM view_links l WHERE l.event_id = \(event) AND \(Self.live)")[0]
            guard try live.int("live") < Self.liveViewLinkLimit else { throw StoreError.tooManyViewLinks }
            _ = try connection.query(
                """
                WITH forgotten AS (DELETE FROM view_links WHERE event_id = \(event) AND longest_until < now() - interval '1 day')
                INSERT INTO view_links (id, event_id, created_by, shows_names, screens, expires_at, longest_until)
                VALUES (\(id), \(event), \(maker), \(showsNames), \(screens), \(expiresAt), \(longestUntil))
                """)
        }
    }

    /// Moves live link `id` of `event`'s expiry to `until`: the link as it now is, nil when the
    /// event has no such live link (revoked, expired, unknown, its maker gone: an expired link stays
    /// dead, as its open pages have stopped), `ViewLinkBeyondItsToken` when `until` is later than
    /// the link's token allows.
    package func extendViewLink(_ id: UUID, of event: UUID, until: Date) async throws -> ViewLink? {
        try await database.withTransaction { connection in
            guard
                let longest = try connection.query(
                    "SELECT l.longest_until FROM view_links l WHERE l.id = \(id) AND l.event_id = \(event) AND \(Self.live) FOR UPDATE"
                ).first
            else { return nil }
            let longestUntil = try longest.date("longest_until")
            guard until <= longestUntil else { throw ViewLinkBeyondItsToken(longestUntil: longestUntil) }
            return try connection.query(
                """
                WITH l AS (UPDATE view_links SET expires_at = \(until) WHERE id = \(id) RETURNING *)
                SELECT \(Self.columns) FROM l JOIN profiles p ON p.id = l.created_by
                """
            ).first.map(ViewLink.init(row:))
        }
    }

    /// Standing link `id`: its maker, how many screens it may light and until when; nil when it is
    /// unknown, revoked, or its maker no longer organizes its event. Whether it expired is the caller's to check.
    package func liveViewLink(_ id: UUID) async throws -> LiveViewLink? {
        try await database.withConnection { connection in
            try connection.query("SELECT l.created_by, l.screens, l.expires_at FROM view_links l WHERE l.id = \(id) AND \(Self.standing)")
                .first.map { row throws(PostgresError) in
                    LiveViewLink(
                        maker: try row.uuid("created_by"), screens: Int(try row.int("screens")), expiresAt: try row.date("expires_at"))
                }
        }
    }

    /// `event`'s live links, newest first.
    package func viewLinks(of event: UUID) async throws -> [ViewLink] {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT \(Self.columns) FROM view_links l JOIN profiles p ON p.id = l.created_by
                WHERE l.event_id = \(event) AND \(Self.live) ORDER BY l.created_at DESC, l.id
                """
            ).map(ViewLink.init(row:))
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

/// A standing view link as the server needs it for each request: who made it, how many screens it
/// may light, and until when.
public struct LiveViewLink: Sendable, Equatable {
    public let maker: UUID
    public let screens: Int
    public let expiresAt: Date
}

/// A view link cannot live past what its token allows: `longestUntil`.
public struct ViewLinkBeyondItsToken: Error, Equatable {
    public let longestUntil: Date
}

extension ViewLink {
    init(row: Row) throws(PostgresError) {
        self.init(
            id: try row.uuid("id"), eventId: try row.uuid("event_id"), createdBy: try row.uuid("created_by"),
            createdByName: try row.string("display_name"), showsNames: try row.bool("shows_names"), screens: Int(try row.int("screens")),
            createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"), longestUntil: try row.date("longest_until"))
    }
}
