import Foundation
import Graph
import Testing

@Suite struct ConstellationLayoutTests {
    static func fixture(_ name: String) throws -> Graph<String> {
        let text = try String(contentsOf: StatisticsOracleTests.fixtures.appendingPathComponent("\(name).edges"), encoding: .utf8)
        return try EdgeListParser.parse(text, format: .edgeList).graph
    }

    func randomLayout(_ n: Int) -> [Point] {
        var random = SplitMix64(seed: 99)
        return (0..<n).map { _ in Point(x: .random(in: -1...1, using: &random), y: .random(in: -1...1, using: &random)) }
    }

    @Test func sameSeedSamePictureOtherSeedOther() throws {
        let graph = try Self.fixture("lesmis")
        #expect(ConstellationLayout(seed: 5).positions(for: graph) == ConstellationLayout(seed: 5).positions(for: graph))
        #expect(ConstellationLayout(seed: 5).positions(for: graph) != ConstellationLayout(seed: 6).positions(for: graph))
    }

    @Test func positionsFillTheStatedBox() throws {
        let points = ConstellationLayout().positions(for: try Self.fixture("ht09"))
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        #expect(points.allSatisfy { abs($0.x) <= 1 + 1e-9 && abs($0.y) <= 1 + 1e-9 })
        #expect(abs(max(xs.max()! - xs.min()!, ys.max()! - ys.min()!) - 2) < 1e-9)
    }

    @Test(arguments: ["karate", "lesmis", "ht09", "sfhh09"])
    func beatsARandomPictureOnEveryMeasure(name: String) throws {
        let graph = try Self.fixture(name)
        let ours = ConstellationLayout().positions(for: graph)
        let random = randomLayout(graph.nodeCount)
        // Dense contact graphs (ht09: density 0.35) leave less room to beat chance, hence the modest factors.
        #expect(LayoutQuality.stress(graph, ours) < 0.8 * LayoutQuality.stress(graph, random))
        #expect(LayoutQuality.neighbourhoodPreservation(graph, ours) > 1.3 * LayoutQuality.neighbourhoodPreservation(graph, random))
    }

    /// The bar on ego-Facebook: stress at most sfdp's (0.167), neighbourhood preservation at least ForceAtlas2's (0.32).
    @Test func facebookMeetsTheQualityBar() throws {
        let graph = try Self.fixture("facebook")
        let points = ConstellationLayout().positions(for: graph)
        #expect(LayoutQuality.stress(graph, points) <= 0.167)
        #expect(LayoutQuality.neighbourhoodPreservation(graph, points) >= 0.32)
    }

    @Test func communitiesStayApart() throws {
        // Four dense blocks of 30 joined by a few edges: nearest neighbours should share a block.
        var edges: [(Int, Int)] = []
        var random = SplitMix64(seed: 3)
        for block in 0..<4 {
            for _ in 0..<200 {
                edges.append((block * 30 + Int.random(in: 0..<30, using: &random), block * 30 + Int.random(in: 0..<30, using: &random)))
            }
        }
        for _ in 0..<12 { edges.append((Int.random(in: 0..<120, using: &random), Int.random(in: 0..<120, using: &random))) }
        let graph = Graph(edges: edges)
        let points = ConstellationLayout().positions(for: graph)
        let blocks = graph.ids.map { Int32($0 / 30) }
        #expect(LayoutQuality.communityPurity(points, communities: blocks) > 0.9)
    }

    @Test func componentsArePackedSideBySide() {
        let graph = Graph(edges: [(0, 1), (1, 2), (2, 0), (10, 11), (11, 12), (12, 10), (20, 21)])
        let result = ConstellationLayout().layout(graph)
        let points = result.positions
        func box(_ ids: [Int]) -> (Double, Double, Double, Double) {
            let ps = ids.map { points[graph.ids.firstIndex(of: $0)!] }
            return (ps.map(\.x).min()!, ps.map(\.y).min()!, ps.map(\.x).max()!, ps.map(\.y).max()!)
        }
        let a = box([0, 1, 2])
        let b = box([10, 11, 12])
        let overlap = a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
        #expect(!overlap)
        // Different components never share a community.
        #expect(result.communities[0] != result.communities[graph.ids.firstIndex(of: 10)!])
    }

    @Test func tinyGraphs() {
        #expect(ConstellationLayout().positions(for: Graph<Int>(edges: [])).isEmpty)
        #expect(ConstellationLayout().positions(for: Graph(nodes: [1], edges: [])) == [Point(x: 0, y: 0)])
        let pair = ConstellationLayout().positions(for: Graph(edges: [(1, 2)]))
        #expect(pair.count == 2 && pair[0] != pair[1])
    }

    /// Stability (docs/graph-engine.md, "How a picture is measured"): add 1% new edges (some to new
    /// nodes), lay out warm; old nodes move a median of at most 5% of the picture's size, where a
    /// cold re-layout moves them far more.
    @Test func warmStartKeepsThePicture() throws {
        let base = try Self.fixture("sfhh09")
        let first = ConstellationLayout().positions(for: base)
        var random = SplitMix64(seed: 11)
        var edges = base.edgeList.map { (base.ids[$0.0], base.ids[$0.1]) }
        let added = edges.count / 100
        for index in 0..<added {
            let u = base.ids[Int.random(in: 0..<base.nodeCount, using: &random)]
            let v = index % 4 == 0 ? "new-\(index)" : base.ids[Int.random(in: 0..<base.nodeCount, using: &random)]
            edges.append((u, v))
        }
        let grown = Graph(edges: edges)
        let previous = Dictionary(uniqueKeysWithValues: base.ids.enumerated().map { ($1, first[$0]) })
        let warm = ConstellationLayout().positions(for: grown, warmStart: grown.ids.map { previous[$0] })
        let cold = ConstellationLayout(seed: 2).positions(for: grown)
        func medianDisplacement(_ points: [Point]) -> Double {
            let moves = grown.ids.enumerated().compactMap { index, id in
                previous[id].map {
                    ((points[index].x - $0.x) * (points[index].x - $0.x) + (points[index].y - $0.y) * (points[index].y - $0.y)).squareRoot()
                }
            }.sorted()
            return moves[moves.count / 2] / (2 * 2.squareRoot())  // over the diagonal of the [-1, 1]² box
        }
        #expect(medianDisplacement(warm) <= 0.05)
        #expect(medianDisplacement(cold) > 0.1)
        #expect(grown.ids.contains("new-0"))
        #expect(warm.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        // It keeps the previous picture's frame: grown by a tenth, it outgrows [-1, 1]² a little, if at all.
        let farthest = warm.reduce(0) { max($0, abs($1.x), abs($1.y)) }
        #expect(farthest > 0.9 && farthest < 1.5, "the frame kept: \(farthest)")
    }

    /// A picture laid out afresh (a burst: fewer than half the people placed) is turned onto the
    /// previous one, and keeps its size even where the two match poorly: the scale follows the
    /// spread of the people in both. (A least-squares scale shrank such a picture to a fifth or
    /// less, so that everyone seemed to move five times the side.)
    @Test func aFreshPictureAlignedOntoAPoorMatchKeepsItsSize() throws {
        let graph = try Self.fixture("sfhh09")
        // A third of the people placed, at random: a previous picture the fresh one cannot match.
        let scattered = randomLayout(graph.nodeCount)
        let previous = graph.ids.indices.map { $0 % 3 == 0 ? scattered[$0] : nil }
        let growth = ConstellationLayout().grow(
            graph, from: previous, communities: Communities.detect(graph).membership, mayLayOutAfresh: false)
        #expect(growth.laidOutAfresh)
        func spread(_ points: [Point?]) -> Double {
            let placed = graph.ids.indices.compactMap { previous[$0] != nil ? points[$0] : nil }
            let (cx, cy) = (placed.map(\.x).reduce(0, +) / Double(placed.count), placed.map(\.y).reduce(0, +) / Double(placed.count))
            return (placed.map { ($0.x - cx) * ($0.x - cx) + ($0.y - cy) * ($0.y - cy) }.reduce(0, +) / Double(placed.count)).squareRoot()
        }
        let ratio = spread(growth.positions) / spread(previous)
        // Aligned at the same spread, then settled as a grown picture settles: within a few percent.
        #expect(abs(ratio - 1) < 0.05, "the placed people's spread, against the previous picture's: \(ratio)")
    }
}
