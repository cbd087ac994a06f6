import ConstellationModel
import Foundation

extension Profile {
    /// The columns `Profile(row:)` reads, for a `profiles` table aliased `p`.
    static let columns = SQL(unsafe: "p.id AS profile_id, p.display_name, p.headline, p.created_at AS profile_created_at")

    init(row: Row) throws(PostgresError) {
        self.init(
            id: try row.uuid("profile_id"),
            displayName: try row.string("display_name"),
            headline: try row.optionalString("headline"),
            createdAt: try row.date("profile_created_at")
        )
    }
}
