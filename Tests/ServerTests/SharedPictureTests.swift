import ConstellationModel
import Foundation
import Server
import TestSupport
import Testing

/// One picture for many screens: the walls and live pages that follow an event share its picture
/// and its summary for `pictureInterval`, however fast its graph changes, so ten screens cost one
/// layout an interval rather than ten; a member's change of how the event shows them is seen at
/// once. (Before, a picture was cached per graph version, and at a conference's pace the version
/// changed several times a second: each screen laid out the whole event again.)
@Suite(.tier(.database)) struct SharedPictureTests {
    typealias Users = EventNetworkTests

    /// A minute's interval, so that nothing in the test outlives it on a loaded machine.
    @Test func tenScreensShareOnePictureAndOneSummaryUntilAChoiceChanges() async throws {
        try await TestServer.run(configure: { $0.pictureInterval = .seconds(60) }) { server throws in
            let (ada, _, cleo, _, eve, _) = try await Users.smallEvent(server)
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

            // Eve chooses her name: the next picture is made now, and has the new pair too.
            _ = try await eve.client.setEventVisibility(.named, at: "net-event")
            let after = try await ada.client.eventNetwork("net-event")
            #expect(after.edges.count == 5 && after.nodes.contains { $0.label == "Eve Hidden" })
            #expect(try await ada.client.eventSummary("net-event").connections == 5)
            #expect(await work.eventPictures.runs == 2)
            #expect(await work.summaries.runs == 2)
        }
    }
}
