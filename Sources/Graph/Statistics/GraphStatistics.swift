/// Network statistics of a graph: exact where cheap; where estimated, each says how and how far off.
public struct GraphStatistics: Codable, Sendable {
    public struct Degrees: Codable, Sendable {
        public let max: Int
        public let mean: Double
        /// `histogram[d]` nodes have degree d.
        public let histogram: [Int]
    }

    public struct ComponentSummary: Codable, Sendable {
        public let count: Int
        public let largest: Int
    }

    public struct CommunitySummary: Codable, Sendable {
        public let count: Int
        public let modularity: Double
        /// Community sizes, largest first.
        public let sizes: [Int]
        public let method: String
    }

    public struct Ranked: Codable, Sendable, Equatable {
        public let id: String
        public let value: Double
    }

    public struct BetweennessSummary: Codable, Sendable {
        public let top: [Ranked]
        public let method: String
        public let errorBound: Double
        public let confidence: Double
    }

    public struct Meta: Codable, Sendable {
        public let droppedSelfLoops: Int
        public let droppedDuplicates: Int
        public let seed: UInt64
        public let averageClusteringConvention: String
        /// Seconds spent on each part.
        public let seconds: [String: Double]
    }

    public let nodes: Int
    public let edges: Int
    public let density: Double
    public let degree: Degrees
    public let components: ComponentSummary
    public let triangles: Int
    public let transitivity: Double
    public let averageClustering: Double
    public let maxCore: Int
    public let diameter: Estimate
    public let averageShortestPath: Estimate
    public let topDegree: [Ranked]
    public let betweenness: BetweennessSummary
    public let communities: CommunitySummary
    public let meta: Meta

    /// Computes everything; `top` is how many nodes the rankings list.
    public init<ID>(_ graph: Graph<ID>, seed: UInt64 = 1, top: Int = 10) {
        var seconds: [String: Double] = [:]
        let clock = ContinuousClock()
        func timed<T>(_ name: String, _ work: () -> T) -> T {
            let start = clock.now
            let value = work()
            let elapsed = clock.now - start
            seconds[name] = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            return value
        }
        let n = graph.nodeCount
        let m = graph.edgeCount
        nodes = n
        edges = m
        density = n < 2 ? 0 : 2 * Double(m) / (Double(n) * Double(n - 1))
        let degrees = (0..<n).map(graph.degree(of:))
        var histogram = [Int](repeating: 0, count: (degrees.max() ?? 0) + 1)
        for d in degrees { histogram[d] += 1 }
        degree = Degrees(max: degrees.max() ?? 0, mean: n == 0 ? 0 : 2 * Double(m) / Double(n), histogram: n == 0 ? [] : histogram)

        let found = timed("components") { Components(graph) }
        components = ComponentSummary(count: found.count, largest: found.largest)
        let triangleCounts = timed("clustering") { Triangles(graph) }
        triangles = triangleCounts.total
        transitivity = triangleCounts.transitivity(graph)
        averageClustering = triangleCounts.averageClustering(graph)
        maxCore = timed("cores") { CoreNumbers.compute(graph).max() ?? 0 }
        // One sweep of searches (Brandes') serves betweenness and distances alike.
        let between = timed("betweenness") { Betweenness.compute(graph, seed: seed) }
        let distances = timed("distances") { Distances.compute(graph, seed: seed, reusing: between) }
        diameter = distances.diameter
        averageShortestPath = distances.averageShortestPath

        func ranked(_ values: [Double]) -> [Ranked] {
            (0..<n).sorted { (values[$0], $1) > (values[$1], $0) }.prefix(top).map { Ranked(id: "\(graph.ids[$0])", value: values[$0]) }
        }
        topDegree = ranked(degrees.map(Double.init))
        betweenness = BetweennessSummary(
            top: ranked(between.values), method: between.method, errorBound: between.errorBound,
            confidence: between.confidence)
        let detected = timed("communities") { Communities.detect(graph, seed: seed) }
        communities = CommunitySummary(
            count: detected.count, modularity: detected.modularity, sizes: detected.sizes,
            method: "Leiden (modularity, resolution 1, seed \(seed))")
        meta = Meta(
            droppedSelfLoops: graph.droppedSelfLoops, droppedDuplicates: graph.droppedDuplicates, seed: seed,
            averageClusteringConvention: "mean over all nodes; nodes of degree < 2 count as 0 (as networkx)",
            seconds: seconds)
    }
}
