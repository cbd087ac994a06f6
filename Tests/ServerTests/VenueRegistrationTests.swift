import Client
import ConstellationModel
import Foundation
import Server
import TestSupport
import Testing

/// A venue puts its crowd behind one address. Registrations that come through an event (its join
/// code, or one of its codes being scanned) count against the event's budget, through a person's
/// code against that person's, and only those with nothing behind them against the address: at the
/// default limits, all from loopback.
@Suite(.tier(.database)) struct VenueRegistrationTests {
    /// Whether `body` is refused with 429 `rate_limited`.
    static func isRateLimited(_ body: () async throws -> Void) async throws -> Bool {
        do {
            try await body()
            return false
        } catch ClientError.problem(let problem) where problem.status == 429 && problem.code == "rate_limited" {
            return true
        }
    }

    @Test func aCrowdBehindOneAddressRegistersThroughItsEventWhileScriptsAreStopped() async throws {
        try await TestServer.run { server throws in
            let organizer = try await server.user("Olga")
            let created = try await organizer.client.createEvent(EventRoutesTests.newEvent("venue-fest"))
            // 150 newcomers from one address, over twice the address's 60 a minute: all in, each an attendee.
            for index in 0..<150 {
                let registered = try await server.client.register(
                    NewProfile(displayName: "Newcomer \(index)", event: "venue-fest", joinCode: created.joinCode.lowercased()))
                #expect(registered.event?.event.id == created.event.id && registered.event?.role == .attendee)
            }
            #expect(try await server.count("event_members") == 151, "the organizer and 150 attendees")
            // Registrations with nothing behind them from the same address meet 429 after the
            // address's 60 (one more comes back each second, however long the run took).
            let began = ContinuousClock.now
            var plain = 0
            while plain < 200,
                !(try await Self.isRateLimited { _ = try await server.client.register(NewProfile(displayName: "Plain \(plain)")) })
            {
                plain += 1
            }
            let seconds = Int((ContinuousClock.now - began).components.seconds)
            #expect(plain >= 59 && plain <= 60 + seconds, "\(plain) plain registrations in \(seconds) s")
            // A wrong code is refused (403, or 429 while the address is spent) and creates nothing.
            let before = try await server.count("profiles")
            do {
                _ = try await server.client.register(NewProfile(displayName: "Guess", event: "venue-fest", joinCode: "AAAA-AAAA"))
                Issue.record("a wrong join code registered")
            } catch ClientError.problem(let problem) {
                #expect(problem.code == "invalid_join_code" || problem.code == "rate_limited", "\(problem.code)")
            }
            #expect(try await server.count("profiles") == before)
            // The event's door stays open.
            _ = try await server.client.register(
                NewProfile(displayName: "Late", event: created.event.id.uuidString, joinCode: created.joinCode))
        }
    }

    @Test func wrongCodesEventsAndTokensCountAgainstTheAddressAndCreateNothing() async throws {
        try await TestServer.run(configure: { $0.rateLimits = RateLimits("register_address=3/h")! }) { server throws in
            let organizer = try await server.user("Olga")  // the address's first of three
            let created = try await organizer.client.createEvent(EventRoutesTests.newEvent("door-fest"))
            await expectProblem(403, "invalid_join_code") {
                _ = try await server.client.register(NewProfile(displayName: "Guess", event: "door-fest", joinCode: "AAAA-AAAA"))
            }
            await expectProblem(404, "unknown_event") {
                _ = try await server.client.register(NewProfile(displayName: "Guess", event: "no-such-fest", joinCode: created.joinCode))
            }
            // The address is spent: the next bad one is 429, and so is a plain one.
            let forgedIsRefused = try await Self.isRateLimited {
                _ = try await server.client.register(NewProfile(displayName: "Forged", token: "v4.public.x"))
            }
            #expect(forgedIsRefused)
            let plainIsRefused = try await Self.isRateLimited { _ = try await server.client.register(NewProfile(displayName: "Plain")) }
            #expect(plainIsRefused)
            #expect(try await server.count("profiles") == 1)
            // Half a pair, or both ways at once, is not a registration.
            await expectProblem(422, "validation_failed") {
                _ = try await server.client.register(NewProfile(displayName: "Half", event: "door-fest"))
            }
            await expectProblem(422, "validation_failed") {
                _ = try await server.client.register(
                    NewProfile(displayName: "Both", event: "door-fest", joinCode: created.joinCode, token: "v4.public.x"))
            }
            // A rotated code no longer opens the door; the new one does.
            let rotated = try await organizer.client.rotateJoinCode(of: "door-fest")
            _ = try await server.client.register(NewProfile(displayName: "New code", event: "door-fest", joinCode: rotated.joinCode))
            #expect(try await server.count("profiles") == 2)
        }
    }

    @Test func aPersonsCodeBringsSixtyNewcomersAMinuteAndAnEventsCodeCountsForItsEvent() async throws {
        try await TestServer.run(configure: { $0.rateLimits = RateLimits("register=5/h,register_event=3/h")! }) { server throws in
            let (ada, olga) = try await server.users("Ada", "Olga")
            let personal = try await ada.client.issueToken().token
            for index in 0..<5 {
                _ = try await server.client.register(NewProfile(displayName: "Ada's \(index)", token: personal))
            }
            let sixthIsRefused = try await Self.isRateLimited {
                _ = try await server.client.register(NewProfile(displayName: "Sixth", token: personal))
            }
            #expect(sixthIsRefused)
            _ = try await olga.client.createEvent(EventRoutesTests.newEvent("code-fest"))
            let atEvent = try await olga.client.issueToken(event: "code-fest").token
            for index in 0..<3 {
                let newcomer = try await server.client.register(NewProfile(displayName: "Olga's \(index)", token: atEvent))
                // Registering does not redeem: the scan is the newcomer's next request.
                _ = try await server.client.authenticated(newcomer.apiKey).redeem(RedeemRequest(token: atEvent))
            }
            let fourthIsRefused = try await Self.isRateLimited {
                _ = try await server.client.register(NewProfile(displayName: "Fourth", token: atEvent))
            }
            #expect(fourthIsRefused)
            #expect(try await server.count("profiles") == 2 + 5 + 3)
            #expect(try await server.count("redemptions") == 3)
        }
    }

    /// Each new profile can show a code, and registering through it once brought a fresh budget:
    /// from one address, registrations chained code to code went on at will. Now every
    /// registration through a code also counts against the address's budget for them.
    @Test func registrationsChainedThroughEachNewcomersCodeStopAtTheAddressBudget() async throws {
        try await TestServer.run(configure: { $0.rateLimits = RateLimits("register_address=100/h,register_code_address=6/h")! }) {
            server throws in
            var shower = try await server.user("Ada").client
            var chained = 0
            while chained < 20 {
                let code = try await shower.issueToken().token
                let next: RegisteredProfile
                do {
                    next = try await server.client.register(NewProfile(displayName: "Chained \(chained)", token: code))
                } catch ClientError.problem(let problem) where problem.status == 429 {
                    break
                }
                chained += 1
                shower = server.client.authenticated(next.apiKey)
            }
            #expect(chained == 6, "each newcomer's own code brought no fresh budget: \(chained) chained")
            // Events count too: a new event's join code does not reopen the address's door for codes.
            let joinCode = try await shower.createEvent(EventRoutesTests.newEvent("chain-fest")).joinCode
            let throughEvent = try await Self.isRateLimited {
                _ = try await server.client.register(NewProfile(displayName: "Through an event", event: "chain-fest", joinCode: joinCode))
            }
            #expect(throughEvent)
            #expect(try await server.count("profiles") == 7)
        }
    }

    /// A code its redemption would refuse, or an ended or purged event's join code, registers
    /// nobody, and counts against the address as a registration with nothing behind it does.
    @Test func codesARedemptionWouldRefuseAndEndedEventsRegisterNobody() async throws {
        try await TestServer.run(configure: { $0.rateLimits = RateLimits("register_address=11/h")! }) { server throws in
            let (ada, bob, olga) = try await server.users("Ada", "Bob", "Olga")  // 3 of the address's 11
            let revoked = try await ada.client.issueToken().token
            _ = try await ada.client.resetTokens()
            await expectProblem(401, "token_revoked") {
                _ = try await server.client.register(NewProfile(displayName: "Through a reset code", token: revoked))
            }
            let erased = try await bob.client.issueToken().token
            try await bob.client.deleteMe()
            await expectProblem(404, "unknown_profile") {
                _ = try await server.client.register(NewProfile(displayName: "Through an erased code", token: erased))
            }
            let ended = try await olga.client.createEvent(EventRoutesTests.newEvent("over-fest", startsIn: -7_200, hours: 1))
            await expectProblem(410, "event_ended") {
                _ = try await server.client.register(NewProfile(displayName: "Late", event: "over-fest", joinCode: ended.joinCode))
            }
            // Marked as a purge's 202 marks it (a purge needs the event over and its grace passed).
            let gone = try await olga.client.createEvent(EventRoutesTests.newEvent("gone-fest"))
            _ = try await server.services.database.withConnection {
                try $0.query("UPDATE events SET purged_at = now() WHERE slug = 'gone-fest'")
            }
            await expectProblem(410, "event_purged") {
                _ = try await server.client.register(NewProfile(displayName: "Too late", event: "gone-fest", joinCode: gone.joinCode))
            }
            #expect(try await server.count("profiles") == 2, "nobody registered (Bob erased)")
            // 3 people and 4 refusals spent 7 of the address's 11: four plain registrations, then 429.
            var plain = 0
            while plain < 10,
                !(try await Self.isRateLimited { _ = try await server.client.register(NewProfile(displayName: "Plain \(plain)")) })
            {
                plain += 1
            }
            #expect(plain == 4, "\(plain)")
        }
    }

    /// The budgets against a crowd's pace, on the limiter's own clock: 2,000 newcomers through one
    /// event over 10 minutes, half of them in the first three, are all admitted from one address;
    /// 200 registrations with nothing behind them in one minute are not.
    @Test func twoThousandNewcomersInTenMinutesFitTheEventsBudget() throws {
        let limiter = RateLimiter(limits: .defaults)
        let event = UUID()
        let start = ContinuousClock.now
        var refused = 0
        for index in 0..<2_000 {
            // 1,000 evenly over the first 180 s, 1,000 over the next 420 s.
            let at = index < 1_000 ? Double(index) * 0.18 : 180 + Double(index - 1_000) * 0.42
            do {
                try limiter.admit(.register, address: nil, event: event, at: start + .seconds(at))
            } catch {
                refused += 1
            }
        }
        #expect(refused == 0)
        var admitted = 0
        for index in 0..<200 {
            if (try? limiter.admit(.register, address: "192.0.2.7", at: start + .seconds(Double(index) * 0.3))) != nil { admitted += 1 }
        }
        #expect(admitted >= 60 && admitted <= 121, "60 at once, then one a second: \(admitted)")
    }
}
