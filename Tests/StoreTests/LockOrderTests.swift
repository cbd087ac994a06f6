import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing

/// Changes that meet another half done, made to meet it rather than left to chance: a
/// transaction takes what the other change takes first, waits until the change under test waits
/// for a lock, and then goes on as the other change does.
///
/// Changes that remove an event's pairs take the event's row before the pairs' rows, as a leave
/// and a purge round do: two changes taking them in opposite orders deadlock, and PostgreSQL
/// rolls one of them back (`database_busy`).
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

        let changed = try await Self.meet(
            store,
            halfDone: { connection in try connection.query("SELECT 1 FROM events WHERE id = \(event.id) FOR NO KEY UPDATE") },
            then: { connection in
                try connection.query(
                    """
                    DELETE FROM event_connections ec USING connections c
                    WHERE ec.event_id = \(event.id) AND ec.connection_id = c.id AND (c.profile_a = \(bob.id) OR c.profile_b = \(bob.id))
                    """)
            }
        ) {
            switch change {
            case .disconnect: try await store.connections.remove(between: ada.id, and: bob.id)
            case .block: try await BlockRepository(database: store.database).block(bob.id, by: ada.id).created
            case .erasure: try await store.profiles.erase(ada.id)
            }
        }
        #expect(changed, "the \(change.rawValue) went through")
        #expect(try await store.count("connections") == 0)
        #expect(try await store.count("event_connections") == 0)
    }

    /// A note written on a connection that its peer removes meanwhile: the note waits for the
    /// removal and finds no connection (404), where it failed the removed row's foreign key (422).
    @Test func aNoteOnAConnectionRemovedMeanwhileFindsNone() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let bob = try await store.profile("Bob")
        _ = try await store.connections.redeem(store.request(token: "t1", owner: ada, scanner: bob))
        let noted = try await Self.meet(store, halfDone: { connection in try connection.query("DELETE FROM connections") }) {
            try await store.connections.annotate(connectionWith: bob.id, by: ada.id, note: "met at the bar", tags: nil)
        }
        #expect(noted == nil)
        #expect(try await store.count("connection_notes") == 0)
    }

    /// `change`'s result, run while another transaction has done `halfDone`; that transaction does
    /// `then` once `change` waits for a lock, and commits.
    static func meet<T: Sendable>(
        _ store: StoreFixture, halfDone: @escaping @Sendable (PostgresConnection) throws -> Void,
        then: @escaping @Sendable (PostgresConnection) throws -> Void = { _ in }, _ change: () async throws -> T
    ) async throws -> T {
        let (held, holding) = AsyncStream<Void>.makeStream()
        let other = Task {
            try await store.database.withTransaction { connection in
                try halfDone(connection)
                holding.yield()
                try waitForALockWaiter(on: connection)
                try then(connection)
            }
        }
        for await _ in held { break }
        let result = try await change()
        try await other.value
        return result
    }

    /// Returns once another session of this database waits for a lock (at most a minute: the
    /// change under test starts as soon as this transaction holds its rows, and waits at once).
    private static func waitForALockWaiter(on connection: PostgresConnection) throws {
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
    }
}
