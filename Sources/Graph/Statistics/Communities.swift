/// Communities by the Leiden algorithm for modularity (Traag, Waltman & van Eck 2019): fast local
/// moving, a refinement that keeps every community connected, aggregation of the refined
/// partition, repeated until nothing moves; whole passes repeat while modularity improves.
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

    /// How hard to search, by size: small graphs get several independent runs (the best is kept:
    /// modularity has many near-optima there), large ones two passes, as igraph does by default.
    static func effort(edges: Int) -> (runs: Int, passes: Int) {
        edges < 20_000 ? (32, 10) : edges < 50_000 ? (8, 10) : edges < 200_000 ? (1, 10) : (1, 2)
    }

    /// Passes repeat, each starting from the last partition, until one improves modularity by less
    /// than 10⁻⁴; `levels` receives the aggregation levels of the pass that gave the result.
    /// - Parameter runs: independent runs to keep the best of (default: by size, see `effort`).
    static func detect(
        _ base: WeightedGraph, seed: UInt64, resolution: Double = 1, runs: Int? = nil, levels: inout [Leiden.Aggregation]
    ) -> Communities {
        guard base.totalWeight > 0 else {
            return Communities(membership: (0..<base.nodeCount).map { Int32($0) }, sizes: Array(repeating: 1, count: base.nodeCount), modularity: 0)
        }
        let (defaultRuns, passes) = effort(edges: base.targets.count / 2)
        let runs = runs ?? defaultRuns
        var random = SplitMix64(seed: seed)
        var leiden = Leiden(resolution: resolution)
        var overall: (quality: Double, membership: [Int32], levels: [Leiden.Aggregation])?
        for _ in 0..<runs {
            var membership = (0..<base.nodeCount).map { Int32($0) }
            var best = -Double.infinity
            var bestLevels: [Leiden.Aggregation] = []
            for _ in 0..<passes {
                var passLevels: [Leiden.Aggregation] = []
                let next = leiden.pass(base, initial: membership, random: &random, levels: &passLevels)
                let quality = modularity(base, next, resolution: resolution)
                guard quality > best + 1e-12 else { break }
                let gain = quality - best
                (best, membership, bestLevels) = (quality, next, passLevels)
                if gain < 1e-4 { break }
            }
            if best > overall?.quality ?? -.infinity { overall = (best, membership, bestLevels) }
        }
        levels = overall!.levels
        return Communities(ordered: overall!.membership, graph: base, resolution: resolution)
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
        var inside = [Double](repeating: 0, count: parts), degree = [Double](repeating: 0, count: parts)
        for v in 0..<graph.nodeCount {
            let c = Int(membership[v])
            degree[c] += graph.strength[v]
            inside[c] += graph.selfLoops[v]
            for k in graph.offsets[v]..<graph.offsets[v + 1] where membership[Int(graph.targets[k])] == membership[v] {
                inside[c] += graph.weights[k] / 2
            }
        }
        let m = graph.totalWeight
        return (0..<parts).reduce(0) { $0 + inside[$1] / m - resolution * (degree[$1] / (2 * m)) * (degree[$1] / (2 * m)) }
    }
}

/// The working state of one Leiden run.
struct Leiden {
    let resolution: Double

    /// One full Leiden pass from `initial`; returns the membership of the original nodes.
    mutating func pass(_ base: WeightedGraph, initial: [Int32], random: inout SplitMix64) -> [Int32] {
        var levels: [Aggregation] = []
        return pass(base, initial: initial, random: &random, levels: &levels)
    }

    /// One aggregation step of a pass: the graph, and which node of the next level each node became.
    struct Aggregation {
        let graph: WeightedGraph
        let parent: [Int32]
    }

    /// A pass that also records its aggregation levels. Nodes aggregated together always end in
    /// the same community, so the levels form a hierarchy that never mixes communities.
    mutating func pass(_ base: WeightedGraph, initial: [Int32], random: inout SplitMix64, levels: inout [Aggregation]) -> [Int32] {
        var graph = base
        var partition = initial
        var nodeOf = (0..<base.nodeCount).map { Int32($0) }  // original node → aggregate node
        while true {
            moveNodes(graph, &partition, random: &random)
            let parts = renumber(&partition)
            if parts == graph.nodeCount { break }
            var refined = refine(graph, partition, parts: parts, random: &random)
            var refinedParts = renumber(&refined)
            if refinedParts == graph.nodeCount {
                // Refinement merged nothing: aggregate the communities themselves, as Louvain does.
                refined = partition
                refinedParts = parts
            }
            var aggregatePartition = [Int32](repeating: 0, count: refinedParts)
            for v in 0..<graph.nodeCount { aggregatePartition[Int(refined[v])] = partition[v] }
            for i in nodeOf.indices { nodeOf[i] = refined[Int(nodeOf[i])] }
            levels.append(Aggregation(graph: graph, parent: refined))
            graph = graph.aggregated(by: refined, parts: refinedParts)
            partition = aggregatePartition
        }
        levels.append(Aggregation(graph: graph, parent: partition))
        return nodeOf.map { partition[Int($0)] }
    }

    /// One level of coarsening for multilevel layout: local moving from singletons, then the
    /// refinement, whose parts are small, connected and well connected. Returns the part of each node.
    mutating func coarsen(_ graph: WeightedGraph, random: inout SplitMix64) -> (partition: [Int32], parts: Int) {
        var partition = (0..<graph.nodeCount).map { Int32($0) }
        moveNodes(graph, &partition, random: &random)
        let parts = renumber(&partition)
        var refined = refine(graph, partition, parts: parts, random: &random)
        let refinedParts = renumber(&refined)
        return (refined, refinedParts)
    }

    /// Renumbers parts densely from 0 and returns how many there are.
    func renumber(_ partition: inout [Int32]) -> Int {
        var map = [Int32](repeating: -1, count: partition.count)
        var next: Int32 = 0
        for i in partition.indices {
            let old = Int(partition[i])
            if map[old] < 0 { map[old] = next; next += 1 }
            partition[i] = map[old]
        }
        return Int(next)
    }

    /// Fast local moving: visit nodes from a queue, move each to the neighbouring (or an empty)
    /// community with the best modularity gain, and queue the neighbours it left behind.
    private func moveNodes(_ graph: WeightedGraph, _ partition: inout [Int32], random: inout SplitMix64) {
        let n = graph.nodeCount, twoM = 2 * graph.totalWeight
        var total = [Double](repeating: 0, count: n)
        var size = [Int](repeating: 0, count: n)
        for v in 0..<n { total[Int(partition[v])] += graph.strength[v]; size[Int(partition[v])] += 1 }
        var empty = (0..<n).filter { size[$0] == 0 }.map { Int32($0) }
        var queue = Array(0..<n).shuffled(using: &random).map { Int32($0) }
        var inQueue = [Bool](repeating: true, count: n)
        var head = 0
        var weightTo = [Double](repeating: 0, count: n)
        var touched: [Int32] = []
        while head < queue.count {
            let v = Int(queue[head]); head += 1
            if head > 4096 && head * 2 > queue.count { queue.removeFirst(head); head = 0 }
            inQueue[v] = false
            let current = partition[v], strength = graph.strength[v]
            for k in graph.offsets[v]..<graph.offsets[v + 1] {
                let c = partition[Int(graph.targets[k])]
                if weightTo[Int(c)] == 0 { touched.append(c) }
                weightTo[Int(c)] += graph.weights[k]
            }
            total[Int(current)] -= strength
            size[Int(current)] -= 1
            if size[Int(current)] == 0 { empty.append(current) }
            var best = current
            var bestGain = weightTo[Int(current)] - resolution * strength * total[Int(current)] / twoM
            for c in touched where c != current {
                let gain = weightTo[Int(c)] - resolution * strength * total[Int(c)] / twoM
                if gain > bestGain + 1e-12 {
                    best = c
                    bestGain = gain
                }
            }
            if bestGain < -1e-12, let alone = empty.last { best = alone; bestGain = 0 }
            for c in touched { weightTo[Int(c)] = 0 }
            touched.removeAll(keepingCapacity: true)
            if size[Int(best)] == 0, let index = empty.lastIndex(of: best) { empty.remove(at: index) }  // usually the last
            total[Int(best)] += strength
            size[Int(best)] += 1
            partition[v] = best
            guard best != current else { continue }
            for k in graph.offsets[v]..<graph.offsets[v + 1] {
                let u = Int(graph.targets[k])
                if !inQueue[u] && partition[u] != best { inQueue[u] = true; queue.append(Int32(u)) }
            }
        }
    }

    /// Within each community, starts from singletons and merges well-connected nodes into
    /// well-connected sub-communities (greedily, never lowering modularity); the result refines `partition`.
    private func refine(_ graph: WeightedGraph, _ partition: [Int32], parts: Int, random: inout SplitMix64) -> [Int32] {
        let n = graph.nodeCount, twoM = 2 * graph.totalWeight
        var communityTotal = [Double](repeating: 0, count: parts)
        for v in 0..<n { communityTotal[Int(partition[v])] += graph.strength[v] }
        var refined = (0..<n).map { Int32($0) }
        var refinedTotal = graph.strength
        var refinedSize = [Int](repeating: 1, count: n)
        // Weight from each node (then each refined part) to the rest of its community.
        var external = [Double](repeating: 0, count: n)
        for v in 0..<n {
            for k in graph.offsets[v]..<graph.offsets[v + 1] where partition[Int(graph.targets[k])] == partition[v] {
                external[v] += graph.weights[k]
            }
        }
        let nodeExternal = external
        var weightTo = [Double](repeating: 0, count: n)
        var touched: [Int32] = []
        for v in Array(0..<n).shuffled(using: &random) {
            guard refinedSize[Int(refined[v])] == 1 else { continue }
            let community = Int(partition[v]), strength = graph.strength[v]
            let whole = communityTotal[community]
            guard nodeExternal[v] >= resolution * strength * (whole - strength) / twoM else { continue }
            for k in graph.offsets[v]..<graph.offsets[v + 1] {
                let u = Int(graph.targets[k])
                guard Int(partition[u]) == community else { continue }
                let s = refined[u]
                if weightTo[Int(s)] == 0 { touched.append(s) }
                weightTo[Int(s)] += graph.weights[k]
            }
            let own = refined[v]
            var best = own, bestGain = 0.0
            for s in touched where s != own {
                let sTotal = refinedTotal[Int(s)]
                guard external[Int(s)] >= resolution * sTotal * (whole - sTotal) / twoM else { continue }
                let gain = weightTo[Int(s)] - resolution * strength * sTotal / twoM
                if gain > bestGain { best = s; bestGain = gain }
            }
            if best != own {
                external[Int(best)] += nodeExternal[v] - 2 * weightTo[Int(best)]
                refinedTotal[Int(best)] += strength
                refinedTotal[Int(own)] = 0
                refinedSize[Int(best)] += 1
                refinedSize[Int(own)] = 0
                refined[v] = best
            }
            for s in touched { weightTo[Int(s)] = 0 }
            touched.removeAll(keepingCapacity: true)
        }
        return refined
    }
}
