import ConstellationModel
import Foundation

extension EventRepository {
    /// A member who asked the organizers to print their badge, and the earliest a code of theirs
    /// may be issued (after a QR reset).
    public struct BadgeHolder: Sendable, Equatable {
        public let profile: Profile
        public let tokensValidFrom: Date?
    }

    /// How many members of `event` asked for their badge to be printed: what its sheet holds.
    public func badgeRequestCount(of event: UUID) async throws -> Int {
        try await database.withConnection { connection in
            Int(try connection.query("SELECT count(*) AS n FROM event_members WHERE event_id = \(event) AND print_badge")[0].int("n"))
        }
    }

    /// The members of `event` who asked for their badge to be printed (`print_badge`), by name;
    /// nobody else.
    public func badgeHolders(of event: UUID) async throws -> [BadgeHolder] {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT p.id AS profile_id, p.display_name, p.headline, p.created_at AS profile_created_at, p.tokens_valid_from
                FROM event_members m JOIN profiles p ON p.id = m.profile_id
                WHERE m.event_id = \(event) AND m.print_badge
                ORDER BY lower(p.display_name), p.id
                """
            ).map { row throws(PostgresError) in
                BadgeHolder(profile: try Profile(row: row), tokensValidFrom: try row.optionalDate("tokens_valid_from"))
            }
        }
    }
}
