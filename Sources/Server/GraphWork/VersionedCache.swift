/// Values computed from a subject's graph (its statistics, say), remembered per subject with the
/// version of the graph they came from. A request for a version being computed waits for that one
/// computation, however many there are; a new version is computed once, from the previous value
/// if the computation can use it. Bounded: the least recently used subjects are forgotten first.
///
/// Keys should be structs: Swift 6.3's optimizer miscompiles `Dictionary` mutations keyed by a
/// single-case enum holding a `UUID` (see `SubgraphLayouts.Subject`).
package actor VersionedCache<Key: Hashable & Sendable, Value: Sendable> {
    private struct Entry {
        let version: Int
        let value: Value
        var lastUse: UInt64
    }

    private var entries: [Key: Entry] = [:]
    private var running: [Key: (version: Int, task: Task<Value, any Error>)] = [:]
    private var clock: UInt64 = 0
    let capacity: Int
    /// Told of each lookup: whether a remembered (or running) value answered it.
    private let onLookup: @Sendable (_ hit: Bool) -> Void

    package init(capacity: Int, onLookup: @escaping @Sendable (_ hit: Bool) -> Void = { _ in }) {
        self.capacity = capacity
        self.onLookup = onLookup
    }

    /// The value for `key` at `version`: remembered, being computed, or computed now by `compute`
    /// (given the last value remembered for `key`, if any).
    package func value(
        for key: Key, version: Int, compute: @escaping @Sendable (_ previous: Value?) async throws -> Value
    ) async throws -> Value {
        clock += 1
        if let entry = entries[key], entry.version == version {
            entries[key]?.lastUse = clock
            onLookup(true)
            return entry.value
        }
        if let run = running[key], run.version == version {
            onLookup(true)
            return try await run.task.value
        }
        onLookup(false)
        let previous = entries[key]?.value
        let task = Task { try await compute(previous) }
        running[key] = (version, task)
        let result = await task.result
        computed += 1
        if running[key]?.version == version { running[key] = nil }
        let value = try result.get()
        entries[key] = Entry(version: version, value: value, lastUse: clock)
        if entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
        return value
    }

    /// Forgets every value for which `isAbout` holds (a profile was erased, say).
    package func forget(where isAbout: (Key, Value) -> Bool) {
        entries = entries.filter { !isAbout($0.key, $0.value.value) }
    }

    /// How many computations have run to an end since the cache was made (for tests and metrics).
    package private(set) var computed = 0
}
