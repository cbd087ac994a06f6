import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing

/// The network view served again and again, and to many at once: the release server once
/// crashed on the second, cached request (a Dictionary miscompiled by the optimizer).
@Suite(.tier(.database)) struct NetworkViewTests {
    @Test func aLonePersonsNetworkServedTwiceIsTheSamePicture() async throws {
        try await TestServer.run { server throws in
            let me = try await server.user("Alone")
            let first = try await me.client.network()
            let second = try await me.client.network()
            #expect(first.nodes.count == 1 && first.nodes[0].isMe)
            #expect(second == first)
            #expect(try await server.client.health(), "the server is still up")
        }
    }

    @Test func twentyClientsAtOnceGetTheSamePicture() async throws {
        // The cap on one credential's graph requests is raised: this is about the cache under concurrency.
        try await TestServer.run(configure: { $0.graphRequestsPerCredential = 20 }) { server throws in
            let me = try await server.user("Me")
            for name in ["A", "B", "C", "D"] {
                let peer = try await server.user(name)
                _ = try await me.client.scan(peer.client)
            }
            let pictures = try await withThrowingTaskGroup(of: Network.self) { group in
                for index in 0..<20 { group.addTask { try await me.client.network(depth: index % 2 + 1) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(pictures.count == 20)
            let byDepth = Dictionary(grouping: pictures, by: \.meta.depth)
            for (_, same) in byDepth { #expect(same.allSatisfy { $0.nodes == same[0].nodes }, "one picture per depth") }
            #expect(try await me.client.network() == byDepth[1]?.first)
        }
    }

    @Test func aNetworkPastTheLimitIsCutAndSaysSo() async throws {
        try await TestServer.run(configure: { $0.networkSizeLimit = 3 }) { server throws in
            let me = try await server.user("Me")
            for name in ["A", "B", "C", "D"] {
                let peer = try await server.user(name)
                _ = try await me.client.scan(peer.client)
            }
            let cut = try await me.client.network()
            #expect(cut.meta.truncated)
            #expect(cut.nodes.count == 3)
            #expect(cut.nodes.contains { $0.isMe }, "I am never cut")
            #expect(
                cut.edges.allSatisfy { edge in cut.nodes.contains { $0.id == edge.source } && cut.nodes.contains { $0.id == edge.target } })
        }
        try await TestServer.run(configure: { $0.networkSizeLimit = 3 }) { server throws in
            let (me, peer, other) = try await server.users("Me", "A", "B")
            _ = try await me.client.scan(peer.client)
            _ = try await me.client.scan(other.client)
            let exact = try await me.client.network()
            #expect(!exact.meta.truncated && exact.nodes.count == 3, "exactly at the limit is not cut")
        }
    }
}
