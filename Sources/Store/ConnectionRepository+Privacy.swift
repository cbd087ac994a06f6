import ConstellationModel
import Foundation

extension ConnectionRepository {
    /// Removes the connection between `profile` and `peer`, and with it (by cascade) the
    /// redemptions that made it. Returns whether there was one; a profile is never connected to itself.
    public func remove(between profile: UUID, and peer: UUID) async throws -> Bool {
        guard profile != peer else { return false }
        return try await database.withTransaction { connection in
            // The two people, then the pair's events, then the pair, as a block takes them: a
            // redemption of the pair holds its people (key share) until it commits, and so is
            // waited for here rather than met halfway (it re-dating the pair waits for an event).
            try connection.query("SELECT 1 FROM profiles WHERE id IN (\(profile), \(peer)) ORDER BY id FOR UPDATE")
            let pair: SQL = "c.profile_a = LEAST(\(profile), \(peer)) AND c.profile_b = GREATEST(\(profile), \(peer))"
            try EventRepository.lockEvents(ofConnections: pair, on: connection)
            return !(try connection.query("DELETE FROM connections c WHERE \(pair) RETURNING id").isEmpty)
        }
    }

    /// Every connection of `profile` (or only the one with `peer`), newest first, unpaged, with
    /// `profile`'s notes and tags and what each peer shares with their connections: for exports.
    public func allConnections(of profile: UUID, peer: UUID? = nil) async throws -> [Connection] {
        let only: SQL = peer.map { "AND p.id = \($0)" } ?? ""
        return try await database.withTransaction(readOnly: true) { connection in
            try connection.query("\(Self.annotated(of: profile)) \(only) ORDER BY c.id DESC").map(Connection.init(annotatedRow:))
                .withSharedCards(on: connection)
        }
    }
}
