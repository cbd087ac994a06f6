import ConstellationModel

/// What `NetworkDrawing` draws: laid-out nodes and the links between them. My network (`GET /v1/me/network`) and an event's (`GET /v1/events/{event}/network`)
/// share their nodes' shape and differ in their edges and in how the picture is captioned.
protocol DrawableNetwork {
    var nodes: [Network.Node] { get }
    /// Each link as the ids of its two ends.
    var links: [(source: String, target: String)] { get }
    /// The line under the terminal picture, e.g. "@ you — 3 connections, 2 links".
    var caption: String { get }
}

extension DrawableNetwork {
    /// Where each node with finite coordinates is drawn, in [-1, 1]²: a layout is drawn within
    /// [-1, 1]², but a grown picture may reach past it (its `meta.box`), so the square is widened
    /// to hold every node and the picture scaled into it, keeping its shape.
    var placed: [(node: Network.Node, x: Double, y: Double)] {
        let finite = nodes.filter { $0.x.isFinite && $0.y.isFinite }
        let reach = finite.reduce(1.0) { max($0, abs($1.x), abs($1.y)) }
        return finite.map { ($0, $0.x / reach, $0.y / reach) }
    }
}

extension Network: DrawableNetwork {
    var links: [(source: String, target: String)] { edges.map { ($0.source, $0.target) } }

    var caption: String {
        let others = nodes.count(where: { !$0.isMe })
        return "@ you — \(others) connection\(others == 1 ? "" : "s"), \(edges.count) link\(edges.count == 1 ? "" : "s")"
    }
}

extension EventNetwork: DrawableNetwork {
    var links: [(source: String, target: String)] { edges.map { ($0.source, $0.target) } }

    var caption: String {
        "\(nodes.count) \(nodes.count == 1 ? "person" : "people"), \(edges.count) link\(edges.count == 1 ? "" : "s")"
            + (nodes.contains(where: \.isMe) ? " (@ is you)" : "")
    }
}
