import ConstellationModel
import Foundation

/// Profiles and the API keys that authenticate them.
public struct ProfileRepository: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Creates a profile with the hash of its first API key (the device `deviceName`), in one transaction.
    /// With `joining`, the new profile also becomes an attendee of that event, in the same
    /// transaction, if `code` is still the event's join code (else nothing is created:
    /// `StoreError.invalidJoinCode`, or `unknownEvent`).
    public func create(
        displayName: String, headline: String?, apiKeyHash: [UInt8], deviceName: String? = nil,
        joining: (event: UUID, code: JoinCodeAttempt)? = nil
    ) async throws -> (profile: Profile, device: Device, event: MyEvent?) {
        try await database.withTransaction { connection in
            let event = try joining.map { try EventRepository.checkJoinCode($0.code, of: $0.event, on: connection) }
            let (profile, device) = try Self.insert(
                displayName: displayName, headline: headline, apiKeyHash: apiKeyHash, deviceName: deviceName, on: connection)
            return (profile, device, try event.map { try EventRepository.join($0, profile: profile.id, on: connection).membership })
        }
    }

    /// Inserts a profile and the hash of its first API key, in the caller's transaction.
    static func insert(
        displayName: String, headline: String?, apiKeyHash: [UInt8], deviceName: String? = nil, on connection: PostgresConnection
    ) throws(PostgresError) -> (profile: Profile, device: Device) {
        let rows = try connection.query(
            """
            INSERT INTO profiles (display_name, headline) VALUES (\(displayName), \(headline)) RETURNING id
            """)
        let (profile, device) = try DeviceRepository.addKey(apiKeyHash, named: deviceName, to: try rows[0].uuid("id"), on: connection)
        return (profile, device)
    }

    /// The profile whose live API key hashes to `apiKeyHash`, and what minting needs to know of it.
    /// Marks the key used this hour, writing at most once an hour per key.
    public func authenticate(apiKeyHash: [UInt8]) async throws -> Credential? {
        try await database.withConnection { connection in
            try connection.query(
                """
                WITH key AS (
                    SELECT k.id, k.profile_id, k.last_used_at FROM api_keys k
                    WHERE k.key_hash = \(ByteString(apiKeyHash)) AND k.revoked_at IS NULL),
                touched AS (
                    UPDATE api_keys SET last_used_at = date_trunc('hour', now())
                    WHERE id = (SELECT id FROM key WHERE last_used_at IS NULL OR last_used_at < date_trunc('hour', now())))
                SELECT \(Profile.columns), p.tokens_valid_from, key.id AS device_id FROM key JOIN profiles p ON p.id = key.profile_id
                """
            ).first.map { row throws(PostgresError) in
                Credential(
                    profile: try Profile(row: row), deviceId: try row.uuid("device_id"),
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

    /// The profile with `id` as `viewer` may see it: nil when there is none, or when either has
    /// blocked the other (a block hides each from the other everywhere).
    public func profile(id: UUID, seenBy viewer: UUID) async throws -> Profile? {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT \(Profile.columns) FROM profiles p WHERE p.id = \(id) AND NOT EXISTS (
                    SELECT 1 FROM blocks b
                    WHERE (b.blocker_id = \(viewer) AND b.blocked_id = p.id) OR (b.blocker_id = p.id AND b.blocked_id = \(viewer))
                )
                """
            ).first.map(Profile.init(row:))
        }
    }

    /// Changes the given fields; `headline: .some(nil)` clears the headline.
    public func update(id: UUID, displayName: String?, headline: String??) async throws -> Profile? {
        try await database.withConnection { connection in
            try connection.query(
                """
                WITH p AS (
                    UPDATE profiles SET
                        display_name = COALESCE(\(displayName), display_name),
                        headline = CASE WHEN \(headline != nil) THEN \(headline ?? nil) ELSE headline END,
                        updated_at = now()
                    WHERE id = \(id) RETURNING *)
                SELECT \(Profile.columns) FROM p
                """
            ).first.map(Profile.init(row:))
        }
    }
}

/// An authenticated API key's profile, and the earliest `iat` its new tokens may carry (its QR
/// reset's `tokens_valid_from`; nil: never reset).
public struct Credential: Sendable, Equatable {
    public let profile: Profile
    /// The device (API key) that authenticated.
    public let deviceId: UUID
    public let tokensValidFrom: Date?

    public init(profile: Profile, deviceId: UUID, tokensValidFrom: Date?) {
        self.profile = profile
        self.deviceId = deviceId
        self.tokensValidFrom = tokensValidFrom
    }
}
