import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing

/// Which events a redemption counts for (migration 0015): a connection between two members of an
/// event, made while it ran (by the scan's time, within its dates plus the offline grace), counts
/// for it whatever code was shown, unless the code was another event's; with two such events, for
/// each. Connections made before are not back-filled.
@Suite(.tier(.database)) struct EventAttributionTests {
    /// The offline grace the tests redeem with (the server's default, two hours).
    static let grace: Int64 = 7200

    /// An event that runs from `start` to `end` (seconds from now), with `members` in it
    /// (`organizer` its organizer, the others attendees who joined with its code).
    static func event(
        _ store: StoreFixture, _ slug: String, from start: TimeInterval, to end: TimeInterval, organizer: Profile, members: [Profile]
    ) async throws -> Event {
        let event = try await store.events.create(
            id: UUID(), slug: slug, name: slug, startsAt: Date().addingTimeInterval(start), endsAt: Date().addingTimeInterval(end),
            timeZone: "UTC", purgeOn: Date().addingTimeInterval(end + 86_400), organizer: organizer.id)
        for member in members {
            _ = try await store.events.join(event.id, profile: member.id, code: EventRepositoryTests.code())
        }
        return event
    }

    /// `scanner` redeems a personal code of `owner`'s (or `event`'s code), scanned at `scannedAt`.
    @discardableResult
    static func scan(
        _ store: StoreFixture, _ owner: Profile, by scanner: Profile, event: UUID? = nil, at scannedAt: Date = Date()
    ) async throws -> Redemption {
        try await store.connections.redeem(
            RedemptionRequest(
                tokenId: UUID().uuidString, ownerId: owner.id, scannerId: scanner.id, eventId: event, issuedAt: scannedAt,
                expiresAt: scannedAt.addingTimeInterval(300), scannedAt: scannedAt, clientNonce: nil, maximumUses: 100,
                eventGrace: TimeInterval(grace)))
    }

    /// The pairs `event` counts, as "a-b" of the people's names.
    static func pairs(_ store: StoreFixture, of event: Event) async throws -> Set<String> {
        let rows = try await store.database.withConnection { connection in
            try connection.query(
                """
                SELECT a.display_name AS a, b.display_name AS b FROM event_connections ec
                JOIN profiles a ON a.id = ec.profile_a JOIN profiles b ON b.id = ec.profile_b
                WHERE ec.event_id = \(event.id)
                """
            ).map { [try $0.string("a"), try $0.string("b")].sorted().joined(separator: "-") }
        }
        return Set(rows)
    }

    /// Personal codes between two members of a running event count for it; with only one of
    /// them a member, nothing counts; the new connection's "met at" is the event.
    @Test func personalCodesBetweenMembersCountAndWithOneMemberDoNot() async throws {
        let store = try await StoreFixture.make()
        let (org, ada, bob) = (try await store.profile("Org"), try await store.profile("Ada"), try await store.profile("Bob"))
        let cleo = try await store.profile("Cleo")
        let event = try await Self.event(store, "running", from: -3600, to: 3600, organizer: org, members: [ada, bob])
        let both = try await Self.scan(store, ada, by: bob)
        try await Self.scan(store, ada, by: cleo)
        #expect(try await Self.pairs(store, of: event) == ["Ada-Bob"], "Cleo is not a member")
        #expect(both.connection.eventId == event.id)
    }

    /// Another event's code counts for that event alone, though both belong to a second one that runs too.
    @Test func anotherEventsCodeCountsForThatEventAlone() async throws {
        let store = try await StoreFixture.make()
        let (org, ada, bob) = (try await store.profile("Org"), try await store.profile("Ada"), try await store.profile("Bob"))
        let first = try await Self.event(store, "first", from: -3600, to: 3600, organizer: org, members: [ada, bob])
        let second = try await Self.event(store, "second", from: -3600, to: 3600, organizer: org, members: [ada, bob])
        try await Self.scan(store, ada, by: bob, event: second.id)
        #expect(try await Self.pairs(store, of: first) == [])
        #expect(try await Self.pairs(store, of: second) == ["Ada-Bob"])
    }

    /// Two running events both belong to: a personal code counts for each, and the new
    /// connection's "met at" is the one the scanner joined last.
    @Test func twoRunningEventsEachCount() async throws {
        let store = try await StoreFixture.make()
        let (org, ada, bob) = (try await store.profile("Org"), try await store.profile("Ada"), try await store.profile("Bob"))
        let first = try await Self.event(store, "first", from: -3600, to: 3600, organizer: org, members: [ada, bob])
        let second = try await Self.event(store, "second", from: -3600, to: 3600, organizer: org, members: [ada, bob])
        let redemption = try await Self.scan(store, ada, by: bob)
        #expect(try await Self.pairs(store, of: first) == ["Ada-Bob"])
        #expect(try await Self.pairs(store, of: second) == ["Ada-Bob"])
        #expect(redemption.connection.eventId == second.id)
    }

    /// By the scan's time: before the start, nothing; during, and within the offline grace after
    /// the end, it counts; after the grace, nothing. An offline scan made during the event and
    /// sent after it ended counts, at the time it was made.
    @Test(arguments: [
        ("before the start", -3.5 * 3600), ("during", -3600.0), ("within the grace after the end", 3600.0), ("after the grace", 2.5 * 3600),
    ])
    func theScansTimeDecides(when: String, scannedAfterTheEnd offset: TimeInterval) async throws {
        let store = try await StoreFixture.make()
        let (org, ada, bob) = (try await store.profile("Org"), try await store.profile("Ada"), try await store.profile("Bob"))
        // Ran from 6 to 3 hours ago (its grace ended an hour ago); every scan is an offline one, sent now.
        let event = try await Self.event(store, "ended", from: -6 * 3600, to: -3 * 3600, organizer: org, members: [ada, bob])
        try await Self.scan(store, ada, by: bob, at: event.endsAt.addingTimeInterval(offset))
        let counts = offset > -3 * 3600 && offset <= TimeInterval(Self.grace)
        #expect(try await Self.pairs(store, of: event) == (counts ? ["Ada-Bob"] : []), "\(when)")
    }

    /// A pair connected before the event is not back-filled; their re-scan at the event counts
    /// (their first meeting there), as an event code's re-scan does.
    @Test func aPairConnectedBeforeCountsWhenTheyMeetAgainAtTheEvent() async throws {
        let store = try await StoreFixture.make()
        let (org, ada, bob) = (try await store.profile("Org"), try await store.profile("Ada"), try await store.profile("Bob"))
        try await Self.scan(store, ada, by: bob)
        let event = try await Self.event(store, "later", from: -3600, to: 3600, organizer: org, members: [ada, bob])
        #expect(try await Self.pairs(store, of: event) == [], "not back-filled")
        let again = try await Self.scan(store, bob, by: ada)
        #expect(!again.created)
        #expect(try await Self.pairs(store, of: event) == ["Ada-Bob"])
    }
}
