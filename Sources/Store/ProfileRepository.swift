import ConstellationModel
import Foundation

/// Profiles and the API keys that authenticate them.
public struct ProfileRepository: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Creates a profile with the hash of its first API key, in one transaction.
    public func create(displayName: String, headline: String?, apiKeyHash: [UInt8]) async throws -> Profile {
        try await database.withTransaction { connection in
            try Self.insert(displayName: displayName, headline: headline, apiKeyHash: apiKeyHash, on: connection)
        }
    }

    /// Inserts a profile and the hash of its first API key, in the caller's transaction.
    static func insert(
        displayName: String, headline: String?, apiKeyHash: [UInt8], on connection: PostgresConnection
    ) throws(PostgresError) -> Profile {
        let rows = try connection.query("""
            WITH p AS (INSERT INTO profiles (display_name, headline) VALUES (\(displayName), \(headline)) RETURNING *)
            SELECT \(Profile.columns) FROM p
            """)
        let profile = try Profile(row: rows[0])
        try connection.query("INSERT INTO api_keys (key_hash, profile_id) VALUES (\(ByteString(apiKeyHash)), \(profile.id))")
        return profile
    }

    /// The profile whose live API key hashes to `apiKeyHash`, and what minting needs to know of it.
    public func authenticate(apiKeyHash: [UInt8]) async throws -> Credential? {
        try await database.withConnection { connection in
            try connection.query("""
                SELECT \(Profile.columns), p.tokens_valid_from FROM api_keys k JOIN profiles p ON p.id = k.profile_id
                WHERE k.key_hash = \(ByteString(apiKeyHash)) AND k.revoked_at IS NULL
                """).first.map { row throws(PostgresError) in
                    Credential(profile: try Profile(row: row),
                               tokensValidFrom: try row.optionalString("tokens_valid_from") == nil ? nil : try row.date("tokens_valid_from"))
                }
        }
    }

    public func profile(id: UUID) async throws -> Profile? {
        try await database.withConnection { connection in
            try connection.query("SELECT \(Profile.columns) FROM profiles p WHERE p.id = \(id)")
                .first.map(Profile.init(row:))
        }
    }

    /// Changes the given fields; `headline: .some(nil)` clears the headline.
    public func update(id: UUID, displayName: String?, headline: String??) async throws -> Profile? {
        try await database.withConnection { connection in
            try connection.query("""
                WITH p AS (
                    UPDATE profiles SET
                        display_name = COALESCE(\(displayName), display_name),
                        headline = CASE WHEN \(headline != nil) THEN \(headline ?? nil) ELSE headline END,
                        updated_at = now()
                    WHERE id = \(id) RETURNING *)
                SELECT \(Profile.columns) FROM p
                """).first.map(Profile.init(row:))
        }
    }
}

/// An authenticated API key's profile, and the earliest `iat` its new tokens may carry (its QR
/// reset's `tokens_valid_from`; nil: never reset).
public struct Credential: Sendable, Equatable {
    public let profile: Profile
    public let tokensValidFrom: Date?

    public init(profile: Profile, tokensValidFrom: Date?) {
        self.profile = profile
        self.tokensValidFrom = tokensValidFrom
    }
}
