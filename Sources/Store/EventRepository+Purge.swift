import ConstellationModel
import Foundation

/// An event whose purge is due or under way, and how far it went (`migrations/0021_event_purge.sql`).
package struct PurgeInProgress: Sendable, Equatable {
    package let event: UUID
    package let slug: String
    /// Whether the purge began: the event is refused everywhere from then on.
    package let marked: Bool
    /// Whether its record is kept: only then does anything go.
    package let recorded: Bool
}

/// What a purge kept of an event: its figures and its growth in five-minute steps.
package struct KeptRecord: Sendable, Equatable {
    package let computedAt: Date
    package let figures: EventFigures
    /// `[step, new connections, new people, people, connections, largest group]` per step.
    package let steps: [[Int]]

    package init(computedAt: Date, figures: EventFigures, steps: [[Int]]) {
        self.computedAt = computedAt
        self.figures = figures
        self.steps = steps
    }
}

/// What an event's record is made of (`EventRepository.record(of:)`): the one its purge kept, or,
/// before that, the pairs and members to compute it from.
package enum RecordSource: Sendable {
    case kept(KeptRecord)
    case graph(pairs: [EventPair], members: [EventMemberView])
}

/// The bounds of an event's purge date, from the server's settings.
public struct PurgeBounds: Sendable {
    /// How long after its end an event's codes still redeem: no purge before that.
    public let grace: Duration
    /// The longest an event's personal data may be kept after its end (or its import, if later).
    public let longest: Duration

    public init(grace: Duration, longest: Duration) {
        self.grace = grace
        self.longest = longest
    }

    /// The earliest date, on `events e`: the end and the grace, or now if later (never past the
    /// last instant the server reads, whatever a row holds).
    var earliest: SQL { earliest(endingAt: "e.ends_at") }
    /// The latest date, on `events e`.
    var latest: SQL { latest(endingAt: "e.ends_at") }

    /// The earliest date of `events e` if it ended at `end`.
    func earliest(endingAt end: SQL) -> SQL {
        "least(greatest(\(end) + make_interval(secs => \(grace.components.seconds)), now()), \(unsafeSQL: Self.lastReadable))"
    }

    /// The latest date of `events e` if it ended at `end`.
    func latest(endingAt end: SQL) -> SQL {
        """
        least(greatest(\(end), e.created_at) + make_interval(secs => \(grace.components.seconds + longest.components.seconds)),
              \(unsafeSQL: Self.lastReadable))
        """
    }

    /// The last instant of the year 9999, the schema's bound on every time it stores.
    private static let lastReadable = "'9999-12-31 23:59:59+00'::timestamptz"
}

/// Purges: an event's purge date, and the steps of its purge, each in the caller's transaction
/// (`Server.EventPurge` runs them). What goes and what stays is `docs/data-model.md`'s table.
extension EventRepository {
    /// `event`'s purge date and the bounds it may move within; nil when there is no such event.
    public func purgeDate(of event: UUID, bounds: PurgeBounds) async throws -> PurgeDate? {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT e.id, e.purge_on, e.purged_at, \(bounds.earliest) AS earliest, \(bounds.latest) AS latest
                FROM events e WHERE e.id = \(event)
                """
            ).first.map(PurgeDate.init(row:))
        }
    }

    /// Moves `event`'s purge date to `date` if `caller` organizes it, its purge has not begun, and
    /// `date` is within the bounds: `purgeDateOutOfBounds`, `eventPurged` or `notAnOrganizer` else.
    public func setPurgeDate(of event: UUID, to date: Date, by caller: UUID, bounds: PurgeBounds) async throws -> PurgeDate {
        try await database.withTransaction { connection in
            try Self.requireOrganizer(caller, of: event, on: connection)
            let row = try connection.query(
                """
                SELECT e.purged_at IS NOT NULL AS purged, \(date) BETWEEN \(bounds.earliest) AND \(bounds.latest) AS within
                FROM events e WHERE e.id = \(event) FOR NO KEY UPDATE
                """)[0]
            guard try !row.bool("purged") else { throw StoreError.eventPurged }
            guard try row.bool("within") else { throw StoreError.purgeDateOutOfBounds }
            return try PurgeDate(
                row: try connection.query(
                    """
                    UPDATE events e SET purge_on = \(date), purge_on_chosen = true WHERE e.id = \(event)
                    RETURNING e.id, e.purge_on, e.purged_at, \(bounds.earliest) AS earliest, \(bounds.latest) AS latest
                    """)[0])
        }
    }

    /// Begins `event`'s purge now, on its organizer `caller`'s word: `eventNotOver` before its end
    /// and the grace, `eventPurged` if it began already. The rest is the background work's.
    public func purgeNow(_ event: UUID, by caller: UUID, bounds: PurgeBounds) async throws -> Event {
        try await database.withTransaction { connection in
            try Self.requireOrganizer(caller, of: event, on: connection)
            let row = try connection.query(
                """
                SELECT e.purged_at IS NOT NULL AS purged, now() >= e.ends_at + make_interval(secs => \(bounds.grace.components.seconds)) AS over
                FROM events e WHERE e.id = \(event)
                """)[0]
            guard try !row.bool("purged") else { throw StoreError.eventPurged }
            guard try row.bool("over") else { throw StoreError.eventNotOver }
            try connection.query("UPDATE events SET purge_on = now() WHERE id = \(event)")
            // Of several asking at once, the first marks it; the others find it marked.
            guard try Self.markPurged(event, on: connection) else { throw StoreError.eventPurged }
            return try Event(row: try connection.query("SELECT \(Event.columns) FROM events e WHERE e.id = \(event)")[0])
        }
    }

    /// The next purge to work on, other than those `skipping`: one that began and did not finish
    /// first (a purge killed midway goes on), then the one due the longest.
    package static func nextPurge(on connection: PostgresConnection, skipping: [UUID] = []) throws(PostgresError) -> PurgeInProgress? {
        try connection.query(
            """
            SELECT e.id, e.slug, e.purged_at IS NOT NULL AS marked,
                   EXISTS (SELECT 1 FROM event_records r WHERE r.event_id = e.id) AS recorded
            FROM events e
            WHERE e.purge_finished_at IS NULL AND (e.purged_at IS NOT NULL OR e.purge_on <= now())
              AND NOT e.id = ANY(\(skipping))
            ORDER BY e.purged_at NULLS LAST, e.purge_on, e.id LIMIT 1
            """
        ).first.map { row throws(PostgresError) in
            PurgeInProgress(
                event: try row.uuid("id"), slug: try row.string("slug"), marked: try row.bool("marked"),
                recorded: try row.bool("recorded"))
        }
    }

    /// Marks `event` purged if its date has come: whether it did (a date moved later just before
    /// is kept). Its row is taken FOR UPDATE first: that waits for the redemptions counting for it
    /// (each holds it FOR KEY SHARE until it commits) and for the writes that check it (FOR SHARE),
    /// and every later one sees the mark.
    @discardableResult
    package static func markPurged(_ event: UUID, on connection: PostgresConnection) throws(PostgresError) -> Bool {
        try connection.query("SELECT 1 FROM events WHERE id = \(event) FOR UPDATE")
        return
            !(try connection.query(
                "UPDATE events SET purged_at = now() WHERE id = \(event) AND purged_at IS NULL AND purge_on <= now() RETURNING 1"
            ).isEmpty)
    }

    /// Keeps `record` as what is left of `event` (the first one kept stays).
    package static func keep(_ record: KeptRecord, of event: UUID, on connection: PostgresConnection) throws {
        let figures = record.figures
        let steps = String(decoding: try JSONEncoder().encode(record.steps), as: UTF8.self)
        try connection.query(
            """
            INSERT INTO event_records (event_id, computed_at, people, connections, attendees, connected_share, peak_hour,
                                       peak_hour_connections, communities, modularity, largest_component, growth)
            VALUES (\(event), \(record.computedAt), \(figures.people), \(figures.connections), \(figures.attendees),
                    \(figures.connectedShare), \(figures.peakHour?.start), \(figures.peakHour?.newConnections), \(figures.communities),
                    \(figures.modularity), \(figures.largestComponent), \(steps)::jsonb)
            ON CONFLICT (event_id) DO NOTHING
            """)
    }

    /// What `event`'s record is made of, from one snapshot: the record its purge kept, or, while
    /// there is none (the event is still whole then), its pairs and members.
    package func record(of event: UUID) async throws -> RecordSource {
        try await database.withTransaction(readOnly: true) { connection in
            if let kept = try Self.keptRecord(of: event, on: connection) { return .kept(kept) }
            let (pairs, members) = try Self.graph(of: event, on: connection)
            return .graph(pairs: pairs, members: members)
        }
    }

    /// What was kept of `event` when it was purged; nil before.
    static func keptRecord(of event: UUID, on connection: PostgresConnection) throws -> KeptRecord? {
        guard
            let row = try connection.query(
                """
                SELECT computed_at, people, connections, attendees, connected_share::text AS share, peak_hour,
                       peak_hour_connections, communities, modularity::text AS modularity, largest_component,
                       growth::text AS growth
                FROM event_records WHERE event_id = \(event)
                """
            ).first
        else { return nil }
        return try KeptRecord(row: row)
    }

    /// Removes up to `limit` rows of what a purge removes from `event` (its pairs first, then its
    /// attendees): how many. At 0, what is left (invitations, view links, the join code, the
    /// organizers' choices) goes, and the purge is finished.
    package static func removeSome(of event: UUID, limit: Int, on connection: PostgresConnection) throws(PostgresError) -> Int {
        // The event's row before its picture's, as every change that revises the event takes them
        // (an erasure's cascade, a leave): in the other order, a purge round and an erasure deadlocked.
        try connection.query("SELECT 1 FROM events WHERE id = \(event) FOR NO KEY UPDATE")
        // Its shared picture names people: it goes first (a picture under way is not saved: `save`).
        try EventPictureRepository.clear(where: "event_id = \(event) AND people IS NOT NULL", on: connection)
        let pairs = try connection.query(
            """
            DELETE FROM event_connections WHERE event_id = \(event)
              AND seq IN (SELECT seq FROM event_connections WHERE event_id = \(event) LIMIT \(limit))
            RETURNING 1
            """
        ).count
        if pairs > 0 { return pairs }
        let attendees = try connection.query(
            """
            DELETE FROM event_members WHERE event_id = \(event) AND role = 'attendee'
              AND profile_id IN (SELECT profile_id FROM event_members WHERE event_id = \(event) AND role = 'attendee' LIMIT \(limit))
            RETURNING 1
            """
        ).count
        if attendees > 0 { return attendees }
        try connection.query("DELETE FROM organizer_invitations WHERE event_id = \(event)")
        try connection.query("DELETE FROM organizer_invitation_links WHERE event_id = \(event)")
        try connection.query("DELETE FROM view_links WHERE event_id = \(event)")
        // The organizers stay (the record is theirs to read), without any choices of an attendee.
        try connection.query(
            """
            UPDATE event_members SET visibility = 'pseudonymous', print_badge = false, wall_name = false
            WHERE event_id = \(event) AND (visibility <> 'pseudonymous' OR print_badge OR wall_name)
            """)
        try connection.query(
            """
            UPDATE events SET join_code_hash = NULL, join_code_rotation = NULL, purge_finished_at = now()
            WHERE id = \(event) AND purged_at IS NOT NULL
            """)
        return 0
    }

    /// `profile` leaves `event`: their membership and choices there go, and the event's pairs they
    /// are in (their connections stay, theirs). False when they were no member;
    /// `organizerCannotLeave` for an organizer (who steps down first); `eventPurged` once its purge began.
    public func leave(_ event: UUID, profile: UUID) async throws -> Bool {
        try await database.withTransaction { connection in
            try Self.requireUnpurged(event, on: connection, lock: .change)
            guard
                let row = try connection.query(
                    "SELECT role FROM event_members WHERE event_id = \(event) AND profile_id = \(profile) FOR UPDATE"
                ).first
            else { return false }
            guard try EventRole(row: row) == .attendee else { throw StoreError.organizerCannotLeave }
            let pairs = try connection.query(
                """
                DELETE FROM event_connections ec USING connections c
                WHERE ec.event_id = \(event) AND ec.connection_id = c.id AND (c.profile_a = \(profile) OR c.profile_b = \(profile))
                RETURNING 1
                """
            ).count
            try connection.query("DELETE FROM organizer_invitations WHERE event_id = \(event) AND profile_id = \(profile)")
            try connection.query("DELETE FROM event_members WHERE event_id = \(event) AND profile_id = \(profile)")
            // The event's shared picture placed them (or one under way will): the next is made
            // without them. Someone in no pair now is in none under way: the stored picture goes
            // only if it places them (their pairs removed since it was made), so that joining and
            // leaving over and over does not keep the event's picture from being stored.
            let placing: SQL = pairs > 0 ? "event_id = \(event)" : "event_id = \(event) AND \(profile) = ANY(people)"
            try EventPictureRepository.clear(where: placing, on: connection)
            return true
        }
    }
}

extension PurgeDate {
    init(row: Row) throws(PostgresError) {
        self.init(
            eventId: try row.uuid("id"), purgeOn: try row.date("purge_on"), purgedAt: try row.optionalDate("purged_at"),
            earliest: try row.date("earliest"), latest: try row.date("latest"))
    }
}

extension KeptRecord {
    init(row: Row) throws {
        let peak = try row.optionalDate("peak_hour")
        guard let share = Double(try row.string("share")), let modularity = Double(try row.string("modularity")),
            share.isFinite, modularity.isFinite
        else {
            throw PostgresError(.decoding, message: "an event record's figures are not numbers")
        }
        self.init(
            computedAt: try row.date("computed_at"),
            figures: EventFigures(
                people: Int(try row.int("people")), connections: Int(try row.int("connections")), attendees: Int(try row.int("attendees")),
                connectedShare: share,
                peakHour: try peak.map { EventSummary.Peak(start: $0, newConnections: Int(try row.int("peak_hour_connections"))) },
                communities: Int(try row.int("communities")), modularity: modularity,
                largestComponent: Int(try row.int("largest_component"))),
            steps: try Self.steps(row.string("growth")))
    }

    /// A record's growth as integers; a number that is not one (a fraction, beyond 64 bits) is a decoding error.
    private static func steps(_ json: String) throws(PostgresError) -> [[Int]] {
        do {
            return try JSONDecoder().decode([[Int]].self, from: Data(json.utf8))
        } catch {
            throw PostgresError(.decoding, message: "an event record's growth is not a series of integers")
        }
    }
}
