import Foundation

/// Average shortest path and diameter, over pairs of nodes that reach each other.
public enum Distances {
    /// Graphs up to this many nodes get exact all-pairs answers; larger ones are sampled.
    public static let exactThreshold = SourceSample.exactThreshold
    /// Sources for the sampled estimate.
    public static let sampleSize = SourceSample.sampleSize

    public struct Result: Sendable {
        public let averageShortestPath: Estimate
        public let diameter: Estimate
    }

    public static func compute<ID>(_ graph: Graph<ID>, seed: UInt64 = 1) -> Result {
        let sample = SourceSample(nodeCount: graph.nodeCount, seed: seed)
        let sources = sample.sources
        let found = parallelChunks(sources.count, minimumChunk: 8) { range -> [SourceDistances] in
            var search = BreadthFirstSearch(nodeCount: graph.nodeCount)
            return range.map { index in
                search.run(graph, from: sources[index])
                return SourceDistances(sum: search.distanceSum, reached: search.reached, eccentricity: search.eccentricity)
            }
        }.flatMap { $0 }
        return summarize(graph, sample: sample, found: found, seed: seed)
    }

    /// The same, from the searches betweenness has already run from the same sources.
    static func compute<ID>(_ graph: Graph<ID>, seed: UInt64, reusing betweenness: Betweenness.Result) -> Result {
        guard let sample = betweenness.sample, sample.sources.count == betweenness.sourceDistances.count else {
            return compute(graph, seed: seed)
        }
        return summarize(graph, sample: sample, found: betweenness.sourceDistances, seed: seed)
    }

    private static func summarize<ID>(_ graph: Graph<ID>, sample: SourceSample, found: [SourceDistances], seed: UInt64) -> Result {
        guard graph.nodeCount > 1, graph.edgeCount > 0 else { return Result(averageShortestPath: .exact(0), diameter: .exact(0)) }
        let sources = sample.sources
        let pairs = found.reduce(0) { $0 + $1.reached - 1 }
        let total = found.reduce(0) { $0 + $1.sum }
        let largestEccentricity = found.map(\.eccentricity).max() ?? 0
        let mean = pairs == 0 ? 0 : Double(total) / Double(pairs)
        if sample.isExhaustive {
            return Result(averageShortestPath: .exact(mean), diameter: .exact(Double(largestEccentricity)))
        }
        let diameter = exactDiameter(graph, atLeast: largestEccentricity)
        let upperDiameter = diameter.map { $0.value } ?? diameterUpperBound(graph, found: found, sources: sources)
        // Each sampled source's mean distance lies in [1, D]; Hoeffding over k sources at 95%.
        let bound = Double(max(1, upperDiameter - 1)) * (log(2 / 0.05) / (2 * Double(sources.count))).squareRoot()
        let lower = Double(largestEccentricity)
        return Result(
            averageShortestPath: Estimate(
                value: mean, method: "BFS from \(sources.count) sampled sources (seed \(seed)); Hoeffding bound",
                errorBound: bound, confidence: 0.95),
            diameter: diameter.map {
                Estimate(value: Double($0.value), method: "exact (iFUB, \($0.searches) BFS)", errorBound: 0, confidence: 1)
            }
                ?? Estimate(
                    value: (lower + Double(upperDiameter)) / 2,
                    method:
                        "largest sampled eccentricity \(Int(lower)) ≤ diameter ≤ \(upperDiameter) (twice the smallest eccentricity in the largest component)",
                    errorBound: (Double(upperDiameter) - lower) / 2, confidence: 1)
        )
    }

    /// Breadth-first searches the exact diameter may spend before settling for bounds.
    static let diameterBudget = 256

    /// The exact diameter by iFUB (Crescenzi, Grossi, Habib, Lanzi & Marino 2013), component by
    /// component, largest first: BFS from a highest-degree node u, then from the nodes farthest
    /// from u, level by level, until the largest eccentricity found exceeds what any nearer
    /// level could give (twice its distance from u). Real graphs settle in a few dozen searches;
    /// nil if `diameterBudget` searches do not. `atLeast` is a known lower bound.
    package static func exactDiameter<ID>(_ graph: Graph<ID>, atLeast known: Int) -> (value: Int, searches: Int)? {
        let components = Components(graph)
        var start = [Int](repeating: -1, count: components.count)  // a highest-degree node per component
        for v in 0..<graph.nodeCount {
            let c = Int(components.label[v])
            if start[c] < 0 || graph.degree(of: v) > graph.degree(of: start[c]) { start[c] = v }
        }
        var lower = known
        var searches = 0
        var search = BreadthFirstSearch(nodeCount: graph.nodeCount)
        for c in components.sizes.indices.sorted(by: { components.sizes[$0] > components.sizes[$1] }) {
            guard components.sizes[c] - 1 > lower else { break }  // a component's diameter is below its size
            search.run(graph, from: start[c])
            searches += 1
            let fromStart = search.distance
            let byDistance = Array(search.order[0..<search.reached])
            var level = search.eccentricity
            lower = max(lower, level)
            var upper = 2 * level
            // The node farthest from u usually has (nearly) the largest eccentricity: a good lower bound.
            search.run(graph, from: Int(byDistance[byDistance.count - 1]))
            searches += 1
            lower = max(lower, search.eccentricity)
            // Levels beyond lower / 2 are all iFUB may have to search; hopeless if far over budget
            // (expander-like graphs, where nearly every node is far from every other).
            let farNodes = byDistance.count { 2 * Int(fromStart[Int($0)]) > lower }
            guard farNodes <= 4 * diameterBudget || upper <= lower else { return nil }
            var end = byDistance.count  // byDistance[..<end] are the nodes nearer than `level`
            while upper > lower {
                var begin = end
                while begin > 0 && fromStart[Int(byDistance[begin - 1])] == level { begin -= 1 }
                let fringe = Array(byDistance[begin..<end])
                guard searches + fringe.count <= diameterBudget else { return nil }
                let farthest =
                    parallelChunks(fringe.count, minimumChunk: 4) { range -> Int in
                        var search = BreadthFirstSearch(nodeCount: graph.nodeCount)
                        return range.map {
                            search.run(graph, from: Int(fringe[$0]))
                            return search.eccentricity
                        }.max() ?? 0
                    }.max() ?? 0
                searches += fringe.count
                lower = max(lower, farthest)
                if lower > 2 * (level - 1) { break }
                upper = 2 * (level - 1)
                end = begin
                level -= 1
            }
        }
        return (lower, searches)
    }

    /// Within a component every eccentricity is at least half the component's diameter, so
    /// twice the smallest sampled eccentricity bounds it; other components are bounded by their size.
    private static func diameterUpperBound<ID>(_ graph: Graph<ID>, found: [SourceDistances], sources: [Int]) -> Int {
        let components = Components(graph)
        var smallest: [Int32: Int] = [:]
        for (index, source) in sources.enumerated() {
            let label = components.label[source]
            smallest[label] = min(smallest[label] ?? .max, found[index].eccentricity)
        }
        var bound = 0
        for (label, size) in components.sizes.enumerated() where size > 1 {
            bound = max(bound, smallest[Int32(label)].map { 2 * $0 } ?? (size - 1))
        }
        return bound
    }
}
