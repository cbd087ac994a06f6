import Foundation

/// Force-directed refinement of one level of a multilevel layout. Edges pull with a constant
/// force (the LinLog model of Noack 2007, whose energy minima separate clusters), nodes closer
/// than a cutoff push apart with k²·m/d (Fruchterman–Reingold), and steps are limited by a
/// cooling temperature. The coarser levels have already fixed the global shape; this settles the
/// local one. Neighbours are found through a grid, so an iteration costs O(n + m); nodes are
/// visited cell by cell (for the cache) and both cores share the work.
struct ForceRefinement {
    /// Ideal edge length.
    var k = 1.0
    var iterations: Int
    /// The first step limit, in units of k; it cools geometrically to a tenth of that.
    var temperature: Double
    /// Repulsion reaches this many k (times the typical node's radius on coarse levels).
    var cutoff = 2.5
    /// Per node, a factor on its step limit. Nodes at 0 hold still and their forces are not even
    /// computed: a warm start that moves only its new nodes costs what they do, not the graph.
    var mobility: [Double]? = nil
    /// Per node, its community, and how many times harder nodes of different communities push
    /// apart: a grown picture, which has no coarse levels, keeps its groups apart this way (as a
    /// fresh layout's coarsening, which never mixes communities, does).
    var apart: (communities: [Int32], factor: Double)? = nil

    func refine(_ graph: WeightedGraph, mass: [Double], positions: inout [Point]) {
        let n = graph.nodeCount
        guard n > 1, iterations > 0 else { return }
        let typical = mass.reduce(0, +) / Double(n)
        let reach = cutoff * k * max(1, typical.squareRoot())
        var temperature = self.temperature * k
        let cooling = iterations > 1 ? pow(0.1, 1 / Double(iterations - 1)) : 1
        // Who moves: everyone, or only the nodes whose mobility is not 0.
        let movers = mobility.map { factor in (0..<n).filter { factor[$0] > 0 } }
        if movers?.isEmpty == true { return }
        var moves = [Point](repeating: Point(x: 0, y: 0), count: n)
        for _ in 0..<iterations {
            let grid = Grid(positions, cellSize: reach)
            // Positions and masses in cell order: the repulsion loop then reads memory in sequence.
            let snapshot = positions
            let cells = CellOrder(grid: grid, positions: positions, mass: mass, communities: apart?.communities)
            // The movers' places in the cell order (nil: all of it).
            let order = movers.map { movers in
                var at = [Int](repeating: 0, count: n)
                for (index, v) in grid.members.enumerated() { at[Int(v)] = index }
                return movers.map { at[$0] }.sorted()
            }
            let chunks = parallelChunks(order?.count ?? n, minimumChunk: 512) { range -> [(Int32, Point)] in
                if let order {
                    Self.forces(
                        for: order[range], graph: graph, mass: mass, positions: snapshot, cells: cells, grid: grid, reach: reach, k: k,
                        apart: apart?.factor ?? 1)
                } else {
                    Self.forces(
                        for: range, graph: graph, mass: mass, positions: snapshot, cells: cells, grid: grid, reach: reach, k: k,
                        apart: apart?.factor ?? 1)
                }
            }
            for chunk in chunks { for (v, move) in chunk { moves[Int(v)] = move } }
            func step(_ v: Int) {
                let move = moves[v]
                let length = (move.x * move.x + move.y * move.y).squareRoot()
                guard length > 0 else { return }
                let step = min(length, temperature * (mobility?[v] ?? 1)) / length
                positions[v].x += move.x * step
                positions[v].y += move.y * step
            }
            if let movers { movers.forEach(step) } else { (0..<n).forEach(step) }
            temperature *= cooling
        }
    }

    /// Positions, masses and communities (if kept apart) in the grid's cell order, coordinate by
    /// coordinate: the repulsion loop reads them in sequence, four at a time.
    private struct CellOrder: Sendable {
        let x: [Double], y: [Double], mass: [Double]
        /// Each node's community as a Double (exact below 2⁵³), for the SIMD comparison; empty when not kept apart.
        let community: [Double]

        init(grid: Grid, positions: [Point], mass: [Double], communities: [Int32]?) {
            x = grid.members.map { positions[Int($0)].x }
            y = grid.members.map { positions[Int($0)].y }
            self.mass = grid.members.map { mass[Int($0)] }
            community = communities.map { communities in grid.members.map { Double(communities[Int($0)]) } } ?? []
        }
    }

    /// The net force on the nodes at `indices` of the grid's cell order.
    private static func forces(
        for indices: some Collection<Int>, graph: WeightedGraph, mass: [Double], positions: [Point], cells: CellOrder, grid: Grid,
        reach: Double, k: Double, apart: Double
    ) -> [(Int32, Point)] {
        var result: [(Int32, Point)] = []
        result.reserveCapacity(indices.count)
        let reach2 = reach * reach
        let k2 = k * k
        var slots: [Int] = []
        slots.reserveCapacity(9)
        cells.x.withUnsafeBufferPointer { xs in
            cells.y.withUnsafeBufferPointer { ys in
                cells.mass.withUnsafeBufferPointer { masses in
                    for index in indices {
                        let v32 = grid.members[index]
                        let v = Int(v32)
                        let p = Point(x: xs[index], y: ys[index])
                        var push = Repulsion(from: p, reach2: reach2, k2: k2)
                        grid.neighbourSlots(of: p, into: &slots)
                        if cells.community.isEmpty {
                            for cell in slots { push.add(xs, ys, masses, grid.start[cell]..<grid.start[cell + 1]) }
                        } else {
                            let apart = Repulsion.Apart(community: cells.community[index], factor: apart)
                            cells.community.withUnsafeBufferPointer { communities in
                                for cell in slots {
                                    push.add(xs, ys, masses, grid.start[cell]..<grid.start[cell + 1], apart: apart, communities)
                                }
                            }
                        }
                        var (fx, fy) = push.total
                        let inverseMass = 1 / mass[v]
                        for e in graph.offsets[v]..<graph.offsets[v + 1] {
                            let q = positions[Int(graph.targets[e])]
                            let dx = p.x - q.x
                            let dy = p.y - q.y
                            let d = (dx * dx + dy * dy).squareRoot()
                            guard d > 1e-12 else { continue }
                            let force = graph.weights[e] * inverseMass / d
                            fx -= dx * force
                            fy -= dy * force
                        }
                        result.append((v32, Point(x: fx, y: fy)))
                    }
                }
            }
        }
        return result
    }
}

/// The repulsion on one point from others within a cutoff, k²·m/d (Fruchterman–Reingold),
/// summed four candidates at a time. Branch-free: about a third of the candidates fall inside
/// the cutoff, unpredictably. The point itself may be among the candidates: it adds nothing.
private struct Repulsion {
    let x: SIMD4<Double>, y: SIMD4<Double>
    let reach2: SIMD4<Double>, k2: SIMD4<Double>
    var fx = SIMD4<Double>(), fy = SIMD4<Double>()

    init(from p: Point, reach2: Double, k2: Double) {
        x = SIMD4(repeating: p.x)
        y = SIMD4(repeating: p.y)
        self.reach2 = SIMD4(repeating: reach2)
        self.k2 = SIMD4(repeating: k2)
    }

    /// The pushing point's community, and the factor on pushes between communities.
    struct Apart {
        let community: Double
        let factor: Double
    }

    @inline(__always)
    mutating func add(
        _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>, _ masses: UnsafeBufferPointer<Double>, _ range: Range<Int>
    ) {
        var i = range.lowerBound
        while i + 4 <= range.upperBound {
            let qx = SIMD4(xs[i], xs[i + 1], xs[i + 2], xs[i + 3])
            let qy = SIMD4(ys[i], ys[i + 1], ys[i + 2], ys[i + 3])
            let m = SIMD4(masses[i], masses[i + 1], masses[i + 2], masses[i + 3])
            accumulate(qx, qy, m)
            i += 4
        }
        if i < range.upperBound {
            // The last one to three, padded with massless candidates.
            var qx = x
            var qy = y
            var m = SIMD4<Double>()
            for lane in 0..<(range.upperBound - i) {
                qx[lane] = xs[i + lane]
                qy[lane] = ys[i + lane]
                m[lane] = masses[i + lane]
            }
            accumulate(qx, qy, m)
        }
    }

    /// As `add`, each candidate of another community weighing `apart.factor` times its mass.
    @inline(__always)
    mutating func add(
        _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>, _ masses: UnsafeBufferPointer<Double>, _ range: Range<Int>,
        apart: Apart, _ communities: UnsafeBufferPointer<Double>
    ) {
        let own = SIMD4(repeating: apart.community)
        let factor = SIMD4(repeating: apart.factor)
        var i = range.lowerBound
        while i + 4 <= range.upperBound {
            let qx = SIMD4(xs[i], xs[i + 1], xs[i + 2], xs[i + 3])
            let qy = SIMD4(ys[i], ys[i + 1], ys[i + 2], ys[i + 3])
            let m = SIMD4(masses[i], masses[i + 1], masses[i + 2], masses[i + 3])
            let community = SIMD4(communities[i], communities[i + 1], communities[i + 2], communities[i + 3])
            accumulate(qx, qy, m.replacing(with: m * factor, where: community .!= own))
            i += 4
        }
        if i < range.upperBound {
            // The last one to three, padded with massless candidates of the point's own community.
            var qx = x
            var qy = y
            var m = SIMD4<Double>()
            var community = own
            for lane in 0..<(range.upperBound - i) {
                qx[lane] = xs[i + lane]
                qy[lane] = ys[i + lane]
                m[lane] = masses[i + lane]
                community[lane] = communities[i + lane]
            }
            accumulate(qx, qy, m.replacing(with: m * factor, where: community .!= own))
        }
    }

    @inline(__always)
    private mutating func accumulate(_ qx: SIMD4<Double>, _ qy: SIMD4<Double>, _ m: SIMD4<Double>) {
        let dx = x - qx
        let dy = y - qy
        var d2 = dx * dx + dy * dy
        d2.replace(with: 1e-12, where: d2 .< 1e-12)
        let force = (k2 * m / d2).replacing(with: 0, where: d2 .>= reach2)
        fx += dx * force
        fy += dy * force
    }

    var total: (Double, Double) { (fx.sum(), fy.sum()) }
}

/// Points bucketed into square cells through an open-addressing hash table, so only occupied
/// cells cost memory however spread out the layout is.
struct Grid: Sendable {
    /// Occupied cell `slot` holds `members[start[slot]..<start[slot + 1]]` (point indices).
    let start: [Int]
    let members: [Int32]
    private let keys: [Int64]
    private let mask: Int
    private let cellSize: Double

    private static let empty = Int64.min

    init(_ points: [Point], cellSize: Double) {
        self.cellSize = cellSize
        var capacity = 16
        while capacity < 2 * points.count { capacity <<= 1 }
        mask = capacity - 1
        var keys = [Int64](repeating: Self.empty, count: capacity)
        var count = [Int](repeating: 0, count: capacity + 1)
        var slotOf = [Int32](repeating: 0, count: points.count)
        for (i, p) in points.enumerated() {
            let key = Self.key(Self.cell(p.x, size: cellSize), Self.cell(p.y, size: cellSize))
            var slot = Self.hash(key) & mask
            while keys[slot] != Self.empty && keys[slot] != key { slot = (slot + 1) & mask }
            keys[slot] = key
            slotOf[i] = Int32(slot)
            count[slot + 1] += 1
        }
        for slot in 0..<capacity { count[slot + 1] += count[slot] }
        var fill = count
        var members = [Int32](repeating: 0, count: points.count)
        for i in points.indices {
            members[fill[Int(slotOf[i])]] = Int32(i)
            fill[Int(slotOf[i])] += 1
        }
        self.keys = keys
        start = count
        self.members = members
    }

    private static func key(_ x: Int, _ y: Int) -> Int64 { Int64(truncatingIfNeeded: x) << 32 ^ Int64(UInt32(truncatingIfNeeded: y)) }

    /// The cell of `coordinate` in cells of `size`, within ±2³¹ (a key keeps 32 bits of it): a picture read back from
    /// the database may hold places of any size, and a coordinate past `Int`'s range, or not a
    /// number, would stop the process; such places share cells, which costs time, not answers.
    private static func cell(_ coordinate: Double, size: Double) -> Int {
        let cell = (coordinate / size).rounded(.down)
        guard !cell.isNaN else { return 0 }
        return Int(min(max(cell, -2_147_483_648), 2_147_483_647))
    }

    private static func hash(_ key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 20)
    }

    /// Replaces `slots` with the slots of the occupied cells among the 3 × 3 around `p`.
    func neighbourSlots(of p: Point, into slots: inout [Int]) {
        let cx = Self.cell(p.x, size: cellSize)
        let cy = Self.cell(p.y, size: cellSize)
        slots.removeAll(keepingCapacity: true)
        for dy in -1...1 {
            for dx in -1...1 {
                let key = Self.key(cx + dx, cy + dy)
                var slot = Self.hash(key) & mask
                while keys[slot] != Self.empty {
                    if keys[slot] == key {
                        slots.append(slot)
                        break
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
    }
}
