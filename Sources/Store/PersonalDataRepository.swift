import ConstellationModel
import Foundation

/// Everything stored about one profile, gathered for its owner (`GET /v1/me/export`).
public struct PersonalDataRepository: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// `profile`'s data read from one snapshot (a read-only transaction), or nil when there is no
    /// such profile. Peers appear with their public fields only; API keys without their hashes.
    public func export(of profile: UUID, at moment: Date = Date()) async throws -> PersonalData? {
        try await database.withTransaction(readOnly: true) { connection in
            let rows = try connection.query(
                """
                SELECT \(Profile.columns), p.updated_at, p.tokens_valid_from FROM profiles p WHERE p.id = \(profile)
                """)
            guard let row = rows.first else { return nil }
            let apiKeys = try connection.query(
                "SELECT id, name, created_at, last_used_at, revoked_at FROM api_keys WHERE profile_id = \(profile) ORDER BY created_at, id"
            ).map { row throws(PostgresError) in
                PersonalData.APIKey(
                    id: try row.uuid("id"), name: try row.optionalString("name"), createdAt: try row.date("created_at"),
                    lastUsedAt: try row.optionalDate("last_used_at"), revokedAt: try row.optionalDate("revoked_at"))
            }
            let connections = try connection.query(
                """
                WITH mine AS (\(ConnectionRepository.annotated(of: profile)))
                SELECT mine.*, c.token_id FROM mine JOIN connections c ON c.id = mine.id ORDER BY mine.id
                """
            ).map { row throws(PostgresError) in
                let annotated = try Connection(annotatedRow: row)
                return PersonalData.Connection(
                    id: annotated.id, peer: annotated.peer, connectedAt: annotated.connectedAt, eventId: annotated.eventId,
                    tokenId: try row.string("token_id"), note: annotated.note, tags: annotated.tags ?? [])
            }
            let redemptions = try connection.query(
                """
                SELECT r.token_id, r.connection_id, r.created, r.scanned_at, r.redeemed_at, r.client_nonce,
                       CASE WHEN c.profile_a = \(profile) THEN c.profile_b ELSE c.profile_a END AS peer_id
                FROM redemptions r JOIN connections c ON c.id = r.connection_id
                WHERE r.scanner_id = \(profile)
                ORDER BY r.redeemed_at, r.token_id
                """
            ).map { row throws(PostgresError) in
                PersonalData.Redemption(
                    tokenId: try row.string("token_id"), connectionId: try row.int("connection_id"), peerId: try row.uuid("peer_id"),
                    createdConnection: try row.bool("created"), scannedAt: try row.date("scanned_at"),
                    redeemedAt: try row.date("redeemed_at"), clientNonce: try row.optionalString("client_nonce"))
            }
            let tokens = try connection.query(
                "SELECT token_id, uses, expires_at FROM token_uses WHERE owner_id = \(profile) ORDER BY expires_at, token_id"
            ).map { row throws(PostgresError) in
                PersonalData.Token(
                    tokenId: try row.string("token_id"), uses: Int(try row.int("uses")), expiresAt: try row.date("expires_at"))
            }
            return PersonalData(
                exportedAt: moment, profile: try Profile(row: row), profileUpdatedAt: try row.date("updated_at"),
                tokensValidFrom: try row.optionalDate("tokens_valid_from"), apiKeys: apiKeys,
                connections: connections, redemptions: redemptions, tokens: tokens,
                blocks: try BlockRepository.blocks(by: profile, on: connection),
                card: try ProfileRepository.card(of: profile, on: connection),
                events: try EventRepository.events(of: profile, on: connection))
        }
    }
}
