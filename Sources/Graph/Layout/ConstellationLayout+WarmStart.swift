import Foundation

extension ConstellationLayout {
    /// A layout that grows `previous` (indexed like the graph's nodes; nil for new nodes), in the
    /// previous picture's coordinates. New nodes start beside their placed neighbours (a new
    /// group of people, with none, beside the picture); then everyone settles together, the
    /// placed nodes on a short leash and communities pushing each other apart, so that the picture
    /// keeps a fresh layout's quality (nobody frozen where the graph no longer puts them, nobody
    /// pressed against the frame, groups told apart) and moves little. The result is turned and
    /// scaled onto the previous picture (`Procrustes`) and stays in its frame: a fresh layout
    /// spans [-1, 1]², a grown one may outgrow it. With fewer than half the nodes placed (a burst
    /// of newcomers), it lays out afresh, aligned the same way: one larger move, then gliding again.
    public func positions<ID>(for graph: Graph<ID>, warmStart previous: [Point?]) -> [Point] {
        grow(graph, from: previous, communities: Communities.detect(graph, seed: seed).membership, mayLayOutAfresh: true).positions
    }

    /// A grown picture, and whether it was laid out afresh (aligned to the previous one).
    public struct Growth: Sendable {
        public let positions: [Point]
        public let laidOutAfresh: Bool
    }

    /// As `positions(for:warmStart:)`, with the graph's `communities` (a caller that follows a
    /// picture has them, started from the previous picture's). With `mayLayOutAfresh`, a fresh
    /// layout of the graph is made too, and taken (aligned, then settled) instead when the grown
    /// picture keeps less than 0.9 of its neighbourhood preservation: a picture that started from
    /// a sparse, early graph can keep groups mixed that the graph has since told apart. A caller
    /// that follows one picture allows it every so often (`PictureHistory`), so that the picture
    /// mostly glides and is sometimes redrawn. Not when the grown picture keeps less than 0.9 of
    /// its group purity too: over 24 replays of 300 people that took 41% of pictures to a fresh
    /// layout's quality rather than 24%, but a redraw moves people a median 0.15-0.33 of the side,
    /// and the share of moves under 0.05 fell from 96% to 92% (to 85% in one replay of 150). `componentSizes` gives,
    /// for each placed node, the size of the component it was drawn in (a caller that follows a
    /// picture keeps it with the picture): a small group drawn on its own that has since joined
    /// the picture's main part is then placed again beside the people it met (`Islands`).
    public func grow<ID>(
        _ graph: Graph<ID>, from previous: [Point?], componentSizes: [Int?]? = nil, communities: [Int32], mayLayOutAfresh: Bool
    ) -> Growth {
        // One settling graph (a Leiden run) for the grown picture and, if taken, the fresh one.
        let components = Components(graph)
        let settling = settlingGraph(graph, components: components)
        let start = componentSizes.map { Islands.rejoining(previous, componentSizes: $0, components: components) } ?? previous
        let grown = grown(graph, from: start, communities: communities, settling: settling)
        guard mayLayOutAfresh, let grown else {
            return grown.map { Growth(positions: $0, laidOutAfresh: false) }
                ?? Growth(
                    positions: afresh(graph, positions(for: graph), onto: previous, communities: communities, settling: settling),
                    laidOutAfresh: true)
        }
        let fresh = positions(for: graph)
        let kept = LayoutQuality.neighbourhoodPreservation(graph, grown, seed: seed)
        guard kept < 0.9 * LayoutQuality.neighbourhoodPreservation(graph, fresh, seed: seed) else {
            return Growth(positions: grown, laidOutAfresh: false)
        }
        return Growth(positions: afresh(graph, fresh, onto: previous, communities: communities, settling: settling), laidOutAfresh: true)
    }

    /// A grown `picture` of `graph` checked against a fresh layout once the graph has stopped
    /// changing: redrawn (aligned onto it, then settled) when it keeps less than 0.95 of the fresh
    /// layout's neighbourhood preservation or of its group purity by `communities`, else kept as
    /// it is. While pairs arrive, a redraw is one picture in ten at most, so that the picture
    /// mostly glides (`PictureHistory`); when they stop, the room may as well see a fresh
    /// layout's quality, and nothing else moves at that moment.
    public func settled<ID>(_ graph: Graph<ID>, _ picture: [Point], communities: [Int32]) -> Growth {
        precondition(picture.count == graph.nodeCount, "one position per node")
        let fresh = positions(for: graph)
        let keeps = { (quality: ([Point]) -> Double) in quality(picture) >= Self.settledShare * quality(fresh) }
        guard keeps({ LayoutQuality.neighbourhoodPreservation(graph, $0, seed: seed) }),
            keeps({ LayoutQuality.communityPurity($0, communities: communities, seed: seed) })
        else {
            let settling = settlingGraph(graph, components: Components(graph))
            let redrawn = afresh(graph, fresh, onto: picture.map(Optional.some), communities: communities, settling: settling)
            return Growth(positions: redrawn, laidOutAfresh: true)
        }
        return Growth(positions: picture, laidOutAfresh: false)
    }

    /// The share of a fresh layout's quality a settled picture keeps (issue 54's bar).
    static let settledShare = 0.95

    /// A fresh layout aligned onto the previous picture, then settled as a grown picture settles,
    /// so that the next picture grown from it starts at rest: unsettled, the picture after each
    /// redraw moved a median 0.055-0.06 of the side (300 people), twice as far as any other.
    private func afresh<ID>(
        _ graph: Graph<ID>, _ fresh: [Point], onto previous: [Point?], communities: [Int32], settling: WeightedGraph
    ) -> [Point] {
        let aligned = Self.fitted(fresh, onto: previous, scale: .sameSpread)
        return self.grown(graph, from: aligned, communities: communities, settling: settling) ?? aligned
    }

    /// The previous picture grown, settled on `settling` (`settlingGraph`), or nil with fewer
    /// than half the nodes placed.
    private func grown<ID>(_ graph: Graph<ID>, from previous: [Point?], communities: [Int32], settling: WeightedGraph) -> [Point]? {
        precondition(previous.count == graph.nodeCount, "one previous position (or nil) per node")
        precondition(communities.count == graph.nodeCount, "one community per node")
        let placed = previous.indices.filter { previous[$0] != nil }
        guard placed.count * 2 >= graph.nodeCount, placed.count > 1 else { return nil }
        // Work in units of the refinement's ideal length, `Self.idealLength` of the median edge
        // among placed nodes. Not of the mean: the few long edges between communities would make
        // it several times too long, and the repulsion would then reach across whole communities.
        var lengths: [Double] = []
        for (u, v) in graph.edgeList {
            if let a = previous[u], let b = previous[v] {
                lengths.append(((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot())
            }
        }
        lengths.sort()
        // Not below a millionth of the placed people's spread: with pairs a hair long beside
        // someone far away, the picture's grid cells would not fit in an integer.
        let spread = PictureChange.Box(placed.map { previous[$0]! })?.side ?? 0
        let median = max(lengths.isEmpty ? 0 : lengths[lengths.count / 2], 1e-6 * spread)
        let unit = Self.idealLength * (median > 0 ? median : 2 / Double(graph.nodeCount).squareRoot())
        var random = SplitMix64(seed: seed)
        var points = previous.map { $0.map { Point(x: $0.x / unit, y: $0.y / unit) } ?? Point(x: .nan, y: .nan) }
        placeNewcomers(graph, &points, random: &random)
        // Everyone settles; the placed move a quarter as far per step: enough to make room and to
        // follow the edges that changed, not enough to redraw what people have been looking at.
        // People of different communities push apart 2.5 times as hard: groups that met early and
        // mixed separate as the graph tells them apart (group purity 0.83-0.84 → 0.89-0.95 of a
        // fresh layout's at 2,000 people).
        let mobility = previous.map { $0 == nil ? 1.0 : 0.25 }
        ForceRefinement(iterations: 30, temperature: 1, mobility: mobility, apart: (communities, 2.5))
            .refine(settling, mass: [Double](repeating: 1, count: graph.nodeCount), positions: &points)
        // Dots on top of one another drawn side by side: the short ideal length, the ties and the
        // pull of a growing graph pack knots tighter than a fresh layout does (without this, a
        // 10,000-person picture had up to 0.3 more pairs a person closer than 0.4% of the side,
        // docs/graph-engine.md's crowding; four rounds left 0.07).
        Separation.apply(&points, distance: 0.0045 * (PictureChange.Box(points)?.side ?? 0), rounds: 8)
        return Self.fitted(points.map { Point(x: $0.x * unit, y: $0.y * unit) }, onto: previous, scale: .leastSquares)
    }

    /// The size from which a component is the picture's main part rather than a small group
    /// drawn on its own (scattered pairs, knots of people who met only each other).
    static let mainPart = 50

    /// The most people of a knot, a few who met each other: tied together while a picture settles
    /// (`settlingGraph`), and started again when one drawn on its own joins the main part (`Islands`).
    static let largestKnot = 6

    /// The refinement's ideal length in a grown picture, as a share of its median pair. Shorter
    /// than the pairs, so weaker and shorter-reaching repulsion lets people settle nearer the
    /// people they met: neighbourhood preservation 0.81-0.92 → 0.89-0.96 of a fresh layout's at
    /// 2,000 people (0.80-0.92 → 0.90-0.93 at 10,000), `Separation` keeping them apart.
    private static let idealLength = 0.6

    /// The graph a grown picture settles on: its pairs, and a light tie (0.4 of a pair's pull)
    /// between every two people of each of a Leiden run's finest aggregates of at most six, the
    /// small knots of people who met each other, which a fresh layout draws as one node and then
    /// spreads. It keeps a person beside the people they met as new pairs arrive (neighbourhood
    /// preservation 0.73-0.85 → 0.82-0.92 of a fresh layout's at 2,000 people; half a pair's pull
    /// moved 150 people's pictures past 0.05 too often). Not in components under 50 people: there
    /// the ties shorten every pair, each picture's unit (the median pair) with them, and pictures
    /// of scattered pairs shrank into one another, picture after picture. Not in larger
    /// aggregates: a dense conference's aggregates change from one picture to the next, and so did
    /// its picture (ht09: 71% of moves under 0.05 with aggregates of 12). In those small
    /// components pairs pull `idealLength` as hard instead, so that a lone pair (which rests
    /// where the pull and the push balance, k² over the pull) keeps its length picture after
    /// picture rather than shrinking with the unit.
    private func settlingGraph<ID>(_ graph: Graph<ID>, components: Components) -> WeightedGraph {
        let small = { (v: Int) in components.size(of: v) < Self.mainPart }
        let weighted = WeightedGraph(graph)
        let settling = weighted.scaled(by: Self.idealLength, at: small)
        let hierarchy = LayoutHierarchy(weighted, seed: seed)
        guard hierarchy.levels.count > 1 else { return settling }
        let aggregate = hierarchy.levels[0].parent
        var knots: [Int32: [Int]] = [:]
        for v in 0..<graph.nodeCount where !small(v) { knots[aggregate[v], default: []].append(v) }
        return settling.tying(knots.values.filter { (2...Self.largestKnot).contains($0.count) }, weight: 0.4)
    }

    /// Gives the unplaced points (NaN) a start. Newcomers come in groups, the unplaced people
    /// joined by pairs among them. A group of fewer than `placedTogether` starts beside the people
    /// it met, each newcomer beside the mean of their placed neighbours (a few rounds, for chains
    /// of newcomers). A larger one, a group arriving together, starts together, in the free room
    /// nearest the people it met (`FreeRoom`), as a fresh layout draws it: one of its own. Spread
    /// among its contacts all over the picture, such a group was pulled through the groups
    /// between for picture after picture (neighbourhood preservation 0.88-0.90 of a fresh layout's
    /// at 2,000 people arriving group by group). A group that met only each other starts in the
    /// picture's free room, where a fresh layout packs its small components.
    private func placeNewcomers<ID>(_ graph: Graph<ID>, _ points: inout [Point], random: inout SplitMix64) {
        let groups = Self.groups(of: graph, unplaced: points.map(\.x.isNaN))
        guard !groups.isEmpty else { return }
        let contacts = groups.map {
            Self.centre(of: $0.flatMap { graph.neighbours(of: $0).map { points[Int($0)] } }.filter { !$0.x.isNaN })
        }
        let together = groups.map { $0.count >= Self.placedTogether }
        for _ in 0..<3 {
            for (group, members) in groups.enumerated() where !together[group] {
                for v in members where points[v].x.isNaN {
                    guard let known = Self.centre(of: graph.neighbours(of: v).map { points[Int($0)] }.filter { !$0.x.isNaN }) else {
                        continue
                    }
                    points[v] = Point(
                        x: known.x + Double.random(in: -0.5...0.5, using: &random),
                        y: known.y + Double.random(in: -0.5...0.5, using: &random))
                }
            }
        }
        // In the free room: the groups placed together, and the people of the others still without a start.
        let inTheRoom = groups.indices.filter { together[$0] || groups[$0].contains { points[$0].x.isNaN } }
            .sorted { groups[$0].count > groups[$1].count }
        guard !inTheRoom.isEmpty else { return }
        var room = FreeRoom(around: points.filter { !$0.x.isNaN }, groups: inTheRoom.map { groups[$0].count })
        for group in inTheRoom {
            let radius = FreeRoom.radius(of: groups[group].count)
            let spot = room.take(radius: radius, near: contacts[group])
            for v in groups[group] where together[group] || points[v].x.isNaN {
                points[v] = Point(
                    x: spot.x + Double.random(in: -radius...radius, using: &random),
                    y: spot.y + Double.random(in: -radius...radius, using: &random))
            }
        }
    }

    /// The size from which a group of newcomers who met each other starts together
    /// (`placeNewcomers`). Measured from 2 to 7 in `docs/benchmarks.md`.
    private static let placedTogether = 4

    /// The unplaced nodes in groups: those joined by edges among them, largest first.
    private static func groups<ID>(of graph: Graph<ID>, unplaced: [Bool]) -> [[Int]] {
        var seen = [Bool](repeating: false, count: graph.nodeCount)
        var groups: [[Int]] = []
        for start in 0..<graph.nodeCount where unplaced[start] && !seen[start] {
            var group = [start]
            seen[start] = true
            var next = 0
            while next < group.count {
                for u in graph.neighbours(of: group[next]) where !seen[Int(u)] && unplaced[Int(u)] {
                    seen[Int(u)] = true
                    group.append(Int(u))
                }
                next += 1
            }
            groups.append(group)
        }
        return groups.sorted { $0.count > $1.count }
    }

    /// The mean of `points`, nil for none.
    private static func centre(of points: [Point]) -> Point? {
        guard !points.isEmpty else { return nil }
        return Point(x: points.map(\.x).reduce(0, +) / Double(points.count), y: points.map(\.y).reduce(0, +) / Double(points.count))
    }

    /// `points` turned and scaled onto the places the same nodes had in `previous` (where there
    /// were at least two): the previous picture's frame, which a growing picture keeps (its
    /// bounding box grows with it; a page follows the box), so that nobody moves for a rescale.
    /// Without two such places, fitted to [-1, 1]² as a fresh layout is. A grown picture, close to
    /// the previous one, takes the least-squares scale; a fresh one, which may match it poorly,
    /// the previous picture's spread (the least-squares scale would shrink it towards a point).
    static func fitted(_ points: [Point], onto previous: [Point?], scale: Procrustes.Scale) -> [Point] {
        guard let alignment = Procrustes(points, onto: previous, scale: scale) else { return ComponentPacking.normalized(points) }
        return points.map(alignment.apply)
    }
}
