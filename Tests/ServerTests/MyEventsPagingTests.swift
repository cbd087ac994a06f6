import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing

/// My events come a page at a time, the latest start first, each once, however many there are;
/// a cursor the server did not give, or a limit outside 1…200, is refused.
@Suite(.tier(.database)) struct MyEventsPagingTests {
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
            var seen: [MyEvent] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try await bob.client.myEvents(limit: 3, cursor: cursor)
                #expect(page.items.count <= 3)
                seen += page.items
                cursor = page.nextCursor
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 3)
            #expect(seen.map(\.event.slug).sorted() == (0..<7).map { "paged-\($0)" }.sorted(), "each event once")
            let starts = seen.map(\.event.startsAt)
            #expect(starts == starts.sorted(by: >), "the latest start first")
            #expect(try await bob.client.myEvents().nextCursor == nil, "seven fit in the default page of 50")
            #expect(try await bob.client.allMyEvents().map(\.event.id) == seen.map(\.event.id))

            for query in ["limit=0", "limit=201", "limit=x"] {
                await expectProblem(400, "invalid_limit") { _ = try await bob.client.send(.GET, "/v1/me/events?\(query)") }
            }
            for bad in ["12", "x.y", "1.not-a-uuid", ""] {
                await expectProblem(400, "invalid_cursor") {
                    _ = try await bob.client.send(.GET, "/v1/me/events?cursor=\(bad)")
                }
            }
        }
    }
}
