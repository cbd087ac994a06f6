import Foundation

/// A pair that connected at an event, and when they first did there (`profileA < profileB`).
package struct EventPair: Sendable, Equatable {
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
/// the snapshot they were read in, and the event's count of updates and removals then.
package struct EventPairsVersion: Sendable, Equatable {
    package let revision: Int64
    /// `pg_current_snapshot()` of the read, as text: a pair is new to it when its transaction is not visible in it.
    package let snapshot: String
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
}

/// What the event's growth and summary are computed from.
extension EventRepository {
    /// What changed in the event's pairs since `known`, from one snapshot: the version costs one
    /// row of `events`; the pairs added since, one range read of `event_connections_by_transaction`.
    package func pairs(of event: UUID, since known: EventPairsVersion?) async throws -> EventPairsRead {
        try await database.withTransaction(readOnly: true) { connection in
            let version = try Self.pairsVersion(of: event, on: connection)
            guard let known, let added = try Self.pairs(of: event, addedSince: known, now: version, on: connection) else {
                return .all(try Self.pairs(of: event, on: connection), version)
            }
            return added.isEmpty ? .unchanged : .appended(added, version)
        }
    }

    /// The version of the event's pairs in this transaction's snapshot (revision -1: there is no such event).
    static func pairsVersion(of event: UUID, on connection: PostgresConnection) throws(PostgresError) -> EventPairsVersion {
        let row = try connection.query("""
            SELECT coalesce((SELECT pairs_revision FROM events WHERE id = \(event)), -1) AS revision,
                   pg_current_snapshot()::text AS snapshot
            """)[0]
        return EventPairsVersion(revision: try row.int("revision"), snapshot: try row.string("snapshot"))
    }

    /// The pairs added to the event between `known` and `version` (read in this transaction), in
    /// order of first connection: those whose transaction `known`'s snapshot did not see, late
    /// commits included. Nil when pairs did not only come (some went or were re-dated): then only a
    /// whole read will do.
    static func pairs(
        of event: UUID, addedSince known: EventPairsVersion, now version: EventPairsVersion, on connection: PostgresConnection
    ) throws(PostgresError) -> [EventPair]? {
        guard known.revision == version.revision else { return nil }
        let added: SQL = """
            SELECT profile_a, profile_b, first_at FROM event_connections
            WHERE event_id = \(event) AND xact >= pg_snapshot_xmin(\(known.snapshot)::pg_snapshot)
              AND NOT pg_visible_in_snapshot(xact, \(known.snapshot)::pg_snapshot)
            ORDER BY first_at, profile_a, profile_b
            """
        return try connection.query(added.plannedPerExecution()).map(EventPair.init(row:))
    }

    /// The event's pairs and its members, from one snapshot.
    package func graph(of event: UUID) async throws -> (pairs: [EventPair], members: [EventMemberView]) {
        try await database.withTransaction(readOnly: true) { connection in
            let pairs = try Self.pairs(of: event, on: connection)
            let members = try connection.query("""
                SELECT m.profile_id, p.display_name, m.visibility = 'named' AS named
                FROM event_members m JOIN profiles p ON p.id = m.profile_id
                WHERE m.event_id = \(event)
                """).map { row throws(PostgresError) in
                    EventMemberView(profileId: try row.uuid("profile_id"), displayName: try row.string("display_name"),
                                    named: try row.bool("named"))
                }
            return (pairs, members)
        }
    }

    private static func pairs(of event: UUID, on connection: PostgresConnection) throws(PostgresError) -> [EventPair] {
        try connection.query("""
            SELECT profile_a, profile_b, first_at FROM event_connections WHERE event_id = \(event)
            ORDER BY first_at, profile_a, profile_b
            """).map(EventPair.init(row:))
    }
}

extension EventPair {
    init(row: Row) throws(PostgresError) {
        self.init(profileA: try row.uuid("profile_a"), profileB: try row.uuid("profile_b"), firstAt: try row.date("first_at"))
    }
}
