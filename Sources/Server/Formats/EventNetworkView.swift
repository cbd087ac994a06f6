import ConstellationModel
import Foundation
import Graph
import GraphExport
import Store

/// One organizer's view of an event's picture: pseudonymous ids and labels applied to the cached
/// places, written as JSON (`EventNetwork`) or as a `LayoutDocument` (GEXF's timeline and CSV's
/// `first_at` from when each pair connected).
struct EventNetworkView {
    let network: EventNetwork

    /// `behind`: the picture was made before the graph's latest pairs (`EventNetwork.Scope.behind`).
    init(
        event: UUID, viewer: UUID?, graph: EventGraph, picture: SubgraphLayouts.Picture, behind: Bool,
        faces: [UUID: EventIdentity.Face]
    ) {
        let people = graph.people
        var degree = [Int](repeating: 0, count: people.count)
        for (a, b) in graph.ends {
            degree[Int(a)] += 1
            degree[Int(b)] += 1
        }
        let ids = people.map { faces[$0.id]?.id ?? "" }
        let byId = people.indices.sorted { ids[$0] < ids[$1] }
        let nodes = byId.map { i in
            let person = people[i]
            let place = picture.place(at: i, of: person.id)
            return EventNetwork.Node(
                id: ids[i], label: faces[person.id]?.label ?? "", x: place?.point.x ?? 0, y: place?.point.y ?? 0,
                degree: degree[i], isMe: person.id == viewer, community: place?.community,
                pseudonymous: faces[person.id]?.pseudonymous ?? true)
        }
        // In the order the pairs connected, as the event's timeline replays them, then by the ends'
        // ids, compared by their ranks among the nodes' ids (equal ids, equal ranks).
        var rank = [Int32](repeating: 0, count: people.count)
        for (k, i) in byId.enumerated() { rank[i] = k > 0 && ids[i] == ids[byId[k - 1]] ? rank[byId[k - 1]] : Int32(k) }
        let keys = zip(graph.pairs, graph.ends).enumerated().map { p, pair in
            (time: pair.0.firstAt.timeIntervalSinceReferenceDate, a: rank[Int(pair.1.a)], b: rank[Int(pair.1.b)], pair: p)
        }.sorted { ($0.time, $0.a, $0.b) < ($1.time, $1.a, $1.b) }
        let edges = keys.map { key in
            let (a, b) = graph.ends[key.pair]
            return EventNetwork.Edge(source: ids[Int(a)], target: ids[Int(b)], firstAt: graph.pairs[key.pair].firstAt)
        }
        network = EventNetwork(nodes: nodes, edges: edges, meta: picture.meta(of: nodes, scope: .init(eventId: event, behind: behind)))
    }

    /// The body and its media type in `format`: the API's own JSON, or a document.
    func render(_ format: LayoutDocument.Format) throws -> (bytes: [UInt8], type: String) {
        guard format != .json else { return (try network.jsonBytes(), format.mediaType) }
        return (Array(LayoutDocument(network).text(format).utf8), format.mediaType)
    }
}
