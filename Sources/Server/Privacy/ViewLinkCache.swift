import Foundation
import Store

/// View links found live recently, by id, so that a live page's requests do not each cost a
/// query: a link (its maker, its screens) is remembered for `CONSTELLATION_AUTH_CACHE_SECONDS`,
/// as API keys are. A link revoked, or whose maker stopped organizing the event, stops working on
/// every instance within that lifetime; one revoked through this instance at once, even while a
/// lookup of it is under way. Links not live are never remembered.
package typealias ViewLinkCache = RecentLookups<UUID, LiveViewLink>

extension RecentLookups where Key == UUID, Value == LiveViewLink {
    package convenience init(lifetime: Duration) {
        self.init(lifetime: lifetime, capacity: 10_000)
    }

    /// Forgets links revoked through this instance, or every link (`nil`) when makers may have lost their role.
    func forget(_ ids: [UUID]?) {
        guard let ids else { return forget { _, _ in true } }
        let forgotten = Set(ids)
        forget { id, _ in forgotten.contains(id) }
    }
}
