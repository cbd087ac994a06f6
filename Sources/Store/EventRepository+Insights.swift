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

/// A member of an event as its organizers may see them: the display name, and whether they chose
/// to be seen by it.
package struct EventMemberView: Sendable, Equatable {
    package let profileId: UUID
    package let displayName: String
    package let named: Bool
}

/// What the event's growth and summary are computed from.
extension EventRepository {
    /// The event's pairs, oldest first connection first, read with one indexed query in a
    /// read-only transaction.
    package func pairs(of event: UUID) async throws -> [EventPair] {
        try await database.withTransaction(readOnly: true) { connection in
            try Self.pairs(of: event, on: connection)
        }
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
            """).map { row throws(PostgresError) in
                EventPair(profileA: try row.uuid("profile_a"), profileB: try row.uuid("profile_b"), firstAt: try row.date("first_at"))
            }
    }
}
