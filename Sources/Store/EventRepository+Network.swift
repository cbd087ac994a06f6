import ConstellationModel
import Foundation

/// An event's graph as the store holds it: the people who connected there and the pairs.
public struct EventGraph: Sendable {
    public struct Person: Sendable {
        public let id: UUID
        public let displayName: String
        public let visibility: EventVisibility
    }

    public struct Pair: Sendable {
        public let a: UUID
        public let b: UUID
        /// When the pair first connected at the event.
        public let firstAt: Date
    }

    /// By profile id.
    public let people: [Person]
    /// By profile ids (a, then b): the order does not change as pairs' times move.
    public let pairs: [Pair]
}

extension EventRepository {
    /// The event's graph: everyone who connected at `event` (with their name and their choice of
    /// visibility there) and every pair that did, with when. Nil when more than `limit` people
    /// connected there (nothing else is read). One read-only transaction that creates nothing.
    public func graph(of event: UUID, limit: Int) async throws -> EventGraph? {
        let people: SQL = """
            WITH people AS (
                SELECT profile_a AS id FROM event_connections WHERE event_id = \(event)
                UNION SELECT profile_b FROM event_connections WHERE event_id = \(event)
            )
            """
        return try await database.withTransaction(readOnly: true) { connection in
            let count = try connection.query("\(people) SELECT count(*) AS n FROM people")[0].int("n")
            guard count <= limit else { return nil }
            let persons = try connection.query("""
                \(people)
                SELECT p.id, p.display_name, coalesce(m.visibility, 'pseudonymous') AS visibility
                FROM people k JOIN profiles p ON p.id = k.id
                LEFT JOIN event_members m ON m.event_id = \(event) AND m.profile_id = k.id
                ORDER BY p.id
                """).map { row throws(PostgresError) in
                    EventGraph.Person(id: try row.uuid("id"), displayName: try row.string("display_name"),
                                      visibility: try EventVisibility(row: row))
                }
            let pairs = try connection.query("""
                SELECT profile_a, profile_b, first_at FROM event_connections WHERE event_id = \(event) ORDER BY profile_a, profile_b
                """).map { row throws(PostgresError) in
                    EventGraph.Pair(a: try row.uuid("profile_a"), b: try row.uuid("profile_b"), firstAt: try row.date("first_at"))
                }
            return EventGraph(people: persons, pairs: pairs)
        }
    }

    /// Sets how `event`'s organizers see `profile`; nil when `profile` is not a member.
    public func setVisibility(_ visibility: EventVisibility, of profile: UUID, at event: UUID) async throws -> EventPrivacy? {
        try await database.withConnection { connection in
            guard let row = try connection.query("""
                UPDATE event_members SET visibility = \(visibility.rawValue)
                WHERE event_id = \(event) AND profile_id = \(profile) RETURNING role, visibility
                """).first else { return nil }
            return EventPrivacy(eventId: event, role: try EventRole(row: row), visibility: try EventVisibility(row: row))
        }
    }
}

extension EventVisibility {
    init(row: Row) throws(PostgresError) {
        guard let value = EventVisibility(rawValue: try row.string("visibility")) else {
            throw PostgresError(.decoding, message: "column 'visibility' is not named or pseudonymous")
        }
        self = value
    }
}
