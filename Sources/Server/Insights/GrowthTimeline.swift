import ConstellationModel
import Foundation
import Store

/// An event's growth, bucketed in one pass over its pairs in order of first connection.
///
/// Bucket `k` of size `s` covers `[k·s, (k+1)·s)` seconds since the Unix epoch, so buckets fall on
/// UTC boundaries of their size. Components are tracked by union–find over the people seen, with
/// sizes kept at each union, so `largestComponent` at a bucket's end costs nothing extra.
struct GrowthTimeline {
    /// Which buckets to answer: indices `first ..< end` (in units of the size since the epoch).
    struct Window: Equatable {
        let size: Int
        let first: Int
        let end: Int
        var count: Int { max(0, end - first) }
    }

    enum WindowError: Error, Equatable {
        case tooMany(Int)
    }

    /// The window for `pairs` (sorted by `firstAt`): from `from` (default: the first connection)
    /// to `to` (default: the last one), each widened to bucket boundaries; `to` is exclusive.
    /// Nil when there is nothing to answer (no pairs, or an empty window).
    static func window(size: Int, pairs: [EventPair], from: Date?, to: Date?) throws(WindowError) -> Window? {
        guard let firstPair = pairs.first, let lastPair = pairs.last else { return nil }
        let first = index(from ?? firstPair.firstAt, size: size)
        // `to` exclusive: the buckets that start before it. The last pair's bucket is included.
        let end = to.map { ceilingIndex($0, size: size) } ?? index(lastPair.firstAt, size: size) + 1
        guard end > first else { return nil }
        // Refused before any work: dates far apart would make a huge answer.
        let count = end - first
        guard count <= EventGrowth.maximumBuckets else { throw .tooMany(count) }
        return Window(size: size, first: first, end: end)
    }

    /// The buckets of `window`, cumulative values counting every pair before it too.
    static func buckets(_ pairs: [EventPair], window: Window) -> [GrowthBucket] {
        var components = UnionFind()
        var next = 0
        // Pairs before the window: in the cumulative values, in no bucket.
        let windowStart = Double(window.first * window.size)
        while next < pairs.count, pairs[next].firstAt.timeIntervalSince1970 < windowStart {
            components.connect(pairs[next].profileA, pairs[next].profileB)
            next += 1
        }
        var buckets: [GrowthBucket] = []
        buckets.reserveCapacity(window.count)
        for k in window.first..<window.end {
            let end = Double((k + 1) * window.size)
            let peopleBefore = components.people, connectionsBefore = next
            while next < pairs.count, pairs[next].firstAt.timeIntervalSince1970 < end {
                components.connect(pairs[next].profileA, pairs[next].profileB)
                next += 1
            }
            buckets.append(GrowthBucket(
                start: Date(timeIntervalSince1970: Double(k * window.size)), newConnections: next - connectionsBefore,
                newPeople: components.people - peopleBefore, cumulativePeople: components.people, cumulativeConnections: next,
                largestComponent: components.largest))
        }
        return buckets
    }

    /// The bucket holding `date`.
    static func index(_ date: Date, size: Int) -> Int {
        Int((date.timeIntervalSince1970 / Double(size)).rounded(.down))
    }

    /// The first bucket starting at or after `date`.
    static func ceilingIndex(_ date: Date, size: Int) -> Int {
        Int((date.timeIntervalSince1970 / Double(size)).rounded(.up))
    }
}

/// Disjoint sets over profile ids with union by size; `largest` is kept up to date at each union.
private struct UnionFind {
    private var slot: [UUID: Int] = [:]
    private var parent: [Int] = []
    private var size: [Int] = []
    private(set) var largest = 0

    var people: Int { parent.count }

    mutating func connect(_ a: UUID, _ b: UUID) {
        let slotA = add(a), slotB = add(b)
        var rootA = root(of: slotA), rootB = root(of: slotB)
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
