import Foundation
import Graph
import Testing

/// Statistics against fixtures computed independently with networkx (Tools/graph-oracle).
@Suite struct StatisticsOracleTests {
    struct Oracle: Decodable {
        let nodes, edges, components, largestComponent: Int
        let degreeHistogram: [Int]
        let triangles: Int
        let transitivity, averageClustering: Double
        let maxCore: Int
        let diameter: Int?
        let averageShortestPath: Double?
        let betweenness: [String: Double]?
        let louvainModularity: Double
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let names = ["karate", "lesmis", "ht09", "ws16", "sfhh09", "facebook"]

    static func load(_ name: String) throws -> (Graph<String>, Oracle) {
        let text = try String(contentsOf: fixtures.appendingPathComponent("\(name).edges"), encoding: .utf8)
        let graph = try EdgeListParser.parse(text, format: .edgeList).graph
        let oracle = try JSONDecoder().decode(Oracle.self, from: Data(contentsOf: fixtures.appendingPathComponent("\(name).json")))
        return (graph, oracle)
    }

    @Test(arguments: names)
    func exactCountsEqualNetworkx(name: String) throws {
        let (graph, oracle) = try Self.load(name)
        #expect(graph.nodeCount == oracle.nodes)
        #expect(graph.edgeCount == oracle.edges)
        let components = Components(graph)
        #expect(components.count == oracle.components)
        #expect(components.largest == oracle.largestComponent)
        var histogram = [Int](repeating: 0, count: oracle.degreeHistogram.count)
        for v in 0..<graph.nodeCount { histogram[graph.degree(of: v)] += 1 }
        #expect(histogram == oracle.degreeHistogram)
        let triangles = Triangles(graph)
        #expect(triangles.total == oracle.triangles)
        #expect(abs(triangles.transitivity(graph) - oracle.transitivity) < 1e-9)
        #expect(abs(triangles.averageClustering(graph) - oracle.averageClustering) < 1e-9)
        #expect(CoreNumbers.compute(graph).max() == oracle.maxCore)
    }

    @Test(arguments: names)
    func distancesEqualNetworkx(name: String) throws {
        let (graph, oracle) = try Self.load(name)
        let distances = Distances.compute(graph)
        // Every fixture is connected, so networkx gave both: a fixture without them fails here.
        let diameter = try #require(oracle.diameter)
        let average = try #require(oracle.averageShortestPath)
        #expect(distances.diameter == .exact(Double(diameter)))
        #expect(distances.averageShortestPath.method == "exact")
        #expect(abs(distances.averageShortestPath.value - average) < 1e-9)
    }

    /// iFUB (used above the all-pairs threshold) must find networkx's exact diameter, from no hint.
    @Test(arguments: names)
    func iFUBDiameterEqualsNetworkx(name: String) throws {
        let (graph, oracle) = try Self.load(name)
        let diameter = try #require(oracle.diameter)
        let found = try #require(Distances.exactDiameter(graph, atLeast: 0))
        #expect(found.value == diameter)
        #expect(found.searches < graph.nodeCount)
    }

    @Test(arguments: names.filter { $0 != "facebook" })
    func betweennessEqualsNetworkx(name: String) throws {
        let (graph, oracle) = try Self.load(name)
        let values = Betweenness.compute(graph).values
        let expected = try #require(oracle.betweenness)
        for (id, value) in expected {
            let index = try #require(graph.ids.firstIndex(of: id))
            #expect(abs(values[index] - value) < 1e-9, "\(name) node \(id)")
        }
    }

    @Test(arguments: names)
    func leidenModularityMatchesOrBeatsLouvain(name: String) throws {
        let (graph, oracle) = try Self.load(name)
        let communities = Communities.detect(graph, seed: 1)
        #expect(
            communities.modularity >= oracle.louvainModularity - 0.005,
            "\(name): \(communities.modularity) vs networkx \(oracle.louvainModularity)")
        #expect(communities.sizes.reduce(0, +) == graph.nodeCount)
        // Leiden guarantees connected communities.
        for community in 0..<communities.count {
            let members = (0..<graph.nodeCount).filter { communities.membership[$0] == Int32(community) }
            let inside = Set(members)
            var seen: Set<Int> = [members[0]]
            var stack = [members[0]]
            while let u = stack.popLast() {
                for v in graph.neighbours(of: u).map(Int.init) where inside.contains(v) && !seen.contains(v) {
                    seen.insert(v)
                    stack.append(v)
                }
            }
            #expect(seen.count == members.count, "\(name) community \(community) is disconnected")
        }
    }

    /// After 1% growth (some edges to new nodes), communities started from the earlier partition
    /// keep it for the nodes that were there, and are as good as a search from scratch.
    @Test(arguments: ["sfhh09", "facebook"])
    func communitiesStartedFromAnEarlierPartitionKeepIt(name: String) throws {
        let (base, _) = try Self.load(name)
        let before = Communities.detect(base, seed: 1)
        var random = SplitMix64(seed: 11)
        var edges = base.edgeList.map { (base.ids[$0.0], base.ids[$0.1]) }
        for index in 0..<edges.count / 100 {
            let u = base.ids[Int.random(in: 0..<base.nodeCount, using: &random)]
            edges.append((u, index % 4 == 0 ? "new-\(index)" : base.ids[Int.random(in: 0..<base.nodeCount, using: &random)]))
        }
        let grown = Graph(edges: edges)
        let earlier = Dictionary(uniqueKeysWithValues: base.ids.enumerated().map { ($1, Int(before.membership[$0])) })
        let warm = Communities.detect(grown, seed: 1, startingFrom: grown.ids.map { earlier[$0] })
        let fresh = Communities.detect(grown, seed: 1)
        #expect(warm.membership.count == grown.nodeCount && warm.sizes.reduce(0, +) == grown.nodeCount)
        #expect(
            warm.modularity >= fresh.modularity - 0.01, "\(name): \(warm.modularity) from the earlier partition, \(fresh.modularity) afresh"
        )
        // Old nodes that were together (a sample of pairs) are still together.
        let groups = Dictionary(grouping: grown.ids.indices.filter { earlier[grown.ids[$0]] != nil }) { earlier[grown.ids[$0]]! }.values
            .map(Array.init)
        var kept = 0
        for _ in 0..<10_000 {
            let group = groups.randomElement(using: &random)!
            let u = group.randomElement(using: &random)!
            let v = group.randomElement(using: &random)!
            kept += warm.membership[u] == warm.membership[v] ? 1 : 0
        }
        #expect(kept > 9_000, "\(name): \(kept) of 10,000 pairs that were together still are")
    }

    @Test func sameSeedSameCommunities() throws {
        let (graph, _) = try Self.load("sfhh09")
        #expect(Communities.detect(graph, seed: 7).membership == Communities.detect(graph, seed: 7).membership)
    }
}
