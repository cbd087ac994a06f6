import ConstellationModel
import Foundation
import Graph
import Store

/// One organizer's view of an event's picture: pseudonymous ids and labels applied to the cached
/// places, written as JSON (`EventNetwork`), GEXF (dynamic: each edge starts at its time),
/// GraphML, CSV (`source,target,first_at`), graphology or Cytoscape.js JSON (each edge with its `start`).
struct EventNetworkView {
    let network: EventNetwork

    init(event: UUID, viewer: UUID?, graph: EventGraph, picture: SubgraphLayouts.Picture, faces: [UUID: EventIdentity.Face]) {
        let people = graph.people
        var degree = [Int](repeating: 0, count: people.count)
        for (a, b) in graph.ends {
            degree[Int(a)] += 1
            degree[Int(b)] += 1
        }
        let ids = people.map { faces[$0.id]?.id ?? "" }
        let byId = people.indices.sorted { ids[$0] < ids[$1] }
        let nodes = byId.map { i in
            let person = people[i], place = picture.place(at: i, of: person.id)
            return EventNetwork.Node(id: ids[i], label: faces[person.id]?.label ?? "", x: place?.point.x ?? 0, y: place?.point.y ?? 0,
                                     degree: degree[i], isMe: person.id == viewer, community: place?.community)
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
        case "graphology": return (Array(document.text(.graphology).utf8), "application/json")
        case "cytoscape": return (Array(document.text(.cytoscape).utf8), "application/json")
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
