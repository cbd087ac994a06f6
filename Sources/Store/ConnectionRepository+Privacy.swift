import ConstellationModel
import Foundation

extension ConnectionRepository {
    /// Removes the connection between `profile` and `peer`, and with it (by cascade) the
    /// redemptions that made it. Returns whether there was one; a profile is never connected to itself.
    public func remove(between profile: UUID, and peer: UUID) async throws -> Bool {
        guard profile != peer else { return false }
        return try await database.withConnection { connection in
            !(try connection.query("""
                DELETE FROM connections
                WHERE profile_a = LEAST(\(profile), \(peer)) AND profile_b = GREATEST(\(profile), \(peer))
                RETURNING id
                """).isEmpty)
        }
    }

    /// Every connection of `profile`, newest first, unpaged: for exports.
    public func allConnections(of profile: UUID) async throws -> [Connection] {
        try await database.withConnection { connection in
            try connection.query("""
                SELECT c.id, c.created_at, c.event_id, \(Profile.columns)
                FROM connections c
                JOIN profiles p ON p.id = CASE WHEN c.profile_a = \(profile) THEN c.profile_b ELSE c.profile_a END
                WHERE c.profile_a = \(profile) OR c.profile_b = \(profile)
                ORDER BY c.id DESC
                """).map(Connection.init(row:))
        }
    }
}
