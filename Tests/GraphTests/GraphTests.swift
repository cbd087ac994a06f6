import Testing
@testable import Graph

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
}
