/// Communities by the Leiden algorithm for modularity (Traag, Waltman & van Eck 2019): the better
/// of two short runs on small graphs; on larger ones one run, carried on while passes improve modularity.
/// Deterministic for a seed.
public struct Communities: Sendable {
    /// The community of each node, numbered from 0 by decreasing size.
    public let membership: [Int32]
    /// Nodes per community, largest first.
    public let sizes: [Int]
    /// Newman–Girvan modularity of `membership` at `resolution`.
    public let modularity: Double

    public var count: Int { sizes.count }

    public static func detect<ID>(_ graph: Graph<ID>, seed: UInt64 = 1, resolution: Double = 1) -> Communities {
        var levels: [Leiden.Aggregation] = []
        return detect(WeightedGraph(graph), seed: seed, resolution: resolution, levels: &levels)
    }

    /// Communities found from `previous` (indexed like the graph's nodes; nil for a node that is
    /// new since), each new node starting alone: Leiden passes from that partition while they
    /// improve modularity. After a small growth that is a pass or two, not a search from scratch,
    /// and the communities stay those the picture had, give or take what the growth changed.
    /// Numbered from 0 by decreasing size, as always.
    public static func detect<ID>(_ graph: Graph<ID>, seed: UInt64 = 1, resolution: Double = 1, startingFrom previous: [Int?])
        -> Communities
    {
        precondition(previous.count == graph.nodeCount, "one previous community (or nil) per node")
        let base = WeightedGraph(graph)
        guard base.totalWeight > 0 else {
            return Communities(
                membership: (0..<base.nodeCount).map { Int32($0) }, sizes: Array(repeating: 1, count: base.nodeCount), modularity: 0)
        }
        // Dense numbers from 0, as the moves expect: the previous communities first, then one per new node.
        var number: [Int: Int32] = [:]
        var initial = [Int32](repeating: 0, count: base.nodeCount)
        for (v, community) in previous.enumerated() {
            guard let community else { continue }
            if let known = number[community] {
                initial[v] = known
            } else {
                initial[v] = Int32(number.count)
                number[community] = initial[v]
            }
        }
        var next = Int32(number.count)
        for v in previous.indices where previous[v] == nil {
            initial[v] = next
            next += 1
        }
        var random = SplitMix64(seed: seed)
        let start = Candidate(membership: initial, modularity: -.infinity, levels: [])
        let best = improve(start, base, Leiden(resolution: resolution), passes: warmPasses(edges: base.targets.count / 2), random: &random)
        return Communities(ordered: best.membership, graph: base, resolution: resolution)
    }

    /// How hard to search, by size: small graphs get two short runs (modularity has many
    /// near-optima there, and the better of two is worth more than carrying one on), large ones
    /// one; `passes` bounds how long the best run is carried on.
    static func effort(edges: Int) -> (runs: Int, passes: Int) {
        edges < 50_000 ? (2, 2) : edges < 200_000 ? (1, 10) : (1, 2)
    }

    /// At most how many passes from an earlier partition, by size; they stop as soon as one no
    /// longer improves modularity, which after a small growth is within a pass or two.
    static func warmPasses(edges: Int) -> Int {
        edges < 200_000 ? 10 : 2
    }

    /// A partition found by Leiden passes, with the aggregation levels of the pass that gave it.
    private struct Candidate: Sendable {
        var membership: [Int32]
        var modularity: Double
        var levels: [Leiden.Aggregation]
    }

    /// Independent short runs (two passes each, as igraph's default), spread over the cores, then
    /// (on larger graphs, see `effort`) passes from the best one while they improve modularity by
    /// at least 10⁻⁴. Each run draws from its own seed, so the result is the same on any number of
    /// cores. `levels` receives the aggregation levels of the pass that gave the result.
    /// - Parameter runs: how many short runs (default: by size, see `effort`).
    static func detect(
        _ base: WeightedGraph, seed: UInt64, resolution: Double = 1, runs: Int? = nil, levels: inout [Leiden.Aggregation]
    ) -> Communities {
        guard base.totalWeight > 0 else {
            return Communities(
                membership: (0..<base.nodeCount).map { Int32($0) }, sizes: Array(repeating: 1, count: base.nodeCount), modularity: 0)
        }
        let (defaultRuns, passes) = effort(edges: base.targets.count / 2)
        let leiden = Leiden(resolution: resolution)
        let singletons = Candidate(membership: (0..<base.nodeCount).map { Int32($0) }, modularity: -.infinity, levels: [])
        var seeder = SplitMix64(seed: seed)
        let firstSeed = seeder.next()
        let shortRuns = parallelChunks(runs ?? defaultRuns) { range in
            range.map { run in
                var random = SplitMix64(seed: firstSeed &+ UInt64(run))
                return improve(singletons, base, leiden, passes: min(2, passes), random: &random)
            }.max { $0.modularity < $1.modularity }!
        }
        var random = SplitMix64(seed: seed)
        let best = improve(shortRuns.max { $0.modularity < $1.modularity }!, base, leiden, passes: passes - 2, random: &random)
        levels = best.levels
        return Communities(ordered: best.membership, graph: base, resolution: resolution)
    }

    /// Up to `passes` Leiden passes, each from the last partition, while each gains at least 10⁻⁴.
    private static func improve(
        _ start: Candidate, _ base: WeightedGraph, _ leiden: Leiden, passes: Int, random: inout SplitMix64
    ) -> Candidate {
        var best = start
        for _ in 0..<passes {
            var levels: [Leiden.Aggregation] = []
            let (membership, quality) = leiden.pass(base, initial: best.membership, random: &random, levels: &levels)
            guard quality > best.modularity + 1e-12 else { break }
            let gain = quality - best.modularity
            best = Candidate(membership: membership, modularity: quality, levels: levels)
            if gain < 1e-4 { break }
        }
        return best
    }

    private init(ordered raw: [Int32], graph: WeightedGraph, resolution: Double) {
        var counts: [Int32: Int] = [:]
        for c in raw { counts[c, default: 0] += 1 }
        let ranking = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        var renumber: [Int32: Int32] = [:]
        for (index, entry) in ranking.enumerated() { renumber[entry.key] = Int32(index) }
        membership = raw.map { renumber[$0]! }
        sizes = ranking.map(\.value)
        modularity = Self.modularity(graph, membership, resolution: resolution)
    }

    private init(membership: [Int32], sizes: [Int], modularity: Double) {
        self.membership = membership
        self.sizes = sizes
        self.modularity = modularity
    }

    /// Q = Σ_c [ L_c / m − γ (D_c / 2m)² ].
    static func modularity(_ graph: WeightedGraph, _ membership: [Int32], resolution: Double) -> Double {
        let parts = Int(membership.max() ?? 0) + 1
        var inside = [Double](repeating: 0, count: parts)
        var degree = [Double](repeating: 0, count: parts)
        for v in 0..<graph.nodeCount {
            let c = Int(membership[v])
            degree[c] += graph.strength[v]
            inside[c] += graph.selfLoops[v]
            for k in graph.offsets[v]..<graph.offsets[v + 1] {
                inside[c] += membership[Int(graph.targets[k])] == membership[v] ? graph.weights[k] / 2 : 0
            }
        }
        let m = graph.totalWeight
        return (0..<parts).reduce(0) { $0 + inside[$1] / m - resolution * (degree[$1] / (2 * m)) * (degree[$1] / (2 * m)) }
    }
}
