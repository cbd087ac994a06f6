import Foundation
import Graph

/// `constellation-bench growth PEOPLE [SEED [PICTURES]]`: an event of PEOPLE in planted groups (a
/// group per 200 people, at least six; three pairs a person; the pairs drawn from SEED, 7 unless
/// given) grown pair by pair in each arrival order. Other seeds show how much a figure owes to one
/// event's luck.
/// `constellation-bench growth FILE`: a real event's contacts (a SocioPatterns tij file) grown in
/// the order people first met, its groups the communities of the whole event's graph.
/// Either way PICTURES pictures (40 unless given) evenly over the pairs, each grown from the one
/// before and measured against a fresh layout of the same graph (`GrowthReplay`,
/// docs/graph-engine.md's "picture that grows"), from the first quarter on (the tenth picture of
/// 40). Fewer pictures are what a wall sees of a busy server: each grows by more. Prints one JSON
/// line per order; `Tools/bench-graph` reads them.
enum GrowthBench {
    static func run(people: Int, seed: UInt64, pictures: Int) {
        let groups = max(6, people / 200)
        for order in PlantedEvent.Order.allCases {
            let event = PlantedEvent(people: people, groups: groups, pairs: 3 * people, order: order, seed: seed)
            report(order: order.rawValue, pairs: event.pairs, groups: event.group, pictures: pictures)
        }
    }

    static func run(file: String) throws(GrowthBenchError) {
        guard let bytes = FileManager.default.contents(atPath: file) else { throw GrowthBenchError("cannot read \(file)") }
        let parsed: ParsedGraph
        do { parsed = try EdgeListParser.parse(bytes: Array(bytes), format: .tij) } catch { throw GrowthBenchError("\(file), \(error)") }
        guard let contacts = parsed.firstContacts, !contacts.isEmpty else {
            throw GrowthBenchError("\(file) holds no contacts (a SocioPatterns `t i j` file is needed)")
        }
        let pairs = contacts.sorted { $0.time < $1.time }.map { (Int($0.a), Int($0.b)) }
        let communities = Communities.detect(parsed.graph, seed: 1).membership
        report(order: "time", pairs: pairs, groups: communities, pictures: 40)
    }

    private static func report(order: String, pairs: [(Int, Int)], groups: [Int32], pictures: Int) {
        let frames = Array(
            GrowthReplay.run(pairs: pairs, groups: groups, every: max(1, pairs.count / pictures)).dropFirst(pictures * 9 / 40))
        let moves = frames.compactMap(\.move).sorted()
        let last = frames.last
        let seconds = frames.map(\.seconds).sorted()
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(values.count, 1)) }
        let preservation = frames.map { $0.preservation.grown / $0.preservation.fresh }
        let purity = frames.map { $0.purity.grown / $0.purity.fresh }
        let atQuality = frames.indices.count { preservation[$0] >= 0.95 && purity[$0] >= 0.95 }
        // The same bar, held by a fresh layout from another seed: how often the reference meets its own bar.
        let freshAtQuality = frames.count {
            $0.anotherFresh.preservation >= 0.95 * $0.preservation.fresh && $0.anotherFresh.purity >= 0.95 * $0.purity.fresh
        }
        let figures: [String: Double] = [
            "people": Double(groups.count), "groups": Double(Set(groups).count), "pairs": Double(pairs.count),
            "pictures": Double(frames.count),
            "onTheBoxExcessMax": frames.map { $0.onTheBox.grown - $0.onTheBox.fresh }.max() ?? 0,
            "preservationRatio": mean(preservation), "preservationRatioMin": preservation.min() ?? 0,
            "purityRatio": mean(purity), "purityRatioMin": purity.min() ?? 0,
            "picturesAtQuality": Double(atQuality) / Double(max(frames.count, 1)),
            "freshPicturesAtQuality": Double(freshAtQuality) / Double(max(frames.count, 1)),
            "freshOnTheBoxExcessMax": frames.map { $0.anotherFresh.onTheBox - $0.onTheBox.fresh }.max() ?? 0,
            // Pictures past the box's bar (2 points over the fresh layout's), and how many a fresh layout from another seed has.
            "picturesOverTheBoxBar": Double(
                frames.count { !PictureChange.withinTwoPoints($0.onTheBox.grown, of: $0.onTheBox.fresh, people: $0.people) }),
            "freshPicturesOverTheBoxBar": Double(
                frames.count { !PictureChange.withinTwoPoints($0.anotherFresh.onTheBox, of: $0.onTheBox.fresh, people: $0.people) }),
            "crowdingExcessMax": frames.map { $0.crowding.grown - $0.crowding.fresh }.max() ?? 0,
            "movesWithin005": Double(moves.count { $0 <= 0.05 }) / Double(max(moves.count, 1)),
            "moveMedian": moves.isEmpty ? 0 : moves[moves.count / 2],
            "stillPictures": Double(moves.count { $0 == 0 }),
            "afresh": Double(frames.count(where: \.afresh)),
            "secondsMedian": seconds.isEmpty ? 0 : seconds[seconds.count / 2],
            "secondsMax": seconds.last ?? 0,
            // The last picture, grown and then settled as when the pairs stop: of a fresh layout's.
            "lastPreservationRatio": preservation.last ?? 0, "lastPurityRatio": purity.last ?? 0,
            "settledPreservationRatio": last.flatMap { frame in frame.settled.map { $0.preservation / frame.preservation.fresh } } ?? 0,
            "settledPurityRatio": last.flatMap { frame in frame.settled.map { $0.purity / frame.purity.fresh } } ?? 0,
            "settledRedrawn": last?.settled?.redrawn == true ? 1 : 0,
        ]
        let fields = figures.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }
        print("{\"order\":\"\(order)\",\(fields.joined(separator: ","))}")
    }
}

/// Why `constellation-bench growth FILE` could not replay the file.
struct GrowthBenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
