import Foundation

/// Each event's latest picture as every server of a deployment shares it (`event_pictures`,
/// migration 0023): who is placed where, and a lease so that one server makes the next picture
/// at a time. Reads and writes go to the primary: a lease must be seen by every server at once.
/// The store keeps the places as bytes and does not read them; `Server` encodes them.
public struct EventPictureRepository: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// What is stored of an event's picture, without the picture itself.
    public struct Header: Sendable, Equatable {
        /// The lease generation that made the stored picture; nil when none is stored.
        public let pictureGeneration: Int64?
        /// The fingerprint of the people and pairs the stored picture placed.
        public let fingerprint: Int64?
        /// How long ago the stored picture was made, by the database's clock; nil when that is not
        /// a time in the past (a restored archive may say infinity, or next year).
        public let age: Duration?
        /// Whether a server holds the lease to make the next picture.
        public let leased: Bool
        /// The generation of the latest lease taken (a clear counts as one).
        public let leaseGeneration: Int64
    }

    /// A picture as stored: by whose lease it was made, what it placed, and how.
    public struct Picture: Sendable {
        /// The lease generation it was made under.
        public let generation: Int64
        public let fingerprint: Int64
        /// The people placed, in the picture's order.
        public let people: [UUID]
        /// 24 bytes per person, in the order of `people`.
        public let places: [UInt8]
        /// Pictures grown in a row since the last fresh layout.
        public let grownInARow: Int
        /// The pairs the last fresh layout drew (0 when a picture from before migration 0026 did not say).
        public let pairsWhenDrawnAfresh: Int
        public let warmStarted: Bool

        public init(
            generation: Int64, fingerprint: Int64, people: [UUID], places: [UInt8], grownInARow: Int, pairsWhenDrawnAfresh: Int,
            warmStarted: Bool
        ) {
            self.generation = generation
            self.fingerprint = fingerprint
            self.people = people
            self.places = places
            self.grownInARow = grownInARow
            self.pairsWhenDrawnAfresh = pairsWhenDrawnAfresh
            self.warmStarted = warmStarted
        }
    }

    /// The longest lease: one that ends later (a restored archive's, or a clock set far ahead) is
    /// held by nobody, so that it cannot keep an event's picture from being made again.
    public static let longestLease = Duration.seconds(3600)
    private static let longestLeaseSQL: SQL = "\(Int(longestLease / .seconds(1))) * interval '1 second'"

    /// The bytes each person's place takes in `Picture.places`.
    public static let bytesPerPlace = 24

    /// What is stored of `event`'s picture; nil when nothing ever was.
    public func header(of event: UUID) async throws -> Header? {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT picture_generation, fingerprint,
                       CASE WHEN isfinite(made_at) AND made_at <= now() THEN extract(epoch FROM now() - made_at)::float8 END AS age,
                       coalesce(lease_until > now() AND lease_until <= now() + \(Self.longestLeaseSQL), false) AS leased,
                       lease_generation
                FROM event_pictures WHERE event_id = \(event)
                """
            ).first.map { row throws(PostgresError) in
                Header(
                    pictureGeneration: try row.optionalInt("picture_generation").map(Int64.init),
                    fingerprint: try row.optionalInt("fingerprint").map(Int64.init),
                    age: try row.optionalString("age").flatMap(Double.init).map { .seconds(max(0, $0)) },
                    leased: try row.bool("leased"), leaseGeneration: try row.int("lease_generation"))
            }
        }
    }

    /// `event`'s stored picture, if there is one.
    public func picture(of event: UUID) async throws -> Picture? {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT picture_generation, fingerprint, people, places, grown_in_a_row, coalesce(pairs_when_drawn_afresh, 0),
                       warm_started
                FROM event_pictures WHERE event_id = \(event) AND people IS NOT NULL
                """,
                decoding: { row throws(PostgresError) in
                    Picture(
                        generation: try row.int64(0), fingerprint: try row.int64(1), people: try row.uuids(2),
                        places: try row.byteArray(3), grownInARow: Int(try row.int32(4)),
                        pairsWhenDrawnAfresh: Int(try row.int32(5)), warmStarted: try row.bool(6))
                }
            ).first
        }
    }

    /// Takes the lease to make `event`'s next picture for `duration`, as `maker`, if nobody holds
    /// it: the lease's generation, which `save` needs; nil when another server holds it (or the
    /// event is gone or being purged).
    public func takeLease(of event: UUID, maker: String, for duration: Duration) async throws -> Int64? {
        precondition(duration <= Self.longestLease, "a lease of at most an hour")
        let milliseconds = Int(duration / .milliseconds(1))
        return try await database.withTransaction { connection in
            // Held until the commit, as a redemption holds it: a purge marking the event waits.
            guard try Self.unpurged(event, on: connection) else { return nil }
            return try connection.query(
                """
                INSERT INTO event_pictures (event_id, lease_generation, lease_until, maker)
                VALUES (\(event), 1, now() + \(milliseconds) * interval '1 millisecond', \(String(maker.prefix(200))))
                ON CONFLICT (event_id) DO UPDATE SET
                    lease_generation = \(Self.next("event_pictures.lease_generation")), lease_until = EXCLUDED.lease_until,
                    maker = EXCLUDED.maker
                WHERE event_pictures.lease_until IS NULL OR event_pictures.lease_until <= now()
                    OR event_pictures.lease_until > now() + \(Self.longestLeaseSQL)
                RETURNING lease_generation
                """
            ).first.map { try $0.int("lease_generation") }
        }
    }

    /// Saves `picture` as `event`'s latest and gives the lease back, if the lease `picture.generation`
    /// is still the latest taken (compare-and-set) and everyone it places is still in a pair of the
    /// event: false when not (the lease ran out and another server took it; a member's leaving or
    /// erasure cleared the picture since; or the graph it drew was read before one, from a replica
    /// behind the primary), and then nothing is written. Checked as a set difference, which
    /// PostgreSQL hashes at any size: `NOT IN` over the pairs' ends, once they passed its memory,
    /// scanned them again for every person (past 120 s at 100,000 people; 0.5 s so).
    public func save(_ picture: Picture, of event: UUID) async throws -> Bool {
        try await database.withTransaction { connection in
            guard try Self.unpurged(event, on: connection) else { return false }
            return
                !(try connection.query(
                    """
                    UPDATE event_pictures SET lease_until = NULL, picture_generation = lease_generation,
                        fingerprint = \(picture.fingerprint), people = \(picture.people), places = \(ByteString(picture.places)),
                        grown_in_a_row = \(picture.grownInARow), pairs_when_drawn_afresh = \(picture.pairsWhenDrawnAfresh),
                        warm_started = \(picture.warmStarted), made_at = now()
                    WHERE event_id = \(event) AND lease_generation = \(picture.generation)
                      AND NOT EXISTS (
                          SELECT id FROM unnest(\(picture.people)) AS placed (id)
                          EXCEPT SELECT profile_a FROM event_connections WHERE event_id = \(event)
                          EXCEPT SELECT profile_b FROM event_connections WHERE event_id = \(event))
                    RETURNING 1
                    """
                ).isEmpty)
        }
    }

    /// Gives the lease `generation` back without a picture (making it failed), if it is still the latest.
    public func release(_ event: UUID, generation: Int64) async throws {
        try await database.withConnection { connection in
            try connection.query(
                "UPDATE event_pictures SET lease_until = NULL WHERE event_id = \(event) AND lease_generation = \(generation)")
        }
    }

    /// Clears the stored pictures of events matching `condition` (the caller's SQL on
    /// `event_pictures`), and ends any lease on them: a picture under way is not saved.
    package static func clear(where condition: SQL, on connection: PostgresConnection) throws(PostgresError) {
        try connection.query(
            """
            UPDATE event_pictures SET lease_generation = \(Self.next("lease_generation")), lease_until = NULL, picture_generation = NULL,
                fingerprint = NULL, people = NULL, places = NULL, grown_in_a_row = NULL, pairs_when_drawn_afresh = NULL,
                warm_started = NULL, made_at = NULL
            WHERE \(condition)
            """)
    }

    /// The generation after `column`'s: one more, or 1 past the schema's bound (2^62, which a
    /// restored row may hold, where one more would break the row's check, and with it every lease,
    /// erasure, leave and purge of the event). A lease is matched by its generation; a server that
    /// kept a picture of a higher one before the wrap grows the next from it once, not from the
    /// stored one: a picture of the event all the same.
    private static func next(_ column: String) -> SQL {
        "CASE WHEN \(unsafeSQL: column) >= 4611686018427387904 THEN 1 ELSE \(unsafeSQL: column) + 1 END"
    }

    private static func unpurged(_ event: UUID, on connection: PostgresConnection) throws(PostgresError) -> Bool {
        !(try connection.query("SELECT 1 FROM events WHERE id = \(event) AND purged_at IS NULL FOR KEY SHARE").isEmpty)
    }
}
