import ConstellationModel
import Foundation

extension NetworkDrawing {
    /// A standalone SVG: links as lines, people as dots (you highlighted), labels placed so that
    /// none overlaps another or a dot; the picture grows to hold every label it shows.
    static func svg(_ network: some DrawableNetwork, size: Double = 800) -> String {
        let margin = 60.0
        func point(_ node: Network.Node) -> (x: Double, y: Double) {
            (margin + (node.x + 1) / 2 * (size - 2 * margin), margin + (node.y + 1) / 2 * (size - 2 * margin))
        }
        // You first, then the best connected: they choose their label's place first.
        let nodes = network.nodes.sorted { ($0.isMe ? 1 : 0, $0.degree, $1.label) > ($1.isMe ? 1 : 0, $1.degree, $0.label) }
        let dots = nodes.map { node in
            let (x, y) = point(node)
            return LabelPlacement.Dot(x: x, y: y, radius: node.isMe ? 9.0 : 4.0 + min(6.0, Double(node.degree)), text: node.label)
        }
        let labels = LabelPlacement.place(dots)
        // The square, grown (with a little room) to hold any label that reaches past it.
        let frame = labels.compactMap { $0?.box }.reduce(LabelPlacement.Box(minX: 4, minY: 4, maxX: size - 4, maxY: size - 4)) {
            $0.union($1)
        }
        let (left, top) = (floor(frame.minX) - 4, floor(frame.minY) - 4)
        let (width, height) = (ceil(frame.maxX) + 4 - left, ceil(frame.maxY) + 4 - top)

        let index = Dictionary(uniqueKeysWithValues: network.nodes.map { ($0.id, $0) })
        var svg = String(
            format: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"%.0f %.0f %.0f %.0f\">\n",
            width, height, left, top, width, height)
        svg += String(format: "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"#0b1026\"/>\n", left, top, width, height)
        svg += "<g stroke=\"#8da2ff\" stroke-opacity=\"0.5\">\n"
        for edge in network.links {
            guard let a = index[edge.source], let b = index[edge.target] else { continue }
            let (x1, y1) = point(a)
            let (x2, y2) = point(b)
            svg += String(format: "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x1, y1, x2, y2)
        }
        svg += "</g>\n<g font-family=\"sans-serif\" font-size=\"\(Int(LabelPlacement.fontSize))\" fill=\"#fff\">\n"
        for (node, (dot, label)) in zip(nodes, zip(dots, labels)) {
            svg += String(
                format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%@\"><title>%@</title></circle>\n",
                dot.x, dot.y, dot.radius, node.isMe ? "#ffd166" : "#ffffff", node.label.xmlEscaped)
            if let label {
                svg += String(
                    format: "<text x=\"%.1f\" y=\"%.1f\" textLength=\"%.1f\">%@</text>\n", label.x, label.y, label.width,
                    label.text.xmlEscaped
                )
            }
        }
        return svg + "</g>\n</svg>\n"
    }
}
