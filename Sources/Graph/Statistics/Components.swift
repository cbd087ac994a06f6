/// Connected components by breadth-first search.
public struct Components: Sendable {
    /// The component index of each node; components are numbered in order of their lowest node.
    public let label: [Int32]
    /// Nodes per component.
    public let sizes: [Int]

    public init<ID>(_ graph: Graph<ID>) {
        let n = graph.nodeCount
        var label = [Int32](repeating: -1, count: n)
        var sizes: [Int] = []
        var queue = [Int32](repeating: 0, count: n)
        for start in 0..<n where label[start] < 0 {
            let component = Int32(sizes.count)
            label[start] = component
            queue[0] = Int32(start)
            var head = 0
            var tail = 1
            while head < tail {
                let u = Int(queue[head])
                head += 1
                for v in graph.neighbours(of: u) where label[Int(v)] < 0 {
                    label[Int(v)] = component
                    queue[tail] = v
                    tail += 1
                }
            }
            sizes.append(tail)
        }
        self.label = label
        self.sizes = sizes
    }

    /// The size of `node`'s component.
    public func size(of node: Int) -> Int { sizes[Int(label[node])] }

    public var count: Int { sizes.count }
    public var largest: Int { sizes.max() ?? 0 }
}
