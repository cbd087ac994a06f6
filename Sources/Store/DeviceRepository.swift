import ConstellationModel
import Foundation

/// A profile's devices (its API keys), the links that add one, and its recovery code.
public struct DeviceRepository: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// `profile`'s live devices, oldest first; `current` marks the asking one.
    public func devices(of profile: UUID, current: UUID) async throws -> [Device] {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT \(Device.columns) FROM api_keys k
                WHERE k.profile_id = \(profile) AND k.revoked_at IS NULL ORDER BY k.created_at, k.id
                """
            ).map { row throws(PostgresError) in try Device(row: row, current: current) }
        }
    }

    /// When `profile`'s recovery code was made; nil when it has none.
    public func recoveryCodeMade(of profile: UUID) async throws -> Date? {
        try await database.withConnection { connection in
            try connection.query("SELECT created_at FROM recovery_codes WHERE profile_id = \(profile)").first
                .map { row throws(PostgresError) in try row.date("created_at") }
        }
    }

    /// Renames `profile`'s live device `id`; nil when it has no such device.
    public func rename(_ id: UUID, of profile: UUID, to name: String, current: UUID) async throws -> Device? {
        try await database.withConnection { connection in
            try connection.query(
                """
                UPDATE api_keys k SET name = \(name)
                WHERE k.id = \(id) AND k.profile_id = \(profile) AND k.revoked_at IS NULL
                RETURNING \(Device.columns)
                """
            ).first.map { row throws(PostgresError) in try Device(row: row, current: current) }
        }
    }

    /// Revokes `profile`'s live device `id` at once, with the links it made that are not used yet
    /// and the recovery code it made; its last one only when `allowingLast`. The profile's live keys
    /// are locked first, so that two devices revoking each other at the same moment cannot leave the
    /// profile without a key by mistake.
    public func revoke(_ id: UUID, of profile: UUID, allowingLast: Bool) async throws {
        try await database.withTransaction { connection in
            let live = try connection.query(
                """
                SELECT id FROM api_keys WHERE profile_id = \(profile) AND revoked_at IS NULL ORDER BY id FOR UPDATE
                """
            ).map { row throws(PostgresError) in try row.uuid("id") }
            guard live.contains(id) else { throw StoreError.unknownDevice }
            guard live.count > 1 || allowingLast else { throw StoreError.lastDevice }
            try connection.query("UPDATE api_keys SET revoked_at = now() WHERE id = \(id)")
            try connection.query("DELETE FROM device_links WHERE created_by = \(id) AND used_at IS NULL")
            try connection.query("DELETE FROM recovery_codes WHERE created_by = \(id)")
        }
    }

    /// How many live devices (API keys) one profile may hold: far more than a person's devices, and
    /// a bound on the list of them. A device link is refused past it; a recovery code never is.
    public static let liveDeviceLimit = 20

    /// Records a new link for `profile`, made by its device `creator`, usable once until `expiresAt`;
    /// its id. `tooManyDevices` when the profile holds `liveDeviceLimit` devices already. The
    /// profile's links that expired over a day ago are forgotten meanwhile (their status is
    /// unknown from then on), so a profile's old links do not pile up.
    public func createLink(for profile: UUID, by creator: UUID, codeHash: [UInt8], expiresAt: Date) async throws -> UUID {
        try await database.withTransaction { connection in
            guard try Self.liveDevices(of: profile, on: connection) < Self.liveDeviceLimit else { throw StoreError.tooManyDevices }
            return try connection.query(
                """
                WITH forgotten AS (DELETE FROM device_links WHERE profile_id = \(profile) AND expires_at < now() - interval '1 day')
                INSERT INTO device_links (profile_id, created_by, code_hash, expires_at)
                VALUES (\(profile), \(creator), \(ByteString(codeHash)), \(expiresAt))
                RETURNING id
                """)[0].uuid("id")
        }
    }

    /// Whether `profile`'s link `id` was used, and by which device (while that one is live); nil
    /// when `profile` has no such link.
    public func link(_ id: UUID, of profile: UUID, now: Date = Date()) async throws -> DeviceLinkStatus? {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT l.id AS link_id, l.expires_at, l.used_at, \(Device.columns)
                FROM device_links l LEFT JOIN api_keys k ON k.id = l.device_id AND k.revoked_at IS NULL
                WHERE l.id = \(id) AND l.profile_id = \(profile)
                """
            ).first.map { row throws(PostgresError) in
                let expiresAt = try row.date("expires_at")
                let used = try row.optionalString("used_at") != nil
                let device = try row.optionalUUID("device_id") == nil ? nil : try Device(row: row, current: UUID())
                return DeviceLinkStatus(
                    id: try row.uuid("link_id"), state: used ? .used : expiresAt > now ? .pending : .expired,
                    expiresAt: expiresAt, device: device)
            }
        }
    }

    /// Uses the live link whose code hashes to `codeHash`: in one transaction, marks it used and
    /// gives its profile a new key (`keyHash`) named `deviceName`. Throws `StoreError` (and
    /// writes nothing) when there is no such link, or it was used, or it expired, or the profile
    /// holds `liveDeviceLimit` devices already.
    public func redeemLink(codeHash: [UInt8], keyHash: [UInt8], deviceName: String?) async throws -> (Profile, Device) {
        try await database.withTransaction { connection in
            let links = try connection.query(
                """
                SELECT id, profile_id, used_at IS NOT NULL AS used, expires_at <= now() AS expired
                FROM device_links WHERE code_hash = \(ByteString(codeHash)) FOR UPDATE
                """)
            guard let link = links.first else { throw StoreError.unknownDeviceLink }
            guard try !link.bool("used") else { throw StoreError.deviceLinkUsed }
            guard try !link.bool("expired") else { throw StoreError.deviceLinkExpired }
            let owner = try link.uuid("profile_id")
            guard try Self.liveDevices(of: owner, on: connection) < Self.liveDeviceLimit else { throw StoreError.tooManyDevices }
            let (profile, device) = try Self.addKey(keyHash, named: deviceName, to: owner, on: connection)
            try connection.query("UPDATE device_links SET used_at = now(), device_id = \(device.id) WHERE id = \(try link.uuid("id"))")
            return (profile, device)
        }
    }

    /// Gives `profile` a recovery code hashing to `codeHash`, made by its device `creator`,
    /// replacing (voiding) the one it had.
    public func setRecoveryCode(of profile: UUID, by creator: UUID, codeHash: [UInt8]) async throws -> Date {
        try await database.withConnection { connection in
            try connection.query(
                """
                INSERT INTO recovery_codes (profile_id, created_by, code_hash) VALUES (\(profile), \(creator), \(ByteString(codeHash)))
                ON CONFLICT (profile_id) DO UPDATE SET code_hash = EXCLUDED.code_hash, created_by = EXCLUDED.created_by, created_at = now()
                RETURNING created_at
                """)[0].date("created_at")
        }
    }

    /// Uses the recovery code hashing to `codeHash`: in one transaction, deletes it (a code works
    /// once) and gives its profile a new key. Throws `StoreError.unknownRecoveryCode` when there is
    /// none. Recovery is never refused: a profile that holds `liveDeviceLimit` devices already has
    /// the one used longest ago signed out (likely the one lost), and `signedOut` says so.
    public func redeemRecoveryCode(codeHash: [UInt8], keyHash: [UInt8], deviceName: String?) async throws -> (
        profile: Profile, device: Device, signedOut: UUID?
    ) {
        try await database.withTransaction { connection in
            let owners = try connection.query("DELETE FROM recovery_codes WHERE code_hash = \(ByteString(codeHash)) RETURNING profile_id")
            guard let owner = try owners.first?.uuid("profile_id") else { throw StoreError.unknownRecoveryCode }
            var signedOut: UUID?
            if try Self.liveDevices(of: owner, on: connection) >= Self.liveDeviceLimit {
                signedOut = try connection.query(
                    """
                    UPDATE api_keys SET revoked_at = now() WHERE id = (
                        SELECT id FROM api_keys WHERE profile_id = \(owner) AND revoked_at IS NULL
                        ORDER BY coalesce(last_used_at, created_at), id LIMIT 1)
                    RETURNING id
                    """
                ).first?.uuid("id")
            }
            let (profile, device) = try Self.addKey(keyHash, named: deviceName, to: owner, on: connection)
            return (profile, device, signedOut)
        }
    }

    /// How many live devices `profile` holds, its row locked until the transaction ends so that
    /// two devices added at once are counted one after the other.
    private static func liveDevices(of profile: UUID, on connection: PostgresConnection) throws(PostgresError) -> Int {
        try connection.query("SELECT 1 FROM profiles WHERE id = \(profile) FOR NO KEY UPDATE")
        return Int(
            try connection.query("SELECT count(*) AS live FROM api_keys WHERE profile_id = \(profile) AND revoked_at IS NULL")[0].int(
                "live"))
    }

    /// Stores a new key for `profile`, in the caller's transaction: the profile and the new device.
    static func addKey(
        _ keyHash: [UInt8], named name: String?, to profile: UUID, on connection: PostgresConnection
    ) throws(PostgresError) -> (Profile, Device) {
        let rows = try connection.query(
            """
            WITH k AS (INSERT INTO api_keys (key_hash, profile_id, name) VALUES (\(ByteString(keyHash)), \(profile), \(name)) RETURNING *)
            SELECT \(Profile.columns), \(Device.columns) FROM k JOIN profiles p ON p.id = k.profile_id
            """)
        let device = try Device(row: rows[0], current: try rows[0].uuid("device_id"))
        return (try Profile(row: rows[0]), device)
    }
}

extension Device {
    /// The columns `Device(row:current:)` reads, for an `api_keys` table aliased `k`.
    static let columns = SQL(unsafe: "k.id AS device_id, k.name AS device_name, k.created_at AS device_created_at, k.last_used_at")

    init(row: Row, current: UUID) throws(PostgresError) {
        let id = try row.uuid("device_id")
        self.init(
            id: id, name: try row.optionalString("device_name"), createdAt: try row.date("device_created_at"),
            lastUsedAt: try row.optionalString("last_used_at") == nil ? nil : try row.date("last_used_at"), current: id == current)
    }
}
