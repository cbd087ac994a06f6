import ConstellationModel
import Foundation
import TestSupport
import Testing

/// A wall (the picture projected for the room, through a wall's view link or `?view=wall`) labels
/// by name only those who chose to be named there, and says of everyone else that they are
/// pseudonymous, for the page to draw them without a label. How organizers see people is a
/// separate choice, and never reaches a wall.
@Suite(.tier(.database)) struct WallNamesTests {
    @Test func aWallNamesOnlyThoseWhoChoseItWhateverTheOrganizersSee() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo, dan, eve, _) = try await EventNetworkTests.smallEvent(server)
            // Bob: named for the organizers, not on the wall. Cleo: on the wall, a pseudonym for the organizers.
            _ = try await bob.client.setEventVisibility(.named, at: "net-event")
            let choice = try await cleo.client.setWallName(true, at: "net-event")
            #expect(choice.onWall && choice.visibility == .pseudonymous)
            #expect(try await cleo.client.myEvents().items.first { $0.event.slug == "net-event" }?.onWall == true)

            let wall = server.client.authenticated(try await ada.client.issueViewToken(for: "net-event", wall: true).token)
            for (how, network) in [
                ("a wall's link", try await wall.eventNetwork("net-event")),
                ("view=wall", try await ada.client.eventNetwork("net-event", asWall: true)),
            ] {
                #expect(network.nodes.filter { $0.pseudonymous == false }.map(\.label) == ["Cleo Hidden"], "\(how)")
                #expect(network.nodes.allSatisfy { $0.pseudonymous != nil }, "\(how): every node says which it is")
                let pseudonyms = network.nodes.filter { $0.pseudonymous == true }
                // No pseudonym reaches the room: no label at all, and the node's id for the page.
                #expect(pseudonyms.count == 3 && pseudonyms.allSatisfy { $0.label.isEmpty && !$0.id.isEmpty }, "\(how)")
                // Ada is in the picture: an organizer projecting it does not show the room which one she is.
                #expect(network.nodes.count == 4 && network.nodes.allSatisfy { !$0.isMe }, "\(how)")
            }
            // The wall's summary lists only those on the wall, by name: not Bob, whom only the
            // organizers see by name, and no pseudonym.
            let summary = try await wall.eventSummary("net-event")
            let listed = summary.topByDegree + summary.topByBetweenness
            #expect(!listed.isEmpty && listed.allSatisfy { $0.name == "Cleo Hidden" && $0.named }, "\(listed)")
            let organizersSummary = try await ada.client.eventSummary("net-event")
            #expect(organizersSummary.topByDegree.contains { $0.name == "Bob Hidden" && $0.named })
            #expect(organizersSummary.topByDegree.contains { $0.name.hasPrefix("Attendee ") && !$0.named })
            // The organizers' own view follows the choice of visibility, not the wall's.
            let organizers = try await ada.client.eventNetwork("net-event")
            #expect(organizers.nodes.filter { $0.pseudonymous == false }.map(\.label) == ["Bob Hidden"])

            // The live stream of a wall: a new pair of Cleo's and Eve's, Cleo by name, Eve not.
            let key = try #require(ada.client.apiKey)
            let stream = try await EventStreamTests.Stream(
                port: server.port, path: "/v1/events/net-event/stream?view=wall", credential: key)
            #expect(try await stream.next().name == "hello")
            #expect(try await dan.client.setWallName(false, at: "net-event").onWall == false)
            try await EventNetworkTests.connect(cleo, eve, at: "net-event")
            let message = try await stream.next()
            let pair = try JSONDecoder.constellation.decode(LiveConnection.self, from: Data(message.data.utf8))
            let people = [pair.source, pair.target]
            #expect(people.filter { !$0.pseudonymous }.map(\.label) == ["Cleo Hidden"])
            #expect(people.contains { $0.pseudonymous && $0.label.isEmpty })

            // Any other view is refused, and says so.
            let other = try await EventStreamTests.Stream(
                port: server.port, path: "/v1/events/net-event/network?view=room", credential: key)
            #expect(other.status == 400)
        }
    }
}
