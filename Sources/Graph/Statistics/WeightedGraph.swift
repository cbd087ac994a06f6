/// A weighted graph with self-loops: the level-by-level aggregate that community detection works on.
struct WeightedGraph: Sendable {
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
        self.init(
            offsets: graph.offsets, targets: graph.neighbours,
            weights: [Double](repeating: 1, count: graph.neighbours.count),
            selfLoops: [Double](repeating: 0, count: graph.nodeCount))
    }

    /// One node per part of `partition` (numbered 0..<parts), edges summed, internal edges as self-loops.
    func aggregated(by partition: [Int32], parts: Int) -> WeightedGraph {
        // Members of each part, grouped by a counting sort.
        var first = [Int](repeating: 0, count: parts + 1)
        for v in 0..<nodeCount { first[Int(partition[v]) + 1] += 1 }
        for part in 0..<parts { first[part + 1] += first[part] }
        var members = [Int32](repeating: 0, count: nodeCount)
        var fill = first
        for v in 0..<nodeCount {
            members[fill[Int(partition[v])]] = Int32(v)
            fill[Int(partition[v])] += 1
        }

        var offsets = [Int](repeating: 0, count: parts + 1)
        var targets: [Int32] = []
        var weights: [Double] = []
        targets.reserveCapacity(min(self.targets.count, parts * parts))
        weights.reserveCapacity(targets.capacity)
        var selfLoops = [Double](repeating: 0, count: parts)
        let sums = WeightsByPart(parts: parts)
        for part in 0..<parts {
            sums.begin()
            for v in members[first[part]..<first[part + 1]].lazy.map(Int.init) {
                selfLoops[part] += self.selfLoops[v]
                for k in self.offsets[v]..<self.offsets[v + 1] {
                    sums.add(self.weights[k], to: Int(partition[Int(self.targets[k])]), edge: k)
                }
            }
            for other in (0..<sums.touchedCount).lazy.map({ Int(sums.touched[$0]) }) {
                if other == part {
                    selfLoops[part] += sums.weight(to: other) / 2  // edges inside the part, each seen from both ends
                } else {
                    targets.append(Int32(other))
                    weights.append(sums.weight(to: other))
                }
            }
            sums.clear()
            offsets[part + 1] = targets.count
        }
        return WeightedGraph(offsets: offsets, targets: targets, weights: weights, selfLoops: selfLoops)
    }

    /// This graph with `weight` added between every two nodes of each group (a new edge where
    /// there was none): ties that hold small groups together in a layout. Groups are small.
    func tying(_ groups: [[Int]], weight: Double) -> WeightedGraph {
        var ties = [[Int32]](repeating: [], count: nodeCount)
        for group in groups {
            for a in group { for b in group where a != b { ties[a].append(Int32(b)) } }
        }
        var offsets = [0]
        var targets: [Int32] = []
        var weights: [Double] = []
        for v in 0..<nodeCount {
            var row = (self.offsets[v]..<self.offsets[v + 1]).map { (self.targets[$0], self.weights[$0]) }
            row += ties[v].map { ($0, weight) }
            row.sort { $0.0 < $1.0 }
            let start = targets.count
            for (u, w) in row {
                if targets.count > start && targets[targets.count - 1] == u {
                    weights[weights.count - 1] += w
                } else {
                    targets.append(u)
                    weights.append(w)
                }
            }
            offsets.append(targets.count)
        }
        return WeightedGraph(offsets: offsets, targets: targets, weights: weights, selfLoops: selfLoops)
    }

    /// This graph with the edges at the nodes where `at` holds weighed `factor` times: for whole
    /// components (or any set closed under neighbours), so that both ends of an edge agree.
    func scaled(by factor: Double, at nodes: (Int) -> Bool) -> WeightedGraph {
        var weights = weights
        for v in 0..<nodeCount where nodes(v) {
            for e in offsets[v]..<offsets[v + 1] { weights[e] *= factor }
        }
        return WeightedGraph(offsets: offsets, targets: targets, weights: weights, selfLoops: selfLoops)
    }
}
