/// Reusable breadth-first search from one source: hop distances (-1 where unreachable).
struct BreadthFirstSearch {
    private(set) var distance: [Int32]
    private(set) var order: [Int32]
    private(set) var reached = 0

    init(nodeCount: Int) {
        distance = [Int32](repeating: -1, count: nodeCount)
        order = [Int32](repeating: 0, count: nodeCount)
    }

    /// Runs from `source`; afterwards `order[0..<reached]` lists reached nodes by distance.
    mutating func run<ID>(_ graph: Graph<ID>, from source: Int) {
        for k in 0..<reached { distance[Int(order[k])] = -1 }
        distance[source] = 0
        order[0] = Int32(source)
        var head = 0
        var tail = 1
        graph.neighbours.withUnsafeBufferPointer { adjacency in
            graph.offsets.withUnsafeBufferPointer { offsets in
                while head < tail {
                    let u = Int(order[head])
                    head += 1
                    let next = distance[u] + 1
                    for k in offsets[u]..<offsets[u + 1] {
                        let v = Int(adjacency[k])
                        if distance[v] < 0 {
                            distance[v] = next
                            order[tail] = Int32(v)
                            tail += 1
                        }
                    }
                }
            }
        }
        reached = tail
    }

    /// The largest distance reached (the source's eccentricity within its component).
    var eccentricity: Int { reached == 0 ? 0 : Int(distance[Int(order[reached - 1])]) }

    /// The sum of distances to every reached node.
    var distanceSum: Int {
        var sum = 0
        for k in 0..<reached { sum += Int(distance[Int(order[k])]) }
        return sum
    }
}
