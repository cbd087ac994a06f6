import Foundation

/// Pairs in `ORDER BY profile_a, profile_b`, kept in Swift: sorting them here costs less than an
/// `ORDER BY`, for which PostgreSQL reads the pairs in the index's order, a heap page for each.
extension EventGraph.Pair {
    /// The pair's place in that order: PostgreSQL sorts uuid values by their bytes.
    struct Key: Comparable {
        let a: (UInt64, UInt64), b: (UInt64, UInt64)

        init(_ pair: EventGraph.Pair) {
            a = pair.a.postgresOrder
            b = pair.b.postgresOrder
        }

        static func < (x: Key, y: Key) -> Bool { x.a != y.a ? x.a < y.a : x.b < y.b }
        static func == (x: Key, y: Key) -> Bool { x.a == y.a && x.b == y.b }
    }

    /// `pairs` in order.
    static func sorted(_ pairs: [Self]) -> [Self] {
        pairs.map { (Key($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// `sorted` (in order) and `added` (in any order), in order.
    static func merged(_ sorted: [Self], _ added: [Self]) -> [Self] {
        let added = Self.sorted(added)
        var merged: [Self] = []
        merged.reserveCapacity(sorted.count + added.count)
        var i = 0
        var j = 0
        while i < sorted.count || j < added.count {
            if j == added.count || (i < sorted.count && Key(sorted[i]) < Key(added[j])) {
                merged.append(sorted[i])
                i += 1
            } else {
                merged.append(added[j])
                j += 1
            }
        }
        return merged
    }

    /// Everyone in `pairs`, once each, in PostgreSQL's order.
    static func people(in pairs: [Self]) -> [UUID] {
        people([], adding: pairs)
    }

    /// `people` (in order) and everyone else in `pairs`, once each, in order.
    static func people(_ people: [UUID], adding pairs: [Self]) -> [UUID] {
        var seen = Set<UUID>(minimumCapacity: people.count + pairs.count / 4)
        seen.formUnion(people)
        let before = seen.count
        for pair in pairs {
            seen.insert(pair.a)
            seen.insert(pair.b)
        }
        guard seen.count > before else { return people }
        return seen.map { ($0.postgresOrder, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// For each of `pairs` (in order), where its two people are in `people` (in order, and holding
    /// everyone in `pairs`): the first by walking along (pairs come by their first person), the
    /// second by bisection.
    static func ends(of pairs: [Self], in people: [UUID]) -> [(a: Int32, b: Int32)] {
        let keys = people.map(\.postgresOrder)
        var a = 0
        return pairs.map { pair in
            let first = pair.a.postgresOrder
            let second = pair.b.postgresOrder
            while keys[a] < first { a += 1 }
            var low = 0
            var high = keys.count - 1
            while low < high {
                let middle = (low + high) / 2
                if keys[middle] < second { low = middle + 1 } else { high = middle }
            }
            precondition(keys[a] == first && keys[low] == second, "everyone in the pairs is among the people")
            return (Int32(a), Int32(low))
        }
    }
}

extension UUID {
    /// The key PostgreSQL sorts uuid values by: their bytes in order.
    var postgresOrder: (UInt64, UInt64) {
        withUnsafeBytes(of: uuid) {
            ($0.loadUnaligned(as: UInt64.self).bigEndian, $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self).bigEndian)
        }
    }
}
