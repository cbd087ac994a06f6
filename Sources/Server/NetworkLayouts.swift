import ConstellationModel
import Foundation
import Graph

/// Lays out people's networks and remembers the last picture of each, so an unchanged network
/// is answered without work and a grown one is warm-started (its picture does not reshuffle).
/// Bounded: the least recently used pictures are forgotten first. The actor only keeps the
/// cache: layouts run on a thread pool, so a large one neither holds up other people's requests
/// nor occupies the threads that Swift concurrency shares.
actor NetworkLayouts {
    struct Key: Hashable { let profile: UUID; let depth: Int }

    private struct Entry {
        let version: Int
        let network: Network
        var lastUse: UInt64
    }

    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0
    let capacity: Int
    private let compute: GraphComputation
    static let seed: UInt64 = 1

    init(capacity: Int = 2_000, compute: GraphComputation = GraphComputation()) {
        self.capacity = capacity
        self.compute = compute
    }

    /// The laid-out network of `me`: cached if the graph is unchanged, else warm-started from the last picture.
    func network(me: UUID, depth: Int, profiles: [Profile], edges: [(UUID, UUID)], truncated: Bool) async throws -> Network {
        clock += 1
        let key = Key(profile: me, depth: depth)
        let version = Self.version(profiles: profiles, edges: edges)
        if let entry = entries[key], entry.version == version {
            entries[key]?.lastUse = clock
            return entry.network
        }
        let previous = entries[key].map { entry in Dictionary(uniqueKeysWithValues: entry.network.nodes.map { ($0.id, Point(x: $0.x, y: $0.y)) }) }
        let network = try await compute.run {
            Self.layOut(me: me, depth: depth, profiles: profiles, edges: edges, truncated: truncated, previous: previous)
        }
        entries[key] = Entry(version: version, network: network, lastUse: clock)
        if entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
        return network
    }

    /// A fingerprint of the graph: who is in it, their names, and the edges.
    private static func version(profiles: [Profile], edges: [(UUID, UUID)]) -> Int {
        var hasher = Hasher()
        for profile in profiles { hasher.combine(profile.id); hasher.combine(profile.displayName) }
        for (a, b) in edges { hasher.combine(a); hasher.combine(b) }
        return hasher.finalize()
    }

    static func layOut(
        me: UUID, depth: Int, profiles: [Profile], edges: [(UUID, UUID)], truncated: Bool, previous: [String: Point]?
    ) -> Network {
        let graph = Graph(nodes: profiles.map(\.id), edges: edges)
        let ids = graph.ids.map(\.uuidString)
        let layout = ConstellationLayout(seed: seed)
        let positions: [Point]
        var communities: [Int32]
        if let previous {
            positions = layout.positions(for: graph, warmStart: ids.map { previous[$0] })
            communities = Communities.detect(graph, seed: seed).membership
        } else {
            let result = layout.layout(graph)
            (positions, communities) = (result.positions, result.communities)
        }
        if communities.count != graph.nodeCount { communities = Array(repeating: 0, count: graph.nodeCount) }
        let names = Dictionary(uniqueKeysWithValues: profiles.map { ($0.id, $0.displayName) })
        let nodes = graph.ids.indices.map { v in
            Network.Node(id: ids[v], label: names[graph.ids[v]] ?? "", x: positions[v].x, y: positions[v].y,
                         degree: graph.degree(of: v), isMe: graph.ids[v] == me, community: Int(communities[v]))
        }
        let links = graph.edgeList.map { Network.Edge(source: ids[$0.0], target: ids[$0.1]) }
        let xs = positions.map(\.x), ys = positions.map(\.y)
        return Network(nodes: nodes, edges: links, meta: .init(
            box: [xs.min() ?? 0, ys.min() ?? 0, xs.max() ?? 0, ys.max() ?? 0], layout: "constellation", seed: seed,
            depth: depth, truncated: truncated, warmStart: previous != nil))
    }
}
