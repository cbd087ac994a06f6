import ConstellationModel
import Foundation

/// An event's graph as the store holds it: the people who connected there and the pairs.
public struct EventGraph: Sendable {
    public struct Person: Sendable {
        public let id: UUID
        public let displayName: String
        public let visibility: EventVisibility
        /// Whether they chose to be labelled by name on the event's walls.
        public var onWall = false
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
    /// For each pair, where its two people are in `people`.
    public let ends: [(a: Int32, b: Int32)]
    /// The event, and which of its pairs these are: handed back to `graph(of:limit:since:)`, this
    /// graph lets the next read fetch only the pairs added since.
    let event: UUID
    let version: EventPairsVersion
}

extension EventGraph {
    /// This graph with only `shown` of its people, and the pairs among them (in order, as here).
    public func restricted(to shown: Set<UUID>) -> EventGraph {
        var place = [Int32](repeating: -1, count: people.count)
        var kept: [Person] = []
        for (index, person) in people.enumerated() where shown.contains(person.id) {
            place[index] = Int32(kept.count)
            kept.append(person)
        }
        var keptPairs: [Pair] = []
        var keptEnds: [(a: Int32, b: Int32)] = []
        for (pair, end) in zip(pairs, ends) where place[Int(end.a)] >= 0 && place[Int(end.b)] >= 0 {
            keptPairs.append(pair)
            keptEnds.append((place[Int(end.a)], place[Int(end.b)]))
        }
        return EventGraph(people: kept, pairs: keptPairs, ends: keptEnds, event: event, version: version)
    }
}

extension EventRepository {
    /// The event's graph: everyone who connected at `event` (with their name and their choice of
    /// visibility there) and every pair that did, with when. Nil when more than `limit` people
    /// connected there: their pairs are not read unless the pairs' count leaves that in doubt.
    /// One read-only transaction that creates nothing.
    ///
    /// With `known`, the event's graph as an earlier call returned it, only the pairs added since
    /// are read (all of them when some went or moved; see `EventPairsVersion`); names and choices
    /// of visibility are read afresh every time.
    public func graph(of event: UUID, limit: Int, since known: EventGraph? = nil) async throws -> EventGraph? {
        let known = known?.event == event ? known : nil
        return try await database.withTransaction(readOnly: true) { connection in
            let (version, added) = try Self.pairsVersion(of: event, since: known?.version, on: connection)
            let pairs: [EventGraph.Pair]
            let ids: [UUID]
            if let known, let added {
                if added.isEmpty {
                    guard known.people.count <= limit else { return nil }
                    let people = try Self.people(known.people.map(\.id), at: event, on: connection)
                    return EventGraph(people: people, pairs: known.pairs, ends: known.ends, event: event, version: version)
                }
                let new = added.map { EventGraph.Pair(a: $0.profileA, b: $0.profileB, firstAt: $0.firstAt) }
                (pairs, ids) = (EventGraph.Pair.merged(known.pairs, new), EventGraph.Pair.people(known.people.map(\.id), adding: new))
            } else {
                // Each person is a member: count the people who connected only if the members
                // might be too many (the members' count is index-only).
                let members = try connection.query("SELECT count(*) AS n FROM event_members WHERE event_id = \(event)")[0].int("n")
                if members > limit {
                    let count = try connection.query(
                        """
                        SELECT count(*) AS n FROM (
                            SELECT DISTINCT profile_a FROM event_connections WHERE event_id = \(event)
                            UNION SELECT DISTINCT profile_b FROM event_connections WHERE event_id = \(event)
                        ) people
                        """)[0].int("n")
                    guard count <= limit else { return nil }
                }
                pairs = EventGraph.Pair.sorted(
                    try connection.query(
                        """
                        SELECT profile_a, profile_b, first_at FROM event_connections WHERE event_id = \(event)
                        """,
                        decoding: { row throws(PostgresError) in
                            EventGraph.Pair(a: try row.uuid(0), b: try row.uuid(1), firstAt: try row.date(2))
                        }))
                ids = EventGraph.Pair.people(in: pairs)
            }
            guard ids.count <= limit else { return nil }
            let people = try Self.people(ids, at: event, on: connection)
            return EventGraph(people: people, pairs: pairs, ends: EventGraph.Pair.ends(of: pairs, in: ids), event: event, version: version)
        }
    }

    /// `graph` with its people's names and choices as they are now (a member changed how the event
    /// shows them): the same people, pairs and version, so that a picture made of it still fits.
    public func relabelled(_ graph: EventGraph) async throws -> EventGraph {
        try await database.withTransaction(readOnly: true) { connection in
            EventGraph(
                people: try Self.people(graph.people.map(\.id), at: graph.event, on: connection), pairs: graph.pairs, ends: graph.ends,
                event: graph.event, version: graph.version)
        }
    }

    /// `ids` (in order) with their names and their choice of visibility at `event`: members as they
    /// chose, anyone else (not expected: whoever connects at an event is a member) pseudonymous.
    /// Everyone is there, by `ids`' places (without a profile, which the foreign keys rule out, unnamed).
    private static func people(_ ids: [UUID], at event: UUID, on connection: PostgresConnection) throws(PostgresError) -> [EventGraph
        .Person]
    {
        var known: [UUID: EventGraph.Person] = [:]
        known.reserveCapacity(ids.count)
        for person in try connection.query(
            """
            SELECT m.profile_id, p.display_name, m.visibility, m.wall_name FROM event_members m JOIN profiles p ON p.id = m.profile_id
            WHERE m.event_id = \(event)
            """,
            decoding: { row throws(PostgresError) in
                guard let visibility = EventVisibility(rawValue: try row.string(2)) else {
                    throw PostgresError(.decoding, message: "column 'visibility' is not named or pseudonymous")
                }
                return EventGraph.Person(
                    id: try row.uuid(0), displayName: try row.string(1), visibility: visibility, onWall: try row.bool(3))
            })
        {
            known[person.id] = person
        }
        let others = ids.filter { known[$0] == nil }
        if !others.isEmpty {
            for person in try connection.query(
                "SELECT id, display_name FROM profiles WHERE id = ANY(\(others))",
                decoding: { row throws(PostgresError) in
                    EventGraph.Person(id: try row.uuid(0), displayName: try row.string(1), visibility: .pseudonymous)
                })
            {
                known[person.id] = person
            }
        }
        return ids.map { known[$0] ?? EventGraph.Person(id: $0, displayName: "", visibility: .pseudonymous) }
    }

    /// Sets `profile`'s choices at `event` (each left as it is when nil): how organizers see them,
    /// whether the organizers' badge sheet holds their badge, and whether the event's walls label
    /// them by name. Nil when not a member, or once the event's purge began.
    public func setChoices(
        visibility: EventVisibility?, printsBadge: Bool?, onWall: Bool? = nil, of profile: UUID, at event: UUID
    ) async throws -> EventPrivacy? {
        try await database.withConnection { connection in
            guard
                let row = try connection.query(
                    """
                    UPDATE event_members
                    SET visibility = coalesce(\(visibility?.rawValue), visibility), print_badge = coalesce(\(printsBadge), print_badge),
                        wall_name = coalesce(\(onWall), wall_name)
                    WHERE event_id = \(event) AND profile_id = \(profile)
                      AND (SELECT purged_at FROM events WHERE id = \(event)) IS NULL
                    RETURNING role, visibility, print_badge, wall_name
                    """
                ).first
            else { return nil }
            return EventPrivacy(
                eventId: event, role: try EventRole(row: row), visibility: try EventVisibility(row: row),
                printsBadge: try row.bool("print_badge"), onWall: try row.bool("wall_name"))
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
