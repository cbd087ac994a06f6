import ConstellationModel
import Foundation
import Graph

/// Pictures of subgraphs of the connection graph (a person's network at a depth; an event's
/// pictures are shared across servers instead: `StoredEventPictures`), remembered per subject: an unchanged subgraph is answered without
/// work and a grown one is warm-started, so its picture does not reshuffle. Bounded: the least
/// recently used pictures are forgotten first. The actor only keeps the cache; layouts run on
/// `GraphComputation`'s threads, so a large one holds up neither other requests nor Swift
/// concurrency's shared threads.
actor SubgraphLayouts {
    /// What a subgraph is: a kind and the id it belongs to.
    ///
    /// A struct, not an enum with associated values: Swift 6.3's optimizer miscompiles `Dictionary`
    /// mutations keyed by a single-case enum whose payload holds a `UUID` (the release server
    /// crashed on the second, cached request); `SubgraphLayoutsTests` guards this in release builds.
    struct Subject: Hashable, Sendable {
        enum Kind: Hashable, Sendable { case network, event, eventForTheRoom }
        let kind: Kind
        let id: UUID
        let depth: Int

        /// A person's network to `depth` connections.
        static func network(of profile: UUID, depth: Int) -> Subject { Subject(kind: .network, id: profile, depth: depth) }
        /// An event's whole graph: the people who connected there and their pairs; `forTheRoom`, as
        /// a wall's readers know its people (`EventIdentity`).
        static func event(_ id: UUID, forTheRoom: Bool = false) -> Subject {
            Subject(kind: forTheRoom ? .eventForTheRoom : .event, id: id, depth: 0)
        }
    }

    /// A subgraph's picture: each node's place, community and the size of the component it was
    /// drawn in, kept in arrays in the order the nodes were given (less than half the memory of a
    /// dictionary by id, for a cache of thousands).
    struct Picture: Sendable {
        struct Place: Sendable {
            let point: Point
            let community: Int
            let componentSize: Int
        }

        let ids: [UUID]
        private let points: [Point]
        private let communities: [Int32]
        private let componentSizes: [Int32]
        /// Whether it grew from the subject's previous picture (rather than being laid out afresh).
        let warmStarted: Bool
        /// How it was made since the last one laid out afresh, which says when the next may be
        /// redrawn afresh (aligned).
        let history: PictureHistory
        static let seed: UInt64 = 1

        init(graph: Graph<UUID>, points: [Point], communities: [Int32], warmStarted: Bool, history: PictureHistory) {
            let components = Components(graph)
            self.ids = graph.ids
            self.points = points
            self.communities = communities
            self.componentSizes = graph.ids.indices.map { Int32(components.size(of: $0)) }
            self.warmStarted = warmStarted
            self.history = history
        }

        init(ids: [UUID], points: [Point], communities: [Int32], componentSizes: [Int32], warmStarted: Bool, history: PictureHistory) {
            self.ids = ids
            self.points = points
            self.communities = communities
            self.componentSizes = componentSizes
            self.warmStarted = warmStarted
            self.history = history
        }

        /// This picture of `graph` (the graph it placed, in its order) once the graph has stopped
        /// changing (`ConstellationLayout.settled`): redrawn if it keeps too little of a fresh
        /// layout's quality, else the same places. Either way it is as good as a fresh layout, and
        /// its history starts again from it.
        func settled(_ graph: Graph<UUID>) -> Picture {
            // A stored row restored with the graph's fingerprint and other people: grown as any other.
            guard ids == graph.ids else { return SubgraphLayouts.layOut(graph, previous: self) }
            let growth = ConstellationLayout(seed: Self.seed).settled(graph, points, communities: communities)
            return Picture(
                ids: ids, points: growth.positions, communities: communities, componentSizes: componentSizes,
                warmStarted: !growth.laidOutAfresh, history: .drawnAfresh(pairs: graph.edgeCount))
        }

        /// This picture's places of `shown` (each of which it placed), in that order.
        func aligned(to shown: [UUID]) -> Picture {
            let index = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
            let order = shown.map { index[$0]! }
            return Picture(
                ids: shown, points: order.map { points[$0] }, communities: order.map { communities[$0] },
                componentSizes: order.map { componentSizes[$0] }, warmStarted: warmStarted, history: history)
        }

        /// The place of the node at `index` of the nodes this picture was asked for, if it is `id`.
        func place(at index: Int, of id: UUID) -> Place? {
            guard ids.indices.contains(index), ids[index] == id else { return nil }
            return place(at: index)
        }

        /// Every node's place, by id: to warm-start the next picture from this one.
        var places: [UUID: Place] {
            Dictionary(uniqueKeysWithValues: ids.indices.map { (ids[$0], place(at: $0)) })
        }

        /// The wire `meta` of `nodes`, placed by this picture.
        func meta<Scope>(of nodes: [Network.Node], scope: Scope) -> PictureMeta<Scope> {
            PictureMeta(of: nodes, seed: Self.seed, warmStart: warmStarted, scope: scope)
        }

        private func place(at index: Int) -> Place {
            Place(point: points[index], community: Int(communities[index]), componentSize: Int(componentSizes[index]))
        }
    }

    private struct Entry {
        let version: Int
        let picture: Picture
        var lastUse: UInt64
    }

    private var entries: [Subject: Entry] = [:]
    private var clock: UInt64 = 0
    let capacity: Int
    private let compute: GraphComputation

    init(capacity: Int = 2_000, compute: GraphComputation) {
        self.capacity = capacity
        self.compute = compute
    }

    /// The picture of `subject`, whose graph is `nodes` and `edges` now: cached if unchanged, else
    /// laid out, warm-started from the last picture when there is one.
    func picture(of subject: Subject, nodes: [UUID], edges: [(UUID, UUID)]) async throws -> Picture {
        try await picture(of: subject, version: Self.version(nodes: nodes, edges: edges)) { Graph(nodes: nodes, edges: edges) }
    }

    private func picture(of subject: Subject, version: Int, graph: @escaping @Sendable () -> Graph<UUID>) async throws -> Picture {
        clock += 1
        if let entry = entries[subject], entry.version == version {
            entries[subject]?.lastUse = clock
            compute.metrics.cacheLookup("layouts", hit: true)
            return entry.picture
        }
        compute.metrics.cacheLookup("layouts", hit: false)
        let previous = entries[subject]?.picture
        let picture = try await compute.run("layout") { Self.layOut(graph(), previous: previous) }
        entries[subject] = Entry(version: version, picture: picture, lastUse: clock)
        if entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
        return picture
    }

    /// Forgets every picture of `profile`'s own subgraphs (its profile was erased).
    func forget(profile: UUID) {
        entries = entries.filter { $0.key.id != profile }
    }

    /// A fingerprint of the graph: its nodes and edges, in order.
    static func version<End: Hashable>(nodes: [UUID], edges: some Sequence<(End, End)>) -> Int {
        var hasher = Hasher()
        for node in nodes { hasher.combine(node) }
        for (a, b) in edges {
            hasher.combine(a)
            hasher.combine(b)
        }
        return hasher.finalize()
    }

    /// Lays `graph` out, grown from `previous` if given (`ConstellationLayout.grow`): its people
    /// move little, newcomers settle among them, and now and then (`PictureHistory`) it is redrawn
    /// afresh (aligned to it) when growing has kept too little of a fresh layout's quality. The
    /// communities start from its communities, and keep the grown picture's groups apart.
    static func layOut(_ graph: Graph<UUID>, previous: Picture?) -> Picture {
        let layout = ConstellationLayout(seed: Picture.seed)
        guard let previous else {
            let result = layout.layout(graph)
            return Picture(
                graph: graph, points: result.positions, communities: result.communities, warmStarted: false,
                history: .drawnAfresh(pairs: graph.edgeCount))
        }
        let places = previous.places
        let start = graph.ids.map { places[$0] }
        var communities = Communities.detect(graph, seed: Picture.seed, startingFrom: start.map { $0?.community }).membership
        if communities.count != graph.nodeCount { communities = Array(repeating: 0, count: graph.nodeCount) }
        let growth = layout.grow(
            graph, from: start.map { $0?.point }, componentSizes: start.map { $0?.componentSize }, communities: communities,
            mayLayOutAfresh: previous.history.mayLayOutAfresh(pairs: graph.edgeCount))
        return Picture(
            graph: graph, points: growth.positions, communities: communities, warmStarted: !growth.laidOutAfresh,
            history: previous.history.next(pairs: graph.edgeCount, laidOutAfresh: growth.laidOutAfresh))
    }
}
