/// Results shared by everyone who asks for the same key within `interval`: the first request
/// computes, the requests that arrive while it runs wait for it, and those that come later than
/// `interval` after it began start the next computation. So the ten screens that follow one event
/// cost one picture an interval, however many times a second its graph changes; what they show is
/// at most `interval` (and one computation) older than the database. A computation that took
/// longer than a `costMultiple`th of the interval is shared `costMultiple` times as long as it took,
/// so that one key's work takes at most that share of a core however large its graph grows (a
/// 24,000-person event's picture took 0.7 s: at one per 2 s, the picture and the summary took most
/// of a core beside the scans). An interval of zero shares nothing past its computation. A failed
/// computation is shared only by those who waited for it. With `lastAnswersFor`, the requests
/// that come while the next computation runs get the last result at once instead of waiting for
/// it, if it was made less than that long ago (a screen that asks every few seconds, or a summary
/// every ten, never waits for a computation, and its next request has the new one; someone asking
/// once after a while waits for a fresh one); the first, and those after `forget`, wait. Bounded:
/// results past their time are dropped when the next computation starts, last results past
/// `lastAnswersFor` too, and past `capacity` keys the least recently used go first.
package actor SharedResults<Key: Hashable & Sendable, Value: Sendable> {
    private struct Entry {
        let run: Int
        let began: ContinuousClock.Instant
        let task: Task<Value, any Error>
        /// How long the result is shared from `began`: the interval until it is finished and its cost known.
        var lifetime: Duration
        /// Its result, once finished well, and how long it took.
        var value: Value?
        var took: Duration?
        var finished = false
        var lastUse: UInt64

        func answers(at now: ContinuousClock.Instant) -> Bool { !finished || now - began < lifetime }
    }

    private var entries: [Key: Entry] = [:]
    /// Per key, the last result made, and until when it may answer while the next is computed
    /// (only with `lastAnswersFor`).
    private var last: [Key: (value: Value, until: ContinuousClock.Instant)] = [:]
    private var clock: UInt64 = 0
    let interval: Duration
    let costMultiple: Int
    /// How long after it was made a result answers while the next is computed (zero: never).
    let lastAnswersFor: Duration
    let capacity: Int

    /// The time now (a test's own clock in tests).
    private let now: @Sendable () -> ContinuousClock.Instant

    package init(
        interval: Duration, costMultiple: Int = 4, lastAnswersFor: Duration = .zero, capacity: Int = 256,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.interval = interval
        self.costMultiple = costMultiple
        self.lastAnswersFor = interval > .zero ? lastAnswersFor : .zero
        self.capacity = capacity
        self.now = now
    }

    /// How many computations have started (for tests and metrics).
    package private(set) var runs = 0

    /// The result for `key`: a shared one, or one `compute` makes now.
    package func value(for key: Key, compute: @escaping @Sendable () async throws -> Value) async throws -> Value {
        clock += 1
        if let entry = entries[key], entry.answers(at: now()) {
            entries[key]?.lastUse = clock
            if !entry.finished, let last = last[key], now() < last.until { return last.value }
            return try await entry.task.value
        }
        runs += 1
        let run = runs
        let task = Task { try await compute() }
        let began = now()
        // Results past their time answer nobody again: they go, so memory holds an interval's worth.
        entries = entries.filter { $0.value.answers(at: began) }
        entries[key] = Entry(run: run, began: began, task: task, lifetime: interval, lastUse: clock)
        if entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
        last = last.filter { began < $0.value.until }
        if last.count > capacity, let oldest = last.min(by: { $0.value.until < $1.value.until })?.key { last[oldest] = nil }
        if let last = last[key] {
            Task { _ = try? await finish(task, run: run, of: key, began: began) }
            return last.value
        }
        return try await finish(task, run: run, of: key, began: began)
    }

    /// Waits for the computation `run` of `key` and records how it ended: a failure forgets it
    /// (and the last result: the next request computes), a success is shared for its lifetime.
    private func finish(_ task: Task<Value, any Error>, run: Int, of key: Key, began: ContinuousClock.Instant) async throws -> Value {
        let result = await task.result
        if entries[key]?.run == run {
            last[key] = nil
            switch result {
            case .failure: entries[key] = nil
            case .success(let value):
                entries[key]?.finished = true
                entries[key]?.value = value
                entries[key]?.took = now() - began
                if interval > .zero { entries[key]?.lifetime = max(interval, (now() - began) * costMultiple) }
                if lastAnswersFor > .zero { last[key] = (value, now() + lastAnswersFor) }
            }
        }
        return try result.get()
    }

    /// Makes the finished results of the keys for which `isAbout` hold old (a change that only
    /// adds to what they show: someone chose to be named) as soon as their cost allows: at once if
    /// they are older than `costMultiple` times their computation, else then. The next request
    /// starts the next computation, and with `lastAnswersFor` it and those during it get the
    /// last result meanwhile. So changes a few a second neither start a computation per request nor
    /// keep one key's work above its share of a core (at 13 choices a second at a 20,000-person
    /// event, pictures were made back to back, and screens waited for them). A computation under
    /// way is left to finish and be shared. Without `lastAnswersFor`, the same as `forget`.
    package func expire(where isAbout: (Key) -> Bool) {
        guard lastAnswersFor > .zero else { return forget(where: isAbout) }
        let now = now()
        for (key, entry) in entries where isAbout(key) && entry.finished {
            let earliest = entry.began + (entry.took ?? .zero) * costMultiple
            if now < earliest {
                entries[key]?.lifetime = min(entry.lifetime, earliest - entry.began)
                continue
            }
            if let value = entry.value, last[key] == nil { last[key] = (value, now + interval) }
            entries[key] = nil
        }
    }

    /// Forgets the results of the keys for which `isAbout` holds (an event's choices changed, a
    /// profile was erased): the next request computes afresh.
    package func forget(where isAbout: (Key) -> Bool) {
        entries = entries.filter { !isAbout($0.key) }
        last = last.filter { !isAbout($0.key) }
    }
}
