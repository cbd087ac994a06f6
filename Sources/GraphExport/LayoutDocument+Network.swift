import ConstellationModel

/// The API's pictures as documents: a person's network and an event's, in any format the
/// documents are written in. Both map their nodes the same way; an event's edges carry when the
/// pair connected there (GEXF's timeline, CSV's `first_at`).
extension LayoutDocument {
    public init(_ network: Network) {
        self.init(
            nodes: network.nodes, edges: network.edges.map { Edge(source: $0.source, target: $0.target) },
            seed: network.meta.seed, warmStart: network.meta.warmStart)
    }

    public init(_ network: EventNetwork) {
        self.init(
            nodes: network.nodes,
            edges: network.edges.map { Edge(source: $0.source, target: $0.target, start: ISO8601Seconds.string($0.firstAt)) },
            seed: network.meta.seed, warmStart: network.meta.warmStart)
        timed = true
    }

    private init(nodes: [Network.Node], edges: [Edge], seed: UInt64, warmStart: Bool) {
        self.init(
            nodes: nodes.map { Node(id: $0.id, label: $0.label, x: $0.x, y: $0.y, community: $0.community, degree: $0.degree) },
            edges: edges, seed: seed, warmStart: warmStart, seconds: 0)
    }
}
