/// An undirected simple graph in compressed sparse row form, built from an edge list with
/// arbitrary node ids. Self-loops and repeated edges are dropped (and counted).
public struct Graph<ID: Hashable & Sendable>: Sendable {
    /// Node ids, in order of first appearance (nodes given without edges first).
    public let ids: [ID]
    /// `neighbours[offsets[v]..<offsets[v + 1]]` are the neighbours of node `v`, sorted.
    public let offsets: [Int]
    public let neighbours: [Int32]
    /// Input edges that were self-loops or repeats, and so left out.
    public let droppedSelfLoops: Int
    public let droppedDuplicates: Int

    public init(nodes: [ID] = [], edges: [(ID, ID)]) {
        var index: [ID: Int32] = [:]
        index.reserveCapacity(nodes.count + edges.count / 4)
        var ids: [ID] = []
        func intern(_ id: ID) -> Int32 {
            if let existing = index[id] { return existing }
            let next = Int32(ids.count)
            index[id] = next
            ids.append(id)
            return next
        }
        for node in nodes { _ = intern(node) }
        var sources = [Int32]()
        var targets = [Int32]()
        sources.reserveCapacity(edges.count)
        targets.reserveCapacity(edges.count)
        for (a, b) in edges {
            sources.append(intern(a))
            targets.append(intern(b))
        }
        self.init(ids: ids, sources: sources, targets: targets)
    }

    /// Builds from node indices `0..<ids.count`: both directions are filled, then each
    /// adjacency list is sorted and deduplicated in place (no global sort of the edge list).
    public init(ids: [ID], sources: [Int32], targets: [Int32]) {
        precondition(sources.count == targets.count, "one source per target")
        let n = ids.count
        var degree = [Int](repeating: 0, count: n + 1)
        var selfLoops = 0
        for i in sources.indices {
            if sources[i] == targets[i] {
                selfLoops += 1
                continue
            }
            degree[Int(sources[i])] += 1
            degree[Int(targets[i])] += 1
        }
        var offsets = [Int](repeating: 0, count: n + 1)
        for v in 0..<n { offsets[v + 1] = offsets[v] + degree[v] }
        var fill = offsets
        var adjacency = [Int32](repeating: 0, count: offsets[n])
        for i in sources.indices where sources[i] != targets[i] {
            let u = Int(sources[i])
            let v = Int(targets[i])
            adjacency[fill[u]] = targets[i]
            fill[u] += 1
            adjacency[fill[v]] = sources[i]
            fill[v] += 1
        }
        // Sort and deduplicate each list, compacting towards the front.
        var compact = [Int](repeating: 0, count: n + 1)
        var write = 0
        adjacency.withUnsafeMutableBufferPointer { list in
            for v in 0..<n {
                let start = offsets[v]
                let end = offsets[v + 1]
                compact[v] = write
                guard start < end else { continue }
                list[start..<end].sort()
                var previous: Int32 = -1
                for k in start..<end where list[k] != previous {
                    previous = list[k]
                    list[write] = previous
                    write += 1
                }
            }
        }
        compact[n] = write
        adjacency.removeLast(adjacency.count - write)
        self.ids = ids
        self.offsets = compact
        self.neighbours = adjacency
        droppedSelfLoops = selfLoops
        droppedDuplicates = (offsets[n] - write) / 2
    }

    /// Wraps arrays that already form a valid CSR (sorted, deduplicated, symmetric).
    init(ids: [ID], offsetsAndNeighbours: ([Int], [Int32])) {
        self.ids = ids
        offsets = offsetsAndNeighbours.0
        neighbours = offsetsAndNeighbours.1
        droppedSelfLoops = 0
        droppedDuplicates = 0
    }

    public var nodeCount: Int { ids.count }
    public var edgeCount: Int { neighbours.count / 2 }

    public func degree(of node: Int) -> Int { offsets[node + 1] - offsets[node] }

    public func neighbours(of node: Int) -> ArraySlice<Int32> { neighbours[offsets[node]..<offsets[node + 1]] }

    /// Each undirected edge once, as node indices with the smaller first.
    public var edgeList: [(Int, Int)] {
        var edges: [(Int, Int)] = []
        edges.reserveCapacity(edgeCount)
        for u in 0..<nodeCount {
            for v in neighbours(of: u) where Int(v) > u { edges.append((u, Int(v))) }
        }
        return edges
    }
}
