import Foundation

extension ProfileRepository {
    /// Revokes every token `profile` issued up to `moment`: from now on only tokens issued at or
    /// after the returned instant redeem. Tokens state `iat` in whole seconds, so that instant is
    /// the whole second after `moment`; it never moves back (a clock that steps back cannot revive
    /// revoked tokens). Nil when there is no such profile.
    public func resetTokens(of profile: UUID, at moment: Date) async throws -> Date? {
        let validFrom = Date(timeIntervalSince1970: moment.timeIntervalSince1970.rounded(.down) + 1)
        return try await database.withConnection { connection in
            try connection.query(
                """
                UPDATE profiles SET tokens_valid_from = GREATEST(tokens_valid_from, \(validFrom))
                WHERE id = \(profile) RETURNING tokens_valid_from
                """
            ).first.map { try $0.date("tokens_valid_from") }
        }
    }

    /// Erases `profile` and everything that names it: its API keys, its connections (both ends),
    /// the redemptions it made and those that made its connections, its tokens' use counts.
    /// Returns whether the profile existed. Erasures run one at a time: two people who met remove
    /// the same rows and revise the same events, each in its cascade's own order, and deadlocked
    /// when they erased themselves at once.
    public func erase(_ profile: UUID) async throws -> Bool {
        try await database.withTransaction { connection in
            // A two-key advisory lock, in a space apart from the events' (1, event) locks.
            try connection.query("SELECT pg_advisory_xact_lock(2, 0)")
            let events = try connection.query("SELECT event_id FROM event_members WHERE profile_id = \(profile)").map {
                row throws(PostgresError) in try row.uuid("event_id")
            }
            // Its row, then its events' (those of its pairs and of its memberships), before its
            // rows go: the order a block and a leave take them in.
            try connection.query("SELECT 1 FROM profiles WHERE id = \(profile) FOR UPDATE")
            try EventRepository.lockEvents(
                ofConnections: "c.profile_a = \(profile) OR c.profile_b = \(profile)", alsoOf: profile, on: connection)
            // Foreign keys cascade from profiles to api_keys, connections, token_uses and
            // redemptions (by scanner, and by connection); the tests check no row names it afterwards.
            let existed = !(try connection.query("DELETE FROM profiles WHERE id = \(profile) RETURNING id").isEmpty)
            // The shared pictures of its events place it (or one under way will). Cleared last, as
            // a member leaving clears them last: first, they deadlocked with anyone leaving one of
            // its events (the picture's row held here, the event's there, each waiting for the other).
            try EventPictureRepository.clear(where: "event_id = ANY(\(events)) OR \(profile) = ANY(people)", on: connection)
            return existed
        }
    }
}
