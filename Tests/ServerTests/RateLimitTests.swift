import Client
import ConstellationModel
import Foundation
import Server
import Store
import TestSupport
import Testing

/// Rate limits through the server: per credential and per client address, 429 problem+json with
/// `Retry-After`, nothing written past a limit, `X-Forwarded-For` believed only from a trusted
/// proxy, and the limits that hold for a whole deployment of servers on one database. The buckets'
/// arithmetic and the configuration's syntax are `RateLimiterTests`, which need no database.
@Suite(.tier(.database)) struct RateLimitTests {
    static func limits(_ text: String) -> RateLimits { RateLimits(text)! }

    /// Runs `body` with two servers on one database, each limited by `rules` and told it is one of two.
    static func onTwoServers(limiting rules: String, _ body: @Sendable (TestServer, TestServer) async throws -> Void) async throws {
        let configure: @Sendable (inout ServerConfiguration) -> Void = {
            $0.rateLimits = Self.limits(rules)
            $0.instances = 2
        }
        try await TestServer.run(configure: configure) { first throws in
            try await TestServer.run(sharing: first, configure: configure) { second throws in try await body(first, second) }
        }
    }

    @Test func scansPastTheLimitGet429WithRetryAfterAndChangeNothing() async throws {
        // Three an hour: no scan comes back while the test runs, however loaded the machine (at three
        // a minute, one came back on CI between the refusal and the raw request after it).
        try await TestServer.run(configure: { $0.rateLimits = Self.limits("redeem=3/h") }) { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Bob", "Cleo")
            var tokens: [String] = []
            for _ in 0..<5 { tokens.append(try await ada.client.issueToken().token) }
            let firstScan = ContinuousClock.now
            for token in tokens.prefix(3) { _ = try await bob.client.redeem(RedeemRequest(token: token)) }
            let before = try await server.count("redemptions")
            var refusal: ClientError?
            do {
                _ = try await bob.client.redeem(RedeemRequest(token: tokens[3]))
            } catch let error as ClientError {
                refusal = error
            }
            guard case .problem(let problem) = refusal else {
                Issue.record("the fourth scan within a minute was not refused: \(String(describing: refusal))")
                return
            }
            #expect(problem.status == 429 && problem.code == "rate_limited")
            // One scan comes back every 1,200 s, counted from the first (a busy machine takes a while over the three).
            let elapsed = Int((ContinuousClock.now - firstScan).components.seconds)
            #expect(
                (1_199 - elapsed...1_200).contains(problem.retryAfter ?? 0),
                "retryAfter \(String(describing: problem.retryAfter)) after \(elapsed) s")
            let raw = try await RawHTTP.exchange(
                port: server.port,
                """
                POST /v1/connections HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer \(bob.client.apiKey ?? "")\r\n\
                Content-Type: application/json\r\nContent-Length: \(tokens[4].utf8.count + 12)\r\n\r\n{"token":"\(tokens[4])"}
                """)
            #expect(raw.httpStatus == 429 && raw.httpHeader("Content-Type") == Problem.mediaType)
            #expect(Int(raw.httpHeader("Retry-After") ?? "") != nil)
            #expect(try await server.count("redemptions") == before, "a refused scan writes nothing")
            // Another person is not held back by Bob's limit.
            _ = try await cleo.client.redeem(RedeemRequest(token: tokens[3]))
        }
    }

    @Test func mintingPastTheLimitIsRefusedOverHTTPToo() async throws {
        try await TestServer.run(configure: { $0.rateLimits = Self.limits("mint=2/min") }) { server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.issueToken()
            _ = try await ada.client.issueToken()
            await expectProblem(429, "rate_limited") { _ = try await ada.client.issueToken() }
            await expectProblem(429, "rate_limited") { _ = try await ada.client.qr(format: "svg") }
        }
    }

    @Test func registrationsCountByAddressAndForwardedForOnlyFromATrustedProxy() async throws {
        @Sendable func register(_ server: TestServer, from forwarded: String) async throws -> Int? {
            try await RawHTTP.exchange(
                port: server.port,
                """
                POST /v1/profiles HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Forwarded-For: 203.0.113.9, \(forwarded)\r\n\
                Content-Type: application/json\r\nContent-Length: 21\r\n\r\n{"displayName":"Ada"}
                """
            ).httpStatus
        }
        try await TestServer.run(configure: {
            $0.rateLimits = Self.limits("register_address=2/h")
            $0.trustedProxies = TrustedProxies("127.0.0.1, 10.0.0.0/8")!
        }) { server throws in
            // The proxy chain is read from the right: 10.1.2.3 is a trusted hop, 198.51.100.7 the client.
            #expect(try await register(server, from: "198.51.100.7, 10.1.2.3") == 201)
            #expect(try await register(server, from: "198.51.100.7") == 201)
            #expect(try await register(server, from: "198.51.100.7") == 429)
            #expect(try await register(server, from: "198.51.100.8") == 201, "another client behind the same proxy")
        }
        try await TestServer.run(configure: { $0.rateLimits = Self.limits("register_address=2/h") }) { server throws in
            // No trusted proxy: the header is anyone's word, and the peer (127.0.0.1) is counted.
            #expect(try await register(server, from: "198.51.100.1") == 201)
            #expect(try await register(server, from: "198.51.100.2") == 201)
            #expect(try await register(server, from: "198.51.100.3") == 429)
        }
    }

    /// Registrations from one address hold for the whole deployment: two servers on one database,
    /// each told there are two, admit the deployment's three between them (not three each, nor a
    /// share of two each); a refusal writes nothing. Each server's own buckets, at the
    /// deployment's rate, refuse what it would refuse anyway without asking the database: with
    /// the database closed, such a refusal is still a 429, not a 503.
    @Test func registrationsFromOneAddressCountForTheWholeDeployment() async throws {
        try await Self.onTwoServers(limiting: "register_address=3/h") { first, second in
            let newcomer = NewProfile(displayName: "Newcomer")
            _ = try await first.client.register(newcomer)
            _ = try await second.client.register(newcomer)
            _ = try await second.client.register(newcomer)
            for server in [first, second] {
                do {
                    _ = try await server.client.register(newcomer)
                    Issue.record("a fourth registration from one address was admitted")
                } catch ClientError.problem(let problem) {
                    #expect(problem.status == 429 && problem.code == "rate_limited")
                    #expect(
                        (problem.retryAfter ?? 0) > 600,
                        "a token comes back every 20 minutes: \(String(describing: problem.retryAfter))")
                }
            }
            let profiles = try await first.services.database.withConnection { connection in
                try connection.query("SELECT count(*) AS n FROM profiles")[0].int("n")
            }
            #expect(profiles == 3)

            // The second server's own bucket is spent too (three tried there): it refuses without the database.
            try await TestDatabase.closeToConnections(second.conninfo)
            await expectProblem(429, "rate_limited") { _ = try await second.client.register(newcomer) }
            try await TestDatabase.closeToConnections(second.conninfo, false)
        }
    }

    /// An organizer's reports and records hold for the whole deployment: each is the whole event,
    /// and a loop of them behind a balancer must not get each server's allowance. Two servers on one
    /// database give one organizer three between them, reports and records together; another
    /// organizer of the event keeps their own.
    @Test func anOrganizersReportsAndRecordsCountForTheWholeDeployment() async throws {
        try await Self.onTwoServers(limiting: "report=3/h") { first, second in
            let ada = try await first.user("Ada")
            let bob = try await first.user("Bob")
            let event = try await ada.client.createEvent(EventRoutesTests.newEvent())
            _ = try await ada.client.inviteOrganizer(bob.profile.id, to: event.event.slug)
            _ = try await bob.client.acceptInvitation(to: event.event.slug)
            let adaThere = second.client.authenticated(try #require(ada.client.apiKey))
            _ = try await ada.client.report(of: event.event.slug)
            _ = try await adaThere.record(of: event.event.slug)
            _ = try await adaThere.report(of: event.event.slug, language: "de")
            await expectProblem(429, "rate_limited") { _ = try await ada.client.report(of: event.event.slug) }
            await expectProblem(429, "rate_limited") { _ = try await adaThere.record(of: event.event.slug) }
            _ = try await bob.client.report(of: event.event.slug)
        }
    }

    /// A bucket a restored archive wrote in the future counts as full: it cannot lock an address out.
    @Test func aBucketWrittenInTheFutureIsFull() async throws {
        try await TestServer.run(configure: { $0.rateLimits = Self.limits("register_address=2/h") }) { server throws in
            try await server.services.database.withConnection { connection in
                _ = try connection.query(
                    "INSERT INTO rate_buckets (subject, tokens, updated) VALUES ('register address:127.0.0.1', 0, '9999-12-31')")
            }
            _ = try await server.client.register(NewProfile(displayName: "Ada"))
            _ = try await server.client.register(NewProfile(displayName: "Bob"))
            await expectProblem(429, "rate_limited") { _ = try await server.client.register(NewProfile(displayName: "Cleo")) }
        }
    }

    @Test func anAddressSendingWrongKeysIsHeldBackEvenWithARightOne() async throws {
        // An hour's rate: no token comes back between the requests however slowly a loaded machine sends them.
        try await TestServer.run(configure: { $0.rateLimits = Self.limits("auth_failure_address=3/h") }) { server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.me()
            let stranger = server.client.authenticated("cst_" + String(repeating: "A", count: 43))
            for _ in 0..<3 { await expectProblem(401, "invalid_credentials") { _ = try await stranger.me() } }
            await expectProblem(429, "rate_limited") { _ = try await stranger.me() }
            await expectProblem(429, "rate_limited") { _ = try await ada.client.me() }
        }
    }

    /// Wrong join codes are counted per person and per event, not per address: one person's typos
    /// stop that person (80 in a row were all 403 before), someone else at the same venue address
    /// still joins, and once the event's room for wrong codes is spent, only those who guessed
    /// wrong already are held back.
    @Test func wrongJoinCodesAreThrottledPerPersonAndPerEvent() async throws {
        try await TestServer.run(configure: { $0.rateLimits = Self.limits("join_guess=5/h,join_guess_event=12/h") }) { server throws in
            let ada = try await server.user("Ada")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("guess-fest"))
            let bob = try await server.user("Bob")
            var statuses: [Int] = []
            for _ in 0..<8 {
                do {
                    _ = try await bob.client.joinEvent("guess-fest", code: "AAAA-AAAA")
                    statuses.append(200)
                } catch {
                    guard case .problem(let problem)? = error as? ClientError else { throw error }
                    statuses.append(problem.status)
                }
            }
            #expect(statuses == [403, 403, 403, 403, 403, 429, 429, 429])
            await expectProblem(429, "rate_limited") { _ = try await bob.client.joinEvent("guess-fest", code: created.joinCode) }
            // Another person behind the same address is not held back by Bob's typos.
            let cleo = try await server.user("Cleo")
            #expect(try await cleo.client.joinEvent("guess-fest", code: created.joinCode).role == .attendee)
            // Seven more people guess wrong once each: the event's room (12) is spent.
            var guessers: [ConstellationClient] = []
            for index in 0..<7 {
                let guesser = try await server.user("Guesser \(index)").client
                await expectProblem(403, "invalid_join_code") { _ = try await guesser.joinEvent("guess-fest", code: "BBBB-BBBB") }
                guessers.append(guesser)
            }
            await expectProblem(429, "rate_limited") { _ = try await guessers[0].joinEvent("guess-fest", code: created.joinCode) }
            let dora = try await server.user("Dora")
            #expect(
                try await dora.client.joinEvent("guess-fest", code: created.joinCode).role == .attendee,
                "who never guessed wrong still joins")
        }
    }

    /// Forty wrong join codes sent at once: each takes its guess before its code is tried, so no
    /// more than the person's room (5) are tried; the rest are refused. Before, all forty passed a
    /// check that had counted none of them yet.
    @Test func wrongJoinCodesSentAtOnceAreCountedAsTheyCome() async throws {
        try await TestServer.run(configure: { $0.rateLimits = Self.limits("join_guess=5/h,join_guess_event=120/h") }) { server throws in
            let ada = try await server.user("Ada")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("guess-burst"))
            let bob = try await server.user("Bob").client
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        do {
                            _ = try await bob.joinEvent("guess-burst", code: "AAAA-AAAA")
                            return 200
                        } catch {
                            guard case .problem(let problem)? = error as? ClientError else { throw error }
                            return problem.status
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.count { $0 == 403 } <= 5 && statuses.allSatisfy { $0 == 403 || $0 == 429 }, "\(statuses.sorted())")
            // A right code after them is refused too (no room left), and someone else's is not.
            await expectProblem(429, "rate_limited") { _ = try await bob.joinEvent("guess-burst", code: created.joinCode) }
            #expect(try await server.user("Cleo").client.joinEvent("guess-burst", code: created.joinCode).role == .attendee)
            // A right code costs nothing of the room: Dora joins, and still has all five wrong guesses.
            let dora = try await server.user("Dora").client
            _ = try await dora.joinEvent("guess-burst", code: created.joinCode)
            for _ in 0..<5 {
                await expectProblem(403, "invalid_join_code") { _ = try await dora.joinEvent("guess-burst", code: "AAAA-AAAA") }
            }
            await expectProblem(429, "rate_limited") { _ = try await dora.joinEvent("guess-burst", code: "AAAA-AAAA") }
        }
    }
}
