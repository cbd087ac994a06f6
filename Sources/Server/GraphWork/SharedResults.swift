/// Results shared by everyone who asks for the same key within `interval`: the first request
/// computes, the requests that arrive while it runs wait for it, and those that come later than
/// `interval` after it began start the next computation. So the ten screens that follow one event
/// cost one picture an interval, however many times a second its graph changes; what they show is
/// at most `interval` (and one computation) older than the database. A computation that took
/// longer than a `costMultiple`th of the interval is shared `costMultiple` times as long as it took,
/// so that one key's work takes at most that share of a core however large its graph grows (a
/// 24,000-person event's picture took 0.7 s: at one per 2 s, the picture and the summary took most
/// of a core beside the scans). An interval of zero shares nothing past its computation. A failed
/// computation is shared only by those who waited for it. Bounded: results past their time are
/// dropped when the next computation starts, and past `capacity` keys the least recently used go first.
package actor SharedResults<Key: Hashable & Sendable, Value: Sendable> {
    private struct Entry {
        let run: Int
        let began: ContinuousClock.Instant
        let task: Task<Value, any Error>
        /// How long the result is shared from `began`: the interval until it is finished and its cost known.
        var lifetime: Duration
        var finished = false
        var lastUse: UInt64

        func answers(at now: ContinuousClock.Instant) -> Bool { !finished || now - began < lifetime }
    }

    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0
    let interval: Duration
    let costMultiple: Int
    let capacity: Int

    package init(interval: Duration, costMultiple: Int = 4, capacity: Int = 256) {
        self.interval = interval
        self.costMultiple = costMultiple
        self.capacity = capacity
    }

    /// How many computations have started (for tests and metrics).
    package private(set) var runs = 0

    /// The result for `key`: a shared one, or one `compute` makes now.
    package func value(for key: Key, compute: @escaping @Sendable () async throws -> Value) async throws -> Value {
        clock += 1
        if let entry = entries[key], entry.answers(at: .now) {
            entries[key]?.lastUse = clock
            return try await entry.task.value
        }
        runs += 1
        let run = runs
        let task = Task { try await compute() }
        let now = ContinuousClock.now
        // Results past their time answer nobody again: they go, so memory holds an interval's worth.
        entries = entries.filter { $0.value.answers(at: now) }
        entries[key] = Entry(run: run, began: now, task: task, lifetime: interval, lastUse: clock)
        if entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
        let result = await task.result
        if entries[key]?.run == run {
            if case .failure = result {
                entries[key] = nil
            } else {
                entries[key]?.finished = true
                if interval > .zero { entries[key]?.lifetime = max(interval, (ContinuousClock.now - now) * costMultiple) }
            }
        }
        return try result.get()
    }

    /// Forgets the results of the keys for which `isAbout` holds (an event's choices changed, a
    /// profile was erased): the next request computes afresh.
    package func forget(where isAbout: (Key) -> Bool) {
        entries = entries.filter { !isAbout($0.key) }
    }
}
