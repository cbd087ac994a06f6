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

    @Test func emptyAndSingleNodeGraphs() {
        #expect(ForceLayout().positions(for: Graph<Int>(edges: [])).isEmpty)
        #expect(ForceLayout().positions(for: Graph<Int>(nodes: [7], edges: [])) == [Point(x: 0, y: 0)])
    }
}

@Suite struct ForceLayoutTests {
    /// A star with a triangle hanging off it: small enough to reason about.
    let graph = Graph<Int>(edges: [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (5, 6), (6, 7), (7, 5)])

    @Test func sameSeedSamePicture() {
        #expect(ForceLayout(seed: 42).positions(for: graph) == ForceLayout(seed: 42).positions(for: graph))
        #expect(ForceLayout(seed: 42).positions(for: graph) != ForceLayout(seed: 43).positions(for: graph))
    }

    @Test func positionsFillTheUnitBox() {
        let points = ForceLayout().positions(for: graph)
        let xs = points.map(\.x), ys = points.map(\.y)
        #expect(points.allSatisfy { abs($0.x) <= 1 + 1e-9 && abs($0.y) <= 1 + 1e-9 })
        #expect(abs(max(xs.max()! - xs.min()!, ys.max()! - ys.min()!) - 2) < 1e-9)
    }

    @Test func neighboursEndUpCloserThanStrangers() {
        let points = ForceLayout().positions(for: graph)
        func distance(_ a: Int, _ b: Int) -> Double {
            ((points[a].x - points[b].x) * (points[a].x - points[b].x) + (points[a].y - points[b].y) * (points[a].y - points[b].y)).squareRoot()
        }
        let edgeMean = graph.edgeList.map { distance($0.0, $0.1) }.reduce(0, +) / Double(graph.edgeCount)
        var others: [Double] = []
        for a in 0..<8 { for b in (a + 1)..<8 where !graph.neighbours(of: a).contains(Int32(b)) { others.append(distance(a, b)) } }
        #expect(edgeMean < others.reduce(0, +) / Double(others.count))
        // The hub sits nearer the centre than its leaves.
        #expect(distance(0, 5) < distance(1, 6))
    }
}
