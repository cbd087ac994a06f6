import Foundation
import Synchronization

/// A client that must wait: how long before the next try may succeed.
package struct RateLimited: Error {
    package let action: RateLimits.Action
    package let retryAfter: Duration
}

extension RateLimits.Action {
    /// The action in a sentence: "too many \(noun)".
    var noun: String {
        switch self {
        case .register: "registrations"
        case .mint: "new codes"
        case .redeem: "scans"
        case .authFailure: "requests with a missing or wrong API key"
        case .joinGuess: "wrong join codes"
        case .viewLink: "new view links"
        case .registerThroughCode: "registrations through codes"
        case .createEvent: "new events"
        case .invite: "invitations to organize"
        case .choices: "changes of choices at this event"
        case .report: "reports and records"
        }
    }
}

/// Token buckets for `RateLimits`, in this process's memory: each server instance counts on its
/// own (the configured share, `CONSTELLATION_INSTANCES`). A bucket holds a rule's count and
/// refills continuously; a full bucket is forgotten when memory is tidied, so idle clients cost nothing.
package final class RateLimiter: Sendable {
    /// Whose bucket: an action, and a credential or an address.
    private struct Key: Hashable {
        let action: RateLimits.Action
        let subject: String
    }

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    let limits: RateLimits
    private let capacity: Int
    private let buckets = Mutex<[Key: Bucket]>([:])

    package init(limits: RateLimits, capacity: Int = 200_000) {
        self.limits = limits
        self.capacity = capacity
    }

    /// Counts one `action` for each of `credential`, `address` and `event` given if all have room
    /// (the address under `addressAction`, if given); else throws `RateLimited` and counts nothing.
    package func admit(
        _ action: RateLimits.Action, credential: UUID? = nil, address: String?, event: UUID? = nil,
        addressAction: RateLimits.Action? = nil, at now: ContinuousClock.Instant = .now
    ) throws(RateLimited) {
        let checks = limits.buckets(action, credential: credential, address: address, event: event, addressAction: addressAction).map {
            ($0.rule, Key(action: $0.action, subject: $0.subject))
        }
        guard !checks.isEmpty else { return }
        let wait: Duration? = buckets.withLock { buckets in
            tidy(&buckets, now: now)
            var refilled: [(Key, Bucket)] = []
            var longest: Duration?
            for (rule, key) in checks {
                let bucket = Self.refill(buckets[key], rule: rule, now: now)
                if bucket.tokens < 1 {
                    let wait = Duration.seconds((1 - bucket.tokens) / rule.perSecond)
                    longest = max(longest ?? .zero, wait)
                }
                refilled.append((key, bucket))
            }
            guard longest == nil else { return longest }
            for (key, var bucket) in refilled {
                bucket.tokens -= 1
                buckets[key] = bucket
            }
            return nil
        }
        if let wait { throw RateLimited(action: action, retryAfter: wait) }
    }

    /// Throws `RateLimited` if `address` has no room left for `action`, counting nothing.
    func check(_ action: RateLimits.Action, address: String?) throws(RateLimited) {
        guard let rule = limits.perAddress[action], let address else { return }
        try check(Key(action: action, subject: "address:\(address)"), rule: rule)
    }

    /// Counts one `action` for `address` whether or not it has room (a failure that happened).
    func charge(_ action: RateLimits.Action, address: String?) {
        guard let rule = limits.perAddress[action], let address else { return }
        charge(Key(action: action, subject: "address:\(address)"), rule: rule)
    }

    /// Throws `RateLimited` when `credential` has no room left for more wrong guesses at a shared
    /// secret, or when the event's room for them from everyone is spent and `credential` has
    /// guessed wrong lately; counts nothing.
    func checkGuess(_ action: RateLimits.Action, credential: UUID, event: UUID) throws(RateLimited) {
        guard let personal = limits.perCredential[action] else { return }
        // The person's bucket first, then the event's, if it is limited.
        let rules = limits.buckets(action, credential: credential, address: nil, event: event)
        let tokens = buckets.withLock { buckets in
            let now = ContinuousClock.now
            return rules.map { Self.refill(buckets[Key(action: $0.action, subject: $0.subject)], rule: $0.rule, now: now).tokens }
        }
        if let refusing = RateLimits.refusingGuess(tokens: tokens, capacity: personal.count) {
            throw RateLimited(action: action, retryAfter: .seconds((1 - tokens[refusing]) / rules[refusing].rule.perSecond))
        }
    }

    /// Counts a wrong guess by `credential` at `event`.
    func chargeGuess(_ action: RateLimits.Action, credential: UUID, event: UUID) {
        if let rule = limits.perCredential[action] { charge(Key(action: action, subject: "profile:\(credential)"), rule: rule) }
        if let rule = limits.perEvent[action] { charge(Key(action: action, subject: "event:\(event)"), rule: rule) }
    }

    private func check(_ key: Key, rule: RateRule) throws(RateLimited) {
        let bucket = buckets.withLock { Self.refill($0[key], rule: rule, now: .now) }
        if bucket.tokens < 1 { throw RateLimited(action: key.action, retryAfter: .seconds((1 - bucket.tokens) / rule.perSecond)) }
    }

    private func charge(_ key: Key, rule: RateRule) {
        let now = ContinuousClock.now
        buckets.withLock { buckets in
            tidy(&buckets, now: now)
            var bucket = Self.refill(buckets[key], rule: rule, now: now)
            bucket.tokens = max(bucket.tokens - 1, 0)
            buckets[key] = bucket
        }
    }

    private static func refill(_ bucket: Bucket?, rule: RateRule, now: ContinuousClock.Instant) -> Bucket {
        guard let bucket else { return Bucket(tokens: Double(rule.count), updated: now) }
        let elapsed = (now - bucket.updated) / .seconds(1)
        return Bucket(tokens: min(Double(rule.count), bucket.tokens + elapsed * rule.perSecond), updated: now)
    }

    /// When the table is full: forget the buckets that have refilled (they hold nothing a fresh
    /// one would not), and if that is not enough, everything.
    private func tidy(_ buckets: inout [Key: Bucket], now: ContinuousClock.Instant) {
        guard buckets.count >= capacity else { return }
        buckets = buckets.filter { key, bucket in
            let rules =
                key.subject.hasPrefix("profile:")
                ? limits.perCredential : key.subject.hasPrefix("event:") ? limits.perEvent : limits.perAddress
            let rule = rules[key.action]
            guard let rule else { return false }
            return Self.refill(bucket, rule: rule, now: now).tokens < Double(rule.count)
        }
        if buckets.count >= capacity { buckets.removeAll() }
    }
}
