/// A synthetic event for the tests and benchmarks of a picture that grows: `people` in `groups`
/// groups of equal size, and the pairs they make, nine in ten within their group, in the order
/// they arrive. The same for a seed.
public struct PlantedEvent: Sendable {
    /// Each person's planted group.
    public let group: [Int32]
    /// The pairs, in the order they arrive.
    public let pairs: [(Int, Int)]

    public enum Order: String, CaseIterable, Sendable {
        /// Any pair at any time.
        case shuffled
        /// Group after group, as sessions end one after another.
        case groupByGroup
        /// Everyone's first connection first (the door), then the rest.
        case doorFirst
    }

    public init(people: Int, groups: Int, pairs count: Int, order: Order, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let planted = (0..<people).map { Int32($0 * groups / people) }
        let members = (0..<groups).map { g in (0..<people).filter { planted[$0] == g } }
        var seen = Set<Int>()
        var arrivals: [(Int, Int)] = []
        while arrivals.count < count {
            let a = Int.random(in: 0..<people, using: &random)
            // Nine in ten within the group.
            let b =
                Int.random(in: 0..<10, using: &random) < 9
                ? members[Int(planted[a])].randomElement(using: &random)! : Int.random(in: 0..<people, using: &random)
            guard a != b, seen.insert(min(a, b) * people + max(a, b)).inserted else { continue }
            arrivals.append((a, b))
        }
        switch order {
        case .shuffled:
            break
        case .groupByGroup:
            arrivals.sort { min(planted[$0.0], planted[$0.1]) < min(planted[$1.0], planted[$1.1]) }
        case .doorFirst:
            var met = Set<Int>()
            var first: [(Int, Int)] = []
            var rest: [(Int, Int)] = []
            for pair in arrivals {
                let new = [met.insert(pair.0).inserted, met.insert(pair.1).inserted].contains(true)
                if new { first.append(pair) } else { rest.append(pair) }
            }
            arrivals = first + rest
        }
        group = planted
        pairs = arrivals
    }
}
