import ConstellationModel
import Foundation
import Graph
import GraphExport
import Hummingbird

/// `GET /v1/me/network` and `GET /v1/me/network/stats`: me, the people within `depth` (1 or 2)
/// connections, and the edges among them, laid out (JSON, GEXF, GraphML, graphology or Cytoscape.js JSON)
/// or measured (JSON).
struct NetworkController {
    let services: AppServices
    /// The graph caches, quota and threads, built once with the other services.
    var work: GraphWork { services.graphWork }

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("me/network", use: network)
        group.get("me/network/stats", use: stats)
    }

    @Sendable func network(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let depth = try Self.depth(request)
        let format = try LayoutDocument.Format.requested(by: request, offering: [.json, .gexf, .graphml, .graphology, .cytoscape])
        let network = try await work.run("network", person: me.id, clientGone: context.clientIsGone) {
            let hood = try await services.connectionReads.neighbourhood(
                of: me.id, depth: depth, limit: services.configuration.networkSizeLimit)
            let picture = try await work.layouts.picture(
                of: .network(of: me.id, depth: depth), nodes: hood.profiles.map(\.id), edges: hood.edges)
            return Self.network(me: me.id, depth: depth, hood: hood, picture: picture)
        }
        guard format != .json else { return try .json(network) }
        return .fresh(Array(LayoutDocument(network).text(format).utf8), contentType: format.mediaType)
    }

    /// Computed once per version of the network, however many ask at once.
    @Sendable func stats(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let depth = try Self.depth(request)
        return try await work.run("statistics", person: me.id, clientGone: context.clientIsGone) {
            let hood = try await services.connectionReads.neighbourhood(
                of: me.id, depth: depth, limit: services.configuration.networkSizeLimit)
            let nodes = hood.profiles.map(\.id)
            let edges = hood.edges
            let version = SubgraphLayouts.version(nodes: nodes, edges: edges)
            let statistics = try await work.statistics.value(for: .network(of: me.id, depth: depth), version: version) {
                [compute = work.compute] _ in
                let graph = Graph(nodes: nodes.map(\.uuidString), edges: edges.map { ($0.0.uuidString, $0.1.uuidString) })
                return try await compute.run("statistics") { GraphStatistics(graph, seed: SubgraphLayouts.Picture.seed) }
            }
            return try .json(statistics)
        }
    }

    private static func depth(_ request: Request) throws -> Int {
        guard let text = request.uri.queryParameters.get("depth") else { return 1 }
        guard let depth = Int(text), depth == 1 || depth == 2 else { throw Problem(.invalidDepth, detail: "depth must be 1 or 2") }
        return depth
    }

    /// The wire form of a picture: names from the profiles, degrees from the edges.
    private static func network(
        me: UUID, depth: Int, hood: (profiles: [Profile], edges: [(UUID, UUID)], truncated: Bool), picture: SubgraphLayouts.Picture
    ) -> Network {
        var degree: [UUID: Int] = [:]
        for (a, b) in hood.edges {
            degree[a, default: 0] += 1
            degree[b, default: 0] += 1
        }
        let nodes = hood.profiles.enumerated().map { index, profile in
            let place = picture.place(at: index, of: profile.id)
            return Network.Node(
                id: profile.id.uuidString, label: profile.displayName, x: place?.point.x ?? 0, y: place?.point.y ?? 0,
                degree: degree[profile.id] ?? 0, isMe: profile.id == me, community: place?.community)
        }
        return Network(
            nodes: nodes,
            edges: hood.edges.map { Network.Edge(source: $0.0.uuidString, target: $0.1.uuidString) },
            meta: picture.meta(of: nodes, scope: .init(depth: depth, truncated: hood.truncated)))
    }

}
