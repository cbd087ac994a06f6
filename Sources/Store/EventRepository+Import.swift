import ConstellationModel
import Foundation

extension EventRepository {
    /// Loads `contacts` as a new event in one transaction: the event and its organizer (a new
    /// profile with an API key), an attendee profile per person, and per pair a connection made at
    /// the event (created at the first contact, token `import:<event id>`) and its row in the
    /// event's graph. People go in by COPY; pairs by COPY into a temporary table and a set-based
    /// insert from it, `batchSize` pairs at a time, in the order of the pairs' profile ids, so that
    /// the unique index on pairs grows at its right edge instead of on a random page per pair;
    /// `progress` hears how many pairs are in after each batch.
    /// Nothing is kept if anything fails: `StoreError.slugTaken` when another event has the slug.
    public func importContacts(
        _ contacts: ContactImport, batchSize: Int = 250_000, progress: @escaping @Sendable (_ written: Int, _ total: Int) -> Void
    ) async throws -> (event: Event, organizer: Profile) {
        // Profile ids made here, so that pairs can be sorted by them before anything is sent.
        let people = contacts.people.map { _ in UUID().uuidString }
        let pairs = Self.sortedByProfiles(contacts.pairs, people: people)
        let imported = try await database.withTransaction { connection in
            let organizer = try ProfileRepository.insert(
                displayName: contacts.organizerName, headline: nil, apiKeyHash: contacts.organizerKeyHash, on: connection
            ).profile
            let fields = contacts.event
            let event = try Self.insert(
                id: contacts.eventId, slug: fields.slug, name: fields.name, startsAt: fields.startsAt, endsAt: fields.endsAt,
                timeZone: fields.timeZone, purgeOn: contacts.purgeOn, organizer: organizer.id, on: connection)
            let eventId = event.id.uuidString
            try connection.copy(
                into: "profiles", columns: ["id", "display_name"],
                rows: zip(people, contacts.people).lazy.map { [$0, $1] })
            try connection.copy(
                into: "event_members", columns: ["event_id", "profile_id", "role"],
                rows: people.lazy.map { [eventId, $0, EventRole.attendee.rawValue] })
            try connection.execute(
                unsafeSQL: """
                    CREATE TEMPORARY TABLE import_pairs (
                        profile_a uuid NOT NULL, profile_b uuid NOT NULL, first_at double precision NOT NULL
                    ) ON COMMIT DROP
                    """)
            let token = "import:\(event.id.uuidString.lowercased())"
            for start in stride(from: 0, to: pairs.count, by: batchSize) {
                let batch = pairs[start..<min(start + batchSize, pairs.count)]
                // Seconds since the epoch: a float is quick to write and exact to the microsecond.
                try connection.copy(
                    into: "import_pairs", columns: ["profile_a", "profile_b", "first_at"],
                    rows: batch.lazy.map {
                        [people[$0.a], people[$0.b], String($0.firstAt.timeIntervalSince1970)]
                    })
                try connection.query(
                    """
                    WITH c AS (
                        INSERT INTO connections (profile_a, profile_b, token_id, event_id, created_at)
                        SELECT profile_a, profile_b, \(token), \(event.id), to_timestamp(first_at)
                        FROM import_pairs ORDER BY profile_a, profile_b
                        RETURNING id, profile_a, profile_b, created_at)
                    INSERT INTO event_connections (event_id, profile_a, profile_b, connection_id, first_at)
                    SELECT \(event.id), profile_a, profile_b, id, created_at FROM c
                    """)
                try connection.execute(unsafeSQL: "TRUNCATE import_pairs")
                progress(batch.endIndex, pairs.count)
            }
            return (event, organizer)
        }
        // Statistics for the rows just loaded, before anyone's query is planned without them (a
        // network read on 100,000 new pairs took seconds until autovacuum came by).
        try await database.withConnection { try $0.execute(unsafeSQL: Self.analyzeImported) }
        return imported
    }

    /// What an import fills, for the planner.
    static let analyzeImported = "ANALYZE profiles, event_members, connections, event_connections"

    /// The pairs, the person with the smaller profile id first, in the order of the index on
    /// `(profile_a, profile_b)` (PostgreSQL orders uuid values by their bytes, as the text does).
    private static func sortedByProfiles(_ pairs: [ContactImport.Pair], people: [String]) -> [ContactImport.Pair] {
        var rank = [UInt64](repeating: 0, count: people.count)
        for (place, person) in people.indices.sorted(by: { people[$0] < people[$1] }).enumerated() {
            rank[person] = UInt64(place)
        }
        return pairs.map { pair in
            let (a, b) = rank[pair.a] < rank[pair.b] ? (pair.a, pair.b) : (pair.b, pair.a)
            return (rank[a] << 32 | rank[b], ContactImport.Pair(a: a, b: b, firstAt: pair.firstAt))
        }
        .sorted { $0.0 < $1.0 }
        .map(\.1)
    }
}
