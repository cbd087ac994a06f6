import Foundation
import Store

/// The rate limits that hold for the whole deployment, however a load balancer spreads clients
/// (`RateLimits.deploymentWide`: registrations, events created, wrong join codes): counted in
/// PostgreSQL, where every server sees them (`RateBucketRepository`). In front, this server's own
/// buckets at the deployment's whole rate refuse at once what the deployment would refuse anyway,
/// so a flood of refusals costs no write on the primary: one server writes a subject's bucket at
/// most a rule's count per period.
package struct DeploymentLimits: Sendable {
    let limits: RateLimits
    /// This server's buckets, at the deployment's rates.
    let filter: RateLimiter
    let store: RateBucketRepository

    init(limits: RateLimits, store: RateBucketRepository) {
        self.limits = limits.only(RateLimits.deploymentWide)
        self.filter = RateLimiter(limits: self.limits)
        self.store = store
    }

    /// Counts one `action` as `RateLimiter.admit` does, for the whole deployment: throws
    /// `RateLimited` and counts nothing in the database when a bucket is empty.
    func admit(
        _ action: RateLimits.Action, credential: UUID? = nil, address: String?, event: UUID? = nil, addressAction: RateLimits.Action? = nil
    ) async throws {
        try filter.admit(action, credential: credential, address: address, event: event, addressAction: addressAction)
        let buckets = limits.buckets(action, credential: credential, address: address, event: event, addressAction: addressAction)
        if let wait = try await store.take(buckets.map(Self.bucket)) { throw RateLimited(action: action, retryAfter: wait) }
    }

    /// Throws `RateLimited` when `credential` has no room left for more wrong join codes, or when
    /// the event's room for them from everyone is spent and `credential` has guessed wrong lately
    /// (`RateLimiter.checkGuess`); else takes one from `credential`'s room before the code is tried
    /// (`refundGuess` gives it back when the code was right). Taken before, not counted after: forty
    /// wrong codes sent at once all passed a check that counted none of them yet.
    func takeGuess(credential: UUID, event: UUID) async throws {
        try filter.checkGuess(.joinGuess, credential: credential, event: event)
        guard limits.perCredential[.joinGuess] != nil else { return }
        // The person's bucket first, then the event's, if it is limited.
        let buckets = limits.buckets(.joinGuess, credential: credential, address: nil, event: event).map(Self.bucket)
        let tokens = try await store.tokens(buckets)
        if let refusing = RateLimits.refusingGuess(tokens: tokens, capacity: buckets[0].capacity) {
            throw RateLimited(action: .joinGuess, retryAfter: .seconds((1 - tokens[refusing]) / buckets[refusing].perSecond))
        }
        if let wait = try await store.take([buckets[0]]) { throw RateLimited(action: .joinGuess, retryAfter: wait) }
    }

    /// Gives back the guess `takeGuess` took: the code was right (or never tried).
    func refundGuess(credential: UUID, event: UUID) async throws {
        guard limits.perCredential[.joinGuess] != nil,
            let personal = limits.buckets(.joinGuess, credential: credential, address: nil, event: event).first
        else { return }
        try await store.refund(Self.bucket(personal))
    }

    /// Counts a wrong join code by `credential` at `event`: in this server's buckets, and in the
    /// event's room (the person's, if limited, was taken by `takeGuess`).
    func chargeGuess(credential: UUID, event: UUID) async throws {
        filter.chargeGuess(.joinGuess, credential: credential, event: event)
        let buckets = limits.buckets(.joinGuess, credential: credential, address: nil, event: event).map(Self.bucket)
        try await store.charge(limits.perCredential[.joinGuess] == nil ? buckets : Array(buckets.dropFirst()))
    }

    private static func bucket(_ rule: (rule: RateRule, action: RateLimits.Action, subject: String)) -> RateBucketRepository.Bucket {
        RateBucketRepository.Bucket(
            subject: "\(rule.action.rawValue) \(rule.subject)", capacity: rule.rule.count, perSecond: rule.rule.perSecond)
    }
}
