/// Triangles through each node. Dense graphs (average degree above the adjacency matrix's row
/// length in 64-bit words) intersect bit rows of the adjacency matrix; the others use the forward
/// algorithm (edges oriented from lower to higher degree rank), which bounds the work by O(m^1.5).
public struct Triangles: Sendable {
    /// Triangles each node belongs to.
    public let perNode: [Int]
    /// Triangles in the graph.
    public let total: Int

    public init<ID>(_ graph: Graph<ID>) {
        let n = graph.nodeCount
        let words = (n + 63) / 64
        perNode = n <= 16_384 && words * n < 2 * graph.edgeCount ? Self.byBitRows(graph) : Self.forward(graph)
        total = perNode.reduce(0, +) / 3
    }

    /// t(v) = ½ Σ_{u ∈ N(v)} |N(u) ∩ N(v)|, each intersection a popcount over two bit rows.
    private static func byBitRows<ID>(_ graph: Graph<ID>) -> [Int] {
        let n = graph.nodeCount
        let words = (n + 63) / 64
        var bits = [UInt64](repeating: 0, count: n * words)
        for v in 0..<n {
            for u in graph.neighbours(of: v) { bits[v * words + Int(u) / 64] |= 1 << UInt64(u % 64) }
        }
        let rows = bits
        let counts = parallelChunks(n, minimumChunk: 64) { range -> [Int] in
            rows.withUnsafeBufferPointer { rows in
                range.map { v in
                    var shared = 0
                    for u in graph.neighbours(of: v) {
                        let a = v * words
                        let b = Int(u) * words
                        for w in 0..<words { shared &+= (rows[a + w] & rows[b + w]).nonzeroBitCount }
                    }
                    return shared / 2
                }
            }
        }
        return Array(counts.joined())
    }

    private static func forward<ID>(_ graph: Graph<ID>) -> [Int] {
        let n = graph.nodeCount
        // Rank by (degree, index); keep for each node only its higher-ranked neighbours.
        let order = (0..<n).sorted { (graph.degree(of: $0), $0) < (graph.degree(of: $1), $1) }
        var rank = [Int32](repeating: 0, count: n)
        for (position, node) in order.enumerated() { rank[node] = Int32(position) }
        var forwardOffsets = [Int](repeating: 0, count: n + 1)
        for u in 0..<n {
            forwardOffsets[u + 1] = forwardOffsets[u] + graph.neighbours(of: u).count { rank[Int($0)] > rank[u] }
        }
        var forward = [Int32](repeating: 0, count: forwardOffsets[n])
        for u in 0..<n {
            var k = forwardOffsets[u]
            for v in graph.neighbours(of: u) where rank[Int(v)] > rank[u] {
                forward[k] = v
                k += 1
            }
        }
        let (offsets, targets) = (forwardOffsets, forward)
        let counts = parallelChunks(n, minimumChunk: 512) { range -> [Int] in
            var local = [Int](repeating: 0, count: n)
            var mark = [Int32](repeating: -1, count: n)
            for u in range {
                let uStart = offsets[u]
                let uEnd = offsets[u + 1]
                for k in uStart..<uEnd { mark[Int(targets[k])] = Int32(u) }
                for k in uStart..<uEnd {
                    let v = Int(targets[k])
                    for j in offsets[v]..<offsets[v + 1] {
                        let w = Int(targets[j])
                        if mark[w] == Int32(u) {
                            local[u] += 1
                            local[v] += 1
                            local[w] += 1
                        }
                    }
                }
            }
            return local
        }
        var perNode = counts[0]
        for partial in counts.dropFirst() { for i in 0..<n { perNode[i] += partial[i] } }
        return perNode
    }

    /// 3 × triangles / connected triples (the global clustering coefficient).
    public func transitivity<ID>(_ graph: Graph<ID>) -> Double {
        var triples = 0
        for v in 0..<graph.nodeCount {
            let d = graph.degree(of: v)
            triples += d * (d - 1) / 2
        }
        return triples == 0 ? 0 : Double(3 * total) / Double(triples)
    }

    /// Mean local clustering over all nodes, nodes of degree < 2 counting as 0 (networkx's convention).
    public func averageClustering<ID>(_ graph: Graph<ID>) -> Double {
        guard graph.nodeCount > 0 else { return 0 }
        var sum = 0.0
        for v in 0..<graph.nodeCount {
            let d = graph.degree(of: v)
            if d >= 2 { sum += 2 * Double(perNode[v]) / Double(d * (d - 1)) }
        }
        return sum / Double(graph.nodeCount)
    }
}
