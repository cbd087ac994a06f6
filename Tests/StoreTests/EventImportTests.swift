import ConstellationModel
import Foundation
import Store
import Synchronization
import TestSupport
import Testing

/// `EventRepository.importContacts`: one transaction, batches with progress, nothing kept on failure.
@Suite(.tier(.database)) struct EventImportTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func contacts(slug: String, people: Int, pairs: [ContactImport.Pair], keyHash: [UInt8]) -> ContactImport {
        ContactImport(
            eventId: UUID(),
            event: NewEvent(name: "Imported", slug: slug, startsAt: start, endsAt: start.addingTimeInterval(86_400), timeZone: "UTC"),
            purgeOn: start.addingTimeInterval(30 * 86_400), organizerName: "Organizer", organizerKeyHash: keyHash,
            people: (0..<people).map { "Person \($0)" }, pairs: pairs)
    }

    @Test func peoplePairsAndTheOrganizerGoInTogether() async throws {
        let store = try await StoreFixture.make(maximumConnections: 1)
        let keyHash = [UInt8](repeating: 2, count: 32)
        let pairs = [
            ContactImport.Pair(a: 0, b: 1, firstAt: Self.start.addingTimeInterval(0.5)),
            ContactImport.Pair(a: 2, b: 1, firstAt: Self.start.addingTimeInterval(60)),
            ContactImport.Pair(a: 0, b: 2, firstAt: Self.start.addingTimeInterval(120)),
        ]
        let (event, organizer) = try await store.events.importContacts(
            Self.contacts(slug: "tiny", people: 4, pairs: pairs, keyHash: keyHash)
        ) { _, _ in }

        #expect(try await store.profiles.authenticate(apiKeyHash: keyHash)?.profile.id == organizer.id)
        #expect(try await store.events.event(.slug("tiny"), viewer: organizer.id)?.role == .organizer)
        let members = try await store.events.members(of: event.id)
        #expect(
            members.map(\.role) == [.organizer, .attendee, .attendee, .attendee, .attendee], "a person without a pair is an attendee too")
        let stored = try await store.events.graph(of: event.id).pairs
        #expect(stored.map(\.firstAt) == pairs.map(\.firstAt) && stored.allSatisfy { $0.profileA < $0.profileB })
        let rows = try await store.database.withConnection { connection in
            try connection.query(
                """
                SELECT c.token_id, c.event_id, c.created_at = e.first_at AS same, p.display_name
                FROM connections c JOIN event_connections e ON e.connection_id = c.id JOIN profiles p ON p.id = c.profile_a
                ORDER BY c.id
                """
            ).map { row throws(PostgresError) in
                (try row.string("token_id"), try row.uuid("event_id"), try row.bool("same"), try row.string("display_name"))
            }
        }
        #expect(rows.count == 3 && rows.allSatisfy { $0.0 == "import:\(event.id.uuidString.lowercased())" && $0.1 == event.id && $0.2 })
        #expect(rows.allSatisfy { $0.3.hasPrefix("Person ") })

        // The same slug again: refused, and nothing of the second import is kept, not even its organizer.
        let before = try await Self.counts(store)
        await #expect(throws: StoreError.slugTaken) {
            _ = try await store.events.importContacts(
                Self.contacts(slug: "tiny", people: 4, pairs: pairs, keyHash: [UInt8](repeating: 3, count: 32))
            ) { _, _ in }
        }
        #expect(try await Self.counts(store) == before)
    }

    /// Pairs go in batch by batch, each reported, in the order of their profile ids; a second import
    /// on the same connection makes its temporary table anew.
    @Test func largeImportsReportEachBatch() async throws {
        let store = try await StoreFixture.make(maximumConnections: 1)
        let people = 200
        let pairs = (0..<people).flatMap { a in (a + 1..<people).map { b in (a, b) } }.prefix(12_000).enumerated().map {
            ContactImport.Pair(a: $0.element.0, b: $0.element.1, firstAt: Self.start.addingTimeInterval(Double($0.offset)))
        }
        for slug in ["large-one", "large-two"] {
            let reports = Reports()
            let (event, _) = try await store.events.importContacts(
                Self.contacts(slug: slug, people: people, pairs: pairs, keyHash: (0..<32).map { _ in .random(in: 0...255) }),
                batchSize: 5_000
            ) { written, total in
                #expect(total == 12_000)
                reports.written.withLock { $0.append(written) }
            }
            #expect(reports.written.withLock { $0 } == [5_000, 10_000, 12_000])
            #expect(try await store.events.graph(of: event.id).pairs.count == 12_000)
            // Rows go in in the order of the pair index, batch after batch, whatever the file's order.
            let inOrder = try await store.database.withConnection { connection in
                try connection.query(
                    """
                    SELECT bool_and(ordered) AS ordered FROM (
                        SELECT (profile_a, profile_b) > lag((profile_a, profile_b)) OVER (ORDER BY id) AS ordered
                        FROM connections WHERE event_id = \(event.id)) rows
                    """)[0].bool("ordered")
            }
            #expect(inOrder)
        }
        #expect(try await store.count("connections") == 24_000)
        #expect(try await store.count("profiles") == 2 * (people + 1))
    }

    static func counts(_ store: StoreFixture) async throws -> [Int64] {
        var counts: [Int64] = []
        for table in ["events", "profiles", "api_keys", "event_members", "connections", "event_connections"] {
            counts.append(try await store.count(table))
        }
        return counts
    }
}

/// What a progress callback heard.
private final class Reports: Sendable {
    let written = Mutex<[Int]>([])
}
