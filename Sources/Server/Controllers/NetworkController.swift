import ConstellationModel
import Foundation
import Graph
import Hummingbird

/// `GET /v1/me/network`: me, my connections and the edges among them, laid out for drawing.
struct NetworkController {
    let services: AppServices
    static let seed: UInt64 = 1

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("me/network", use: network)
    }

    @Sendable func network(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let (profiles, edges) = try await services.connections.neighbourhood(of: me.id)
        return try .json(Self.network(me: me.id, profiles: profiles, edges: edges))
    }

    /// Lays out the neighbourhood; the same graph always gives the same picture.
    static func network(me: UUID, profiles: [Profile], edges: [(UUID, UUID)]) -> Network {
        let graph = Graph(nodes: profiles.map(\.id), edges: edges)
        let positions = ForceLayout(seed: seed).positions(for: graph)
        let names = Dictionary(uniqueKeysWithValues: profiles.map { ($0.id, $0.displayName) })
        let nodes = graph.ids.enumerated().map { index, id in
            Network.Node(id: id.uuidString, label: names[id] ?? "", x: positions[index].x, y: positions[index].y,
                         degree: graph.degree(of: index), isMe: id == me)
        }
        let links = graph.edgeList.map { Network.Edge(source: nodes[$0.0].id, target: nodes[$0.1].id) }
        return Network(nodes: nodes, edges: links, meta: .init(box: [-1, -1, 1, 1], layout: "fruchterman-reingold", seed: seed))
    }
}
