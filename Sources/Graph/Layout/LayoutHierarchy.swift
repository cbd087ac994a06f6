/// The levels of a multilevel layout: the graph, then ever coarser graphs, each node weighing
/// the number of original nodes it stands for. The levels are those of one Leiden pass, whose
/// aggregates never mix communities (so the picture keeps communities apart), continued by
/// community-respecting coarsening while the top is still too large to place directly.
struct LayoutHierarchy {
    struct Level {
        let graph: WeightedGraph
        /// Original nodes per node.
        let mass: [Double]
        /// For each node, its node one level coarser (empty on the coarsest level).
        var parent: [Int32]
    }

    private(set) var levels: [Level]
    /// The community of each original node (from the same Leiden pass).
    let communities: [Int32]

    init(_ graph: WeightedGraph, seed: UInt64, largestTop: Int = 400) {
        var aggregations: [Leiden.Aggregation] = []
        // One run is enough for a picture; the statistics search harder.
        communities = Communities.detect(graph, seed: seed, runs: 1, levels: &aggregations).membership
        var random = SplitMix64(seed: seed ^ 0x5_DEEC_E66D)
        let leiden = Leiden(resolution: 1)
        var levels = [Level(graph: graph, mass: [Double](repeating: 1, count: graph.nodeCount), parent: [])]
        // The last aggregation's `parent` is the community partition of the top graph: not a level.
        var communityOfTop = aggregations.last?.parent ?? []
        // Each aggregation's graph is the next level (the first is the input graph itself).
        for (index, aggregation) in aggregations.dropLast().enumerated() {
            let last = levels[levels.count - 1]
            let next = aggregations[index + 1].graph
            var mass = [Double](repeating: 0, count: next.nodeCount)
            for v in 0..<last.graph.nodeCount { mass[Int(aggregation.parent[v])] += last.mass[v] }
            levels[levels.count - 1].parent = aggregation.parent
            levels.append(Level(graph: next, mass: mass, parent: []))
        }
        // Too many nodes to place by stress majorization: keep coarsening, never across communities.
        while let last = levels.last, last.graph.nodeCount > largestTop, last.graph.totalWeight > 0,
            communityOfTop.count == last.graph.nodeCount
        {
            var (partition, _) = leiden.coarsen(last.graph, random: &random)
            var split: [Int64: Int32] = [:]
            for v in partition.indices {
                let key = Int64(partition[v]) << 32 | Int64(communityOfTop[v])
                if let id = split[key] {
                    partition[v] = id
                } else {
                    let id = Int32(split.count)
                    split[key] = id
                    partition[v] = id
                }
            }
            guard split.count < last.graph.nodeCount * 9 / 10 else { break }
            var mass = [Double](repeating: 0, count: split.count)
            var next = [Int32](repeating: 0, count: split.count)
            for v in 0..<last.graph.nodeCount {
                mass[Int(partition[v])] += last.mass[v]
                next[Int(partition[v])] = communityOfTop[v]
            }
            levels[levels.count - 1].parent = partition
            levels.append(Level(graph: last.graph.aggregated(by: partition, parts: split.count), mass: mass, parent: []))
            communityOfTop = next
        }
        self.levels = levels
    }
}
