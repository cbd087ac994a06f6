import ConstellationModel
import Foundation
import Store
import Synchronization

/// API keys verified recently, so that a request does not cost a query: a key's credential is
/// remembered for `lifetime` (`CONSTELLATION_AUTH_CACHE_SECONDS`). A key revoked or a profile
/// changed or erased through this instance is forgotten at once; through another instance, it
/// takes effect here within `lifetime`. Failures are never remembered. Bounded: when it is full,
/// expired keys go, and if that is not enough, all of them.
final class CredentialCache: Sendable {
    private struct Entry {
        let credential: Credential
        let expires: ContinuousClock.Instant
    }

    let lifetime: Duration
    let capacity: Int
    private let entries = Mutex<[[UInt8]: Entry]>([:])

    init(lifetime: Duration, capacity: Int = 100_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The credential of the key hashing to `keyHash`, if it was verified less than `lifetime` ago.
    func credential(keyHash: [UInt8]) -> Credential? {
        let now = ContinuousClock.now
        return entries.withLock { entries in
            guard let entry = entries[keyHash] else { return nil }
            guard entry.expires > now else {
                entries[keyHash] = nil
                return nil
            }
            return entry.credential
        }
    }

    /// Remembers that the key hashing to `keyHash` is `credential`.
    func remember(_ credential: Credential, keyHash: [UInt8]) {
        guard lifetime > .zero else { return }
        let now = ContinuousClock.now
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value.expires > now }
                if entries.count >= capacity { entries.removeAll() }
            }
            entries[keyHash] = Entry(credential: credential, expires: now + lifetime)
        }
    }

    /// Forgets every key of `profile`: it was changed, erased, reset its tokens, or one of its keys was revoked.
    func forget(profile id: UUID) {
        entries.withLock { entries in entries = entries.filter { $0.value.credential.profile.id != id } }
    }
}
