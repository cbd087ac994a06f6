import Client
import ConstellationModel
import Foundation
import Server
import TestSupport
import Testing
import Tokens

/// Organizers change an event (`PATCH /v1/events/{event}`): its name, dates and time zone by the
/// rules of creation and of the calendar, never over another organizer's change, with the purge
/// date and printed badges following the new end.
@Suite(.tier(.database)) struct EventChangeTests {
    @Test func anOrganizerRenamesAndExtendsAnEventAndAStaleVersionChangesNothing() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("typo-conf", name: "Tpyo Conf"))
            let (read, etag) = try await ada.client.taggedEvent("typo-conf")
            let tag = try #require(etag)
            #expect(read == created.event)

            let later = created.event.endsAt.addingTimeInterval(3_600)
            let changed = try await ada.client.changeEvent(
                "typo-conf", EventChangeRequest(name: "  Typo Conf ", endsAt: later), ifMatch: tag)
            #expect(changed.name == "Typo Conf" && changed.endsAt == later && changed.slug == "typo-conf")
            #expect(changed.startsAt == created.event.startsAt && changed.timeZone == created.event.timeZone)
            #expect(
                changed.purgeOn == created.event.purgeOn.addingTimeInterval(3_600), "a purge date left at its default moves with the end")
            let (again, newTag) = try await ada.client.taggedEvent("typo-conf")
            #expect(again == changed && newTag != tag)

            // The tag read before the change names a version that is gone: nothing changes.
            await expectProblem(412, "event_changed") {
                _ = try await ada.client.changeEvent("typo-conf", EventChangeRequest(name: "Old Copy"), ifMatch: tag)
            }
            #expect(try await ada.client.event("typo-conf").name == "Typo Conf")

            // Without If-Match, with nothing to change, or by anyone but an organizer: refused, unchanged.
            let key = try #require(ada.client.apiKey)
            let raw = try await RawHTTP.exchange(
                port: server.port,
                "PATCH /v1/events/typo-conf HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 15\r\nConnection: close\r\n\r\n{\"name\":\"Raw\"}")
            #expect(raw.httpStatus == 428 && raw.httpBody.contains("if_match_required"), "\(raw)")
            await expectProblem(422, "validation_failed") {
                _ = try await ada.client.changeEvent("typo-conf", EventChangeRequest(), ifMatch: newTag!)
            }
            await expectProblem(403, "not_an_organizer") {
                _ = try await bob.client.changeEvent("typo-conf", EventChangeRequest(name: "Bob's"), ifMatch: newTag!)
            }
            _ = try await bob.client.joinEvent("typo-conf", code: created.joinCode)
            await expectProblem(403, "not_an_organizer") {
                _ = try await bob.client.changeEvent("typo-conf", EventChangeRequest(name: "Bob's"), ifMatch: newTag!)
            }
            #expect(try await ada.client.event("typo-conf") == changed)
        }
    }

    @Test func datesMoveOnlyAsTheCalendarAllows() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            // Began an hour ago, ends in seven.
            let running = try await ada.client.createEvent(EventRoutesTests.newEvent("running")).event
            func change(_ request: EventChangeRequest) async throws -> Event {
                try await ada.client.changeEvent(
                    "running", request, ifMatch: try #require(try await ada.client.taggedEvent("running").etag))
            }
            await expectProblem(422, "validation_failed") {
                _ = try await change(EventChangeRequest(startsAt: running.startsAt.addingTimeInterval(60)))
            }
            await expectProblem(422, "invalid_date") { _ = try await change(EventChangeRequest(endsAt: Date().addingTimeInterval(-600))) }
            await expectProblem(422, "validation_failed") {
                _ = try await change(EventChangeRequest(endsAt: running.startsAt.addingTimeInterval(32 * 86_400)))
            }
            await expectProblem(422, "validation_failed") { _ = try await change(EventChangeRequest(timeZone: "Not/AZone")) }
            await expectProblem(422, "validation_failed") { _ = try await change(EventChangeRequest(name: " \u{200B} ")) }
            #expect(try await ada.client.event("running") == running, "every refusal changed nothing")

            // Ended now: its end stays from then on.
            let ended = try await change(EventChangeRequest(endsAt: Date()))
            #expect(abs(ended.endsAt.timeIntervalSinceNow) < 60)
            await expectProblem(422, "validation_failed") {
                _ = try await change(EventChangeRequest(endsAt: Date().addingTimeInterval(3_600)))
            }
            #expect(try await change(EventChangeRequest(name: "Running, renamed after its end")).name == "Running, renamed after its end")

            // One that has not begun: its start moves, not into the past, and its end with it.
            let ahead = try await ada.client.createEvent(EventRoutesTests.newEvent("ahead", startsIn: 86_400)).event
            let (_, tag) = try await ada.client.taggedEvent("ahead")
            let moved = try await ada.client.changeEvent(
                "ahead",
                EventChangeRequest(startsAt: ahead.startsAt.addingTimeInterval(3_600), endsAt: ahead.endsAt.addingTimeInterval(3_600)),
                ifMatch: try #require(tag))
            #expect(moved.startsAt == ahead.startsAt.addingTimeInterval(3_600) && moved.endsAt == ahead.endsAt.addingTimeInterval(3_600))
            await expectProblem(422, "invalid_date") {
                _ = try await ada.client.changeEvent(
                    "ahead", EventChangeRequest(startsAt: Date().addingTimeInterval(-3_600)),
                    ifMatch: try #require(try await ada.client.taggedEvent("ahead").etag))
            }
        }
    }

    @Test func aChosenPurgeDateStaysAndAnEndPastItMustMoveItToo() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let event = try await ada.client.createEvent(EventRoutesTests.newEvent("kept-date")).event
            let bounds = try await ada.client.purgeDate(of: "kept-date")
            let chosen = bounds.earliest.addingTimeInterval(86_400).rounded()
            _ = try await ada.client.movePurgeDate(of: "kept-date", to: chosen)

            // An hour later: the chosen date (a day after the end and the grace) stays.
            var tag = try #require(try await ada.client.taggedEvent("kept-date").etag)
            let hourLater = try await ada.client.changeEvent(
                "kept-date", EventChangeRequest(endsAt: event.endsAt.addingTimeInterval(3_600)), ifMatch: tag)
            #expect(hourLater.purgeOn == chosen)

            // Two days later would end after it: refused, naming purgeOn, unless the same change moves it.
            tag = try #require(try await ada.client.taggedEvent("kept-date").etag)
            let twoDays = event.endsAt.addingTimeInterval(2 * 86_400)
            do {
                _ = try await ada.client.changeEvent("kept-date", EventChangeRequest(endsAt: twoDays), ifMatch: tag)
                Issue.record("an end past the chosen purge date was accepted")
            } catch let error as ClientError {
                guard case .problem(let problem) = error else { throw error }
                #expect(problem.status == 422 && problem.errors?.first?.pointer == "/purgeOn", "\(problem)")
            }
            #expect(try await ada.client.event("kept-date") == hourLater)
            let both = try await ada.client.changeEvent(
                "kept-date", EventChangeRequest(endsAt: twoDays, purgeOn: twoDays.addingTimeInterval(3 * 86_400)), ifMatch: tag)
            #expect(both.endsAt == twoDays && both.purgeOn == twoDays.addingTimeInterval(3 * 86_400))
        }
    }

    /// An event that ended longer ago than the longest keeping allows, its purge date still ahead
    /// (an older release's row, or a shorter `CONSTELLATION_PURGE_LONGEST_DAYS` since): the earliest
    /// date (now) is past the latest. Before, the bounds made a range that stopped the server.
    @Test func anEventWithNoPurgeDateLeftRefusesANewOneAndTheServerLivesOn() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let event = try await ada.client.createEvent(EventRoutesTests.newEvent("long-over")).event
            _ = try await server.services.database.withConnection {
                try $0.query(
                    """
                    UPDATE events SET created_at = now() - interval '402 days', starts_at = now() - interval '401 days',
                        ends_at = now() - interval '400 days 23 hours', purge_on = now() + interval '30 days'
                    WHERE id = \(event.id)
                    """)
            }
            let tag = try #require(try await ada.client.taggedEvent("long-over").etag)
            let before = try await ada.client.event("long-over")
            do {
                _ = try await ada.client.changeEvent(
                    "long-over", EventChangeRequest(purgeOn: Date().addingTimeInterval(40 * 86_400).rounded()), ifMatch: tag)
                Issue.record("a purge date past the latest was accepted")
            } catch let error as ClientError {
                guard case .problem(let problem) = error else { throw error }
                #expect(problem.status == 422 && problem.errors?.first?.pointer == "/purgeOn", "\(problem)")
            }
            #expect(try await ada.client.event("long-over") == before, "nothing changed, and the server still answers")
        }
    }

    @Test func twoOrganizersChangingAtOnceNeverOverwriteEachOther() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("together"))
            let tag = try #require(try await ada.client.taggedEvent("together").etag)
            let outcomes = await withTaskGroup(of: String.self) { group in
                for n in 0..<20 {
                    group.addTask {
                        do {
                            return try await ada.client.changeEvent("together", EventChangeRequest(name: "Name \(n)"), ifMatch: tag).name
                        } catch {
                            return (error as? ClientError)?.code ?? "\(error)"
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let won = outcomes.filter { $0.hasPrefix("Name ") }
            #expect(won.count == 1 && outcomes.filter { $0 == "event_changed" }.count == 19, "\(outcomes)")
            #expect(try await ada.client.event("together").name == won.first)
        }
    }

    /// The badge's printed expiry is the end its event had when it was printed; the server checks it
    /// against the event's end as it is now. The badge is signed here with the server's keys for an
    /// end that passed a minute ago (past the 30 s leeway), as one printed before an extension
    /// would be: no test waits for a clock.
    @Test func aBadgePrintedBeforeAnExtensionConnectsAfterTheOldEnd() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Bob", "Cleo")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("runs-late"))
            _ = try await bob.client.joinEvent("runs-late", code: created.joinCode)
            let oldEnd = Date().addingTimeInterval(-60).rounded(.down)
            let (printed, _) = try BadgeTokens.issue(
                subject: bob.profile.id, eventId: created.event.id, expiresAt: oldEnd, now: oldEnd.addingTimeInterval(-3_600),
                keys: server.services.keyRing)
            let redemption = try await cleo.client.redeem(RedeemRequest(token: printed))
            #expect(redemption.created && redemption.connection.eventId == created.event.id, "the event runs on: the badge with it")
        }
    }
}

extension Date {
    /// To the whole second (`rule`: down, up or nearest), as the API's dates are.
    fileprivate func rounded(_ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Date {
        Date(timeIntervalSince1970: timeIntervalSince1970.rounded(rule))
    }
}
