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

/// Which of an event's pairs a computation has seen (see `migrations/0005_event_growth.sql`):
/// any pair added, removed or re-dated changes it.
package struct EventPairsVersion: Sendable, Equatable {
    package let revision: Int64
    package let count: Int64
    package let lastSequence: Int64
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
    /// index-only scan of the event's range; the pairs added since, one range read on the same index.
    package func pairs(of event: UUID, since known: EventPairsVersion?) async throws -> EventPairsRead {
        try await database.withTransaction(readOnly: true) { connection in
            let version = try Self.pairsVersion(of: event, on: connection)
            guard let known else { return .all(try Self.pairs(of: event, on: connection), version) }
            if version == known { return .unchanged }
            guard let added = try Self.pairs(of: event, addedSince: known, now: version, on: connection) else {
                return .all(try Self.pairs(of: event, on: connection), version)
            }
            return .appended(added, version)
        }
    }

    /// The version of the event's pairs now: one index-only scan of the event's range of the
    /// index (revision -1: there is no such event).
    static func pairsVersion(of event: UUID, on connection: PostgresConnection) throws(PostgresError) -> EventPairsVersion {
        let row = try connection.query("""
            SELECT coalesce((SELECT pairs_revision FROM events WHERE id = \(event)), -1) AS revision,
                   (SELECT count(*) FROM event_connections WHERE event_id = \(event)) AS n,
                   (SELECT coalesce(max(seq), 0) FROM event_connections WHERE event_id = \(event)) AS last
            """)[0]
        return EventPairsVersion(revision: try row.int("revision"), count: try row.int("n"), lastSequence: try row.int("last"))
    }

    /// The pairs added to the event between `known` and `version`, in order of first connection;
    /// nil when pairs did not only come (some went or were re-dated): then only a whole read will do.
    static func pairs(
        of event: UUID, addedSince known: EventPairsVersion, now version: EventPairsVersion, on connection: PostgresConnection
    ) throws(PostgresError) -> [EventPair]? {
        guard known.revision == version.revision else { return nil }
        let added = try connection.query("""
            SELECT profile_a, profile_b, first_at FROM event_connections
            WHERE event_id = \(event) AND seq > \(known.lastSequence) ORDER BY first_at, profile_a, profile_b
            """)
        // A row that committed after a higher-numbered one is not above the maximum: the count tells.
        guard known.count + Int64(added.count) == version.count else { return nil }
        return try added.map(EventPair.init(row:))
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
