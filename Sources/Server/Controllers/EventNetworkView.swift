import ConstellationModel
import Foundation
import Graph
import Store

/// One organizer's view of an event's picture: pseudonymous ids and labels applied to the cached
/// places, written as JSON (`EventNetwork`), GEXF (dynamic: each edge starts at its time),
/// GraphML or CSV (`source,target,first_at`).
struct EventNetworkView {
    let network: EventNetwork

    init(event: UUID, viewer: UUID, graph: EventGraph, picture: SubgraphLayouts.Picture, faces: [UUID: EventIdentity.Face]) {
        var degree: [UUID: Int] = [:]
        for pair in graph.pairs { degree[pair.a, default: 0] += 1; degree[pair.b, default: 0] += 1 }
        let nodes = graph.people.map { person in
            let place = picture.places[person.id], face = faces[person.id]
            return EventNetwork.Node(id: face?.id ?? "", label: face?.label ?? "", x: place?.point.x ?? 0, y: place?.point.y ?? 0,
                                     degree: degree[person.id] ?? 0, isMe: person.id == viewer, community: place?.community)
        }.sorted { $0.id < $1.id }
        // In the order the pairs connected, as the event's timeline replays them.
        let edges = graph.pairs.map { pair in
            EventNetwork.Edge(source: faces[pair.a]?.id ?? "", target: faces[pair.b]?.id ?? "", firstAt: pair.firstAt)
        }.sorted { ($0.firstAt, $0.source, $0.target) < ($1.firstAt, $1.source, $1.target) }
        let xs = nodes.map(\.x), ys = nodes.map(\.y)
        network = EventNetwork(nodes: nodes, edges: edges, meta: .init(
            eventId: event, box: boundingBox(xs: xs, ys: ys), layout: "constellation",
            seed: SubgraphLayouts.Picture.seed, warmStart: picture.warmStarted))
    }

    /// The body and its media type in `format` (one of `EventNetworkController.formats`).
    func render(_ format: String) throws -> (bytes: [UInt8], type: String) {
        switch format {
        case "gexf": return (Array(document.gexf().utf8), "application/gexf+xml")
        case "graphml": return (Array(document.graphml().utf8), "application/graphml+xml")
        case "csv": return (Array(csv.utf8), "text/csv; charset=utf-8; header=present")
        default: return (try network.jsonBytes(), "application/json")
        }
    }

    /// RFC 3339 in UTC, whole seconds (`2026-11-21T21:33:47Z`): GEXF's `dateTime` and CSV's time.
    static func time(_ date: Date) -> String {
        ISO8601Seconds.string(date)
    }

    private var document: LayoutDocument {
        LayoutDocument(
            nodes: network.nodes.map { .init(id: $0.id, label: $0.label, x: $0.x, y: $0.y, community: $0.community, degree: $0.degree) },
            edges: network.edges.map { .init(source: $0.source, target: $0.target, start: Self.time($0.firstAt)) },
            seed: network.meta.seed, warmStart: network.meta.warmStart, seconds: 0)
    }

    /// RFC 4180: a header, CRLF lines; ids are `p` and base32, times RFC 3339, so nothing needs quoting.
    private var csv: String {
        var out = "source,target,first_at\r\n"
        for edge in network.edges { out += "\(edge.source),\(edge.target),\(Self.time(edge.firstAt))\r\n" }
        return out
    }
}
