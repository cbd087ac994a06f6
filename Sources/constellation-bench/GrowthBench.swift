import Foundation
import Graph

/// `constellation-bench growth PEOPLE`: an event of PEOPLE in planted groups (a group per 200
/// people, at least six; three pairs a person) grown pair by pair in each arrival order, a picture
/// every fortieth of its pairs, each measured against a fresh layout of the same graph
/// (`GrowthReplay`, METRICS.md's "picture that grows"), from the tenth picture on. Prints one JSON
/// line per order; `Tools/bench-graph` reads them.
enum GrowthBench {
    static func run(people: Int) {
        let groups = max(6, people / 200)
        let pairs = 3 * people
        for order in PlantedEvent.Order.allCases {
            let event = PlantedEvent(people: people, groups: groups, pairs: pairs, order: order, seed: 7)
            let frames = Array(GrowthReplay.run(event, every: max(1, pairs / 40)).dropFirst(9))
            let moves = frames.compactMap(\.move).sorted()
            let seconds = frames.map(\.seconds).sorted()
            func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(values.count, 1)) }
            let figures: [String: Double] = [
                "people": Double(people), "groups": Double(groups), "pairs": Double(pairs), "pictures": Double(frames.count),
                "onTheBoxExcessMax": frames.map { $0.onTheBox.grown - $0.onTheBox.fresh }.max() ?? 0,
                "preservationRatio": mean(frames.map { $0.preservation.grown / $0.preservation.fresh }),
                "purityRatio": mean(frames.map { $0.purity.grown / $0.purity.fresh }),
                "crowdingExcessMax": frames.map { $0.crowding.grown - $0.crowding.fresh }.max() ?? 0,
                "movesWithin005": Double(moves.count { $0 <= 0.05 }) / Double(max(moves.count, 1)),
                "moveMedian": moves.isEmpty ? 0 : moves[moves.count / 2],
                "stillPictures": Double(moves.count { $0 == 0 }),
                "afresh": Double(frames.count(where: \.afresh)),
                "secondsMedian": seconds.isEmpty ? 0 : seconds[seconds.count / 2],
                "secondsMax": seconds.last ?? 0,
            ]
            let fields = figures.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }
            print("{\"order\":\"\(order.rawValue)\",\(fields.joined(separator: ","))}")
        }
    }
}
