import Foundation

/// A pair that connected at an event, and when they first did there (`profileA < profileB`).
package struct EventPair: Sendable, Hashable {
    package let profileA: UUID
    package let profileB: UUID
    package let firstAt: Date

    package init(profileA: UUID, profileB: UUID, firstAt: Date) {
        self.profileA = profileA
        self.profileB = profileB
        self.firstAt = firstAt
    }
}

/// Which of an event's pairs a computation has seen (see `migrations/0009_pairs_by_transaction.sql`):
/// the event's count of updates and removals then, and where the read's snapshot stood: every
/// transaction before `xmin` had ended, and of the pairs from later ones it saw `recent`.
package struct EventPairsVersion: Sendable, Equatable {
    package let revision: Int64
    /// `pg_snapshot_xmin` of the read's snapshot: a pair inserted by an older transaction was seen.
    package let xmin: UInt64
    /// The pairs inserted by transactions from `xmin` on that the read saw.
    package let recent: Set<EventPair>
}

/// The event's pairs as they are now, relative to a version read before.
package enum EventPairsRead: Sendable {
    /// Nothing changed since that version.
    case unchanged
    /// Pairs were only added since: these, in order of first connection.
    case appended([EventPair], EventPairsVersion)
    /// Every pair, in order of first connection (no version given, or pairs were removed or re-dated).
    case all([EventPair], EventPairsVersion)
}

/// A member of an event as its organizers may see them: the display name, and whether they chose
/// to be seen by it.
package struct EventMemberView: Sendable, Equatable {
    package let profileId: UUID
    package let displayName: String
    package let named: Bool
    /// Whether they chose to be named on the event's walls too.
    package let onWall: Bool
    package let joinedAt: Date
}

/// What the event's growth and summary are computed from.
extension EventRepository {
    /// What changed in the event's pairs since `known`, from one snapshot: besides a row of
    /// `events`, one range read of `event_connections_by_transaction`.
    package func pairs(of event: UUID, since known: EventPairsVersion?) async throws -> EventPairsRead {
        try await database.withTransaction(readOnly: true) { connection in
            let (version, added) = try Self.pairsVersion(of: event, since: known, on: connection)
            guard let added else { return .all(try Self.pairs(of: event, on: connection), version) }
            return added.isEmpty ? .unchanged : .appended(added, version)
        }
    }

    /// The version of the event's pairs in this transaction's snapshot (revision -1: there is no
    /// such event), and the pairs added since `known`, in order of first connection: those of a
    /// transaction from `known.xmin` on that `known` did not see, late commits included. Nil when
    /// pairs did not only come (some went or were re-dated), or nothing is known: then only a whole
    /// read will do. `StoreError.eventPurged` once the event's purge began.
    ///
    /// Only the snapshot's `xmin` is used, not its list of running transactions, which a hot
    /// standby's `pg_current_snapshot()` leaves empty (it keeps them where that function does not look).
    static func pairsVersion(
        of event: UUID, since known: EventPairsVersion?, on connection: PostgresConnection
    ) throws -> (version: EventPairsVersion, added: [EventPair]?) {
        let head = try connection.query(
            """
            SELECT coalesce((SELECT pairs_revision FROM events WHERE id = \(event)), -1) AS revision,
                   coalesce((SELECT purged_at IS NOT NULL FROM events WHERE id = \(event)), false) AS purged,
                   pg_snapshot_xmin(pg_current_snapshot())::text AS xmin
            """)[0]
        if try head.bool("purged") { throw StoreError.eventPurged }
        let revision = try head.int("revision")
        let xmin = try Self.transaction(head, "xmin")
        let known = known?.revision == revision ? known : nil
        let recent: SQL = """
            SELECT profile_a, profile_b, first_at, xact::text AS xact FROM event_connections
            WHERE event_id = \(event) AND xact >= \(String(min(known?.xmin ?? xmin, xmin)))::xid8
            """
        var seen = Set<EventPair>()
        var added: [EventPair] = []
        for row in try connection.query(recent.plannedPerExecution()) {
            let pair = try EventPair(row: row)
            let xact = try Self.transaction(row, "xact")
            if xact >= xmin { seen.insert(pair) }
            if let known, xact >= known.xmin, !known.recent.contains(pair) { added.append(pair) }
        }
        let version = EventPairsVersion(revision: revision, xmin: xmin, recent: seen)
        return (version, known == nil ? nil : added.sorted(by: EventPair.inOrderOfFirstConnection))
    }

    /// A transaction id (`xid8`) read as text.
    private static func transaction(_ row: Row, _ column: String) throws(PostgresError) -> UInt64 {
        guard let id = UInt64(try row.string(column)) else {
            throw PostgresError(.decoding, message: "column '\(column)' is not a transaction id")
        }
        return id
    }

    /// The event's pairs and its members, from one snapshot; `StoreError.eventPurged` once its purge began.
    package func graph(of event: UUID) async throws -> (pairs: [EventPair], members: [EventMemberView]) {
        try await database.withTransaction(readOnly: true) { connection in
            try Self.requireUnpurged(event, on: connection)
            return try Self.graph(of: event, on: connection)
        }
    }

    /// The event's pairs and its members, in the caller's transaction, whatever its purge.
    package static func graph(
        of event: UUID, on connection: PostgresConnection
    ) throws(PostgresError) -> (pairs: [EventPair], members: [EventMemberView]) {
        (try Self.pairs(of: event, on: connection), try Self.memberViews(of: event, on: connection))
    }

    /// The event's members, with their names and choices, as its summary labels them.
    package func memberViews(of event: UUID) async throws -> [EventMemberView] {
        try await database.withTransaction(readOnly: true) { connection in
            try Self.requireUnpurged(event, on: connection)
            return try Self.memberViews(of: event, on: connection)
        }
    }

    private static func memberViews(of event: UUID, on connection: PostgresConnection) throws(PostgresError) -> [EventMemberView] {
        try connection.query(
            """
            SELECT m.profile_id, p.display_name, m.visibility = 'named' AS named, m.wall_name AS on_wall, m.joined_at
            FROM event_members m JOIN profiles p ON p.id = m.profile_id
            WHERE m.event_id = \(event)
            """
        ).map { row throws(PostgresError) in
            EventMemberView(
                profileId: try row.uuid("profile_id"), displayName: try row.string("display_name"), named: try row.bool("named"),
                onWall: try row.bool("on_wall"), joinedAt: try row.date("joined_at"))
        }
    }

    /// How `requireUnpurged` holds the event's row until the transaction ends.
    enum EventRowLock: String {
        /// A read: no lock; it saw none of what a purge removes go (the mark commits first).
        case none = ""
        /// A write: a purge's mark waits for the write, or the write for the mark, and sees it.
        case share = "FOR SHARE"
        /// A write that changes the row too (a member leaving moves its revisions, by trigger): two
        /// such writes wait for each other, where two share locks each waiting to update it deadlocked.
        case change = "FOR NO KEY UPDATE"
    }

    /// Throws `StoreError.eventPurged` if, in this transaction's snapshot, the event's purge began,
    /// holding its row as `lock` says.
    static func requireUnpurged(_ event: UUID, on connection: PostgresConnection, lock: EventRowLock = .none) throws {
        let purged = try connection.query(
            "SELECT purged_at IS NOT NULL AS purged FROM events WHERE id = \(event) \(unsafeSQL: lock.rawValue)")
        if try purged.first?.bool("purged") == true { throw StoreError.eventPurged }
    }

    /// Takes, in id order, the rows of the events whose pairs are among the connections
    /// `connections` selects (a condition on `c`), and of `alsoOf`'s events, before the caller
    /// removes them: a removed pair or member revises its event (by trigger), and every change
    /// that does takes the event's row before the pair's (a leave, a purge round). Taken the
    /// other way, a disconnect or a block and a leave of the pair's event deadlocked.
    static func lockEvents(
        ofConnections connections: SQL, alsoOf member: UUID? = nil, on connection: PostgresConnection
    ) throws(PostgresError) {
        let membership: SQL = member.map { "OR id IN (SELECT event_id FROM event_members WHERE profile_id = \($0))" } ?? ""
        try connection.query(
            """
            SELECT 1 FROM events
            WHERE id IN (SELECT ec.event_id FROM event_connections ec JOIN connections c ON c.id = ec.connection_id WHERE \(connections))
              \(membership)
            ORDER BY id FOR NO KEY UPDATE
            """)
    }

    private static func pairs(of event: UUID, on connection: PostgresConnection) throws(PostgresError) -> [EventPair] {
        try connection.query(
            """
            SELECT profile_a, profile_b, first_at FROM event_connections WHERE event_id = \(event)
            ORDER BY first_at, profile_a, profile_b
            """
        ).map(EventPair.init(row:))
    }
}

extension EventPair {
    init(row: Row) throws(PostgresError) {
        self.init(profileA: try row.uuid("profile_a"), profileB: try row.uuid("profile_b"), firstAt: try row.date("first_at"))
    }

    /// The order of `ORDER BY first_at, profile_a, profile_b`.
    static func inOrderOfFirstConnection(_ x: EventPair, _ y: EventPair) -> Bool {
        if x.firstAt != y.firstAt { return x.firstAt < y.firstAt }
        if x.profileA != y.profileA { return x.profileA.postgresOrder < y.profileA.postgresOrder }
        return x.profileB.postgresOrder < y.profileB.postgresOrder
    }
}
