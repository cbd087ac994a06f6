import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing

/// A person who blocked me, or whom I blocked, appears nowhere in what I can read: not in my
/// depth-2 network or its statistics (where a block's removed edge would still leave them, through
/// a friend), not as a profile.
@Suite(.tier(.database)) struct BlockVisibilityTests {
    @Test func blockedPeopleLeaveMySecondRingAndTheirProfile() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, carol, dave, erin) = try await server.users("Ada", "Bob", "Carol", "Dave", "Erin")
            // Ada — Bob, and Bob — Carol, Dave, Erin: all three are Ada's second ring.
            _ = try await bob.client.scan(ada.client)
            for friend in [carol, dave, erin] {
                _ = try await friend.client.scan(bob.client)
            }
            let before = try await ada.client.network(depth: 2)
            #expect(Set(before.nodes.map(\.label)) == ["Ada", "Bob", "Carol", "Dave", "Erin"])
            _ = try await carol.client.block(ada.profile.id)  // Carol blocked Ada
            _ = try await ada.client.block(dave.profile.id)  // Ada blocked Dave
            let after = try await ada.client.network(depth: 2)
            #expect(Set(after.nodes.map(\.label)) == ["Ada", "Bob", "Erin"])
            let ids = Set(after.nodes.map(\.id))
            #expect(after.edges.allSatisfy { ids.contains($0.source) && ids.contains($0.target) })
            let stats = try await ada.client.send(.GET, "/v1/me/network/stats?depth=2")
            let nodes = try #require((try JSONSerialization.jsonObject(with: Data(stats.body)) as? [String: Any])?["nodes"] as? Int)
            #expect(nodes == 3)
            for hidden in [carol, dave] {
                await expectProblem(404, "not_found") { _ = try await ada.client.profile(id: hidden.profile.id) }
                await expectProblem(404, "not_found") { _ = try await hidden.client.profile(id: ada.profile.id) }
            }
            #expect(try await ada.client.profile(id: erin.profile.id).displayName == "Erin")
            // Bob still sees everyone: the blocks are between the others and Ada.
            #expect(try await bob.client.network(depth: 1).nodes.count == 5)
        }
    }
}
