import ConstellationModel
import Foundation
import Server
import TestSupport
import Testing

/// Events keep to a calendar: one starts at most `CONSTELLATION_EVENT_HORIZON_DAYS` ahead, so
/// nothing its dates bound reaches further from now; an organizer creates events at a person's
/// pace; a member changes their choices at a person's pace too.
@Suite(.tier(.database)) struct EventCalendarTests {
    @Test func anEventStartsAtMostTheHorizonAheadAndItsCodesWorkFromItsCreation() async throws {
        try await TestServer.run(configure: { $0.eventHorizon = .seconds(10 * 86_400) }) { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            // The example: dated 2190, it would have kept its people's data until then.
            let far = NewEvent(
                name: "Far", slug: "far-ahead", startsAt: Date(timeIntervalSince1970: 7_204_060_800),
                endsAt: Date(timeIntervalSince1970: 7_206_652_800), timeZone: "UTC")
            await expectProblem(422, "invalid_date") { _ = try await ada.client.createEvent(far) }
            await expectProblem(422, "invalid_date") {
                _ = try await ada.client.createEvent(EventRoutesTests.newEvent("eleven-days", startsIn: 11 * 86_400))
            }
            await expectProblem(404, "unknown_event") { _ = try await ada.client.event("far-ahead") }
            await expectProblem(404, "unknown_event") { _ = try await ada.client.event("eleven-days") }

            // Nine days ahead is within it; its codes work from now (the door opens before the
            // start) and the pair counts for the event.
            let soon = try await ada.client.createEvent(EventRoutesTests.newEvent("nine-days", startsIn: 9 * 86_400))
            _ = try await bob.client.joinEvent("nine-days", code: soon.joinCode)
            let redemption = try await bob.client.scan(ada.client, at: "nine-days")
            #expect(redemption.created && redemption.connection.eventId == soon.event.id)
            #expect(try await ada.client.eventSummary("nine-days").connections == 1)
        }
    }

    @Test func creatingEventsAndChangingChoicesKeepAPersonsPace() async throws {
        try await TestServer.run(configure: { $0.rateLimits = RateLimits("create_event=3/h,choices=2/min")! }) { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            var joinCode = ""
            for n in 1...3 { joinCode = try await ada.client.createEvent(EventRoutesTests.newEvent("event-\(n)")).joinCode }
            await expectProblem(429, "rate_limited") { _ = try await ada.client.createEvent(EventRoutesTests.newEvent("event-4")) }
            await expectProblem(404, "unknown_event") { _ = try await ada.client.event("event-4") }
            // Bob's budget is his own.
            _ = try await bob.client.createEvent(EventRoutesTests.newEvent("bobs-event"))

            _ = try await bob.client.joinEvent("event-3", code: joinCode)
            _ = try await bob.client.setEventVisibility(.named, at: "event-3")
            _ = try await bob.client.setEventVisibility(.pseudonymous, at: "event-3")
            await expectProblem(429, "rate_limited") { _ = try await bob.client.setEventVisibility(.named, at: "event-3") }
            let mine = try await bob.client.myEvents().items.first { $0.event.slug == "event-3" }
            #expect(mine?.visibility == .pseudonymous, "the refused change changed nothing")
        }
    }
}
