import Synchronization

/// What lookups found recently, each remembered for `lifetime`, so that a request does not cost a
/// query (`CredentialCache`, `ViewLinkCache`). Callers remember only what they found: failures
/// are never remembered. Bounded: expired entries are swept out once per `lifetime`, so it holds
/// about what was found in the last two; should it still fill up, the expired go at once, and if
/// that is not enough, all of them.
///
/// A lookup that began before a `forget` must not put back what was forgotten (a revoked key or
/// link read while it was still live): `remember` takes the `generation` read before the lookup,
/// and every `forget` starts a new one.
package final class RecentLookups<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let value: Value
        let expires: ContinuousClock.Instant
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var generation: UInt64 = 0
        var nextSweep = ContinuousClock.now
    }

    let lifetime: Duration
    let capacity: Int
    private let state: Mutex<State>

    package init(lifetime: Duration, capacity: Int) {
        self.lifetime = lifetime
        self.capacity = capacity
        state = Mutex(State())
    }

    /// What was found for `key`, if it was found less than `lifetime` ago.
    package func value(for key: Key) -> Value? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            guard entry.expires > now else {
                state.entries[key] = nil
                return nil
            }
            return entry.value
        }
    }

    /// What to hand `remember` for a lookup starting now.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// Remembers that `key` is `value`, as a lookup that began at `generation` found, unless
    /// something was forgotten since.
    package func remember(_ value: Value, for key: Key, generation: UInt64) {
        guard lifetime > .zero else { return }
        let now = ContinuousClock.now
        state.withLock { state in
            guard state.generation == generation else { return }
            if now >= state.nextSweep || state.entries.count >= capacity {
                state.entries = state.entries.filter { $0.value.expires > now }
                state.nextSweep = now + lifetime
                if state.entries.count >= capacity { state.entries.removeAll() }
            }
            state.entries[key] = Entry(value: value, expires: now + lifetime)
        }
    }

    /// How many entries it holds, expired or not.
    package var count: Int { state.withLock { $0.entries.count } }

    /// Forgets every entry `condition` holds for, and any lookup under way.
    package func forget(where condition: (Key, Value) -> Bool) {
        state.withLock { state in
            state.generation += 1
            state.entries = state.entries.filter { !condition($0.key, $0.value.value) }
        }
    }
}
