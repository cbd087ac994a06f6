import Foundation

extension ConnectionRepository {
    /// Forgets how many people redeemed codes that expired before `cutoff`, at most `limit` of
    /// them, on `connection`: a code past its expiry and the offline grace redeems no more, so its
    /// count answers nothing. (A scanner's replay is answered from `redemptions`, which stays.)
    /// Returns how many were forgotten.
    package static func forgetSpentCodes(expiredBefore cutoff: Date, limit: Int, on connection: PostgresConnection) throws -> Int {
        Int(
            try connection.query(
                """
                WITH spent AS (
                    DELETE FROM token_uses WHERE token_id IN (SELECT token_id FROM token_uses WHERE expires_at < \(cutoff) LIMIT \(limit))
                    RETURNING 1
                )
                SELECT count(*) AS n FROM spent
                """)[0].int("n"))
    }
}
