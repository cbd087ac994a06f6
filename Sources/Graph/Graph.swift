/// An undirected simple graph in compressed sparse row form, built from an edge list with
/// arbitrary node ids. Self-loops and repeated edges are dropped (and counted).
public struct Graph<ID: Hashable & Sendable>: Sendable {
    /// Node ids, in order of first appearance (nodes given without edges first).
    public let ids: [ID]
    /// `neighbours[offsets[v]..<offsets[v + 1]]` are the neighbours of node `v`, sorted.
    public let offsets: [Int]
    public let neighbours: [Int]
    /// Input edges that were self-loops or repeats, and so left out.
    public let droppedSelfLoops: Int
    public let droppedDuplicates: Int

    public init(nodes: [ID] = [], edges: [(ID, ID)]) {
        var index: [ID: Int] = [:]
        var ids: [ID] = []
        func intern(_ id: ID) -> Int {
            if let existing = index[id] { return existing }
            index[id] = ids.count
            ids.append(id)
            return ids.count - 1
        }
        nodes.forEach { _ = intern($0) }
        var pairs: [(Int, Int)] = []
        pairs.reserveCapacity(edges.count)
        var selfLoops = 0
        for (a, b) in edges {
            let u = intern(a), v = intern(b)
            if u == v { selfLoops += 1 } else { pairs.append((min(u, v), max(u, v))) }
        }
        pairs.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var unique: [(Int, Int)] = []
        unique.reserveCapacity(pairs.count)
        for pair in pairs where unique.last.map({ $0 != pair }) ?? true { unique.append(pair) }

        var degree = [Int](repeating: 0, count: ids.count)
        for (u, v) in unique { degree[u] += 1; degree[v] += 1 }
        var offsets = [Int](repeating: 0, count: ids.count + 1)
        for v in 0..<ids.count { offsets[v + 1] = offsets[v] + degree[v] }
        var cursor = Array(offsets.dropLast())
        var neighbours = [Int](repeating: 0, count: offsets[ids.count])
        for (u, v) in unique {
            neighbours[cursor[u]] = v; cursor[u] += 1
            neighbours[cursor[v]] = u; cursor[v] += 1
        }
        for v in 0..<ids.count { neighbours[offsets[v]..<offsets[v + 1]].sort() }

        self.ids = ids
        self.offsets = offsets
        self.neighbours = neighbours
        droppedSelfLoops = selfLoops
        droppedDuplicates = pairs.count - unique.count
    }

    public var nodeCount: Int { ids.count }
    public var edgeCount: Int { neighbours.count / 2 }

    public func degree(of node: Int) -> Int { offsets[node + 1] - offsets[node] }

    public func neighbours(of node: Int) -> ArraySlice<Int> { neighbours[offsets[node]..<offsets[node + 1]] }

    /// Each undirected edge once, as node indices with the smaller first.
    public var edgeList: [(Int, Int)] {
        (0..<nodeCount).flatMap { u in neighbours(of: u).filter { $0 > u }.map { (u, $0) } }
    }
}
