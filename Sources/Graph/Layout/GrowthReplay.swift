/// A picture grown pair by pair, as a live page sees an event grow, measured as docs/graph-engine.md's
/// "picture that grows": every `every` pairs a picture grown from the one before (a fresh layout
/// allowed as `PictureHistory` allows it, as the server does, and communities started from the
/// previous ones and the sizes of the components people were drawn in kept, as the server does),
/// beside a fresh layout of the same graph.
public enum GrowthReplay {
    /// One picture of the replay: how the grown one and a fresh one compare, how far the people
    /// already drawn moved, and what the grown picture cost.
    public struct Frame: Sendable {
        public let people: Int
        public let onTheBox: (grown: Double, fresh: Double)
        public let preservation: (grown: Double, fresh: Double)
        public let purity: (grown: Double, fresh: Double)
        public let crowding: (grown: Double, fresh: Double)
        /// A fresh layout from another seed, measured as the grown one is: the reference's own spread.
        /// A bar held in every picture against one fresh layout is read beside how often another
        /// fresh layout of the same graph holds it.
        public let anotherFresh: (onTheBox: Double, preservation: Double, purity: Double)
        /// The median move of the people in the picture before (nil for the first).
        public let move: Double?
        /// Whether this picture was laid out afresh (aligned).
        public let afresh: Bool
        /// The seconds the grown picture took, its communities included (what the server computes).
        public let seconds: Double
        /// The last picture only: it settled as the server settles a picture once the pairs stop
        /// (`ConstellationLayout.settled`), its neighbourhood preservation and group purity, and
        /// whether it was redrawn.
        public let settled: (preservation: Double, purity: Double, redrawn: Bool)?
    }

    public static func run(_ event: PlantedEvent, every: Int) -> [Frame] {
        run(pairs: event.pairs, groups: event.group, every: every)
    }

    /// The replay of `pairs` in their order, group purity measured against `groups` (per person).
    public static func run(pairs: [(Int, Int)], groups: [Int32], every: Int) -> [Frame] {
        let layout = ConstellationLayout(seed: 1)
        let clock = ContinuousClock()
        var previous: [Int: (point: Point, community: Int, componentSize: Int)] = [:]
        var frames: [Frame] = []
        var history = PictureHistory.drawnAfresh(pairs: 0)
        for end in stride(from: every, through: pairs.count, by: every) {
            let graph = Graph(edges: Array(pairs.prefix(end)))
            let start = graph.ids.map { previous[$0] }
            let began = clock.now
            let communities = Communities.detect(graph, seed: 1, startingFrom: start.map { $0?.community }).membership
            let growth = layout.grow(
                graph, from: start.map { $0?.point }, componentSizes: start.map { $0?.componentSize }, communities: communities,
                mayLayOutAfresh: history.mayLayOutAfresh(pairs: graph.edgeCount))
            let seconds = (clock.now - began) / .seconds(1)
            history = history.next(pairs: graph.edgeCount, laidOutAfresh: growth.laidOutAfresh)
            let grown = growth.positions
            let fresh = layout.positions(for: graph)
            let another = ConstellationLayout(seed: 2).positions(for: graph)
            let planted = graph.ids.map { groups[$0] }
            let settled = end + every > pairs.count ? layout.settled(graph, grown, communities: communities) : nil
            frames.append(
                Frame(
                    people: graph.nodeCount,
                    onTheBox: (PictureChange.shareOnTheBox(grown), PictureChange.shareOnTheBox(fresh)),
                    preservation: (
                        LayoutQuality.neighbourhoodPreservation(graph, grown), LayoutQuality.neighbourhoodPreservation(graph, fresh)
                    ),
                    purity: (
                        LayoutQuality.communityPurity(grown, communities: planted),
                        LayoutQuality.communityPurity(fresh, communities: planted)
                    ),
                    crowding: (PictureChange.crowding(grown), PictureChange.crowding(fresh)),
                    anotherFresh: (
                        PictureChange.shareOnTheBox(another), LayoutQuality.neighbourhoodPreservation(graph, another),
                        LayoutQuality.communityPurity(another, communities: planted)
                    ),
                    move: previous.isEmpty ? nil : PictureChange.medianMove(from: start.map { $0?.point }, to: grown),
                    afresh: growth.laidOutAfresh, seconds: seconds,
                    settled: settled.map {
                        (
                            LayoutQuality.neighbourhoodPreservation(graph, $0.positions),
                            LayoutQuality.communityPurity($0.positions, communities: planted), $0.laidOutAfresh
                        )
                    }))
            let components = Components(graph)
            previous = Dictionary(
                uniqueKeysWithValues: graph.ids.indices.map {
                    (graph.ids[$0], (grown[$0], Int(communities[$0]), components.size(of: $0)))
                })
        }
        return frames
    }
}
