import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing

/// Changes that remove an event's pairs take the event's row before the pairs' rows, as a leave
/// and a purge round do: two changes taking them in opposite orders deadlock, and PostgreSQL
/// rolls one of them back (`database_busy`). Each case here is made to meet a leave half done
/// rather than left to chance: a transaction holds the event's row as a leave does first, waits
/// until the change under test waits for a lock, and then removes the event's pairs of the person,
/// as a leave goes on to do.
@Suite(.tier(.database)) struct LockOrderTests {
    enum Change: String, CaseIterable {
        case disconnect, block, erasure
    }

    @Test(arguments: Change.allCases) func aChangeMeetingALeaveHalfDoneWaitsForItAndBothGoThrough(_ change: Change) async throws {
        let store = try await StoreFixture.make()
        let organizer = try await store.profile("Olga")
        let ada = try await store.profile("Ada")
        let bob = try await store.profile("Bob")
        let event = try await EventRepositoryTests.create(store, organizer: organizer)
        _ = try await store.connections.redeem(
            RedemptionRequest(
                tokenId: UUID().uuidString, ownerId: ada.id, scannerId: bob.id, eventId: event.id, issuedAt: Date(),
                expiresAt: Date().addingTimeInterval(300), scannedAt: Date(), clientNonce: nil, maximumUses: 10))
        #expect(try await store.count("event_connections") == 1)

        let (held, holding) = AsyncStream<Void>.makeStream()
        let leave = Task {
            try await store.database.withTransaction { connection in
                try connection.query("SELECT 1 FROM events WHERE id = \(event.id) FOR NO KEY UPDATE")
                holding.yield()
                // Until another session waits for a lock (at most a minute: the change under test
                // starts as soon as the row is held, and waits at once).
                try connection.query(
                    """
                    DO $$ BEGIN
                      FOR i IN 1..1200 LOOP
                        EXIT WHEN EXISTS (SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database());
                        PERFORM pg_sleep(0.05);
                        PERFORM pg_stat_clear_snapshot();
                      END LOOP;
                    END $$
                    """)
                try connection.query(
                    """
                    DELETE FROM event_connections ec USING connections c
                    WHERE ec.event_id = \(event.id) AND ec.connection_id = c.id AND (c.profile_a = \(bob.id) OR c.profile_b = \(bob.id))
                    """)
            }
        }
        for await _ in held { break }
        let changed: Bool
        switch change {
        case .disconnect: changed = try await store.connections.remove(between: ada.id, and: bob.id)
        case .block: changed = try await BlockRepository(database: store.database).block(bob.id, by: ada.id).created
        case .erasure: changed = try await store.profiles.erase(ada.id)
        }
        try await leave.value
        #expect(changed, "the \(change.rawValue) went through")
        #expect(try await store.count("connections") == 0)
        #expect(try await store.count("event_connections") == 0)
    }
}
