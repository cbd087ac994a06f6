import ConstellationModel
import Foundation
import Store

/// An event's growth in five-minute steps, extended as pairs arrive; any bucket size the API
/// offers (5 min, 15 min, 1 h, 1 d: each a whole number of steps) is read from it.
///
/// Step `s` covers `[300·s, 300·(s+1))` seconds since the Unix epoch, so buckets of any of those
/// sizes fall on UTC boundaries. Components are tracked by union–find over the people seen, with
/// sizes kept at each union, so `largestComponent` at a step's end costs nothing extra.
package struct GrowthSeries: Sendable {
    static let stepSeconds = 300
    /// The most steps a series spans: 800 days of five-minute steps (an event's codes work from
    /// its creation, at most `CONSTELLATION_EVENT_HORIZON_DAYS`, 730 by default, before its 31
    /// days and their grace; about 9 MB at most); a pair later than that (a hand-made row, or a
    /// horizon set beyond the default) counts in the last.
    package static let longestSpan = 800 * 86_400 / stepSeconds

    /// One step: what it added and where the totals stood at its end.
    private struct Step {
        var newConnections = 0
        var newPeople = 0
        var cumulativePeople = 0
        var cumulativeConnections = 0
        var largestComponent = 0
    }

    /// Which buckets to answer: indices `first ..< end` (in units of the size since the epoch).
    package struct Window: Equatable {
        package let size: Int
        package let first: Int
        package let end: Int
        package var count: Int { max(0, end - first) }
    }

    package enum WindowError: Error, Equatable {
        case tooMany(Int)
    }

    private var components = UnionFind()
    /// The step of `steps[0]`: the first pair's.
    private var firstStep = 0
    /// From the first pair's step to the last pair's, empty steps included.
    private var steps: [Step] = []

    /// A series of `pairs`, sorted by `firstAt`.
    package init(_ pairs: [EventPair]) {
        _ = append(pairs)
    }

    /// Adds `pairs` (sorted by `firstAt`) if none lies before the last step; false (and nothing
    /// added) if one does: the series must then be built again from every pair.
    mutating func append(_ pairs: [EventPair]) -> Bool {
        guard let earliest = pairs.first else { return true }
        if !steps.isEmpty, Self.step(of: earliest.firstAt) < firstStep + steps.count - 1 { return false }
        if steps.isEmpty { firstStep = Self.step(of: earliest.firstAt) }
        for pair in pairs {
            // Bounded: one pair dated years after the rest would otherwise ask for a step each five minutes between.
            let index = min(Self.step(of: pair.firstAt) - firstStep, Self.longestSpan)
            while steps.count <= index {
                var empty = Step()
                if let last = steps.last {
                    (empty.cumulativePeople, empty.cumulativeConnections) = (last.cumulativePeople, last.cumulativeConnections)
                    empty.largestComponent = last.largestComponent
                }
                steps.append(empty)
            }
            let peopleBefore = components.people
            components.connect(pair.profileA, pair.profileB)
            steps[index].newConnections += 1
            steps[index].newPeople += components.people - peopleBefore
            steps[index].cumulativePeople = components.people
            steps[index].cumulativeConnections += 1
            steps[index].largestComponent = components.largest
        }
        return true
    }

    /// The series as an event's record keeps it, with no one in it: per step from the first pair's
    /// to the last's, `[step, new connections, new people, people, connections, largest group]`.
    package var recorded: [[Int]] {
        steps.enumerated().map { offset, step in
            [
                firstStep + offset, step.newConnections, step.newPeople, step.cumulativePeople, step.cumulativeConnections,
                step.largestComponent,
            ]
        }
    }

    /// The largest number a recorded step holds: the schema's bound on a record's growth
    /// (`event_growth_is_well_formed`), so that no arithmetic on a step or a count overflows.
    package static let largestRecorded = Int(Int32.max)

    /// The series an event's record kept (`recorded`); nil if it is not one: not six numbers a step,
    /// a number outside `0...largestRecorded`, or steps that do not follow one another.
    package init?(recorded: [[Int]]) {
        let first = recorded.first?.first ?? 0
        for (offset, values) in recorded.enumerated() {
            guard values.count == 6, values.allSatisfy({ (0...Self.largestRecorded).contains($0) }), values[0] == first + offset
            else { return nil }
            steps.append(
                Step(
                    newConnections: values[1], newPeople: values[2], cumulativePeople: values[3], cumulativeConnections: values[4],
                    largestComponent: values[5]))
        }
        firstStep = first
    }

    /// Whether `profile` made a connection this series counts.
    func counts(_ profile: UUID) -> Bool { components.contains(profile) }

    /// The window for buckets of `size` seconds: from `from` (default: the first connection) to
    /// `to` (default: the last one), each widened to bucket boundaries; `to` is exclusive; never
    /// outside `event`'s dates and its pairs; a default that would hold too many buckets is the
    /// event's own dates instead (`WindowError.tooMany` only for what was asked). Nil when there
    /// is nothing to answer (no pairs, or an empty window).
    package func window(size: Int, from: Date?, to: Date?, within event: ClosedRange<Date>) throws(WindowError) -> Window? {
        guard !steps.isEmpty else { return nil }
        let perBucket = size / Self.stepSeconds
        let dataFirst = Self.floorDivide(firstStep, perBucket)
        let dataEnd = Self.floorDivide(firstStep + steps.count - 1, perBucket) + 1
        // Never wider than the event and its pairs, whatever from and to ask: a year of hourly
        // buckets for a day's event would be work and bytes for nothing.
        let spanFirst = min(Self.index(event.lowerBound, size: size), dataFirst)
        let spanEnd = max(Self.ceilingIndex(event.upperBound, size: size), dataEnd)
        var first = max(from.map { Self.index($0, size: size) } ?? dataFirst, spanFirst)
        // `to` exclusive: the buckets that start before it. The last pair's bucket is included.
        var end = min(to.map { Self.ceilingIndex($0, size: size) } ?? dataEnd, spanEnd)
        // Pairs far from the event's dates (scanned weeks before it, or a restored row): what was
        // not asked for is the event's dates rather than a refusal, the first bucket's totals
        // counting the pairs before it. Before, one early pair failed every page's growth chart.
        if end - first > EventGrowth.maximumBuckets {
            if from == nil { first = Self.index(event.lowerBound, size: size) }
            if to == nil { end = Self.ceilingIndex(event.upperBound, size: size) }
        }
        guard end > first else { return nil }
        // Refused before any work: a month's event and its grace in 5-minute buckets is still a large answer.
        let count = end - first
        guard count <= EventGrowth.maximumBuckets else { throw .tooMany(count) }
        return Window(size: size, first: first, end: end)
    }

    /// The buckets of `window`, cumulative values counting every pair before it too.
    package func buckets(_ window: Window) -> [GrowthBucket] {
        let perBucket = window.size / Self.stepSeconds
        return (window.first..<window.end).map { k in
            // The steps inside bucket k, as positions in `steps`, clamped to the ones there are.
            let low = k * perBucket - firstStep
            let high = low + perBucket
            let inside = steps[max(0, min(low, steps.count))..<max(0, min(high, steps.count))]
            let atEnd = min(high, steps.count) - 1
            let totals = atEnd >= 0 ? steps[atEnd] : Step()
            return GrowthBucket(
                start: Date(timeIntervalSince1970: Double(k * window.size)),
                newConnections: inside.reduce(0) { $0 + $1.newConnections }, newPeople: inside.reduce(0) { $0 + $1.newPeople },
                cumulativePeople: totals.cumulativePeople, cumulativeConnections: totals.cumulativeConnections,
                largestComponent: totals.largestComponent)
        }
    }

    /// The step holding `date`.
    private static func step(of date: Date) -> Int { index(date, size: stepSeconds) }

    /// The bucket of `size` seconds holding `date`.
    static func index(_ date: Date, size: Int) -> Int {
        Int((date.timeIntervalSince1970 / Double(size)).rounded(.down))
    }

    /// The first bucket starting at or after `date`.
    static func ceilingIndex(_ date: Date, size: Int) -> Int {
        Int((date.timeIntervalSince1970 / Double(size)).rounded(.up))
    }

    private static func floorDivide(_ a: Int, _ b: Int) -> Int {
        (a >= 0 ? a : a - b + 1) / b
    }
}

/// Disjoint sets over profile ids with union by size; `largest` is kept up to date at each union.
private struct UnionFind {
    private var slot: [UUID: Int] = [:]
    private var parent: [Int] = []
    private var size: [Int] = []
    private(set) var largest = 0

    var people: Int { parent.count }

    func contains(_ id: UUID) -> Bool { slot[id] != nil }

    mutating func connect(_ a: UUID, _ b: UUID) {
        let slotA = add(a)
        let slotB = add(b)
        var rootA = root(of: slotA)
        var rootB = root(of: slotB)
        guard rootA != rootB else { return }
        if size[rootA] < size[rootB] { swap(&rootA, &rootB) }
        parent[rootB] = rootA
        size[rootA] += size[rootB]
        largest = max(largest, size[rootA])
    }

    private mutating func add(_ id: UUID) -> Int {
        if let found = slot[id] { return found }
        let new = parent.count
        slot[id] = new
        parent.append(new)
        size.append(1)
        largest = max(largest, 1)
        return new
    }

    /// The set's root, halving the path on the way.
    private mutating func root(of node: Int) -> Int {
        var node = node
        while parent[node] != node {
            parent[node] = parent[parent[node]]
            node = parent[node]
        }
        return node
    }
}
