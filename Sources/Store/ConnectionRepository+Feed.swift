import ConstellationModel
import Foundation

/// A connection as the personal feed reads it: both ends, each as the other sees it, and who
/// scanned to make it.
public struct FedConnection: Sendable, Equatable {
    public let id: Int64
    public let a: Profile
    public let b: Profile
    public let connectedAt: Date
    public let eventId: UUID?
    /// The end whose scan made the connection (nil when no scan did, as for an import).
    public let scanner: UUID?

    /// The ends to tell of the connection: the one who was scanned, not the one who scanned and
    /// already knows (both when no scan made it).
    public var toldEnds: [UUID] {
        [a.id, b.id].filter { $0 != scanner }
    }

    /// The connection as `profile`, one of its ends, sees it: the other end is the peer.
    public func seen(by profile: UUID) -> Connection {
        Connection(id: id, peer: a.id == profile ? b : a, connectedAt: connectedAt, eventId: eventId)
    }
}

extension ConnectionRepository {
    /// The newest connection's id (0 with none): where a personal feed starts.
    public func latestConnectionId() async throws -> Int64 {
        try await database.withConnection { connection in
            try connection.query("SELECT coalesce(max(id), 0) AS id FROM connections")[0].int("id")
        }
    }

    /// Connections with an id above `id` (up to `last`), or among `awaited` (ids skipped earlier
    /// that may have committed since), in id order; when `profile` is given, only those it is to be
    /// told of (`FedConnection.toldEnds`: it is an end and did not scan to make it).
    public func connections(
        after id: Int64, through last: Int64? = nil, orAmong awaited: [Int64] = [], involving profile: UUID? = nil, limit: Int
    ) async throws -> [FedConnection] {
        let awaitedArray = "{" + awaited.map(String.init).joined(separator: ",") + "}"
        return try await database.withConnection { connection in
            try connection.query(
                """
                SELECT c.id, c.created_at, c.event_id, r.scanner_id,
                       pa.id AS a_id, pa.display_name AS a_name, pa.headline AS a_headline, pa.created_at AS a_created_at,
                       pb.id AS b_id, pb.display_name AS b_name, pb.headline AS b_headline, pb.created_at AS b_created_at
                FROM connections c JOIN profiles pa ON pa.id = c.profile_a JOIN profiles pb ON pb.id = c.profile_b
                LEFT JOIN redemptions r ON r.connection_id = c.id AND r.created
                WHERE ((c.id > \(id) AND c.id <= \(last ?? Int64.max)) OR c.id = ANY(\(awaitedArray)::bigint[]))
                  AND (\(profile)::uuid IS NULL
                       OR ((c.profile_a = \(profile) OR c.profile_b = \(profile)) AND r.scanner_id IS DISTINCT FROM \(profile)))
                ORDER BY c.id LIMIT \(Int64(limit))
                """
            ).map { row in
                func end(_ prefix: String) throws(PostgresError) -> Profile {
                    Profile(
                        id: try row.uuid("\(prefix)_id"), displayName: try row.string("\(prefix)_name"),
                        headline: try row.optionalString("\(prefix)_headline"), createdAt: try row.date("\(prefix)_created_at"))
                }
                return FedConnection(
                    id: try row.int("id"), a: try end("a"), b: try end("b"), connectedAt: try row.date("created_at"),
                    eventId: try row.optionalUUID("event_id"), scanner: try row.optionalUUID("scanner_id"))
            }
        }
    }
}
