/// The moves of the Leiden algorithm for modularity (Traag, Waltman & van Eck 2019): fast local
/// moving, a refinement that keeps every community connected, and aggregation of the refined
/// partition, level after level until nothing moves.
struct Leiden: Sendable {
    let resolution: Double

    /// One aggregation step of a pass: the graph, and which node of the next level each node became.
    struct Aggregation: Sendable {
        let graph: WeightedGraph
        let parent: [Int32]
    }

    /// One full Leiden pass from `initial`: the community of each original node and the partition's
    /// modularity. `levels` receives the aggregation levels; nodes aggregated together always end in
    /// the same community, so the levels form a hierarchy that never mixes communities.
    func pass(
        _ base: WeightedGraph, initial: [Int32], random: inout SplitMix64, levels: inout [Aggregation]
    ) -> (membership: [Int32], modularity: Double) {
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
        // Aggregation keeps modularity, so the coarsest graph gives it at little cost.
        let quality = Communities.modularity(graph, partition, resolution: resolution)
        return (nodeOf.map { partition[Int($0)] }, quality)
    }

    /// One level of coarsening for multilevel layout: local moving from singletons, then the
    /// refinement, whose parts are small, connected and well connected. Returns the part of each node.
    func coarsen(_ graph: WeightedGraph, random: inout SplitMix64) -> (partition: [Int32], parts: Int) {
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
            if map[old] < 0 {
                map[old] = next
                next += 1
            }
            partition[i] = map[old]
        }
        return Int(next)
    }

    /// Fast local moving: visit nodes from a queue, move each to the neighbouring (or an empty)
    /// community with the best modularity gain, and queue the neighbours it left behind.
    private func moveNodes(_ graph: WeightedGraph, _ membership: inout [Int32], random: inout SplitMix64) {
        let n = graph.nodeCount
        let scale = resolution / (2 * graph.totalWeight)
        let partition = Scratch(membership)
        let total = Scratch<Double>(repeating: 0, count: n)
        let size = Scratch<Int32>(repeating: 0, count: n)
        for v in 0..<n {
            total[Int(partition[v])] += graph.strength[v]
            size[Int(partition[v])] += 1
        }
        var empty = (0..<n).filter { size[$0] == 0 }.map { Int32($0) }
        // The queue is a ring of n slots: a node waits in it at most once.
        var order = (0..<n).map { Int32($0) }
        order.shuffle(using: &random)
        let queue = Scratch(order)
        let inQueue = Scratch<Bool>(repeating: true, count: n)
        var head = 0
        var waiting = n
        let sums = WeightsByPart(parts: n)
        while waiting > 0 {
            let v = Int(queue[head])
            head = head + 1 == n ? 0 : head + 1
            waiting -= 1
            inQueue[v] = false
            let current = partition[v]
            let strength = graph.strength[v]
            let start = graph.offsets[v]
            let end = graph.offsets[v + 1]
            sums.begin()
            for k in start..<end { sums.add(graph.weights[k], to: Int(partition[Int(graph.targets[k])]), edge: k) }
            total[Int(current)] -= strength
            size[Int(current)] -= 1
            if size[Int(current)] == 0 { empty.append(current) }
            var best = current
            var bestGain = sums.weight(to: Int(current)) - strength * total[Int(current)] * scale
            for t in 0..<sums.touchedCount {
                let c = sums.touched[t]
                let gain = sums.weight(to: Int(c)) - strength * total[Int(c)] * scale
                if gain > bestGain + 1e-12 {
                    best = c
                    bestGain = gain
                }
            }
            sums.clear()
            if bestGain < -1e-12, let alone = empty.last { best = alone }
            if size[Int(best)] == 0, let index = empty.lastIndex(of: best) { empty.remove(at: index) }  // usually the last
            total[Int(best)] += strength
            size[Int(best)] += 1
            partition[v] = best
            guard best != current else { continue }
            var tail = head + waiting < n ? head + waiting : head + waiting - n
            for k in start..<end {
                let u = Int(graph.targets[k])
                let joins = !inQueue[u] && partition[u] != best
                queue[tail] = Int32(u)  // a free slot: v has just left the queue
                inQueue[u] = inQueue[u] || joins
                waiting &+= joins ? 1 : 0
                tail &+= joins ? 1 : 0
                if tail == n { tail = 0 }
            }
        }
        membership = partition.array
    }

    /// Within each community, starts from singletons and merges well-connected nodes into
    /// well-connected sub-communities (greedily, never lowering modularity); the result refines `partition`.
    private func refine(_ graph: WeightedGraph, _ membership: [Int32], parts: Int, random: inout SplitMix64) -> [Int32] {
        let n = graph.nodeCount
        let scale = resolution / (2 * graph.totalWeight)
        let partition = Scratch(membership)
        var communityTotal = [Double](repeating: 0, count: parts)
        for v in 0..<n { communityTotal[Int(partition[v])] += graph.strength[v] }
        let refined = Scratch((0..<n).map { Int32($0) })
        let refinedTotal = Scratch(graph.strength)
        let refinedSize = Scratch<Int32>(repeating: 1, count: n)
        // Weight from each node to the rest of its community (kept apart), then from each refined part.
        var nodeExternal = [Double](repeating: 0, count: n)
        for v in 0..<n {
            let community = partition[v]
            var sum = 0.0
            for k in graph.offsets[v]..<graph.offsets[v + 1] {
                sum += partition[Int(graph.targets[k])] == community ? graph.weights[k] : 0
            }
            nodeExternal[v] = sum
        }
        let external = Scratch(nodeExternal)
        let sums = WeightsByPart(parts: n)
        var order = (0..<n).map { Int32($0) }
        order.shuffle(using: &random)
        for v32 in order {
            let v = Int(v32)
            guard refinedSize[Int(refined[v])] == 1 else { continue }
            let community = partition[v]
            let strength = graph.strength[v]
            let whole = communityTotal[Int(community)]
            guard nodeExternal[v] >= strength * (whole - strength) * scale else { continue }
            sums.begin()
            for k in graph.offsets[v]..<graph.offsets[v + 1] {
                let u = Int(graph.targets[k])
                if partition[u] == community { sums.add(graph.weights[k], to: Int(refined[u]), edge: k) }
            }
            let own = refined[v]
            var best = own
            var bestGain = 0.0
            for t in 0..<sums.touchedCount {
                let s = Int(sums.touched[t])
                let sTotal = refinedTotal[s]
                let gain = sums.weight(to: s) - strength * sTotal * scale
                if s != Int(own), gain > bestGain, external[s] >= sTotal * (whole - sTotal) * scale {
                    best = Int32(s)
                    bestGain = gain
                }
            }
            if best != own {
                external[Int(best)] += nodeExternal[v] - 2 * sums.weight(to: Int(best))
                refinedTotal[Int(best)] += strength
                refinedTotal[Int(own)] = 0
                refinedSize[Int(best)] += 1
                refinedSize[Int(own)] = 0
                refined[v] = best
            }
            sums.clear()
        }
        return refined.array
    }
}
