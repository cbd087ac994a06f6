import Foundation

/// The constellation layout: multilevel, with communities as the coarsening.
///
/// Each connected component is coarsened along the aggregation levels of a Leiden run, whose
/// groups never mix communities; the coarsest graph is placed by stress majorization (the global
/// shape), and each finer level starts around its parents' places and is settled by force-directed
/// refinement with LinLog attraction (the local shape, communities kept apart). Components are
/// packed side by side. Deterministic for a seed. Positions are normalised so the larger side of
/// the picture spans [-1, 1], centred.
///
/// A warm start (`ConstellationLayout+WarmStart.swift`) grows an existing picture rather than
/// drawing a new one.
public struct ConstellationLayout: Sendable {
    public var seed: UInt64

    public init(seed: UInt64 = 1) {
        self.seed = seed
    }

    /// Positions, and the community of each node found on the way (numbered across components).
    public struct Result: Sendable {
        public let positions: [Point]
        public let communities: [Int32]
    }

    /// A fresh layout.
    public func layout<ID>(_ graph: Graph<ID>) -> Result {
        let components = Components(graph)
        var groups = [[Int]](repeating: [], count: components.count)
        for (v, label) in components.label.enumerated() { groups[Int(label)].append(v) }
        var random = SplitMix64(seed: seed)
        var pieces: [(nodes: [Int], points: [Point])] = []
        var communities = [Int32](repeating: 0, count: graph.nodeCount)
        var nextCommunity: Int32 = 0
        for nodes in groups {
            let (points, local) = layOut(graph.induced(on: nodes), random: &random)
            pieces.append((nodes, points))
            for (i, v) in nodes.enumerated() { communities[v] = nextCommunity + local[i] }
            nextCommunity += (local.max() ?? -1) + 1
        }
        return Result(positions: ComponentPacking.pack(pieces, nodeCount: graph.nodeCount), communities: communities)
    }

    /// A fresh layout's positions.
    public func positions<ID>(for graph: Graph<ID>) -> [Point] { layout(graph).positions }

    /// One connected component, in units of the ideal edge length, and its communities.
    private func layOut(_ component: Graph<Int>, random: inout SplitMix64) -> ([Point], [Int32]) {
        guard component.nodeCount > 1 else { return ([Point(x: 0, y: 0)], [0]) }
        let hierarchy = LayoutHierarchy(WeightedGraph(component), seed: random.next())
        var levels = hierarchy.levels
        let coarsest = levels.removeLast()
        var points = StressMajorization.layout(coarsest.graph, mass: coarsest.mass, random: &random)
        ForceRefinement(iterations: 60, temperature: 1).refine(coarsest.graph, mass: coarsest.mass, positions: &points)
        // Refinement rounds by size: small graphs settle their coarse levels quickly (more rounds there
        // would trade stress for nothing); large ones need them to keep communities apart.
        let small = component.nodeCount <= 20_000
        let (finest, intermediate) = small ? (30, 10) : (20, 20)
        for depth in levels.indices.reversed() {
            let level = levels[depth]
            let parentMass = depth + 1 < levels.count ? levels[depth + 1].mass : coarsest.mass
            // Children start around their parent, within its radius (√mass / 2).
            var child = [Point](repeating: Point(x: 0, y: 0), count: level.graph.nodeCount)
            for v in 0..<level.graph.nodeCount {
                let parent = Int(level.parent[v])
                let radius = 0.5 * parentMass[parent].squareRoot() * Double.random(in: 0...1, using: &random).squareRoot()
                let angle = Double.random(in: 0..<(2 * .pi), using: &random)
                child[v] = Point(x: points[parent].x + radius * cos(angle), y: points[parent].y + radius * sin(angle))
            }
            points = child
            let typical = level.mass.reduce(0, +) / Double(level.mass.count)
            ForceRefinement(iterations: depth == 0 ? finest : intermediate, temperature: 0.5 * max(1, typical.squareRoot()))
                .refine(level.graph, mass: level.mass, positions: &points)
        }
        return (points, hierarchy.communities)
    }
}

extension Graph {
    /// The subgraph on `nodes` (indices), renumbered in the given order.
    func induced(on nodes: [Int]) -> Graph<Int> {
        if nodes.count == nodeCount && nodes.elementsEqual(0..<nodeCount) {
            return Graph<Int>(ids: Array(0..<nodeCount), offsetsAndNeighbours: (offsets, neighbours))
        }
        var local = [Int32](repeating: -1, count: nodeCount)
        for (i, v) in nodes.enumerated() { local[v] = Int32(i) }
        var sources: [Int32] = []
        var targets: [Int32] = []
        for (i, v) in nodes.enumerated() {
            for u in neighbours(of: v) where local[Int(u)] > Int32(i) {
                sources.append(Int32(i))
                targets.append(local[Int(u)])
            }
        }
        return Graph<Int>(ids: Array(0..<nodes.count), sources: sources, targets: targets)
    }
}
