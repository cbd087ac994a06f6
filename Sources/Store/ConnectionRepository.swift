import ConstellationModel
import Foundation

/// A verified token being redeemed by a scanner.
public struct RedemptionRequest: Sendable {
    public let tokenId: String
    public let ownerId: UUID
    public let scannerId: UUID
    public let eventId: UUID?
    /// The token's `iat`: a token issued before its owner's QR reset is refused.
    public let issuedAt: Date
    public let expiresAt: Date
    public let scannedAt: Date
    public let clientNonce: String?
    /// How many different people may redeem one token.
    public let maximumUses: Int
    /// How long after its event's end an event token is still redeemed (the offline grace).
    public let eventGrace: TimeInterval

    public init(
        tokenId: String, ownerId: UUID, scannerId: UUID, eventId: UUID?, issuedAt: Date, expiresAt: Date,
        scannedAt: Date, clientNonce: String?, maximumUses: Int, eventGrace: TimeInterval = 7_200
    ) {
        self.tokenId = tokenId
        self.ownerId = ownerId
        self.scannerId = scannerId
        self.eventId = eventId
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.scannedAt = scannedAt
        self.clientNonce = clientNonce
        self.maximumUses = maximumUses
        self.eventGrace = eventGrace
    }
}

/// Connections between profiles and the redemptions that made them.
public struct ConnectionRepository: Sendable {
    let database: Database
    private let redemptions: RedemptionQueue

    /// Redemptions go to `database` in batches (`RedemptionQueue`).
    public init(database: Database) {
        self.database = database
        redemptions = RedemptionQueue { requests in await Self.redeem(requests, on: database) }
    }

    /// Redeems a token: the database function `redeem_token` (see
    /// `migrations/0006_redeem_function.sql`) checks the owner's QR reset, answers a re-scan as
    /// before, refuses a blocked pair or an ended event, counts the use under its cap and inserts
    /// the edge (if new) and the redemption, all in one transaction. Idempotent per (token,
    /// scanner); unique constraints, not checks, decide races. An event token also makes the
    /// scanner an attendee of its event and records the pair in the event's graph: a pair that
    /// meets at two events is in both, with one edge in `connections`. Concurrent redemptions
    /// are committed together (`RedemptionQueue`); the answer comes once this one has committed.
    public func redeem(_ request: RedemptionRequest) async throws -> Redemption {
        guard request.ownerId != request.scannerId else { throw StoreError.selfConnection }
        return try await redemptions.redeem(request)
    }

    /// How many redemptions wait for the batch at the database, and how many went in batches.
    public func redemptionStatistics() -> RedemptionStatistics {
        redemptions.statistics()
    }

    /// A batch in one statement, in event and token order: batches count a token's uses in the
    /// same order, and lock events (a pair's first meeting moved earlier revises its event) in
    /// the same order. Should one of them raise an error that is its own (`isOneRedemptions`),
    /// the statement rolls back and each is redeemed again alone, so only that one fails; an
    /// error of the connection, the pool or the time limit is every one's answer.
    private static func redeem(_ requests: [RedemptionRequest], on database: Database) async -> [Result<Redemption, any Error>] {
        guard requests.count > 1 else { return [await result { try await redeemAlone(requests[0], on: database) }] }
        let order = requests.indices.sorted {
            (requests[$0].eventId ?? noEvent, requests[$0].tokenId, $0) < (requests[$1].eventId ?? noEvent, requests[$1].tokenId, $1)
        }
        var results = [Result<Redemption, any Error>?](repeating: nil, count: requests.count)
        do {
            for row in try await database.query(redemptions(order.map { requests[$0] })) {
                let index = order[Int(try row.int("n")) - 1]
                results[index] = Result { try redemption(row, request: requests[index]) }
            }
        } catch let error as PostgresError where isOneRedemptions(error) {
            results = results.map { _ in nil }
        } catch {
            return requests.map { _ in .failure(error) }
        }
        // The batch rolled back, or a re-scan's connection went with a block committed meanwhile
        // (no row for it): those are redeemed again alone, as things are now.
        for index in requests.indices where results[index] == nil {
            results[index] = await result { try await redeemAlone(requests[index], on: database) }
        }
        return results.map { $0 ?? .failure(PostgresError(.decoding, message: "a redemption went unanswered")) }
    }

    /// Whether `error` may be one redemption's alone, which the others of its batch need not
    /// share: an exception `redeem_token` raised, a value refused (SQLSTATE classes 22, 23 and 54,
    /// or NUL in text, refused before sending), a conflict with another transaction (40001,
    /// 40P01, 55P03).
    private static func isOneRedemptions(_ error: PostgresError) -> Bool {
        guard error.kind == .server, let state = error.sqlState else { return error.kind == .invalidParameter }
        return state == concurrentRedemption || ["22", "23", "54"].contains(state.prefix(2)) || ["40001", "40P01", "55P03"].contains(state)
    }

    /// One redemption in its own statement, run again when the same scanner's concurrent
    /// redemption of the token committed first, or when a block removed the connection of a
    /// re-scan while it ran (the next pass answers with what is there now).
    private static func redeemAlone(_ request: RedemptionRequest, on database: Database) async throws -> Redemption {
        for _ in 0..<3 {
            do {
                if let row = try await database.query(redemptions([request])).first { return try redemption(row, request: request) }
            } catch let error as PostgresError where error.sqlState == concurrentRedemption {
                continue
            }
        }
        throw PostgresError(.server, message: "redemption did not settle after concurrent retries")
    }

    /// Where redemptions without an event go in a batch's order: first.
    private static let noEvent = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// The SQLSTATE `redeem_token` raises when the same scanner's concurrent redemption committed first.
    private static let concurrentRedemption = "CNR01"

    /// Redemptions in one statement, in their order (each sees what the ones before it wrote),
    /// numbered by `n` from 1, with each owner's card as shared with connections read in the same
    /// round trip (as JSON `[[kind, label, value], …]`; NULL, and nothing to decode, for the many
    /// with none). One statement text for any number: its values are arrays, so PostgreSQL
    /// plans it once per connection, where a `VALUES` list would be planned anew for every batch.
    private static func redemptions(_ requests: [RedemptionRequest]) -> SQL {
        func array<Value: PostgresBindable>(_ value: (RedemptionRequest) -> Value?) -> PostgresArray<Value> {
            PostgresArray(requests.map(value))
        }
        return """
            SELECT b.n, r.*, CASE WHEN r.outcome = 'ok' THEN (
                       SELECT json_agg(json_build_array(e.kind, e.label, e.value) ORDER BY e.position) FROM contact_entries e
                       WHERE e.profile_id = r.profile_id AND e.audience = 'connections') END AS card
            FROM unnest(\(array(\.tokenId)), \(array(\.ownerId)), \(array(\.scannerId)), \(array(\.eventId)), \(array(\.issuedAt)),
                        \(array(\.expiresAt)), \(array(\.scannedAt)), \(array(\.clientNonce)), \(array(\.maximumUses)),
                        \(array { Int($0.eventGrace.rounded(.up)) }))
                 WITH ORDINALITY AS b (token_id, owner_id, scanner_id, event_id, issued_at, expires_at, scanned_at, client_nonce,
                                       maximum_uses, grace, n)
            CROSS JOIN LATERAL redeem_token(
                b.token_id, b.owner_id, b.scanner_id, b.event_id, b.issued_at, b.expires_at, b.scanned_at, b.client_nonce,
                b.maximum_uses, b.grace) r
            """
    }

    /// `body`'s value or error.
    private static func result<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    /// What `redeem_token` answered: the connection, or the refusal it names.
    private static func redemption(_ row: Row, request: RedemptionRequest) throws -> Redemption {
        let outcome = try row.string("outcome")
        guard outcome == "ok" else { throw try refusal(outcome) }
        var answer = try Connection(row: row)
        answer.card = try ProfileRepository.sharedCard(json: row.optionalString("card"))
        return Redemption(connection: answer, created: try row.bool("created"), clientNonce: request.clientNonce)
    }

    /// The error a refusal `redeem_token` names stands for.
    private static func refusal(_ outcome: String) throws -> StoreError {
        switch outcome {
        case "token_revoked": .tokenRevoked
        case "blocked": .blocked
        case "unknown_owner": .unknownOwner
        case "unknown_event": .unknownEvent
        case "event_ended": .eventEnded
        case "event_purged": .eventPurged
        case "token_used_up": .tokenUsedUp
        default: throw PostgresError(.decoding, message: "redeem_token answered '\(outcome)'")
        }
    }

    /// Why a redemption of this code by a newcomer would be refused, read without writing anything:
    /// its owner is gone or reset their codes since it was issued, its event is gone, purged or ended past
    /// the grace, or it is used up. Nil when it would connect (as of now).
    public func refusal(
        ofCode tokenId: String, ownedBy owner: UUID, issuedAt: Date, event: UUID?, maximumUses: Int, eventGrace: TimeInterval
    ) async throws -> StoreError? {
        let outcome = try await database.query(
            """
            SELECT CASE
                WHEN p.id IS NULL THEN 'unknown_owner'
                WHEN p.tokens_valid_from IS NOT NULL AND \(issuedAt) < p.tokens_valid_from THEN 'token_revoked'
                WHEN \(event)::uuid IS NOT NULL AND e.id IS NULL THEN 'unknown_event'
                WHEN e.purged_at IS NOT NULL THEN 'event_purged'
                WHEN e.id IS NOT NULL AND now() > e.ends_at + make_interval(secs => \(Int(eventGrace))) THEN 'event_ended'
                WHEN coalesce(u.uses, 0) >= \(maximumUses) THEN 'token_used_up'
                ELSE 'ok' END AS outcome
            FROM (SELECT 1) AS one
            LEFT JOIN profiles p ON p.id = \(owner)
            LEFT JOIN events e ON e.id = \(event)
            LEFT JOIN token_uses u ON u.token_id = \(tokenId)
            """)[0].string("outcome")
        return outcome == "ok" ? nil : try Self.refusal(outcome)
    }

    /// A page of `profile`'s connections, newest first, strictly older than `before` (a connection id).
    public func connections(
        of profile: UUID, before: Int64?, limit: Int, filter: ConnectionFilter = ConnectionFilter()
    ) async throws -> ConnectionPage {
        // One snapshot: the list and what each person shares (a block committed between them cannot leak a card).
        try await database.withTransaction(readOnly: true) { connection in
            let rows = try connection.query(
                """
                \(Self.annotated(of: profile)) AND c.id < \(before ?? Int64.max) \(Self.conditions(filter))
                ORDER BY c.id DESC LIMIT \(limit + 1)
                """)
            let items = try Array(rows.prefix(limit).map(Connection.init(annotatedRow:))).withSharedCards(on: connection)
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
        // Planned per execution, at either depth: one person's network holds a few people, another's thousands.
        let profiles: SQL = """
            \(members)
            SELECT \(Profile.columns), (SELECT count(*) FROM members) > \(limit) AS truncated
            FROM profiles p JOIN kept k ON k.id = p.id ORDER BY p.id
            """
        let pairs: SQL = """
            \(members)
            SELECT profile_a, profile_b FROM connections
            WHERE profile_a IN (SELECT id FROM kept) AND profile_b IN (SELECT id FROM kept) ORDER BY id
            """
        return try await database.withTransaction(readOnly: true) { connection in
            let rows = try connection.query(profiles.plannedPerExecution())
            let kept = try rows.map(Profile.init(row:))
            let edges = try connection.query(pairs.plannedPerExecution()).map { row throws(PostgresError) in
                (try row.uuid("profile_a"), try row.uuid("profile_b"))
            }
            return (kept, edges, try rows.first?.bool("truncated") ?? false)
        }
    }

    /// A `WITH` clause naming `members (id, ring)`: `profile` (ring 0) and the people within
    /// `depth` connections but those who blocked `profile` or whom it blocked (a block removes the
    /// pair's edge, so they can only be in ring 2), nearest ring first and ties by id, one more than `limit` to tell
    /// whether the limit cuts anyone off; and `kept (id)`: the first `limit` of them.
    private static func members(of profile: UUID, depth: Int, limit: Int) -> SQL {
        let secondRing: SQL =
            depth == 1
            ? ""
            : """
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
                ) rings
                WHERE NOT EXISTS (
                    SELECT 1 FROM blocks b
                    WHERE (b.blocker_id = \(profile) AND b.blocked_id = rings.id) OR (b.blocker_id = rings.id AND b.blocked_id = \(profile))
                )
                GROUP BY id ORDER BY min(ring), id LIMIT \(limit + 1)
            ), kept AS (
                SELECT id FROM members ORDER BY ring, id LIMIT \(limit)
            )
            """
    }
}

extension Connection {
    init(row: Row) throws(PostgresError) {
        self.init(
            id: try row.int("id"), peer: try Profile(row: row),
            connectedAt: try row.date("created_at"), eventId: try row.optionalUUID("event_id"))
    }
}
