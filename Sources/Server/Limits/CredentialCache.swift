import ConstellationModel
import Foundation
import Store

/// API keys verified recently, by their hash: a key's credential is remembered for
/// `CONSTELLATION_AUTH_CACHE_SECONDS`. A key revoked or a profile changed or erased through this
/// instance is forgotten at once; through another instance, it takes effect here within that
/// lifetime.
package typealias CredentialCache = RecentLookups<[UInt8], Credential>

extension RecentLookups where Key == [UInt8], Value == Credential {
    package convenience init(lifetime: Duration) {
        self.init(lifetime: lifetime, capacity: 100_000)
    }

    /// Forgets every key of `profile`: it was changed, erased, reset its tokens, or one of its keys was revoked.
    package func forget(profile id: UUID) {
        forget { $1.profile.id == id }
    }
}
