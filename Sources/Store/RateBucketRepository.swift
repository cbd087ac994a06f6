import Foundation

/// Token buckets kept in PostgreSQL (`rate_buckets`, migration 0024), for the rate limits every
/// server of a deployment counts together. A bucket holds up to its `capacity` and refills at
/// `perSecond`; the database's clock is the one clock. A bucket never seen is full, and a stored
/// one is read defensively: one written more than a minute in the future (a restored archive's)
/// counts as full, so no value can keep it empty.
public struct RateBucketRepository: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// One bucket: whose (a rule and its subject), how much it holds, how fast it refills.
    public struct Bucket: Sendable, Equatable {
        public let subject: String
        public let capacity: Int
        public let perSecond: Double

        public init(subject: String, capacity: Int, perSecond: Double) {
            self.subject = subject
            self.capacity = capacity
            self.perSecond = perSecond
        }

        /// Its tokens now, refilled since its row was written, as SQL on `rate_buckets AS b`.
        /// Written more than a minute ahead (a restored archive's): full. Written a moment ahead is
        /// a concurrent transaction's, begun after this one (`now()` is when a transaction began)
        /// and committed while this one waited for the row: nothing refilled since. Taken as full,
        /// as it once was, it let forty wrong join codes sent at once all through.
        fileprivate var refilled: SQL {
            """
            CASE WHEN b.updated > now() + interval '1 minute' THEN \(Double(capacity))
                 ELSE least(\(Double(capacity)), b.tokens + greatest(extract(epoch FROM now() - b.updated)::float8, 0) * \(perSecond)) END
            """
        }
    }

    /// Takes one token from each of `buckets` if every one has one, and returns nil; else takes
    /// none and returns how long until the first bucket found empty has one again.
    public func take(_ buckets: [Bucket]) async throws -> Duration? {
        guard !buckets.isEmpty else { return nil }
        do {
            try await database.withTransaction { connection in
                for bucket in buckets where try !Self.takeOne(from: bucket, evenIfEmpty: false, on: connection) {
                    // Thrown, so that the tokens taken from the buckets before it go back.
                    throw Empty(wait: try Self.wait(for: bucket, on: connection))
                }
            }
            return nil
        } catch let empty as Empty {
            return empty.wait
        }
    }

    /// The tokens each of `buckets` holds now (its capacity if it was never used), taking none.
    public func tokens(_ buckets: [Bucket]) async throws -> [Double] {
        try await database.withConnection { connection in
            try buckets.map { bucket throws(PostgresError) in try Self.tokens(of: bucket, on: connection) }
        }
    }

    /// Takes one token from each of `buckets`, down to none: for something that happened (a wrong guess).
    public func charge(_ buckets: [Bucket]) async throws {
        try await database.withTransaction { connection in
            for bucket in buckets {
                _ = try Self.takeOne(from: bucket, evenIfEmpty: true, on: connection)
            }
        }
    }

    /// Gives `bucket` back the token a `take` took, up to its capacity: for something that turned
    /// out not to count (a right join code, taken from the room for wrong ones before it was tried).
    public func refund(_ bucket: Bucket) async throws {
        try await database.withConnection { connection in
            try connection.query(
                """
                UPDATE rate_buckets AS b SET tokens = least(\(bucket.refilled) + 1, \(Double(bucket.capacity))), updated = now()
                WHERE subject = \(bucket.subject)
                """)
        }
    }

    /// Forgets up to `limit` buckets untouched since `before` (full again by then): how many.
    package static func forgetIdle(before: Date, limit: Int, on connection: PostgresConnection) throws(PostgresError) -> Int {
        try connection.query(
            """
            DELETE FROM rate_buckets WHERE subject IN (SELECT subject FROM rate_buckets WHERE updated < \(before) LIMIT \(limit))
            RETURNING 1
            """
        ).count
    }

    /// Takes a token from `bucket`: only if it holds one, or else down to none when `evenIfEmpty`;
    /// whether one was taken.
    private static func takeOne(from bucket: Bucket, evenIfEmpty: Bool, on connection: PostgresConnection) throws(PostgresError) -> Bool {
        try !connection.query(
            """
            INSERT INTO rate_buckets AS b (subject, tokens, updated) VALUES (\(bucket.subject), \(Double(bucket.capacity - 1)), now())
            ON CONFLICT (subject) DO UPDATE SET tokens = greatest(\(bucket.refilled) - 1, 0), updated = now()
            WHERE \(evenIfEmpty) OR \(bucket.refilled) >= 1
            RETURNING 1
            """
        ).isEmpty
    }

    private struct Empty: Error {
        let wait: Duration
    }

    private static func tokens(of bucket: Bucket, on connection: PostgresConnection) throws(PostgresError) -> Double {
        let row = try connection.query("SELECT \(bucket.refilled) AS tokens FROM rate_buckets AS b WHERE subject = \(bucket.subject)").first
        return try row.flatMap { row throws(PostgresError) in try row.optionalString("tokens").flatMap(Double.init) }
            ?? Double(bucket.capacity)
    }

    private static func wait(for bucket: Bucket, on connection: PostgresConnection) throws(PostgresError) -> Duration {
        .seconds(max(0, 1 - (try tokens(of: bucket, on: connection))) / bucket.perSecond)
    }
}
