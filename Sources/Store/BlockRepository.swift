import ConstellationModel
import Foundation

/// Who blocked whom. A block removes the pair's connection and keeps the two from connecting
/// again, whoever's token is scanned; see `migrations/0004_blocks.sql` for how a block and a
/// concurrent redemption order themselves.
public struct BlockRepository: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Blocks `blocked` for `blocker` and removes their connection, in one transaction.
    /// `created` is false when the block existed already (nothing changes then).
    public func block(_ blocked: UUID, by blocker: UUID) async throws -> (block: Block, created: Bool) {
        guard blocked != blocker else { throw StoreError.selfBlock }
        return try await database.withTransaction { connection in
            // Waits for a redemption of this pair in flight; a later one waits for this block.
            let locked = try connection.query(
                """
                SELECT id FROM profiles WHERE id IN (\(blocker), \(blocked)) ORDER BY id FOR UPDATE
                """)
            guard locked.count == 2 else { throw StoreError.unknownProfile }
            let inserted = try connection.query(
                """
                INSERT INTO blocks (blocker_id, blocked_id) VALUES (\(blocker), \(blocked))
                ON CONFLICT (blocker_id, blocked_id) DO NOTHING RETURNING created_at
                """)
            let pair: SQL = "c.profile_a = LEAST(\(blocker), \(blocked)) AND c.profile_b = GREATEST(\(blocker), \(blocked))"
            try EventRepository.lockEvents(ofConnections: pair, on: connection)
            try connection.query("DELETE FROM connections c WHERE \(pair)")
            let rows = try connection.query(
                """
                SELECT b.created_at, \(Profile.columns) FROM blocks b JOIN profiles p ON p.id = b.blocked_id
                WHERE b.blocker_id = \(blocker) AND b.blocked_id = \(blocked)
                """)
            return (try Block(row: rows[0]), !inserted.isEmpty)
        }
    }

    /// Lifts `blocker`'s block of `blocked`; false when there was none. The connection a block
    /// removed does not come back: the two connect again by scanning a fresh code.
    public func unblock(_ blocked: UUID, by blocker: UUID) async throws -> Bool {
        try await database.withConnection { connection in
            !(try connection.query(
                """
                DELETE FROM blocks WHERE blocker_id = \(blocker) AND blocked_id = \(blocked) RETURNING blocked_id
                """
            ).isEmpty)
        }
    }

    /// A page of the people `blocker` blocked, most recent first: at most `limit`, after `cursor`
    /// (the previous page's `next`), and the cursor of the page after it, if there is one.
    public func blocks(by blocker: UUID, after cursor: PageCursor? = nil, limit: Int) async throws -> (items: [Block], next: PageCursor?) {
        try await database.withConnection { connection in
            PageCursor.page(try Self.blocks(by: blocker, after: cursor, limit: limit + 1, on: connection), limit: limit)
        }
    }

    /// Every person `blocker` blocked, in the caller's transaction (for their personal data).
    static func blocks(by blocker: UUID, on connection: PostgresConnection) throws(PostgresError) -> [Block] {
        try blocks(by: blocker, after: nil, limit: nil, on: connection).map(\.item)
    }

    private static func blocks(
        by blocker: UUID, after cursor: PageCursor?, limit: Int?, on connection: PostgresConnection
    ) throws(PostgresError) -> [(item: Block, cursor: PageCursor)] {
        let bound: SQL = limit.map { "LIMIT \($0)" } ?? ""
        return try connection.query(
            """
            SELECT b.created_at, \(PageCursor.microseconds("b.created_at")) AS at_us, \(Profile.columns)
            FROM blocks b JOIN profiles p ON p.id = b.blocked_id
            WHERE b.blocker_id = \(blocker) AND \(PageCursor.after(cursor, time: "b.created_at", id: "b.blocked_id"))
            ORDER BY b.created_at DESC, b.blocked_id DESC \(bound)
            """
        ).map { row throws(PostgresError) in
            let block = try Block(row: row)
            return (block, PageCursor(microseconds: try row.int("at_us"), id: block.profile.id))
        }
    }
}

extension Block {
    init(row: Row) throws(PostgresError) {
        self.init(profile: try Profile(row: row), blockedAt: try row.date("created_at"))
    }
}
