import Foundation

/// Betweenness centrality (Brandes 2001), normalised to [0, 1] by (n − 1)(n − 2)/2 as networkx does
/// for undirected graphs. Exact up to `exactThreshold` nodes; above, from sampled sources
/// (Brandes & Pich 2007) with a Hoeffding bound that holds for every node at once.
public enum Betweenness {
    public static let exactThreshold = 5_000
    public static let sampleSize = 512

    public struct Result: Sendable {
        public let values: [Double]
        public let method: String
        /// Every value is within this of the truth, with `confidence`.
        public let errorBound: Double
        public let confidence: Double
    }

    public static func compute<ID>(_ graph: Graph<ID>, seed: UInt64 = 1) -> Result {
        let n = graph.nodeCount
        guard n > 2 else { return Result(values: Array(repeating: 0, count: n), method: "exact", errorBound: 0, confidence: 1) }
        var sampled = Array(0..<n)
        let exact = n <= exactThreshold
        if !exact {
            var random = SplitMix64(seed: seed)
            sampled.shuffle(using: &random)
            sampled = Array(sampled.prefix(sampleSize))
        }
        let sources = sampled
        let partials = parallelChunks(sources.count, minimumChunk: 16) { range -> [Double] in
            var centrality = [Double](repeating: 0, count: n)
            var search = BreadthFirstSearch(nodeCount: n)
            var paths = [Double](repeating: 0, count: n)
            var dependency = [Double](repeating: 0, count: n)
            for index in range {
                let source = sources[index]
                search.run(graph, from: source)
                let order = search.order, distance = search.distance
                for k in 0..<search.reached { paths[Int(order[k])] = 0; dependency[Int(order[k])] = 0 }
                paths[source] = 1
                for k in 0..<search.reached {
                    let u = Int(order[k])
                    for v in graph.neighbours(of: u) where distance[Int(v)] == distance[u] + 1 { paths[Int(v)] += paths[u] }
                }
                for k in stride(from: search.reached - 1, to: 0, by: -1) {
                    let w = Int(order[k])
                    for v in graph.neighbours(of: w) where distance[Int(v)] == distance[w] - 1 {
                        dependency[Int(v)] += paths[Int(v)] / paths[w] * (1 + dependency[w])
                    }
                    centrality[w] += dependency[w]
                }
            }
            return centrality
        }
        var values = partials[0]
        for partial in partials.dropFirst() { for i in 0..<n { values[i] += partial[i] } }
        // Each pair is counted from both ends; scale samples up to all sources.
        let scale = Double(n) / Double(sources.count) / Double((n - 1) * (n - 2))
        for i in 0..<n { values[i] *= scale }
        if exact { return Result(values: values, method: "exact", errorBound: 0, confidence: 1) }
        // Per sampled source, a node's scaled contribution n·δ/((n−1)(n−2)) lies in [0, n/(n−1)]
        // (δ ≤ n − 2); Hoeffding with a union bound over the n nodes, at 95%.
        let range = Double(n) / Double(n - 1)
        let bound = range * (log(2 * Double(n) / 0.05) / (2 * Double(sources.count))).squareRoot()
        return Result(values: values, method: "Brandes–Pich: \(sources.count) sampled sources (seed \(seed)); Hoeffding bound, union over nodes",
                      errorBound: bound, confidence: 0.95)
    }
}
