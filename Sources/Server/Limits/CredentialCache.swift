import ConstellationModel
import Foundation
import Store
import Synchronization

/// API keys verified recently, so that a request does not cost a query: a key's credential is
/// remembered for `lifetime` (`CONSTELLATION_AUTH_CACHE_SECONDS`). A key revoked or a profile
/// changed or erased through this instance is forgotten at once; through another instance, it
/// takes effect here within `lifetime`. Failures are never remembered. Bounded: expired keys are
/// swept out once per `lifetime`, so it holds about the keys used in the last two; should it still
/// fill up, expired keys go at once, and if that is not enough, all of them.
///
/// A lookup that began before a `forget` must not put back what was forgotten (a revoked key read
/// while it was still live): `remember` takes the `generation` read before the lookup, and every
/// `forget` starts a new one.
package final class CredentialCache: Sendable {
    private struct Entry {
        let credential: Credential
        let expires: ContinuousClock.Instant
    }

    private struct State {
        var entries: [[UInt8]: Entry] = [:]
        var generation: UInt64 = 0
        var nextSweep = ContinuousClock.now
    }

    let lifetime: Duration
    let capacity: Int
    private let state = Mutex(State())

    package init(lifetime: Duration, capacity: Int = 100_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The credential of the key hashing to `keyHash`, if it was verified less than `lifetime` ago.
    package func credential(keyHash: [UInt8]) -> Credential? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let entry = state.entries[keyHash] else { return nil }
            guard entry.expires > now else {
                state.entries[keyHash] = nil
                return nil
            }
            return entry.credential
        }
    }

    /// What to hand `remember` for a lookup starting now.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// Remembers that the key hashing to `keyHash` is `credential`, as a lookup that began at
    /// `generation` found, unless something was forgotten since.
    package func remember(_ credential: Credential, keyHash: [UInt8], generation: UInt64) {
        guard lifetime > .zero else { return }
        let now = ContinuousClock.now
        state.withLock { state in
            guard state.generation == generation else { return }
            if now >= state.nextSweep || state.entries.count >= capacity {
                state.entries = state.entries.filter { $0.value.expires > now }
                state.nextSweep = now + lifetime
                if state.entries.count >= capacity { state.entries.removeAll() }
            }
            state.entries[keyHash] = Entry(credential: credential, expires: now + lifetime)
        }
    }

    /// How many keys it holds, expired or not.
    package var count: Int { state.withLock { $0.entries.count } }

    /// Forgets every key of `profile`: it was changed, erased, reset its tokens, or one of its keys was revoked.
    package func forget(profile id: UUID) {
        state.withLock { state in
            state.generation += 1
            state.entries = state.entries.filter { $0.value.credential.profile.id != id }
        }
    }
}
