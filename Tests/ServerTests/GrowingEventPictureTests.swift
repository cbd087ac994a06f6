import Client
import ConstellationModel
import Foundation
import Graph
import TestSupport
import Testing

/// The event's picture as the live page fetches it while the event grows through the API, against
/// a fresh layout of the same pairs (docs/graph-engine.md, "a picture that grows"; the measures at scale are
/// `GrowthReplay`'s, printed by `Tools/bench-graph`). Before, the server froze everyone it had
/// placed and pressed newcomers against the frame: most people on the box, nobody moving.
@Suite(.tier(.database)) struct GrowingEventPictureTests {
    /// 150 people in six planted groups make 750 pairs at the event through the API, the picture
    /// fetched every 15 pairs, as `GrowingPictureTests` grows it without a server. From the tenth
    /// picture on: at most 2 points more people on the box than a fresh layout (10 always; 2 in most
    /// runs: a known gap); neighbourhood preservation and group purity at least 0.9 of its on
    /// average; every picture moves the people already drawn, a median under 0.05 of the side in
    /// 90% of pictures.
    @Test func thePictureOfAGrowingEventKeepsAFreshLayoutsQuality() async throws {
        // 150 people registering and scanning from one address: not what the limits are about here.
        try await TestServer.run(configure: { $0.rateLimits = .off }) { server throws in
            let ada = try await server.user("Ada")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("growing-event"))
            var people: [TestServer.User<String>] = []
            for index in 0..<150 {
                let person = try await server.user("Person \(index)")
                _ = try await person.client.joinEvent("growing-event", code: created.joinCode)
                _ = try await person.client.setEventVisibility(.named, at: "growing-event")
                people.append(person)
            }
            let event = PlantedEvent(people: 150, groups: 6, pairs: 750, order: .shuffled, seed: 7)
            var previous: [String: Point] = [:]
            var compared: [(box: Double, freshBox: Double, np: Double, freshNP: Double, purity: Double, freshPurity: Double)] = []
            var moves: [Double] = []
            for (index, (owner, scanner)) in event.pairs.enumerated() {
                _ = try await people[scanner].client.scan(people[owner].client, at: "growing-event")
                guard (index + 1) % 15 == 0 else { continue }
                let network = try await ada.client.eventNetwork("growing-event")
                let ids = network.nodes.map(\.id)
                let place = Dictionary(uniqueKeysWithValues: network.nodes.map { ($0.id, Point(x: $0.x, y: $0.y)) })
                let graph = Graph(nodes: ids, edges: network.edges.map { ($0.source, $0.target) })
                let grown = graph.ids.map { place[$0]! }
                if !previous.isEmpty { moves.append(PictureChange.medianMove(from: graph.ids.map { previous[$0] }, to: grown)) }
                previous = place
                guard (index + 1) / 15 >= 10 else { continue }
                let fresh = ConstellationLayout(seed: 1).positions(for: graph)
                let group = Dictionary(
                    uniqueKeysWithValues: network.nodes.map { node in
                        (node.id, event.group[Int(node.label.split(separator: " ").last!)!])
                    })
                let planted = graph.ids.map { group[$0]! }
                compared.append(
                    (
                        PictureChange.shareOnTheBox(grown), PictureChange.shareOnTheBox(fresh),
                        LayoutQuality.neighbourhoodPreservation(graph, grown), LayoutQuality.neighbourhoodPreservation(graph, fresh),
                        LayoutQuality.communityPurity(grown, communities: planted),
                        LayoutQuality.communityPurity(fresh, communities: planted)
                    ))
            }
            try #require(compared.count == 41 && moves.count == 49)
            func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
            // Within 2 points in most runs; a loaded CI (the pairs' order and times vary) once saw 8 of
            // 150 on the box against a fresh layout's 4 (issue 37's bars, still open).
            withKnownIssue("on the box: 2 points over a fresh layout's, some runs", isIntermittent: true) {
                for picture in compared {
                    #expect(
                        PictureChange.withinTwoPoints(picture.box, of: picture.freshBox, people: 150),
                        "on the box: \(picture.box) against a fresh layout's \(picture.freshBox)")
                }
            }
            #expect(compared.allSatisfy { $0.box <= $0.freshBox + 0.1 }, "pressed against the frame: \(compared.map(\.box))")
            let preservation = mean(compared.map { $0.np / $0.freshNP })
            let purity = mean(compared.map { $0.purity / $0.freshPurity })
            print(
                "growing event: preservation \(preservation), purity \(purity) of a fresh layout's; on the box at most",
                "\(compared.map { $0.box - $0.freshBox }.max()!) over it; moves within 0.05: \(moves.count { $0 <= 0.05 }) of \(moves.count)"
            )
            // Through the server the pairs' order and times vary from run to run. Group purity was
            // 0.88-0.93 while a picture could be redrawn only after ten grown in a row; since the
            // graph's growth allows it too (`PictureHistory`), 0.97-0.98 and preservation 1.00-1.03.
            #expect(preservation >= 0.9, "neighbourhood preservation: \(preservation) of a fresh layout's")
            #expect(purity >= 0.9, "group purity: \(purity) of a fresh layout's")
            #expect(moves.allSatisfy { $0 > 0 }, "a picture stood still while the event grew: \(moves)")
            #expect(Double(moves.count { $0 <= 0.05 }) >= 0.9 * Double(moves.count), "median moves: \(moves)")
        }
    }
}
