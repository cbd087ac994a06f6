import ConstellationModel
import Foundation

/// A verified token being redeemed by a scanner.
public struct RedemptionRequest: Sendable {
    public let tokenId: String
    public let ownerId: UUID
    public let scannerId: UUID
    public let eventId: UUID?
    public let expiresAt: Date
    public let scannedAt: Date
    public let clientNonce: String?
    /// How many different people may redeem one token.
    public let maximumUses: Int
    /// How long after its event's end an event token is still redeemed (the offline grace).
    public let eventGrace: TimeInterval

    public init(
        tokenId: String, ownerId: UUID, scannerId: UUID, eventId: UUID?, expiresAt: Date,
        scannedAt: Date, clientNonce: String?, maximumUses: Int, eventGrace: TimeInterval = 86_400
    ) {
        self.tokenId = tokenId
        self.ownerId = ownerId
        self.scannerId = scannerId
        self.eventId = eventId
        self.expiresAt = expiresAt
        self.scannedAt = scannedAt
        self.clientNonce = clientNonce
        self.maximumUses = maximumUses
        self.eventGrace = eventGrace
    }
}

/// Why a redemption was refused by the database's rules.
public enum RedemptionError: Error, Equatable, Sendable {
    /// The token has been redeemed by as many people as it may be.
    case tokenUsedUp
    /// The token's owner no longer exists.
    case unknownOwner
    /// A profile cannot connect to itself.
    case selfConnection
    /// The token names an event that does not exist.
    case unknownEvent
    /// The token's event ended longer ago than the offline grace.
    case eventEnded
    /// One of the two has blocked the other.
    case blocked
}

/// Connections between profiles and the redemptions that made them.
public struct ConnectionRepository: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Redeems a token: one transaction that counts the use, inserts the edge (if new) and the
    /// redemption. Idempotent per (token, scanner); unique constraints, not checks, decide races.
    /// An event token also makes the scanner an attendee of its event (if not a member yet; the
    /// owner is one, which minting checks) and records the pair in the event's graph: a pair that
    /// meets at two events is in both, with one edge in `connections`.
    public func redeem(_ request: RedemptionRequest) async throws -> Redemption {
        guard request.ownerId != request.scannerId else { throw RedemptionError.selfConnection }
        for _ in 0..<3 {
            do {
                return try await database.withTransaction { try Self.redeem(request, on: $0) }
            } catch is ConcurrentRedemption {
                // The same scanner's concurrent redemption committed first; the next pass answers with it.
            }
        }
        throw PostgresError(.server, message: "redemption did not settle after concurrent retries")
    }

    /// Throws `ConcurrentRedemption` when the same scanner's concurrent redemption committed first.
    private static func redeem(_ request: RedemptionRequest, on connection: PostgresConnection) throws -> Redemption {
        if let existing = try connection.query(
            "SELECT connection_id FROM redemptions WHERE token_id = \(request.tokenId) AND scanner_id = \(request.scannerId)"
        ).first {
            return Redemption(
                connection: try loadConnection(id: existing.int("connection_id"), peer: request.ownerId, on: connection),
                created: false, clientNonce: request.clientNonce)
        }
        // Lock both profiles against a concurrent block first, and only then look for one: a block
        // committed while this waited is seen by the next statement (see migrations/0004_blocks.sql).
        let (owner, scanner) = (request.ownerId, request.scannerId)
        let present = try connection.query("""
            SELECT id FROM profiles WHERE id IN (\(owner), \(scanner)) ORDER BY id FOR KEY SHARE
            """)
        guard present.count == 2 else { throw RedemptionError.unknownOwner }
        let blocked = try connection.query("""
            SELECT 1 FROM blocks
            WHERE (blocker_id = \(owner) AND blocked_id = \(scanner)) OR (blocker_id = \(scanner) AND blocked_id = \(owner))
            """)
        guard blocked.isEmpty else { throw RedemptionError.blocked }
        if let event = request.eventId {
            guard let row = try connection.query("SELECT ends_at FROM events WHERE id = \(event)").first else {
                throw RedemptionError.unknownEvent
            }
            guard Date() <= (try row.date("ends_at")).addingTimeInterval(request.eventGrace) else { throw RedemptionError.eventEnded }
        }
        do {
            let uses = try connection.query("""
                INSERT INTO token_uses (token_id, owner_id, uses, expires_at)
                VALUES (\(request.tokenId), \(request.ownerId), 1, \(request.expiresAt))
                ON CONFLICT (token_id) DO UPDATE SET uses = token_uses.uses + 1
                WHERE token_uses.uses < \(request.maximumUses) AND token_uses.owner_id = EXCLUDED.owner_id
                RETURNING uses
                """)
            guard !uses.isEmpty else { throw RedemptionError.tokenUsedUp }
            var created = true
            var edge = try connection.query("""
                INSERT INTO connections (profile_a, profile_b, token_id, event_id)
                VALUES (LEAST(\(owner), \(scanner)), GREATEST(\(owner), \(scanner)), \(request.tokenId), \(request.eventId))
                ON CONFLICT (profile_a, profile_b) DO NOTHING RETURNING id
                """)
            if edge.isEmpty {
                created = false
                edge = try connection.query("""
                    SELECT id FROM connections WHERE profile_a = LEAST(\(owner), \(scanner)) AND profile_b = GREATEST(\(owner), \(scanner))
                    """)
            }
            let connectionId = try edge[0].int("id")
            let inserted = try connection.query("""
                INSERT INTO redemptions (token_id, scanner_id, connection_id, created, scanned_at, client_nonce)
                VALUES (\(request.tokenId), \(scanner), \(connectionId), \(created), \(request.scannedAt), \(request.clientNonce))
                ON CONFLICT (token_id, scanner_id) DO NOTHING RETURNING token_id
                """)
            guard !inserted.isEmpty else { throw ConcurrentRedemption() }
            if let event = request.eventId {
                try connection.query("""
                    INSERT INTO event_members (event_id, profile_id, role) VALUES (\(event), \(scanner), 'attendee')
                    ON CONFLICT (event_id, profile_id) DO NOTHING
                    """)
                // The first time the pair met at this event: an offline scan synced late may be earlier
                // (a re-dated row takes a new `seq`, which tells cached growth to read the event again).
                try connection.query("""
                    INSERT INTO event_connections (event_id, profile_a, profile_b, connection_id, first_at)
                    VALUES (\(event), LEAST(\(owner), \(scanner)), GREATEST(\(owner), \(scanner)), \(connectionId), \(request.scannedAt))
                    ON CONFLICT (event_id, profile_a, profile_b) DO UPDATE SET first_at = EXCLUDED.first_at
                    WHERE EXCLUDED.first_at < event_connections.first_at
                    """)
            }
            return Redemption(
                connection: try loadConnection(id: connectionId, peer: request.ownerId, on: connection),
                created: created, clientNonce: request.clientNonce)
        } catch let error as PostgresError where error.sqlState == "23503" {
            throw RedemptionError.unknownOwner
        }
    }

    private static func loadConnection(id: Int64, peer: UUID, on connection: PostgresConnection) throws -> Connection {
        let rows = try connection.query("""
            SELECT c.id, c.created_at, c.event_id, \(Profile.columns)
            FROM connections c JOIN profiles p ON p.id = \(peer) WHERE c.id = \(id)
            """)
        guard let row = rows.first else { throw PostgresError(.decoding, message: "connection \(id) vanished") }
        return try Connection(row: row)
    }

    /// A page of `profile`'s connections, newest first, strictly older than `before` (a connection id).
    public func connections(of profile: UUID, before: Int64?, limit: Int) async throws -> ConnectionPage {
        try await database.withConnection { connection in
            let rows = try connection.query("""
                SELECT c.id, c.created_at, c.event_id, \(Profile.columns)
                FROM connections c
                JOIN profiles p ON p.id = CASE WHEN c.profile_a = \(profile) THEN c.profile_b ELSE c.profile_a END
                WHERE (c.profile_a = \(profile) OR c.profile_b = \(profile)) AND c.id < \(before ?? Int64.max)
                ORDER BY c.id DESC LIMIT \(limit + 1)
                """)
            let items = try rows.prefix(limit).map(Connection.init(row:))
            return ConnectionPage(items: items, nextCursor: rows.count > limit ? items.last.map { String($0.id) } : nil)
        }
    }

    /// `profile`, the people within `depth` (1 or 2) connections of it (at most `limit`, nearest
    /// first), and every edge among them; `truncated` says whether the limit cut people off.
    /// Two reads of one snapshot in a read-only transaction: it runs on a read-only replica too.
    public func neighbourhood(
        of profile: UUID, depth: Int = 1, limit: Int = 5_000
    ) async throws -> (profiles: [Profile], edges: [(UUID, UUID)], truncated: Bool) {
        precondition(depth == 1 || depth == 2, "depth is 1 or 2")
        let members = Self.members(of: profile, depth: depth, limit: limit)
        return try await database.withTransaction(readOnly: true) { connection in
            let rows = try connection.query("""
                \(members)
                SELECT \(Profile.columns), (SELECT count(*) FROM members) > \(limit) AS truncated
                FROM profiles p JOIN kept k ON k.id = p.id ORDER BY p.id
                """)
            let kept = try rows.map(Profile.init(row:))
            let edges = try connection.query("""
                \(members)
                SELECT profile_a, profile_b FROM connections
                WHERE profile_a IN (SELECT id FROM kept) AND profile_b IN (SELECT id FROM kept) ORDER BY id
                """
            ).map { row throws(PostgresError) in (try row.uuid("profile_a"), try row.uuid("profile_b")) }
            return (kept, edges, try rows.first?.bool("truncated") ?? false)
        }
    }

    /// A `WITH` clause naming `members (id, ring)`: `profile` (ring 0) and the people within
    /// `depth` connections, nearest ring first and ties by id, one more than `limit` to tell
    /// whether the limit cuts anyone off; and `kept (id)`: the first `limit` of them.
    private static func members(of profile: UUID, depth: Int, limit: Int) -> SQL {
        let secondRing: SQL = depth == 1 ? "" : """
            UNION ALL
            SELECT DISTINCT CASE WHEN c.profile_a = r.id THEN c.profile_b ELSE c.profile_a END, 2
            FROM connections c JOIN ring1 r ON c.profile_a = r.id OR c.profile_b = r.id
            """
        return """
            WITH ring1 AS (
                SELECT CASE WHEN profile_a = \(profile) THEN profile_b ELSE profile_a END AS id
                FROM connections WHERE profile_a = \(profile) OR profile_b = \(profile)
            ), members AS (
                SELECT id, min(ring) AS ring FROM (
                    SELECT \(profile) AS id, 0 AS ring UNION ALL SELECT id, 1 FROM ring1 \(secondRing)
                ) rings GROUP BY id ORDER BY min(ring), id LIMIT \(limit + 1)
            ), kept AS (
                SELECT id FROM members ORDER BY ring, id LIMIT \(limit)
            )
            """
    }
}

/// The same scanner redeemed the same token in a concurrent transaction that committed first.
private struct ConcurrentRedemption: Error {}

extension Connection {
    init(row: Row) throws(PostgresError) {
        self.init(
            id: try row.int("id"), peer: try Profile(row: row),
            connectedAt: try row.date("created_at"), eventId: try row.optionalUUID("event_id"))
    }
}
