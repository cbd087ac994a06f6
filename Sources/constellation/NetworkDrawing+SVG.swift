import ConstellationModel
import Foundation

extension NetworkDrawing {
    /// A standalone SVG: links as lines, people as dots (you highlighted), labels placed so that
    /// none overlaps another or a dot; the picture grows to hold every label it shows.
    static func svg(_ network: some DrawableNetwork, size: Double = 800) -> String {
        let margin = 60.0
        // You first, then the best connected: they choose their label's place first.
        let placed = network.placed.sorted {
            ($0.node.isMe ? 1 : 0, $0.node.degree, $1.node.label) > ($1.node.isMe ? 1 : 0, $1.node.degree, $0.node.label)
        }
        let nodes = placed.map(\.node)
        let dots = placed.map { place in
            LabelPlacement.Dot(
                x: margin + (place.x + 1) / 2 * (size - 2 * margin), y: margin + (place.y + 1) / 2 * (size - 2 * margin),
                radius: place.node.isMe ? 9.0 : 4.0 + min(6.0, Double(place.node.degree)), text: place.node.label)
        }
        let labels = LabelPlacement.place(dots)
        // The square, grown (with a little room) to hold any label that reaches past it.
        let frame = labels.compactMap { $0?.box }.reduce(LabelPlacement.Box(minX: 4, minY: 4, maxX: size - 4, maxY: size - 4)) {
            $0.union($1)
        }
        let (left, top) = (floor(frame.minX) - 4, floor(frame.minY) - 4)
        let (width, height) = (ceil(frame.maxX) + 4 - left, ceil(frame.maxY) + 4 - top)

        let points = Dictionary(zip(nodes.map(\.id), dots.map { ($0.x, $0.y) }), uniquingKeysWith: { first, _ in first })
        var svg = String(
            format: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"%.0f %.0f %.0f %.0f\">\n",
            width, height, left, top, width, height)
        svg += String(format: "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"#0b1026\"/>\n", left, top, width, height)
        svg += "<g stroke=\"#8da2ff\" stroke-opacity=\"0.5\">\n"
        for edge in network.links {
            guard let (x1, y1) = points[edge.source], let (x2, y2) = points[edge.target] else { continue }
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
