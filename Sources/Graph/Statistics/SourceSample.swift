/// The BFS sources of the shortest-path statistics: every node up to `exactThreshold` nodes;
/// above, `sampleSize` nodes drawn with the seed. Distances and betweenness use the same sources,
/// so one sweep of searches serves both.
struct SourceSample: Sendable {
    static let exactThreshold = 5_000
    static let sampleSize = 256

    let sources: [Int]
    /// Whether every node is a source (the statistics are then exact).
    let isExhaustive: Bool

    init(nodeCount n: Int, seed: UInt64) {
        isExhaustive = n <= Self.exactThreshold
        guard !isExhaustive else {
            sources = Array(0..<n)
            return
        }
        var random = SplitMix64(seed: seed)
        var all = Array(0..<n)
        all.shuffle(using: &random)
        sources = Array(all.prefix(Self.sampleSize))
    }
}

/// What one breadth-first search says about the distances from its source.
struct SourceDistances: Sendable {
    /// The sum of hop distances to every node reached.
    var sum = 0
    /// Nodes reached, the source included.
    var reached = 0
    /// The largest distance reached.
    var eccentricity = 0
}
