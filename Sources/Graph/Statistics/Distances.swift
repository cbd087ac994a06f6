import Foundation

/// Average shortest path and diameter, over pairs of nodes that reach each other.
public enum Distances {
    /// Graphs up to this many nodes get exact all-pairs answers; larger ones are sampled.
    public static let exactThreshold = 5_000
    /// Sources for the sampled estimate.
    public static let sampleSize = 256

    public struct Result: Sendable {
        public let averageShortestPath: Estimate
        public let diameter: Estimate
    }

    public static func compute<ID>(_ graph: Graph<ID>, seed: UInt64 = 1) -> Result {
        let n = graph.nodeCount
        guard n > 1, graph.edgeCount > 0 else { return Result(averageShortestPath: .exact(0), diameter: .exact(0)) }
        let exact = n <= exactThreshold
        var sampled = Array(0..<n)
        if !exact {
            var random = SplitMix64(seed: seed)
            sampled.shuffle(using: &random)
            sampled = Array(sampled.prefix(sampleSize))
        }
        let sources = sampled
        // Per source: (sum of distances, pairs reached, eccentricity).
        let partials = parallelChunks(sources.count, minimumChunk: 8) { range -> [(Int, Int, Int)] in
            var search = BreadthFirstSearch(nodeCount: n)
            return range.map { index in
                search.run(graph, from: sources[index])
                return (search.distanceSum, search.reached - 1, search.eccentricity)
            }
        }.flatMap { $0 }
        let pairs = partials.reduce(0) { $0 + $1.1 }
        let total = partials.reduce(0) { $0 + $1.0 }
        let largestEccentricity = partials.map(\.2).max() ?? 0
        let mean = pairs == 0 ? 0 : Double(total) / Double(pairs)
        if exact {
            return Result(averageShortestPath: .exact(mean), diameter: .exact(Double(largestEccentricity)))
        }
        // Each sampled source's mean distance lies in [1, D]; Hoeffding over k sources at 95%.
        let upperDiameter = diameterUpperBound(graph, partials: partials, sources: sources)
        let bound = Double(max(1, upperDiameter - 1)) * (log(2 / 0.05) / (2 * Double(sources.count))).squareRoot()
        let lower = Double(largestEccentricity)
        return Result(
            averageShortestPath: Estimate(value: mean, method: "BFS from \(sources.count) sampled sources (seed \(seed)); Hoeffding bound",
                                          errorBound: bound, confidence: 0.95),
            diameter: Estimate(value: (lower + Double(upperDiameter)) / 2,
                               method: "largest sampled eccentricity \(Int(lower)) ≤ diameter ≤ \(upperDiameter) (twice the smallest eccentricity in the largest component)",
                               errorBound: (Double(upperDiameter) - lower) / 2, confidence: 1)
        )
    }

    /// Within a component every eccentricity is at least half the component's diameter, so
    /// twice the smallest sampled eccentricity bounds it; other components are bounded by their size.
    private static func diameterUpperBound<ID>(_ graph: Graph<ID>, partials: [(Int, Int, Int)], sources: [Int]) -> Int {
        let components = Components(graph)
        var smallest: [Int32: Int] = [:]
        for (index, source) in sources.enumerated() {
            let label = components.label[source]
            smallest[label] = min(smallest[label] ?? .max, partials[index].2)
        }
        var bound = 0
        for (label, size) in components.sizes.enumerated() where size > 1 {
            bound = max(bound, smallest[Int32(label)].map { 2 * $0 } ?? (size - 1))
        }
        return bound
    }
}
