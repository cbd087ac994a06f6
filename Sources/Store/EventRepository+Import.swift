import ConstellationModel
import Foundation

extension EventRepository {
    /// Loads `contacts` as a new event in one transaction: the event and its organizer (a new
    /// profile with an API key), an attendee profile per person, and per pair a connection made at
    /// the event (created at the first contact, token `import:<event id>`) and its row in the
    /// event's graph. Rows go in by COPY into temporary tables and set-based inserts from them,
    /// `batchSize` pairs at a time; `progress` hears how many pairs are in after each batch.
    /// Nothing is kept if anything fails: `EventError.slugTaken` when another event has the slug.
    public func importContacts(
        _ contacts: ContactImport, batchSize: Int = 50_000, progress: @escaping @Sendable (_ written: Int, _ total: Int) -> Void
    ) async throws -> (event: Event, organizer: Profile) {
        try await database.withTransaction { connection in
            try Self.skipForeignKeyChecksIfAllowed(on: connection)
            let organizer = try ProfileRepository.insert(
                displayName: contacts.organizerName, headline: nil, apiKeyHash: contacts.organizerKeyHash, on: connection)
            let fields = contacts.event
            let event = try Self.insert(
                id: contacts.eventId, slug: fields.slug, name: fields.name, startsAt: fields.startsAt, endsAt: fields.endsAt,
                timeZone: fields.timeZone, joinCodeHash: contacts.joinCodeHash, organizer: organizer.id, on: connection)
            try connection.execute(unsafeSQL: """
                CREATE TEMPORARY TABLE import_people (
                    person integer PRIMARY KEY, id uuid NOT NULL DEFAULT gen_random_uuid(), display_name text NOT NULL
                ) ON COMMIT DROP;
                CREATE TEMPORARY TABLE import_pairs (
                    a integer NOT NULL, b integer NOT NULL, first_at double precision NOT NULL
                ) ON COMMIT DROP
                """)
            try connection.copy(into: "import_people", columns: ["person", "display_name"],
                                rows: contacts.people.enumerated().lazy.map { [String($0.offset), $0.element] })
            try connection.query("""
                WITH p AS (INSERT INTO profiles (id, display_name) SELECT id, display_name FROM import_people RETURNING id)
                INSERT INTO event_members (event_id, profile_id, role) SELECT \(event.id), id, \(EventRole.attendee) FROM p
                """)
            let token = "import:\(event.id.uuidString.lowercased())"
            for start in stride(from: 0, to: contacts.pairs.count, by: batchSize) {
                let batch = contacts.pairs[start..<min(start + batchSize, contacts.pairs.count)]
                // Seconds since the epoch: a float is quick to write and exact to the microsecond.
                try connection.copy(into: "import_pairs", columns: ["a", "b", "first_at"], rows: batch.lazy.map {
                    [String($0.a), String($0.b), String($0.firstAt.timeIntervalSince1970)]
                })
                try connection.query("""
                    WITH c AS (
                        INSERT INTO connections (profile_a, profile_b, token_id, event_id, created_at)
                        SELECT LEAST(a.id, b.id), GREATEST(a.id, b.id), \(token), \(event.id), to_timestamp(p.first_at)
                        FROM import_pairs p JOIN import_people a ON a.person = p.a JOIN import_people b ON b.person = p.b
                        ORDER BY p.first_at
                        RETURNING id, profile_a, profile_b, created_at)
                    INSERT INTO event_connections (event_id, profile_a, profile_b, connection_id, first_at)
                    SELECT \(event.id), profile_a, profile_b, id, created_at FROM c
                    """)
                try connection.execute(unsafeSQL: "TRUNCATE import_pairs")
                progress(batch.endIndex, contacts.pairs.count)
            }
            return (event, organizer)
        }
    }

    /// Most of a bulk insert's time goes to foreign-key checks (seven per pair). Every row this
    /// import refers to is one it wrote itself in the same transaction, so a superuser's import
    /// skips them for this transaction only (`session_replication_role = replica`, as `pg_restore
    /// --disable-triggers` does); anyone else's import checks them as usual.
    private static func skipForeignKeyChecksIfAllowed(on connection: PostgresConnection) throws {
        guard try connection.query("SELECT current_setting('is_superuser') = 'on' AS superuser")[0].bool("superuser") else { return }
        try connection.execute(unsafeSQL: "SET LOCAL session_replication_role = replica")
    }
}
