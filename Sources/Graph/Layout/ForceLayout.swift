/// Fruchterman–Reingold force-directed layout with exact (all-pairs) repulsion: good pictures
/// for the small graphs of one person's network (hundreds of nodes). Deterministic for a seed;
/// positions are scaled into [-1, 1] × [-1, 1], centred.
public struct ForceLayout: Sendable {
    public var seed: UInt64
    public var iterations: Int

    public init(seed: UInt64 = 1, iterations: Int = 300) {
        self.seed = seed
        self.iterations = iterations
    }

    public func positions<ID>(for graph: Graph<ID>) -> [Point] {
        let n = graph.nodeCount
        guard n > 1 else { return Array(repeating: Point(x: 0, y: 0), count: n) }
        var random = SplitMix64(seed: seed)
        var x = (0..<n).map { _ in Double.random(in: -1...1, using: &random) }
        var y = (0..<n).map { _ in Double.random(in: -1...1, using: &random) }
        let k = (4.0 / Double(n)).squareRoot()  // ideal edge length in a 2 × 2 box
        var temperature = 0.2
        let cooling = temperature / Double(iterations + 1)
        let edges = graph.edgeList
        var dx = [Double](repeating: 0, count: n), dy = dx
        for _ in 0..<iterations {
            for i in 0..<n { dx[i] = 0; dy[i] = 0 }
            for i in 0..<n {
                for j in (i + 1)..<n {
                    var ex = x[i] - x[j], ey = y[i] - y[j]
                    var d2 = ex * ex + ey * ey
                    if d2 < 1e-12 { ex = 1e-6 * Double(i - j); ey = 1e-6; d2 = ex * ex + ey * ey }
                    let force = k * k / d2  // repulsion k²/d, along the unit vector (ex, ey)/d
                    dx[i] += ex * force; dy[i] += ey * force
                    dx[j] -= ex * force; dy[j] -= ey * force
                }
            }
            for (u, v) in edges {
                let ex = x[u] - x[v], ey = y[u] - y[v]
                let d = (ex * ex + ey * ey).squareRoot()
                let force = d / k  // attraction d²/k, along the unit vector
                dx[u] -= ex * force; dy[u] -= ey * force
                dx[v] += ex * force; dy[v] += ey * force
            }
            // Gentle gravity keeps separate components from drifting apart.
            for i in 0..<n { dx[i] -= 0.05 * x[i] / k; dy[i] -= 0.05 * y[i] / k }
            for i in 0..<n {
                let length = (dx[i] * dx[i] + dy[i] * dy[i]).squareRoot()
                guard length > 0 else { continue }
                let step = min(length, temperature) / length
                x[i] += dx[i] * step
                y[i] += dy[i] * step
            }
            temperature -= cooling
        }
        return Self.normalized(x: x, y: y)
    }

    /// Centres the points and scales them uniformly so the larger side spans [-1, 1].
    static func normalized(x: [Double], y: [Double]) -> [Point] {
        let minX = x.min()!, maxX = x.max()!, minY = y.min()!, maxY = y.max()!
        let span = max(maxX - minX, maxY - minY)
        let scale = span > 0 ? 2 / span : 1
        let cx = (minX + maxX) / 2, cy = (minY + maxY) / 2
        return zip(x, y).map { Point(x: ($0 - cx) * scale, y: ($1 - cy) * scale) }
    }
}
