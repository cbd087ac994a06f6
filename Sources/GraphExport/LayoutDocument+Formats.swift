import ConstellationModel
import Foundation

extension LayoutDocument {
    public enum Format: String, CaseIterable, Sendable {
        case json, svg, gexf, graphml, graphology, cytoscape, csv

        /// The media type of a document in this format.
        public var mediaType: String {
            switch self {
            case .json, .graphology, .cytoscape: "application/json"
            case .svg: "image/svg+xml"
            case .gexf: "application/gexf+xml"
            case .graphml: "application/graphml+xml"
            case .csv: "text/csv; charset=utf-8; header=present"
            }
        }
    }

    /// Writes the document in `format` to `sink` (and finishes it).
    public func write(_ format: Format, to sink: TextSink) {
        switch format {
        case .json: writeJSON(to: sink)
        case .svg: writeSVG(to: sink)
        case .gexf: writeGEXF(to: sink)
        case .graphml: writeGraphML(to: sink)
        case .graphology: writeGraphology(to: sink)
        case .cytoscape: writeCytoscape(to: sink)
        case .csv: writeCSV(to: sink)
        }
        sink.finish()
    }

    /// The whole document as one string (for small documents).
    public func text(_ format: Format) -> String {
        var whole = ""
        write(format, to: TextSink { whole += $0 })
        return whole
    }

    public func gexf() -> String { text(.gexf) }
    public func graphml() -> String { text(.graphml) }
    public func svg() -> String { text(.svg) }
}

extension LayoutDocument {
    /// The JSON shape (as `JSONEncoder` would write it with sorted keys), streamed.
    private func writeJSON(to out: TextSink) {
        out += "{\"edges\":["
        for (index, edge) in edges.enumerated() {
            let start = edge.start.map { "\"start\":\(json($0))," } ?? ""
            out += (index == 0 ? "" : ",") + "{\(start)\"source\":\(json(edge.source)),\"target\":\(json(edge.target))}"
        }
        out += "],\"meta\":" + metaJSON() + ",\"nodes\":["
        for (index, node) in nodes.enumerated() {
            var item = (index == 0 ? "" : ",") + "{"
            if let community = node.community { item += "\"community\":\(community)," }
            item += "\"degree\":\(node.degree),\"id\":\(json(node.id)),"
            if let label = node.label { item += "\"label\":\(json(label))," }
            item += "\"x\":\(node.x),\"y\":\(node.y)}"
            out += item
        }
        out += "]}\n"
    }

    private func metaJSON() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(meta)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Whether the edges say when they appeared: an event's network, or edges that carry a `start`.
    private var isTimed: Bool { timed || edges.contains { $0.start != nil } }

    /// `text` as a JSON string literal.
    func json(_ text: String) -> String {
        JSONBytes.quoted(text)
    }

    /// RFC 4180: a header and CRLF lines, `source,target`, `first_at` when edges say when they
    /// appeared, then each end's label as the picture shows it (`source_label,target_label`; empty
    /// for someone shown without one). Fields that hold a comma, a quote or a line break are quoted.
    private func writeCSV(to out: TextSink) {
        let timed = isTimed
        let labels = Dictionary(nodes.map { ($0.id, $0.label ?? "") }, uniquingKeysWith: { first, _ in first })
        out += timed ? "source,target,first_at,source_label,target_label\r\n" : "source,target,source_label,target_label\r\n"
        for edge in edges {
            out += csv(edge.source) + "," + csv(edge.target) + (timed ? "," + csv(edge.start ?? "") : "")
            out += "," + csv(labels[edge.source] ?? "") + "," + csv(labels[edge.target] ?? "") + "\r\n"
        }
    }

    private func csv(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// GEXF 1.3 with `viz:position` and a `community` attribute (Gephi, sigma.js); when edges carry
    /// a `start`, a dynamic graph (`timeformat="dateTime"`) whose timeline adds each edge at its time.
    private func writeGEXF(to out: TextSink) {
        let dynamic = isTimed ? " mode=\"dynamic\" timeformat=\"dateTime\"" : ""
        out += """
            <?xml version="1.0" encoding="UTF-8"?>
            <gexf xmlns="http://gexf.net/1.3" xmlns:viz="http://gexf.net/1.3/viz" version="1.3">
            <graph defaultedgetype="undirected"\(dynamic)>
            <attributes class="node"><attribute id="community" title="community" type="integer"/><attribute id="degree" title="degree" type="integer"/></attributes>
            <nodes>

            """
        for node in nodes {
            out += "<node id=\"\(node.id.xmlEscaped)\" label=\"\((node.label ?? node.id).xmlEscaped)\"><attvalues>"
            if let community = node.community { out += "<attvalue for=\"community\" value=\"\(community)\"/>" }
            out += "<attvalue for=\"degree\" value=\"\(node.degree)\"/></attvalues>"
            out += "<viz:position x=\"\(node.x)\" y=\"\(node.y)\" z=\"0\"/></node>\n"
        }
        out += "</nodes>\n<edges>\n"
        for (index, edge) in edges.enumerated() {
            let start = edge.start.map { " start=\"\($0.xmlEscaped)\"" } ?? ""
            out += "<edge id=\"\(index)\" source=\"\(edge.source.xmlEscaped)\" target=\"\(edge.target.xmlEscaped)\"\(start)/>\n"
        }
        out += "</edges>\n</graph>\n</gexf>\n"
    }

    /// GraphML with `x`, `y`, `community` and `degree` node data (yEd, Cytoscape, networkx).
    private func writeGraphML(to out: TextSink) {
        out += """
            <?xml version="1.0" encoding="UTF-8"?>
            <graphml xmlns="http://graphml.graphdrawing.org/xmlns">
            <key id="label" for="node" attr.name="label" attr.type="string"/>
            <key id="x" for="node" attr.name="x" attr.type="double"/>
            <key id="y" for="node" attr.name="y" attr.type="double"/>
            <key id="community" for="node" attr.name="community" attr.type="int"/>
            <key id="degree" for="node" attr.name="degree" attr.type="int"/>

            """
        if edges.contains(where: { $0.start != nil }) {
            out += "<key id=\"start\" for=\"edge\" attr.name=\"start\" attr.type=\"string\"/>\n"
        }
        out += "<graph edgedefault=\"undirected\">\n"
        for node in nodes {
            out += "<node id=\"\(node.id.xmlEscaped)\"><data key=\"label\">\((node.label ?? node.id).xmlEscaped)</data>"
            out += "<data key=\"x\">\(node.x)</data><data key=\"y\">\(node.y)</data>"
            if let community = node.community { out += "<data key=\"community\">\(community)</data>" }
            out += "<data key=\"degree\">\(node.degree)</data></node>\n"
        }
        for edge in edges {
            let end = edge.start.map { "><data key=\"start\">\($0.xmlEscaped)</data></edge>" } ?? "/>"
            out += "<edge source=\"\(edge.source.xmlEscaped)\" target=\"\(edge.target.xmlEscaped)\"\(end)\n"
        }
        out += "</graph>\n</graphml>\n"
    }

    /// A standalone SVG: edges as faint lines, nodes as dots coloured by community.
    private func writeSVG(to out: TextSink) {
        let size = 1000.0
        let margin = 20.0
        let box = meta.box
        let span = max(box.width, box.height, 1e-9)
        func place(_ x: Double, _ y: Double) -> (Double, Double) {
            (margin + (x - box.minX) / span * (size - 2 * margin), margin + (y - box.minY) / span * (size - 2 * margin))
        }
        let index = Dictionary(nodes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        out +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(size))\" height=\"\(Int(size))\" viewBox=\"0 0 \(Int(size)) \(Int(size))\">\n"
        out +=
            "<rect width=\"100%\" height=\"100%\" fill=\"#0b1026\"/>\n<g stroke=\"#8da2ff\" stroke-opacity=\"0.15\" stroke-width=\"0.5\">\n"
        for edge in edges {
            guard let a = index[edge.source].map({ nodes[$0] }), let b = index[edge.target].map({ nodes[$0] }) else { continue }
            let (x1, y1) = place(a.x, a.y)
            let (x2, y2) = place(b.x, b.y)
            out += "<line x1=\"\(x1.svgNumber)\" y1=\"\(y1.svgNumber)\" x2=\"\(x2.svgNumber)\" y2=\"\(y2.svgNumber)\"/>\n"
        }
        out += "</g>\n<g>\n"
        let radius = nodes.count > 5_000 ? 1.0 : 2.5
        for node in nodes {
            let (x, y) = place(node.x, node.y)
            let hue = ((node.community ?? 0) * 137) % 360
            out +=
                "<circle cx=\"\(x.svgNumber)\" cy=\"\(y.svgNumber)\" r=\"\(radius)\" fill=\"hsl(\(hue),80%,65%)\"><title>\((node.label ?? node.id).xmlEscaped)</title></circle>\n"
        }
        out += "</g>\n</svg>\n"
    }
}
