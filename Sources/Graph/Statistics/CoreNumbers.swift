/// k-core decomposition (Batagelj & Zaversnik 2003): each node's core number in O(m).
public enum CoreNumbers {
    public static func compute<ID>(_ graph: Graph<ID>) -> [Int] {
        let n = graph.nodeCount
        guard n > 0 else { return [] }
        var degree = (0..<n).map(graph.degree(of:))
        let maxDegree = degree.max()!
        var binStart = [Int](repeating: 0, count: maxDegree + 2)
        for d in degree { binStart[d + 1] += 1 }
        for d in 0...maxDegree { binStart[d + 1] += binStart[d] }
        var position = [Int](repeating: 0, count: n)
        var ordered = [Int](repeating: 0, count: n)
        var next = binStart
        for v in 0..<n {
            position[v] = next[degree[v]]
            ordered[position[v]] = v
            next[degree[v]] += 1
        }
        for i in 0..<n {
            let v = ordered[i]
            for w32 in graph.neighbours(of: v) {
                let w = Int(w32)
                guard degree[w] > degree[v] else { continue }
                // Move w to the front of its bin, then shrink its degree by one.
                let dw = degree[w]
                let front = binStart[dw]
                let u = ordered[front]
                if u != w {
                    ordered[position[w]] = u
                    position[u] = position[w]
                    ordered[front] = w
                    position[w] = front
                }
                binStart[dw] += 1
                degree[w] -= 1
            }
        }
        return degree
    }
}
