import ConstellationModel
import Foundation
import Graph
import GraphExport
import Hummingbird
import Store

/// An event's constellation and its statistics, for its organizers (or a view token's bearer:
/// `AppServices.requireEventReader`), in every format `LayoutDocument` writes.
///
/// Organizer views name people by per-event pseudonyms (`EventIdentity`), never by profile id,
/// and by name only those who chose `named`. Names are applied per response, so a change of
/// visibility re-labels the cached picture without laying it out again.
struct EventNetworkController {
    let services: AppServices
    /// The graph caches, quota and threads, built once with the other services.
    var work: GraphWork { services.graphWork }

    static let tooLarge = Problem(
        .eventTooLarge,
        detail: "More people connected at it than the server's event network limit.")

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("events/:event/network", use: network)
        group.get("events/:event/network/stats", use: stats)
    }

    @Sendable func network(_ request: Request, context: AppRequestContext) async throws -> Response {
        let reader = try await services.requireEventReader(context, asWall: try request.asksForTheWall())
        let event = reader.event.id
        let format = try LayoutDocument.Format.requested(by: request, offering: [.json, .gexf, .graphml, .csv, .graphology, .cytoscape])
        let key = RenderingKey(event: event, format: format, showsNames: reader.showsNames, viewer: reader.organizer)
        // Admitted as one of the reader's graph requests, shared or not (a shared answer is quick).
        // Others may wait for the work it starts: it runs even if its client leaves.
        let rendered = try await work.run(
            "picture", event: event, credential: reader.quotaKey, allowance: reader.allowance, sharedResult: "picture",
            clientGone: { false }
        ) {
            try await work.renderings.value(for: key) { [self] in
                let (graph, picture, behind) = try await picture(of: event)
                let identity = EventIdentity(keyRing: services.keyRing)
                return try await work.compute.run("export") { () -> Result<Rendering, any Error> in
                    Result {
                        let view = EventNetworkView(
                            event: event, viewer: reader.organizer, graph: graph, picture: picture, behind: behind,
                            faces: try identity.faces(of: graph.people, at: event, showingNames: reader.showsNames))
                        let (bytes, type) = try view.render(format)
                        return Rendering(bytes: bytes, type: type)
                    }
                }.get()
            }
        }
        return .fresh(rendered.bytes, contentType: rendered.type)
    }

    @Sendable func stats(_ request: Request, context: AppRequestContext) async throws -> Response {
        let reader = try await services.requireEventReader(context)
        let event = reader.event.id
        // Others may wait for the statistics it starts (shared by graph version): they are made even
        // if its client leaves, or a screen still there got the leaver's `client_gone`.
        let computed = try await work.run(
            "statistics", event: event, credential: reader.quotaKey, allowance: reader.allowance, clientGone: { false }
        ) {
            let graph = try await graph(of: event)
            let identity = EventIdentity(keyRing: services.keyRing)
            let version = SubgraphLayouts.version(nodes: graph.people.map(\.id), edges: graph.ends.lazy.map { ($0.a, $0.b) })
            let subject = SubgraphLayouts.Subject.event(event, forTheRoom: !reader.showsNames)
            return try await work.statistics.value(for: subject, version: version) { [compute = work.compute] _ in
                try await compute.run("statistics") { () -> Result<GraphStatistics, any Error> in
                    Result {
                        let faces = try identity.faces(of: graph.people, at: event, showingNames: reader.showsNames)
                        let ids = { (id: UUID) in faces[id]?.id ?? "" }
                        let pseudonymous = Graph(nodes: graph.people.map { ids($0.id) }, edges: graph.pairs.map { (ids($0.a), ids($0.b)) })
                        return GraphStatistics(pseudonymous, seed: SubgraphLayouts.Picture.seed)
                    }
                }.get()
            }
        }
        return try Response.json(computed)
    }

    /// The event's graph and picture, as everyone watching it shares them (`pictureInterval`, and
    /// across servers `StoredEventPictures`); its people's names and choices as they are now, if a
    /// member changed theirs since it was made.
    private func picture(of event: UUID) async throws -> (EventGraph, SubgraphLayouts.Picture, behind: Bool) {
        let choices = work.choices.revision(of: event)
        let shared = try await work.eventPictures.value(for: event) { [self] in
            let (graph, picture, behind) = try await work.storedPictures.picture(of: event) { try await self.graph(of: event) }
            return EventPicture(graph: graph, picture: picture, behind: behind, choices: choices)
        }
        guard shared.choices != work.choices.revision(of: event) else { return (shared.graph, shared.picture, shared.behind) }
        return (try await services.events.relabelled(shared.graph), shared.picture, shared.behind)
    }

    private func graph(of event: UUID) async throws -> EventGraph {
        guard let graph = try await work.eventGraphs.graph(of: event, limit: services.configuration.eventNetworkLimit) else {
            throw Self.tooLarge
        }
        work.noteSize(of: event, members: graph.people.count, pairs: graph.pairs.count)
        return graph
    }
}
