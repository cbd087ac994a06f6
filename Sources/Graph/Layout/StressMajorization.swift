/// Stress majorization (SMACOF, Gansner–Koren–North 2004) with all-pairs target distances:
/// the best-known way to place a small graph, used for the coarsest level.
enum StressMajorization {
    /// Target distance between nodes joined by an edge: the sum of their radii (√mass / 2 each),
    /// so heavy coarse nodes, which will unfold into many nodes, keep room around them.
    /// The best of `starts` runs from random positions (stress has local minima; the graph is
    /// small): by default 20 up to 100 nodes, fewer above, at least 5. The final picture's stress
    /// depends mostly on this placement, so more starts make it steadier from seed to seed.
    static func layout(_ graph: WeightedGraph, mass: [Double], random: inout SplitMix64, iterations: Int = 200, starts: Int? = nil)
        -> [Point]
    {
        let n = graph.nodeCount
        guard n > 1 else { return Array(repeating: Point(x: 0, y: 0), count: n) }
        let starts = starts ?? min(20, max(5, 200_000 / (n * n)))
        let radius = mass.map { $0.squareRoot() / 2 }
        let distance = allPairs(graph, radius: radius)
        var best: (stress: Double, points: [Point])?
        for _ in 0..<starts {
            let points = majorize(distance: distance, n: n, random: &random, iterations: iterations)
            var stress = 0.0
            for i in 0..<n {
                for j in (i + 1)..<n {
                    let d = distance[i * n + j]
                    let e =
                        ((points[i].x - points[j].x) * (points[i].x - points[j].x) + (points[i].y - points[j].y)
                            * (points[i].y - points[j].y))
                        .squareRoot()
                    stress += (e - d) * (e - d) / (d * d)
                }
            }
            if stress < best?.stress ?? .infinity { best = (stress, points) }
        }
        return best!.points
    }

    private static func majorize(distance: [Double], n: Int, random: inout SplitMix64, iterations: Int) -> [Point] {
        var x = (0..<n).map { _ in Double.random(in: -1...1, using: &random) * Double(n).squareRoot() }
        var y = (0..<n).map { _ in Double.random(in: -1...1, using: &random) * Double(n).squareRoot() }
        var weightSum = [Double](repeating: 0, count: n)
        for i in 0..<n { for j in 0..<n where i != j { weightSum[i] += 1 / (distance[i * n + j] * distance[i * n + j]) } }
        for _ in 0..<iterations {
            var change = 0.0
            for i in 0..<n {
                var nx = 0.0
                var ny = 0.0
                for j in 0..<n where j != i {
                    let d = distance[i * n + j]
                    let w = 1 / (d * d)
                    let dx = x[i] - x[j]
                    let dy = y[i] - y[j]
                    let e = max((dx * dx + dy * dy).squareRoot(), 1e-9)
                    nx += w * (x[j] + d * dx / e)
                    ny += w * (y[j] + d * dy / e)
                }
                nx /= weightSum[i]
                ny /= weightSum[i]
                change += abs(nx - x[i]) + abs(ny - y[i])
                x[i] = nx
                y[i] = ny
            }
            if change / Double(n) < 1e-4 { break }
        }
        return zip(x, y).map { Point(x: $0, y: $1) }
    }

    /// Dijkstra from every node with edge lengths radius[u] + radius[v] (n is small here).
    private static func allPairs(_ graph: WeightedGraph, radius: [Double]) -> [Double] {
        let n = graph.nodeCount
        var distance = [Double](repeating: .infinity, count: n * n)
        for source in 0..<n {
            var heap = [(Double, Int)]()
            func push(_ item: (Double, Int)) {
                heap.append(item)
                var i = heap.count - 1
                while i > 0 {
                    let p = (i - 1) / 2
                    if heap[p].0 <= heap[i].0 { break }
                    heap.swapAt(p, i)
                    i = p
                }
            }
            func pop() -> (Double, Int) {
                let top = heap[0]
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
                var i = 0
                while true {
                    let l = 2 * i + 1
                    let r = l + 1
                    var m = i
                    if l < heap.count && heap[l].0 < heap[m].0 { m = l }
                    if r < heap.count && heap[r].0 < heap[m].0 { m = r }
                    if m == i { break }
                    heap.swapAt(i, m)
                    i = m
                }
                return top
            }
            distance[source * n + source] = 0
            push((0, source))
            while !heap.isEmpty {
                let (d, u) = pop()
                guard d <= distance[source * n + u] else { continue }
                for k in graph.offsets[u]..<graph.offsets[u + 1] {
                    let v = Int(graph.targets[k])
                    let candidate = d + max(1, radius[u] + radius[v])
                    if candidate < distance[source * n + v] {
                        distance[source * n + v] = candidate
                        push((candidate, v))
                    }
                }
            }
        }
        // Unreachable pairs (not expected within a component) get the largest distance seen.
        let largest = distance.filter { $0.isFinite }.max() ?? 1
        return distance.map { $0.isFinite ? max($0, 1e-6) : largest + 1 }
    }
}
