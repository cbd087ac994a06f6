/// Layout quality as docs/graph-engine.md defines it: scale-normalised stress (lower is better),
/// neighbourhood preservation and community purity (higher is better). Sampled above the stated
/// sizes with a fixed seed, so figures repeat.
public enum LayoutQuality {
    /// Normalised stress over pairs in the same component; above 2,000 nodes, pairs from BFS of 256 sampled sources.
    public static func stress<ID>(_ graph: Graph<ID>, _ positions: [Point], seed: UInt64 = 1) -> Double {
        let n = graph.nodeCount
        guard n > 1 else { return 0 }
        var sampled = Array(0..<n)
        if n > 2_000 {
            var random = SplitMix64(seed: seed)
            sampled.shuffle(using: &random)
            sampled = Array(sampled.prefix(256))
        }
        let sources = sampled
        // Per chunk: Σ r, Σ r², Σ(r·… ) where r = e/d; stress needs Σ r, Σ r², count.
        let sums = parallelChunks(sources.count, minimumChunk: 4) { range -> (Double, Double, Int) in
            var search = BreadthFirstSearch(nodeCount: n)
            var sum = 0.0
            var squares = 0.0
            var pairs = 0
            for index in range {
                let s = sources[index]
                search.run(graph, from: s)
                for k in 1..<max(1, search.reached) {
                    let v = Int(search.order[k])
                    let dx = positions[s].x - positions[v].x
                    let dy = positions[s].y - positions[v].y
                    let r = (dx * dx + dy * dy).squareRoot() / Double(search.distance[v])
                    sum += r
                    squares += r * r
                    pairs += 1
                }
            }
            return (sum, squares, pairs)
        }
        let sum = sums.reduce(0) { $0 + $1.0 }
        let squares = sums.reduce(0) { $0 + $1.1 }
        let pairs = sums.reduce(0) { $0 + $1.2 }
        guard pairs > 0, squares > 0 else { return 0 }
        let alpha = sum / squares
        // (1/|P|) Σ (α r − 1)² = (α² Σr² − 2α Σr + |P|) / |P|
        return (alpha * alpha * squares - 2 * alpha * sum + Double(pairs)) / Double(pairs)
    }

    /// Mean Jaccard overlap of each node's graph neighbours and its `degree` nearest layout neighbours.
    public static func neighbourhoodPreservation<ID>(_ graph: Graph<ID>, _ positions: [Point], seed: UInt64 = 1) -> Double {
        let candidates = (0..<graph.nodeCount).filter { graph.degree(of: $0) > 0 }
        let nodes = sample(candidates, limit: 20_000, keep: 5_000, seed: seed)
        guard !nodes.isEmpty else { return 0 }
        let index = NearestNeighbours(positions)
        let total = parallelChunks(nodes.count, minimumChunk: 64) { range -> Double in
            var sum = 0.0
            for i in range {
                let v = nodes[i]
                let k = graph.degree(of: v)
                let near = Set(index.nearest(to: v, count: k))
                let neighbours = Set(graph.neighbours(of: v).map(Int.init))
                let shared = near.intersection(neighbours).count
                sum += Double(shared) / Double(near.count + neighbours.count - shared)
            }
            return sum
        }.reduce(0, +)
        return total / Double(nodes.count)
    }

    /// Mean share of each sampled node's 10 nearest layout neighbours that are in its own community.
    public static func communityPurity(_ positions: [Point], communities: [Int32], seed: UInt64 = 1) -> Double {
        let nodes = sample(Array(positions.indices), limit: 5_000, keep: 5_000, seed: seed)
        guard positions.count > 10 else { return 1 }
        let index = NearestNeighbours(positions)
        let total = parallelChunks(nodes.count, minimumChunk: 64) { range -> Double in
            var sum = 0.0
            for i in range {
                let v = nodes[i]
                let near = index.nearest(to: v, count: 10)
                sum += Double(near.count { communities[$0] == communities[v] }) / Double(near.count)
            }
            return sum
        }.reduce(0, +)
        return total / Double(nodes.count)
    }

    private static func sample(_ items: [Int], limit: Int, keep: Int, seed: UInt64) -> [Int] {
        guard items.count > limit else { return items }
        var random = SplitMix64(seed: seed)
        return Array(items.shuffled(using: &random).prefix(keep))
    }
}

/// k-nearest-neighbour queries on a uniform grid of the points (exact).
struct NearestNeighbours: Sendable {
    let points: [Point]
    let cells: [[Int32]]
    let columns: Int
    let rows: Int
    let minX: Double, minY: Double, cellSize: Double

    init(_ points: [Point]) {
        self.points = points
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        minX = xs.min() ?? 0
        minY = ys.min() ?? 0
        let width = max((xs.max() ?? 0) - minX, 1e-9)
        let height = max((ys.max() ?? 0) - minY, 1e-9)
        // About two points per cell.
        let side = max(1, Int((Double(points.count) / 2).squareRoot()))
        cellSize = max(width, height) / Double(side)
        columns = Int(width / cellSize) + 1
        rows = Int(height / cellSize) + 1
        var cells = [[Int32]](repeating: [], count: columns * rows)
        for (i, p) in points.enumerated() {
            cells[Self.cell(p.y, minY, cellSize, rows) * columns + Self.cell(p.x, minX, cellSize, columns)].append(Int32(i))
        }
        self.cells = cells
    }

    private static func cell(_ value: Double, _ origin: Double, _ size: Double, _ count: Int) -> Int {
        min(count - 1, max(0, Int((value - origin) / size)))
    }

    /// The `count` points nearest to point `v` (excluding itself), by growing rings of cells.
    func nearest(to v: Int, count: Int) -> [Int] {
        let want = min(count, points.count - 1)
        guard want > 0 else { return [] }
        let p = points[v]
        let cx = Self.cell(p.x, minX, cellSize, columns)
        let cy = Self.cell(p.y, minY, cellSize, rows)
        var found: [(Double, Int)] = []
        var ring = 0
        while true {
            for y in (cy - ring)...(cy + ring) where y >= 0 && y < rows {
                for x in (cx - ring)...(cx + ring) where x >= 0 && x < columns {
                    guard abs(x - cx) == ring || abs(y - cy) == ring else { continue }
                    for u32 in cells[y * columns + x] where Int(u32) != v {
                        let q = points[Int(u32)]
                        found.append(((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y), Int(u32)))
                    }
                }
            }
            // Everything within `ring` cells' distance is now known exactly.
            let covered = Double(ring) * cellSize
            if found.count >= want {
                found.sort { $0.0 < $1.0 }
                if found[want - 1].0 <= covered * covered || ring > max(columns, rows) {
                    return found.prefix(want).map(\.1)
                }
            }
            ring += 1
            if ring > max(columns, rows) + 1 {
                found.sort { $0.0 < $1.0 }
                return found.prefix(want).map(\.1)
            }
        }
    }
}
