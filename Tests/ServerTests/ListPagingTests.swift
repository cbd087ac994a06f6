import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing

/// The lists that grow without bound (my events, my blocks, my invitations to organize) come a
/// page at a time, latest first, each item once, however many there are; a cursor the server did
/// not give, or a limit outside 1…200, is refused.
@Suite(.tier(.database)) struct ListPagingTests {
    @Test func myEventsComeAPageAtATimeEachOnce() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            // Seven events, three of them starting at the same instant (the id breaks the tie).
            let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 6 * 3600).rounded(.down))
            for n in 0..<7 {
                let starts = start.addingTimeInterval(3600 * Double(min(n, 4)))
                let event = NewEvent(
                    name: "Paged", slug: "paged-\(n)", startsAt: starts, endsAt: starts.addingTimeInterval(8 * 3600), timeZone: "UTC")
                let created = try await ada.client.createEvent(event)
                _ = try await bob.client.joinEvent("paged-\(n)", code: created.joinCode)
            }
            let (seen, pages) = try await Self.everyPage(size: 3) { try await bob.client.myEvents(limit: 3, cursor: $0) }
            #expect(pages == 3)
            #expect(seen.map(\.event.slug).sorted() == (0..<7).map { "paged-\($0)" }.sorted(), "each event once")
            let starts = seen.map(\.event.startsAt)
            #expect(starts == starts.sorted(by: >), "the latest start first")
            #expect(try await bob.client.myEvents().nextCursor == nil, "seven fit in the default page of 50")
            #expect(try await bob.client.allMyEvents().map(\.event.id) == seen.map(\.event.id))

            try await Self.expectBadPagesRefused(bob.client, "/v1/me/events")
        }
    }

    @Test func myBlocksComeAPageAtATimeAndALiftedOneMovesNoOther() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            var blocked: [UUID] = []
            for n in 0..<5 {
                let other = try await server.user("Other \(n)")
                _ = try await ada.client.block(other.profile.id)
                blocked.append(other.profile.id)
            }
            let first = try await ada.client.blocks(limit: 2)
            #expect(first.items.map(\.profile.id) == [blocked[4], blocked[3]], "the latest block first")
            // Lifting a block already seen moves nothing on the pages after it.
            try await ada.client.unblock(blocked[4])
            var seen = first.items.map(\.profile.id)
            var cursor = first.nextCursor
            var pages = 1
            while let next = cursor, pages < 10 {
                let page = try await ada.client.blocks(limit: 2, cursor: next)
                seen += page.items.map(\.profile.id)
                cursor = page.nextCursor
                pages += 1
            }
            #expect(pages == 3)
            #expect(seen == blocked.reversed(), "each block once, in order")
            #expect(try await ada.client.allBlocks().map(\.profile.id) == Array(blocked[0..<4].reversed()))
            try await Self.expectBadPagesRefused(ada.client, "/v1/me/blocks")
        }
    }

    @Test func myInvitationsComeAPageAtATime() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            var events: [UUID] = []
            for n in 0..<5 {
                let event = try await ada.client.createEvent(EventRoutesTests.newEvent("invited-\(n)"))
                _ = try await ada.client.inviteOrganizer(bob.profile.id, to: "invited-\(n)")
                events.append(event.event.id)
            }
            let (invitations, pages) = try await Self.everyPage(size: 2) { try await bob.client.invitations(limit: 2, cursor: $0) }
            let seen = invitations.map(\.eventId)
            #expect(pages == 3)
            #expect(seen == events.reversed(), "the newest invitation first, each once")
            #expect(try await bob.client.allInvitations().map(\.eventId) == seen)
            try await Self.expectBadPagesRefused(bob.client, "/v1/me/invitations")
        }
    }

    /// Every item of a list, asking `page` for each page from the first (at most ten), each page
    /// holding at most `size`; and how many pages it took.
    static func everyPage<Item>(size: Int, _ page: (String?) async throws -> Page<Item>) async throws -> (items: [Item], pages: Int) {
        var items: [Item] = []
        var cursor: String?
        var pages = 0
        repeat {
            let next = try await page(cursor)
            #expect(next.items.count <= size)
            items += next.items
            cursor = next.nextCursor
            pages += 1
        } while cursor != nil && pages < 10
        return (items, pages)
    }

    /// A limit outside 1…200 and a cursor the server did not give are refused on `path`.
    static func expectBadPagesRefused(_ client: ConstellationClient, _ path: String) async throws {
        for query in ["limit=0", "limit=201", "limit=x"] {
            await expectProblem(400, "invalid_limit") { _ = try await client.send(.GET, "\(path)?\(query)") }
        }
        for bad in ["12", "x.y", "1.not-a-uuid", ""] {
            await expectProblem(400, "invalid_cursor") { _ = try await client.send(.GET, "\(path)?cursor=\(bad)") }
        }
    }
}
