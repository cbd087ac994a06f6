import ConstellationModel
import Foundation

/// A pair that connected at an event, as its live feed tells it: in the order the pairs were
/// recorded (`seq`), with the names of those of the two who chose to be named there.
public struct FedPair: Sendable, Equatable {
    public let seq: Int64
    public let a: UUID
    public let b: UUID
    public let firstAt: Date
    /// `a`'s display name if `a` chose `named` at the event, else nil.
    public let nameA: String?
    public let nameB: String?
    /// `a`'s display name if `a` chose to be labelled by name on the event's walls, else nil.
    public var wallNameA: String? = nil
    public var wallNameB: String? = nil
}

/// Where an event's pairs stand: the newest `seq`, the pairs' revision (bumped when pairs go or
/// move) and the members' choices' revision (bumped when someone stops being named or shown).
public struct FeedPosition: Sendable, Equatable {
    public var seq, revision, choices: Int64

    public init(seq: Int64, revision: Int64, choices: Int64) {
        self.seq = seq
        self.revision = revision
        self.choices = choices
    }
}

extension EventRepository {
    /// The event's newest pair number and its two revisions; nil when there is no such event,
    /// `StoreError.eventPurged` once its purge began. Two index lookups, whatever the event's size.
    public func feedPosition(of event: UUID) async throws -> FeedPosition? {
        try await database.withConnection { connection in
            let row = try connection.query(
                """
                SELECT e.pairs_revision AS revision, e.choices_revision AS choices, e.purged_at IS NOT NULL AS purged,
                       (SELECT coalesce(max(seq), 0) FROM event_connections WHERE event_id = e.id) AS last
                FROM events e WHERE e.id = \(event)
                """
            ).first
            guard let row else { return nil }
            if try row.bool("purged") { throw StoreError.eventPurged }
            return FeedPosition(seq: try row.int("last"), revision: try row.int("revision"), choices: try row.int("choices"))
        }
    }

    /// The event's pairs numbered after `seq` (up to `through`, if given) or among `awaited` (numbers
    /// skipped earlier, whose pairs may have committed since), in order of number, at most `limit`:
    /// ranges of the (event, seq) index. None once the event's purge began.
    public func pairs(of event: UUID, after seq: Int64, through last: Int64? = nil, orAmong awaited: [Int64] = [], limit: Int) async throws
        -> [FedPair]
    {
        let awaitedArray = "{" + awaited.map(String.init).joined(separator: ",") + "}"
        return try await database.withConnection { connection in
            try connection.query(
                """
                SELECT c.seq, c.profile_a, c.profile_b, c.first_at,
                       CASE WHEN ma.visibility = 'named' THEN pa.display_name END AS name_a,
                       CASE WHEN mb.visibility = 'named' THEN pb.display_name END AS name_b,
                       CASE WHEN ma.wall_name THEN pa.display_name END AS wall_name_a,
                       CASE WHEN mb.wall_name THEN pb.display_name END AS wall_name_b
                FROM event_connections c
                LEFT JOIN event_members ma ON ma.event_id = c.event_id AND ma.profile_id = c.profile_a
                LEFT JOIN event_members mb ON mb.event_id = c.event_id AND mb.profile_id = c.profile_b
                LEFT JOIN profiles pa ON pa.id = c.profile_a
                LEFT JOIN profiles pb ON pb.id = c.profile_b
                WHERE c.event_id = \(event) AND (SELECT e.purged_at FROM events e WHERE e.id = \(event)) IS NULL
                  AND ((c.seq > \(seq) AND c.seq <= \(last ?? Int64.max)) OR c.seq = ANY(\(awaitedArray)::bigint[]))
                ORDER BY c.seq LIMIT \(Int64(limit))
                """
            ).map { row in
                FedPair(
                    seq: try row.int("seq"), a: try row.uuid("profile_a"), b: try row.uuid("profile_b"),
                    firstAt: try row.date("first_at"), nameA: try row.optionalString("name_a"), nameB: try row.optionalString("name_b"),
                    wallNameA: try row.optionalString("wall_name_a"), wallNameB: try row.optionalString("wall_name_b"))
            }
        }
    }
}
