import Foundation
import Store

/// Each event's growth series and the version of its pairs it was computed from: a request costs
/// one version check, and as the event grows, a read of the new pairs only (see
/// `migrations/0005_event_growth.sql`). Requests for the same event while its series is being
/// brought up to date wait for that one computation. Bounded: the least recently used go first.
actor GrowthCache {
    private struct Entry {
        let version: EventPairsVersion
        let series: GrowthSeries
        var lastUse: UInt64
    }

    private var entries: [UUID: Entry] = [:]
    private var running: [UUID: Task<(EventPairsVersion, GrowthSeries), any Error>] = [:]
    private var clock: UInt64 = 0
    let capacity: Int
    private let events: EventRepository
    private let compute: GraphComputation

    init(capacity: Int = 256, events: EventRepository, compute: GraphComputation) {
        self.capacity = capacity
        self.events = events
        self.compute = compute
    }

    /// The event's growth as its pairs stand now.
    func series(of event: UUID) async throws -> GrowthSeries {
        clock += 1
        if let task = running[event] { return try await task.value.1 }
        let cached = entries.removeValue(forKey: event)
        let task = Task { [events, compute] in try await Self.update(cached.map { ($0.version, $0.series) }, of: event, events, compute) }
        running[event] = task
        let result = await task.result
        running[event] = nil
        let (version, series) = try result.get()
        entries[event] = Entry(version: version, series: series, lastUse: clock)
        if entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
        return series
    }

    /// Forgets `event`'s series.
    func forget(event: UUID) { entries[event] = nil }

    /// Forgets every series that counted `profile` (its profile was erased: no id of it is kept).
    func forget(profile: UUID) {
        entries = entries.filter { !$0.value.series.counts(profile) }
    }

    private static func update(
        _ cached: (EventPairsVersion, GrowthSeries)?, of event: UUID, _ events: EventRepository, _ compute: GraphComputation
    ) async throws -> (EventPairsVersion, GrowthSeries) {
        let change = try await events.pairs(of: event, since: cached?.0)
        if case .unchanged = change {
            compute.metrics.cacheLookup("growth", hit: true)
        } else {
            compute.metrics.cacheLookup("growth", hit: false)
        }
        switch change {
        case .unchanged:
            return cached!
        case .appended(let pairs, let version):
            let base = cached!.1
            let extended = try await compute.run("growth") {
                var series = base
                return series.append(pairs) ? series : nil
            }
            if let extended { return (version, extended) }
            return try await update(nil, of: event, events, compute)  // a late pair landed in a closed step
        case .all(let pairs, let version):
            return (version, try await compute.run("growth") { GrowthSeries(pairs) })
        }
    }
}
