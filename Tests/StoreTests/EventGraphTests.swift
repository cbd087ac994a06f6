import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing

/// An event's graph read again after an earlier read: only what was added is fetched, yet the
/// answer is always the graph a fresh read gives (names and visibility too), whatever happened.
@Suite(.tier(.database)) struct EventGraphTests {
    /// The graph as text: people (id, name, visibility) and pairs (ends, time), in their order.
    static func text(_ graph: EventGraph?) -> [String] {
        guard let graph else { return ["none"] }
        return graph.people.map { "\($0.id) \($0.displayName) \($0.visibility.rawValue)" }
            + graph.pairs.map { "\($0.a) \($0.b) \($0.firstAt.timeIntervalSince1970)" }
    }

    @Test func aGraphReadSinceAnEarlierOneIsTheGraphAsItNowIs() async throws {
        let store = try await StoreFixture.make()
        let ada = try await store.profile("Ada")
        let bob = try await store.profile("Bob")
        let cleo = try await store.profile("Cleo")
        let dan = try await store.profile("Dan")
        let eve = try await store.profile("Eve")
        let event = try await EventRepositoryTests.create(store, organizer: ada)
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) + 0.25)
        func meet(_ owner: Profile, _ scanner: Profile, at scannedAt: Date = now) async throws {
            _ = try await store.connections.redeem(
                RedemptionRequest(
                    tokenId: UUID().uuidString, ownerId: owner.id, scannerId: scanner.id, eventId: event.id, issuedAt: Date(),
                    expiresAt: now.addingTimeInterval(300), scannedAt: scannedAt, clientNonce: nil, maximumUses: 10))
        }
        /// Read since `known`, and check it against a fresh read.
        func read(since known: EventGraph?, limit: Int = 100, sourceLocation: SourceLocation = #_sourceLocation) async throws -> EventGraph?
        {
            let again = try await store.events.graph(of: event.id, limit: limit, since: known)
            let fresh = try await store.events.graph(of: event.id, limit: limit)
            #expect(Self.text(again) == Self.text(fresh), sourceLocation: sourceLocation)
            return again
        }

        try await meet(ada, bob)
        try await meet(bob, cleo, at: now.addingTimeInterval(1))
        let first = try #require(try await read(since: nil))
        #expect(first.people.map(\.id) == [ada.id, bob.id, cleo.id].sorted { $0.uuidString.lowercased() < $1.uuidString.lowercased() })
        #expect(first.pairs.map(\.firstAt).contains(now), "times to the microsecond")
        #expect(Self.text(try await read(since: first)) == Self.text(first), "nothing changed")

        // Additions (Dan is new) and a change of visibility, which is not a change of pairs.
        try await meet(cleo, dan)
        try await meet(ada, dan, at: now.addingTimeInterval(-30))
        _ = try await store.events.setChoices(visibility: .named, printsBadge: nil, of: cleo.id, at: event.id)
        let grown = try #require(try await read(since: first))
        #expect(grown.pairs.count == 4 && grown.people.count == 4)
        #expect(grown.people.first { $0.id == cleo.id }?.visibility == .named)

        // Eve shows her code (the store does not check she is a member): she is in the graph, pseudonymous.
        try await meet(eve, bob)
        let withEve = try #require(try await read(since: grown))
        #expect(withEve.people.first { $0.id == eve.id }.map { ($0.displayName, $0.visibility) } ?? ("", .named) == ("Eve", .pseudonymous))

        // A late offline scan re-dates a pair; a removal and an addition together keep the count.
        try await meet(bob, ada, at: now.addingTimeInterval(-900))
        let redated = try #require(try await read(since: withEve))
        _ = try await store.connections.remove(between: ada.id, and: dan.id)
        try await meet(eve, cleo)
        let after = try #require(try await read(since: redated))
        #expect(!after.pairs.contains { Set([$0.a, $0.b]) == Set([ada.id, dan.id]) })

        // Past the limit, whether read whole (pairs that might hold too many people are counted first) or grown.
        #expect(try await read(since: nil, limit: 4) == nil)
        #expect(try await read(since: after, limit: 4) == nil)
        #expect(try await read(since: after, limit: 5) != nil)
        // Another event's graph is no starting point.
        let other = try await EventRepositoryTests.create(store, slug: "other-event", organizer: bob)
        #expect(try await store.events.graph(of: other.id, limit: 100, since: after).map { $0.pairs.isEmpty && $0.people.isEmpty } == true)
    }
}
