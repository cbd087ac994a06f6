import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing

@Suite(.tier(.database)) struct EventRepositoryTests {
    static let hash = [UInt8](repeating: 7, count: 32)
    /// The code of rotation `rotation` (a store knows codes only through the server's check).
    static func code(rotation: Int = 0) -> JoinCodeAttempt { JoinCodeAttempt(legacyHash: hash) { $0 == rotation } }
    /// A code no event has.
    static let wrongCode = JoinCodeAttempt(legacyHash: [UInt8](repeating: 8, count: 32)) { _ in false }

    static func create(
        _ store: StoreFixture, slug: String = "rustconf-2026", organizer: Profile,
        endsAt: Date = Date().addingTimeInterval(3600)
    ) async throws -> Event {
        try await store.events.create(
            id: UUID(), slug: slug, name: "RustConf", startsAt: endsAt.addingTimeInterval(-8 * 3600), endsAt: endsAt,
            timeZone: "Europe/Paris", purgeOn: endsAt.addingTimeInterval(30 * 86_400), organizer: organizer.id)
    }

    @Test func creatingMakesTheOrganizerInOneTransaction() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let event = try await Self.create(store, organizer: ada)
        #expect(try await store.events.members(of: event.id).map(\.role) == [.organizer])
        let found = try #require(try await store.events.event(.slug("rustconf-2026"), viewer: ada.id))
        #expect(found.event == event && found.role == .organizer)
        #expect(try await store.events.event(.id(event.id))?.role == nil, "no viewer, no role")
        // A slug taken: nothing is left behind, not even the organizer's membership.
        await #expect(throws: StoreError.slugTaken) { _ = try await Self.create(store, organizer: ada) }
        // An organizer that does not exist: the event is rolled back with the membership.
        let ghost = Profile(id: UUID(), displayName: "Ghost", headline: nil, createdAt: Date())
        await #expect(throws: PostgresError.self) { _ = try await Self.create(store, slug: "ghost-event", organizer: ghost) }
        #expect(try await store.count("events") == 1)
        #expect(try await store.count("event_members") == 1)
    }

    /// The database holds the rules itself, whatever a caller forgets to check.
    @Test func theDatabaseRefusesBadSlugsNamesAndDates() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let start = Date()
        for (slug, name, endsAt) in [
            ("Rust-Conf", "N", start.addingTimeInterval(60)), ("ab", "N", start.addingTimeInterval(60)),
            ("caf\u{E9}", "N", start.addingTimeInterval(60)), (UUID().uuidString.lowercased(), "N", start.addingTimeInterval(60)),
            ("good-slug", "", start.addingTimeInterval(60)),
            ("good-slug", String(repeating: "n", count: 121), start.addingTimeInterval(60)),
            ("good-slug", "N", start), ("good-slug", "N", start.addingTimeInterval(-60)),
        ] {
            await #expect(throws: PostgresError.self, "\(slug) \(name.count) \(endsAt)") {
                _ = try await store.events.create(
                    id: UUID(), slug: slug, name: name, startsAt: start, endsAt: endsAt,
                    timeZone: "UTC", purgeOn: start.addingTimeInterval(30 * 86_400), organizer: ada.id)
            }
        }
        #expect(try await store.count("events") == 0)
    }

    @Test func joiningNeedsTheCurrentCodeAndKeepsARole() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let bob = try await store.profile("Bob")
        let event = try await Self.create(store, organizer: ada)
        #expect(try await store.events.joinCodeRotation(of: event.id) == 0, "a new event's code is rotation 0's")
        await #expect(throws: StoreError.invalidJoinCode) {
            _ = try await store.events.join(event.id, profile: bob.id, code: Self.wrongCode)
        }
        await #expect(throws: StoreError.unknownEvent) { _ = try await store.events.join(UUID(), profile: bob.id, code: Self.code()) }
        let joined = try await store.events.join(event.id, profile: bob.id, code: Self.code())
        #expect(joined.joined && joined.membership.role == .attendee)
        #expect(try await !store.events.join(event.id, profile: bob.id, code: Self.code()).joined)
        #expect(try await store.events.join(event.id, profile: ada.id, code: Self.code()).membership.role == .organizer)

        await #expect(throws: StoreError.notAnOrganizer) { _ = try await store.events.rotateJoinCode(of: event.id, by: bob.id) }
        #expect(try await store.events.rotateJoinCode(of: event.id, by: ada.id) == 1)
        let cleo = try await store.profile("Cleo")
        await #expect(throws: StoreError.invalidJoinCode) { _ = try await store.events.join(event.id, profile: cleo.id, code: Self.code()) }
        #expect(try await store.events.members(of: event.id).map(\.profileId) == [ada.id, bob.id])
        #expect(try await store.events.joinCodeMatches(Self.code(rotation: 1), of: event.id) == true)
        #expect(try await store.events.joinCodeMatches(Self.code(rotation: 1), of: UUID()) == nil)
    }

    /// An event made before codes were derived keeps its code's hash: that code works, and nobody
    /// can be shown it (no rotation), until a rotation gives it a derived one, after which it is gone.
    @Test func anEventOfBeforeKeepsItsHashedCodeUntilItsFirstRotation() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let bob = try await store.profile("Bob")
        let event = try await Self.create(store, organizer: ada)
        _ = try await store.database.withConnection { connection in
            try connection.query(
                "UPDATE events SET join_code_rotation = NULL, join_code_hash = \(ByteString(Self.hash)) WHERE id = \(event.id)")
        }
        #expect(try await store.events.joinCodeRotation(of: event.id) == nil)
        let legacy = JoinCodeAttempt(legacyHash: Self.hash) { _ in
            Issue.record("an event of before has no rotation")
            return true
        }
        #expect(try await store.events.joinCodeMatches(Self.wrongCode, of: event.id) == false)
        #expect(try await store.events.join(event.id, profile: bob.id, code: legacy).joined)
        #expect(try await store.events.rotateJoinCode(of: event.id, by: ada.id) == 0)
        #expect(try await store.events.joinCodeMatches(JoinCodeAttempt(legacyHash: Self.hash) { _ in false }, of: event.id) == false)
        #expect(try await store.events.joinCodeMatches(Self.code(rotation: 0), of: event.id) == true)
        #expect(try await store.count("events WHERE join_code_hash IS NULL") == 1, "the old hash is gone")
    }

    @Test func anOfflineScanSyncedLateMovesTheFirstMeetingEarlier() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let bob = try await store.profile("Bob")
        let event = try await Self.create(store, organizer: ada)
        func scan(_ token: String, owner: Profile, scanner: Profile, at scannedAt: Date) -> RedemptionRequest {
            RedemptionRequest(
                tokenId: token, ownerId: owner.id, scannerId: scanner.id, eventId: event.id, issuedAt: Date(),
                expiresAt: scannedAt.addingTimeInterval(300), scannedAt: scannedAt, clientNonce: nil, maximumUses: 10)
        }
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        _ = try await store.connections.redeem(scan("live", owner: ada, scanner: bob, at: now))
        // Ada scanned Bob's code ten minutes earlier, offline; her phone syncs now.
        _ = try await store.connections.redeem(scan("offline", owner: bob, scanner: ada, at: now.addingTimeInterval(-600)))
        // A later meeting leaves the first time alone.
        _ = try await store.connections.redeem(scan("later", owner: ada, scanner: bob, at: now.addingTimeInterval(60)))
        let firstAt = try await store.database.withConnection { try $0.query("SELECT first_at FROM event_connections")[0].date("first_at") }
        #expect(firstAt == now.addingTimeInterval(-600))
        #expect(try await store.count("event_connections") == 1)
        #expect(try await store.count("connections") == 1)
    }

    /// What cached growth learns from the version of an event's pairs: nothing changed, only
    /// additions (just those are read), or a removal or re-dating (everything is read again).
    @Test func pairsSinceAVersionTellAdditionsFromRemovalsAndRedating() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let bob = try await store.profile("Bob")
        let cleo = try await store.profile("Cleo")
        let dan = try await store.profile("Dan")
        let event = try await Self.create(store, organizer: ada)
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        func meet(_ owner: Profile, _ scanner: Profile, at scannedAt: Date = now) async throws {
            _ = try await store.connections.redeem(
                RedemptionRequest(
                    tokenId: UUID().uuidString, ownerId: owner.id, scannerId: scanner.id, eventId: event.id, issuedAt: Date(),
                    expiresAt: now.addingTimeInterval(300), scannedAt: scannedAt, clientNonce: nil, maximumUses: 10))
        }
        try await meet(ada, bob)
        guard case .all(let first, let v1) = try await store.events.pairs(of: event.id, since: nil) else {
            Issue.record("no version: all")
            return
        }
        #expect(first.count == 1)
        guard case .unchanged = try await store.events.pairs(of: event.id, since: v1) else {
            Issue.record("nothing changed")
            return
        }

        // Cleo meets Ada (new pair), and Dan meets Cleo elsewhere first, then here: both are additions.
        try await meet(ada, cleo)
        try await store.connections.redeem(store.request(token: "personal", owner: dan, scanner: cleo))
        try await meet(dan, cleo)
        guard case .appended(let added, let v2) = try await store.events.pairs(of: event.id, since: v1) else {
            Issue.record("additions")
            return
        }
        #expect(Set(added.map { Set([$0.profileA, $0.profileB]) }) == [Set([ada.id, cleo.id]), Set([cleo.id, dan.id])])

        // A late offline scan re-dates Ada–Bob: the same count, yet not an addition.
        try await meet(bob, ada, at: now.addingTimeInterval(-900))
        guard case .all(let redated, let v3) = try await store.events.pairs(of: event.id, since: v2) else {
            Issue.record("re-dated")
            return
        }
        #expect(redated.count == 3 && redated.first?.firstAt == now.addingTimeInterval(-900))

        // A removal and an addition together keep the count, yet are seen.
        _ = try await store.connections.remove(between: ada.id, and: cleo.id)
        try await meet(bob, dan)
        guard case .all(let after, _) = try await store.events.pairs(of: event.id, since: v3) else {
            Issue.record("removal")
            return
        }
        #expect(after.count == 3)
        #expect(!after.contains { Set([$0.profileA, $0.profileB]) == Set([ada.id, cleo.id]) })
    }

    /// A pair whose transaction began first but commits after a version was read (its `seq` is
    /// below the highest one that version saw) is still an addition, and read alone.
    @Test func aPairThatCommitsLateIsAnAdditionSinceTheVersionBeforeIt() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let bob = try await store.profile("Bob")
        let cleo = try await store.profile("Cleo")
        let dan = try await store.profile("Dan")
        let event = try await Self.create(store, organizer: ada)
        let (inserted, signal) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let late = Task {
            try await store.database.withConnection { connection in
                try connection.transaction { connection in
                    _ = try connection.query(
                        """
                        WITH pair AS (
                            INSERT INTO connections (profile_a, profile_b, token_id, event_id)
                            VALUES (least(\(ada.id), \(cleo.id)), greatest(\(ada.id), \(cleo.id)), 'late', \(event.id))
                            RETURNING id, profile_a, profile_b)
                        INSERT INTO event_connections (event_id, profile_a, profile_b, connection_id, first_at)
                        SELECT \(event.id), profile_a, profile_b, id, now() FROM pair
                        """)
                    signal.yield()
                    release.wait()
                }
            }
        }
        for await _ in inserted { break }
        _ = try await store.connections.redeem(
            RedemptionRequest(
                tokenId: UUID().uuidString, ownerId: bob.id, scannerId: dan.id, eventId: event.id, issuedAt: Date(),
                expiresAt: Date().addingTimeInterval(300), scannedAt: Date(), clientNonce: nil, maximumUses: 10))
        guard case .all(let before, let version) = try await store.events.pairs(of: event.id, since: nil) else {
            Issue.record("all")
            return
        }
        #expect(before.map { Set([$0.profileA, $0.profileB]) } == [Set([bob.id, dan.id])], "the late pair is not committed yet")

        release.signal()
        try await late.value
        let order = try await store.database.withConnection { connection in
            try connection.query("SELECT profile_a, profile_b FROM event_connections ORDER BY seq").map {
                Set([try $0.uuid("profile_a"), try $0.uuid("profile_b")])
            }
        }
        #expect(order == [Set([ada.id, cleo.id]), Set([bob.id, dan.id])], "the late pair has the lower sequence number")
        guard case .appended(let added, let next) = try await store.events.pairs(of: event.id, since: version) else {
            Issue.record("the late pair is an addition")
            return
        }
        #expect(added.map { Set([$0.profileA, $0.profileB]) } == [Set([ada.id, cleo.id])])
        guard case .unchanged = try await store.events.pairs(of: event.id, since: next) else {
            Issue.record("nothing since")
            return
        }
    }

    /// Many people scan one organizer's event code at once: each becomes an attendee once, each pair one row.
    @Test func concurrentScansOfAnEventTokenLeaveOneRowEach() async throws {
        let store = try await StoreFixture.make()
        let host = try await store.profile("Host")
        let event = try await Self.create(store, organizer: host)
        var scanners: [Profile] = []
        for index in 0..<12 { scanners.append(try await store.profile("Scanner \(index)")) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for scanner in scanners {
                for _ in 0..<2 {
                    group.addTask {
                        _ = try await store.connections.redeem(
                            RedemptionRequest(
                                tokenId: "shared", ownerId: host.id, scannerId: scanner.id, eventId: event.id, issuedAt: Date(),
                                expiresAt: Date().addingTimeInterval(300), scannedAt: Date(), clientNonce: nil, maximumUses: 100))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.count("event_members") == 13)
        #expect(try await store.count("event_connections") == 12)
        #expect(try await store.count("connections") == 12)
        #expect(try await store.count("redemptions") == 12)
    }

    @Test func deletingAnEventKeepsThePersonalEdge() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let bob = try await store.profile("Bob")
        let event = try await Self.create(store, organizer: ada)
        _ = try await store.connections.redeem(
            RedemptionRequest(
                tokenId: "t", ownerId: ada.id, scannerId: bob.id, eventId: event.id, issuedAt: Date(),
                expiresAt: Date().addingTimeInterval(300),
                scannedAt: Date(), clientNonce: nil, maximumUses: 10))
        try await store.database.withConnection { try $0.query("DELETE FROM events WHERE id = \(event.id)") }
        #expect(try await store.count("connections") == 1)
        #expect(try await store.count("event_connections") == 0)
        #expect(try await store.count("event_members") == 0)
        let page = try await store.connections.connections(of: ada.id, before: nil, limit: 10)
        #expect(page.items.map(\.eventId) == [nil])
    }
}
