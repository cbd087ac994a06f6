/// The JSON that browser graph libraries load as they are: graphology's serialization (what
/// sigma.js draws) and Cytoscape.js's elements.
extension LayoutDocument {
    /// graphology's serialized graph (`graph.import(data)`), undirected, no parallel edges, no loops:
    /// `{"attributes":{},"options":{…},"nodes":[{"key","attributes":{"x","y","label","size","degree","community"}}],
    /// "edges":[{"key","source","target","undirected":true,"attributes":{"start"}}]}`. A node's `size`
    /// (sigma's radius) grows with the square root of its degree; edge keys are `e0`, `e1`, ….
    func writeGraphology(to out: TextSink) {
        out += "{\"attributes\":{},\"options\":{\"type\":\"undirected\",\"multi\":false,\"allowSelfLoops\":false},\"nodes\":["
        for (index, node) in nodes.enumerated() {
            var item = (index == 0 ? "" : ",") + "{\"key\":\(json(node.id)),\"attributes\":{\"x\":\(node.x),\"y\":\(node.y)"
            item += ",\"label\":\(json(node.label ?? node.id)),\"size\":\(Self.size(degree: node.degree)),\"degree\":\(node.degree)"
            if let community = node.community { item += ",\"community\":\(community)" }
            out += item + "}}"
        }
        out += "],\"edges\":["
        for (index, edge) in edges.enumerated() {
            let attributes = edge.start.map { "{\"start\":\(json($0))}" } ?? "{}"
            out +=
                (index == 0 ? "" : ",")
                + "{\"key\":\"e\(index)\",\"source\":\(json(edge.source)),\"target\":\(json(edge.target)),\"undirected\":true,\"attributes\":\(attributes)}"
        }
        out += "]}\n"
    }

    /// Cytoscape.js elements (`cytoscape({elements: data.elements, layout: {name: "preset"}})`):
    /// `{"elements":{"nodes":[{"data":{"id","label","degree","community"},"position":{"x","y"}}],
    /// "edges":[{"data":{"id","source","target","start"}}]}}`. Positions are the layout's times 1000
    /// (Cytoscape draws nodes 30 pixels wide at zoom 1); edge ids are `e0`, `e1`, …, with more
    /// underscores after the `e` while a node id could be taken for one (ids share one namespace).
    func writeCytoscape(to out: TextSink) {
        out += "{\"elements\":{\"nodes\":["
        for (index, node) in nodes.enumerated() {
            var item =
                (index == 0 ? "" : ",")
                + "{\"data\":{\"id\":\(json(node.id)),\"label\":\(json(node.label ?? node.id)),\"degree\":\(node.degree)"
            if let community = node.community { item += ",\"community\":\(community)" }
            out += item + "},\"position\":{\"x\":\(node.x * 1000),\"y\":\(node.y * 1000)}}"
        }
        out += "],\"edges\":["
        var prefix = "e"
        while nodes.contains(where: { $0.id.hasPrefix(prefix) }) { prefix += "_" }
        for (index, edge) in edges.enumerated() {
            let start = edge.start.map { ",\"start\":\(json($0))" } ?? ""
            out +=
                (index == 0 ? "" : ",")
                + "{\"data\":{\"id\":\"\(prefix)\(index)\",\"source\":\(json(edge.source)),\"target\":\(json(edge.target))\(start)}}"
        }
        out += "]}}\n"
    }

    /// A node's radius for sigma.js: 2 for the isolated, growing as the square root of the degree.
    private static func size(degree: Int) -> Double {
        ((2 + Double(degree).squareRoot()) * 100).rounded() / 100
    }
}
