import Foundation

/// Betweenness centrality (Brandes 2001), normalised to [0, 1] by (n − 1)(n − 2)/2 as networkx does
/// for undirected graphs. Exact up to `exactThreshold` nodes; above, from sampled sources
/// (Brandes & Pich 2007) with a Hoeffding bound that holds for every node at once.
public enum Betweenness {
    public static let exactThreshold = SourceSample.exactThreshold
    public static let sampleSize = SourceSample.sampleSize

    public struct Result: Sendable {
        public let values: [Double]
        public let method: String
        /// Every value is within this of the truth, with `confidence`.
        public let errorBound: Double
        public let confidence: Double
        /// The sources searched, and what each search found about distances (for `Distances`).
        let sample: SourceSample?
        let sourceDistances: [SourceDistances]
    }

    public static func compute<ID>(_ graph: Graph<ID>, seed: UInt64 = 1) -> Result {
        let n = graph.nodeCount
        guard n > 2 else {
            return Result(
                values: Array(repeating: 0, count: n), method: "exact", errorBound: 0, confidence: 1, sample: nil, sourceDistances: [])
        }
        let sample = SourceSample(nodeCount: n, seed: seed)
        let sources = sample.sources
        let partials = parallelChunks(sources.count, minimumChunk: 16) { range -> ([Double], [SourceDistances]) in
            accumulate(graph, sources: sources[range])
        }
        var values = partials[0].0
        for partial in partials.dropFirst() { for i in 0..<n { values[i] += partial.0[i] } }
        let distances = partials.flatMap(\.1)
        // Each pair is counted from both ends; scale samples up to all sources.
        let scale = Double(n) / Double(sources.count) / Double((n - 1) * (n - 2))
        for i in 0..<n { values[i] *= scale }
        if sample.isExhaustive {
            return Result(values: values, method: "exact", errorBound: 0, confidence: 1, sample: sample, sourceDistances: distances)
        }
        // Per sampled source, a node's scaled contribution n·δ/((n−1)(n−2)) lies in [0, n/(n−1)]
        // (δ ≤ n − 2); Hoeffding with a union bound over the n nodes, at 95%.
        let range = Double(n) / Double(n - 1)
        let bound = range * (log(2 * Double(n) / 0.05) / (2 * Double(sources.count))).squareRoot()
        return Result(
            values: values, method: "Brandes–Pich: \(sources.count) sampled sources (seed \(seed)); Hoeffding bound, union over nodes",
            errorBound: bound, confidence: 0.95, sample: sample, sourceDistances: distances)
    }

    /// Brandes' dependency accumulation from each of `sources`: one BFS that counts shortest
    /// paths, then one backward sweep, on raw buffers (this is the hot loop of the statistics).
    /// Also returns what each search found about distances.
    private static func accumulate<ID>(_ graph: Graph<ID>, sources: ArraySlice<Int>) -> ([Double], [SourceDistances]) {
        let n = graph.nodeCount
        var found: [SourceDistances] = []
        found.reserveCapacity(sources.count)
        var centrality = [Double](repeating: 0, count: n)
        var distance = [Int32](repeating: -1, count: n)
        var paths = [Double](repeating: 0, count: n)
        var dependency = [Double](repeating: 0, count: n)
        var queue = [Int32](repeating: 0, count: n)
        graph.offsets.withUnsafeBufferPointer { offsets in
            graph.neighbours.withUnsafeBufferPointer { adjacency in
                centrality.withUnsafeMutableBufferPointer { centrality in
                    distance.withUnsafeMutableBufferPointer { distance in
                        paths.withUnsafeMutableBufferPointer { paths in
                            dependency.withUnsafeMutableBufferPointer { dependency in
                                queue.withUnsafeMutableBufferPointer { queue in
                                    for source in sources {
                                        distance[source] = 0
                                        paths[source] = 1
                                        queue[0] = Int32(source)
                                        var head = 0
                                        var tail = 1
                                        while head < tail {
                                            let u = Int(queue[head])
                                            head += 1
                                            let next = distance[u] + 1
                                            for k in offsets[u]..<offsets[u + 1] {
                                                let v = Int(adjacency[k])
                                                if distance[v] < 0 {
                                                    distance[v] = next
                                                    queue[tail] = Int32(v)
                                                    tail += 1
                                                }
                                                if distance[v] == next { paths[v] += paths[u] }
                                            }
                                        }
                                        for k in stride(from: tail - 1, to: 0, by: -1) {
                                            let w = Int(queue[k])
                                            let previous = distance[w] - 1
                                            let coefficient = (1 + dependency[w]) / paths[w]
                                            for e in offsets[w]..<offsets[w + 1] {
                                                let v = Int(adjacency[e])
                                                if distance[v] == previous { dependency[v] += paths[v] * coefficient }
                                            }
                                            centrality[w] += dependency[w]
                                        }
                                        var search = SourceDistances(reached: tail, eccentricity: Int(distance[Int(queue[tail - 1])]))
                                        for k in 0..<tail {
                                            let v = Int(queue[k])
                                            search.sum += Int(distance[v])
                                            distance[v] = -1
                                            paths[v] = 0
                                            dependency[v] = 0
                                        }
                                        found.append(search)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return (centrality, found)
    }
}
