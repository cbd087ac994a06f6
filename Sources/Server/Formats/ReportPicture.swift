import ConstellationModel
import Foundation
import Graph

/// The report's constellation: the event's network laid out afresh, a dot per person coloured by
/// community, a line per connection (an even sample of them beyond `mostLines`), and no names,
/// labels or ids at all: a picture to print, not to look anyone up in.
struct ReportPicture {
    /// The most connections drawn: beyond it, every k-th, so a large event's page stays printable.
    static let mostLines = 20_000
    /// The first communities' colours, largest first; smaller ones take hues around the circle.
    private static let palette = [
        "#4263eb", "#e8590c", "#2f9e44", "#c2255c", "#7048e8", "#0c8599", "#f08c00", "#5c940d", "#862e9c", "#d6336c",
    ]

    private let points: [Point]
    private let communities: [Int32]
    private let lines: [(Int, Int)]
    /// How many connections there are, and how many are drawn.
    let connections: Int
    var drawn: Int { lines.count }

    /// Lays `graph` out (`ConstellationLayout`, fresh, with the server's seed) and colours it by `communities`.
    init(_ graph: Graph<UUID>, communities: Communities) {
        points = ConstellationLayout(seed: SubgraphLayouts.Picture.seed).layout(graph).positions
        self.communities = communities.membership
        let edges = graph.edgeList
        connections = edges.count
        let every = (edges.count + Self.mostLines - 1) / Self.mostLines
        lines = every > 1 ? stride(from: 0, to: edges.count, by: every).map { edges[$0] } : edges
    }

    func svg(title: String) -> String {
        let size = 600.0
        let margin = 12.0
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        let (minX, minY) = (xs.min() ?? 0, ys.min() ?? 0)
        let span = max((xs.max() ?? 0) - minX, (ys.max() ?? 0) - minY, 1e-9)
        let placed = points.map { point in
            (x: margin + (point.x - minX) / span * (size - 2 * margin), y: margin + (point.y - minY) / span * (size - 2 * margin))
        }
        var out =
            "<svg class=\"constellation\" viewBox=\"0 0 \(Int(size)) \(Int(size))\" role=\"img\" aria-label=\"\(title.xmlEscaped)\">\n"
            + "<g stroke=\"#868e96\" stroke-opacity=\"0.35\" stroke-width=\"0.6\">\n"
        for (a, b) in lines {
            out +=
                "<line x1=\"\(placed[a].x.svgNumber)\" y1=\"\(placed[a].y.svgNumber)\" x2=\"\(placed[b].x.svgNumber)\" y2=\"\(placed[b].y.svgNumber)\"/>\n"
        }
        out += "</g>\n<g>\n"
        let radius = points.count > 2_000 ? 1.5 : points.count > 300 ? 2.5 : 4
        for (index, point) in placed.enumerated() {
            out +=
                "<circle cx=\"\(point.x.svgNumber)\" cy=\"\(point.y.svgNumber)\" r=\"\(radius)\" fill=\"\(Self.colour(communities[index]))\"/>\n"
        }
        return out + "</g>\n</svg>\n"
    }

    private static func colour(_ community: Int32) -> String {
        let index = Int(community)
        return palette.indices.contains(index) ? palette[index] : "hsl(\((index * 137) % 360),45%,55%)"
    }
}
