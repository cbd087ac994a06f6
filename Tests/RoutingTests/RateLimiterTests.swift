import Foundation
import Server
import Testing

/// The rate limiter's arithmetic and the limits' configuration, without a server or a database:
/// buckets that refill at their rate, the syntax of `CONSTELLATION_RATE_LIMITS` and each
/// instance's share, and the shipped limits against a conference's busiest minutes.
@Suite struct RateLimiterTests {
    @Test func aBucketRefillsAtItsRate() throws {
        let limiter = RateLimiter(limits: RateLimits(perCredential: [.mint: RateRule(2, per: .seconds(4))], perAddress: [:]))
        let ada = UUID()
        let start = ContinuousClock.now
        try limiter.admit(.mint, credential: ada, address: nil, at: start)
        try limiter.admit(.mint, credential: ada, address: nil, at: start)
        do {
            try limiter.admit(.mint, credential: ada, address: nil, at: start + .milliseconds(500))
            Issue.record("a third code within the burst was admitted")
        } catch {
            // One comes back every 2 s; half a second of it has passed.
            #expect(error.retryAfter > .milliseconds(1_400) && error.retryAfter <= .milliseconds(1_500), "\(error.retryAfter)")
        }
        try limiter.admit(.mint, credential: ada, address: nil, at: start + .milliseconds(2_100))
        #expect(throws: RateLimited.self) { try limiter.admit(.mint, credential: ada, address: nil, at: start + .milliseconds(2_200)) }
        try limiter.admit(.mint, credential: UUID(), address: nil, at: start + .milliseconds(2_200))  // someone else
    }

    @Test func theConfigurationSaysWhatItMeans() throws {
        #expect(RateLimits("off") == .off)
        let changed = try #require(RateLimits("redeem=120/min, register_address=5/h,mint_address=10/s"))
        #expect(changed.perCredential[.redeem] == RateRule(120, per: .seconds(60)))
        #expect(changed.perAddress[.register] == RateRule(5, per: .seconds(3_600)))
        #expect(changed.perAddress[.mint] == RateRule(10, per: .seconds(1)))
        #expect(changed.perCredential[.mint] == RateLimits.defaults.perCredential[.mint], "what is not named keeps its default")
        let arrivals = try #require(RateLimits("register=5/min,register_event=1000/h"))
        #expect(arrivals.perCredential[.register] == RateRule(5, per: .seconds(60)), "newcomers one person's code brings")
        #expect(arrivals.perEvent[.register] == RateRule(1_000, per: .seconds(3_600)))
        for bad in ["redeem=0/min", "redeem=ten/min", "redeem=5/day", "scan=5/min", "mint_event=5/min", "auth_failure=5/min", "redeem"] {
            #expect(RateLimits(bad) == nil, "\(bad)")
        }
        // Four instances, each counting on its own, enforce a quarter each (rounded up).
        let share = RateLimits.defaults.share(of: 4)
        #expect(share.perCredential[.redeem] == RateRule(15, per: .seconds(60)))
        #expect(RateRule(3, per: .seconds(60)).share(of: 4) == RateRule(1, per: .seconds(60)))
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(environment: ["CONSTELLATION_RATE_LIMITS": "lots"]) }
        #expect(throws: ConfigurationError.self) { try ServerConfiguration(environment: ["CONSTELLATION_TRUSTED_PROXIES": "10.0.0.0/33"]) }
        #expect(try ServerConfiguration(environment: ["CONSTELLATION_RATE_LIMITS": "off"]).rateLimits == .off)
    }

    /// The shipped limits hold a 10,000-person conference's busiest minutes behind one address with
    /// twice its peak to spare (docs/configuration-and-operations.md#rate-limits): five minutes at
    /// 3,000 scans, 2,600 new codes and 800 registrations at the door a minute, spread evenly, each
    /// phone its own credential, are all let in. A script at the same address that registers as
    /// fast as it can, half plainly and half through codes, makes at most a full bucket of each
    /// and then 60 + 1,200 a minute.
    @Test func theDefaultsHoldAConferenceBreakBehindOneAddressAndStillBoundAScript() throws {
        let limiter = RateLimiter(limits: .defaults)
        let venue = "192.0.2.1"
        let event = UUID()
        let start = ContinuousClock.now
        let phones = (0..<4_000).map { _ in UUID() }
        var refused = 0
        func spread(_ perMinute: Int, _ admit: (Int, ContinuousClock.Instant) throws -> Void) {
            for index in 0..<(perMinute * 5) {
                do { try admit(index, start + .milliseconds(index * 60_000 / perMinute)) } catch { refused += 1 }
            }
        }
        spread(3_000) { index, at in try limiter.admit(.redeem, credential: phones[index % phones.count], address: venue, at: at) }
        spread(2_600) { index, at in try limiter.admit(.mint, credential: phones[index % phones.count], address: venue, at: at) }
        spread(800) { _, at in try limiter.admit(.register, address: venue, event: event, addressAction: .registerThroughCode, at: at) }
        #expect(refused == 0, "\(refused) of a conference's requests refused")

        let script = RateLimiter(limits: .defaults)
        let later = start + .seconds(3_600)
        var made = 0
        for millisecond in stride(from: 0, to: 60_000, by: 5) {
            let at = later + .milliseconds(millisecond)
            if (try? script.admit(.register, address: "198.51.100.7", at: at)) != nil { made += 1 }
            let code = UUID()
            if (try? script.admit(.register, address: "198.51.100.7", event: code, addressAction: .registerThroughCode, at: at)) != nil {
                made += 1
            }
        }
        // A full bucket of each (60 + 1,200), then a minute's refill of each: 2,520 at the most.
        #expect(made <= 2 * (60 + 1_200) && made >= 2 * (60 + 1_200) - 10, "\(made) profiles in a minute")
    }
}
