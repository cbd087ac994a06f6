import Foundation
import Store
import Synchronization

/// View links found live recently, so that a live page's requests do not each cost a query: a
/// link (its maker, its screens) is remembered for `lifetime` (`CONSTELLATION_AUTH_CACHE_SECONDS`, as for API keys).
/// A link revoked, or whose maker stopped organizing the event, stops working on every instance
/// within `lifetime`; one revoked through this instance at once. Links not live are never
/// remembered. Bounded: past `capacity`, the expired go, and if that is not enough, all.
package final class ViewLinkCache: Sendable {
    private struct Entry {
        let link: LiveViewLink
        let expires: ContinuousClock.Instant
    }

    let lifetime: Duration
    let capacity: Int
    private let entries = Mutex<[UUID: Entry]>([:])

    init(lifetime: Duration, capacity: Int = 10_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// Link `id`, if it was found live less than `lifetime` ago.
    func link(_ id: UUID) -> LiveViewLink? {
        let now = ContinuousClock.now
        return entries.withLock { entries in entries[id].flatMap { $0.expires > now ? $0.link : nil } }
    }

    func remember(_ id: UUID, as link: LiveViewLink) {
        guard lifetime > .zero else { return }
        let now = ContinuousClock.now
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value.expires > now }
                if entries.count >= capacity { entries.removeAll() }
            }
            entries[id] = Entry(link: link, expires: now + lifetime)
        }
    }

    /// Forgets links revoked through this instance, or every link (`nil`) when makers may have lost their role.
    func forget(_ ids: [UUID]?) {
        entries.withLock { entries in
            guard let ids else { return entries.removeAll() }
            for id in ids { entries[id] = nil }
        }
    }
}
