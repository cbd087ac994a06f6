/// A weighted graph with self-loops: the level-by-level aggregate that community detection works on.
struct WeightedGraph {
    let offsets: [Int]
    let targets: [Int32]
    let weights: [Double]
    /// Weight of each node's self-loop (the internal edges of the nodes it stands for).
    let selfLoops: [Double]
    /// Weighted degree: Σ w(v, u) + 2 × self-loop.
    let strength: [Double]
    /// Total edge weight m (each edge once, self-loops included).
    let totalWeight: Double

    var nodeCount: Int { selfLoops.count }

    init(offsets: [Int], targets: [Int32], weights: [Double], selfLoops: [Double]) {
        self.offsets = offsets
        self.targets = targets
        self.weights = weights
        self.selfLoops = selfLoops
        var strength = selfLoops.map { 2 * $0 }
        for v in 0..<selfLoops.count { for k in offsets[v]..<offsets[v + 1] { strength[v] += weights[k] } }
        self.strength = strength
        totalWeight = strength.reduce(0, +) / 2
    }

    init<ID>(_ graph: Graph<ID>) {
        self.init(offsets: graph.offsets, targets: graph.neighbours,
                  weights: [Double](repeating: 1, count: graph.neighbours.count),
                  selfLoops: [Double](repeating: 0, count: graph.nodeCount))
    }

    /// One node per part of `partition` (numbered 0..<parts), edges summed, internal edges as self-loops.
    func aggregated(by partition: [Int32], parts: Int) -> WeightedGraph {
        var members = [[Int32]](repeating: [], count: parts)
        for v in 0..<nodeCount { members[Int(partition[v])].append(Int32(v)) }
        var offsets = [Int](repeating: 0, count: parts + 1)
        var targets: [Int32] = [], weights: [Double] = []
        var selfLoops = [Double](repeating: 0, count: parts)
        var accumulated = [Double](repeating: 0, count: parts)
        var touched: [Int32] = []
        for part in 0..<parts {
            for v32 in members[part] {
                let v = Int(v32)
                selfLoops[part] += self.selfLoops[v]
                for k in self.offsets[v]..<self.offsets[v + 1] {
                    let other = partition[Int(self.targets[k])]
                    if Int(other) == part {
                        selfLoops[part] += self.weights[k] / 2
                    } else {
                        if accumulated[Int(other)] == 0 { touched.append(other) }
                        accumulated[Int(other)] += self.weights[k]
                    }
                }
            }
            for other in touched {
                targets.append(other)
                weights.append(accumulated[Int(other)])
                accumulated[Int(other)] = 0
            }
            touched.removeAll(keepingCapacity: true)
            offsets[part + 1] = targets.count
        }
        return WeightedGraph(offsets: offsets, targets: targets, weights: weights, selfLoops: selfLoops)
    }
}
