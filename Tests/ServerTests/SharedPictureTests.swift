import ConstellationModel
import Foundation
import Server
import TestSupport
import Testing

/// One picture for many screens: the walls and live pages that follow an event share its picture
/// and its summary for `pictureInterval`, however fast its graph changes, so ten screens cost one
/// layout an interval rather than ten; a member's change of how the event shows them is seen at
/// once, by relabelling what is shared rather than making it again. (Before, a picture was cached per graph version, and at a conference's pace the version
/// changed several times a second: each screen laid out the whole event again.)
@Suite(.tier(.database)) struct SharedPictureTests {
    typealias Users = EventNetworkTests

    /// An hour's interval, so that nothing in the test outlives it: on CI's two loaded cores, the
    /// whole suite running at once, this test once took more than the minute it had, and a second
    /// picture was made.
    @Test func tenScreensShareOnePictureAndOneSummaryUntilAChoiceChanges() async throws {
        // Ten screens on one credential: its allowance of graph requests at once is theirs.
        try await TestServer.run(configure: {
            $0.pictureInterval = .seconds(3_600)
            $0.graphRequestsPerCredential = 10
        }) { server throws in
            let (ada, _, cleo, dan, eve, _) = try await Users.smallEvent(server)
            let work = server.services.graphWork
            let pictures = try await withThrowingTaskGroup(of: EventNetwork.self) { group in
                for _ in 0..<10 { group.addTask { try await ada.client.eventNetwork("net-event") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(pictures.count == 10 && pictures.allSatisfy { $0.edges.count == 4 })
            #expect(Set(pictures.map { $0.nodes.map(\.x) }).count == 1, "one picture")
            #expect(await work.eventPictures.runs == 1, "ten screens, one layout")
            let summaries = try await withThrowingTaskGroup(of: EventSummary.self) { group in
                for _ in 0..<5 { group.addTask { try await ada.client.eventSummary("net-event") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(summaries.map(\.connections)) == [4])
            #expect(await work.summaries.runs == 1, "five screens, one summary")

            // A new pair within the interval: the screens keep the shared picture (their stream draws the pair).
            try await Users.connect(eve, cleo, at: "net-event")
            #expect(try await ada.client.eventNetwork("net-event").edges.count == 4)
            #expect(try await ada.client.eventSummary("net-event").connections == 4)
            #expect(await work.eventPictures.runs == 1)
            #expect(await work.summaries.runs == 1)

            // Dan chooses his name: what names people is relabelled, not made again (who is drawn did
            // not change): the picture's layout, and the summary's costly core (communities,
            // betweenness, the pairs it counts), stay until the interval ends; the new pair comes with
            // the next picture, as the screens' streams draw it meanwhile. Naming someone may show a
            // computation later (the screens get the last picture meanwhile, which shows less).
            _ = try await dan.client.setEventVisibility(.named, at: "net-event")
            let after = try await Self.eventually {
                try await ada.client.eventNetwork("net-event")
            } until: {
                $0.nodes.contains { $0.label == "Dan Hidden" }
            }
            #expect(after.nodes.contains { $0.label == "Dan Hidden" } && after.edges.count == 4, "the same picture, relabelled")
            #expect(Set(after.nodes.map(\.x)) == Set(pictures[0].nodes.map(\.x)), "the same layout")
            let relabelled = try await Self.eventually {
                try await ada.client.eventSummary("net-event")
            } until: {
                $0.topByDegree.contains { $0.name == "Dan Hidden" && $0.named }
            }
            #expect(relabelled.topByDegree.contains { $0.name == "Dan Hidden" } && relabelled.connections == 4)
            #expect(await work.eventPictures.runs == 1)
            #expect(await work.summaryCoreRuns == 1)

            // Hiding again is seen by the very next request: nothing shows a name its owner withdrew.
            _ = try await dan.client.setEventVisibility(.pseudonymous, at: "net-event")
            #expect(try await !ada.client.eventNetwork("net-event").nodes.contains { $0.label == "Dan Hidden" })
            #expect(try await !ada.client.eventSummary("net-event").topByDegree.contains { $0.name == "Dan Hidden" })
        }
    }

    /// `ask`'s answer once `holds` holds of it, asking again every 50 ms for at most 30 s (a
    /// computation in the background; generous for a loaded machine).
    static func eventually<T>(_ ask: () async throws -> T, until holds: (T) -> Bool) async throws -> T {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let answer = try await ask()
            if holds(answer) || ContinuousClock.now > deadline { return answer }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
