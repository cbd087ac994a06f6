import ConstellationModel
import Graph

/// A laid-out graph in the JSON shape any renderer can draw:
/// `{"nodes":[{"id","x","y","community","degree"}],"edges":[{"source","target"}],"meta":{…}}`.
public struct LayoutDocument: Codable, Sendable {
    public struct Node: Codable, Sendable, Equatable {
        public let id: String
        public let label: String?
        public let x: Double
        public let y: Double
        public let community: Int?
        public let degree: Int

        public init(id: String, label: String? = nil, x: Double, y: Double, community: Int?, degree: Int) {
            self.id = id
            self.label = label
            self.x = x
            self.y = y
            self.community = community
            self.degree = degree
        }
    }

    public struct Edge: Codable, Sendable, Equatable {
        public let source: String
        public let target: String
        /// When the edge appeared (an `xsd:dateTime`, e.g. `2026-11-21T21:33:47Z`): GEXF makes the
        /// graph dynamic with it, so Gephi's timeline replays how the graph grew.
        public let start: String?

        public init(source: String, target: String, start: String? = nil) {
            self.source = source
            self.target = target
            self.start = start
        }
    }

    public struct Meta: Codable, Sendable {
        public var layout = "constellation (multilevel: Leiden coarsening, stress majorization, force refinement)"
        public var seed: UInt64
        /// The box the positions lie in.
        public var box: Box
        public var nodes: Int
        public var edges: Int
        public var droppedSelfLoops: Int
        public var droppedDuplicates: Int
        public var warmStart: Bool
        public var seconds: Double
    }

    public var nodes: [Node]
    public var edges: [Edge]
    public var meta: Meta
    /// Whether its edges say when they appeared (an event's network): CSV then has a `first_at`
    /// column and GEXF is dynamic, also while there is no edge yet. Not part of the JSON.
    public var timed = false

    private enum CodingKeys: String, CodingKey {
        case nodes, edges, meta
    }

    /// Lays out `graph` (warm-started from `previous` positions by id, if given) and colours it by community.
    public init<ID>(graph: Graph<ID>, seed: UInt64 = 1, previous: [String: Point]? = nil, labels: [String: String] = [:]) {
        let clock = ContinuousClock()
        let start = clock.now
        let ids = graph.ids.map { "\($0)" }
        let layout = ConstellationLayout(seed: seed)
        let positions: [Point]
        let communities: [Int32]
        if let known = previous {
            positions = layout.positions(for: graph, warmStart: ids.map { known[$0] })
            communities = Communities.detect(graph, seed: seed).membership
        } else {
            let result = layout.layout(graph)
            (positions, communities) = (result.positions, result.communities)
        }
        let elapsed = clock.now - start
        self.init(
            nodes: ids.indices.map { v in
                Node(
                    id: ids[v], label: labels[ids[v]], x: positions[v].x, y: positions[v].y, community: Int(communities[v]),
                    degree: graph.degree(of: v))
            },
            edges: graph.edgeList.map { Edge(source: ids[$0.0], target: ids[$0.1]) },
            seed: seed, warmStart: previous != nil,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        meta.droppedSelfLoops = graph.droppedSelfLoops
        meta.droppedDuplicates = graph.droppedDuplicates
    }

    /// A document for positions computed elsewhere (ids and labels as given).
    public init(nodes: [Node], edges: [Edge], seed: UInt64, warmStart: Bool, seconds: Double) {
        self.nodes = nodes
        self.edges = edges
        meta = Meta(
            seed: seed, box: Box(xs: nodes.map(\.x), ys: nodes.map(\.y)), nodes: nodes.count, edges: edges.count,
            droppedSelfLoops: 0, droppedDuplicates: 0, warmStart: warmStart, seconds: seconds)
    }

    /// Positions by node id, for a later warm start.
    public var positionsById: [String: Point] {
        Dictionary(nodes.map { ($0.id, Point(x: $0.x, y: $0.y)) }, uniquingKeysWith: { first, _ in first })
    }
}
