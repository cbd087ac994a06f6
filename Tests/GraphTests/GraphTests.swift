import Graph
import Testing

@Suite struct GraphTests {
    @Test func buildsCSRAndDropsLoopsAndRepeats() {
        let graph = Graph(nodes: ["lonely"], edges: [("a", "b"), ("b", "a"), ("b", "c"), ("c", "c"), ("a", "b")])
        #expect(graph.ids == ["lonely", "a", "b", "c"])
        #expect(graph.nodeCount == 4)
        #expect(graph.edgeCount == 2)
        #expect(graph.droppedSelfLoops == 1)
        #expect(graph.droppedDuplicates == 2)
        #expect(Array(graph.neighbours(of: 2)) == [1, 3] as [Int32])
        #expect(graph.degree(of: 0) == 0)
        #expect(graph.edgeList.map { [$0.0, $0.1] } == [[1, 2], [2, 3]])
    }

    /// The largest component need not have the largest diameter: a 10-node path beside a 60-node clique.
    @Test func iFUBLooksInEveryComponentThatCouldBeWider() throws {
        var edges = (0..<9).map { ("p\($0)", "p\($0 + 1)") }
        for i in 0..<60 { for j in (i + 1)..<60 { edges.append(("c\(i)", "c\(j)")) } }
        let graph = Graph(edges: edges)
        #expect(try #require(Distances.exactDiameter(graph, atLeast: 0)).value == 9)
        #expect(try #require(Distances.exactDiameter(graph, atLeast: 1)).value == 9)
    }

    /// Above the all-pairs threshold the diameter comes from iFUB and says so; the average stays sampled.
    @Test func largeGraphsGetAnExactDiameter() {
        // A star of 6,000 leaves with a 10-edge tail: diameter 11 (a leaf to the tail's end).
        var edges = (1...6_000).map { (0, $0) }
        edges += (0..<10).map { ($0 == 0 ? 0 : 10_000 + $0, 10_001 + $0) }
        let distances = Distances.compute(Graph(edges: edges))
        #expect(distances.diameter.value == 11)
        #expect(distances.diameter.errorBound == 0)
        #expect(distances.diameter.method.hasPrefix("exact (iFUB"))
        #expect(distances.averageShortestPath.method.contains("sampled"))
    }

    /// A thread's own limit on graph work's threads (the server's background thread: 1) holds
    /// within its body, nested limits within theirs, and the process's limit afterwards.
    @Test func aThreadsLimitOnThisThreadHoldsForItsBodyOnly() {
        let outside = GraphThreads.count
        let inside = GraphThreads.onThisThread(limitedTo: 1) {
            (GraphThreads.count, GraphThreads.onThisThread(limitedTo: 3) { GraphThreads.count }, GraphThreads.count)
        }
        #expect(inside == (1, 3, 1))
        #expect(GraphThreads.count == outside)
    }
}
