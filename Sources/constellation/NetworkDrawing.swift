import ConstellationModel
import Foundation

/// Draws a laid-out network, mine or an event's, as terminal text or SVG.
enum NetworkDrawing {
    /// A character canvas: `@` is you, digits and `*` the others, `·` the links; a legend follows.
    /// Every line fits in `columns` terminal columns; the canvas keeps a terminal cell's 1:2 aspect.
    /// `empty` is what to say instead when there is no one else to draw.
    static func text(
        _ network: some DrawableNetwork, columns: Int,
        empty: String = "Your constellation is just you so far: `constellation show` and let someone scan it."
    ) -> String {
        let placed = network.placed
        guard placed.count > 1 else { return DisplayWidth.wrap(empty, to: columns).joined(separator: "\n") }
        let width = max(1, min(columns - 1, 100))
        let height = max(3, width * 11 / 36)
        var canvas = Array(repeating: Array(repeating: Character(" "), count: width), count: height)
        func cell(_ place: Double, across cells: Int) -> Int { Int(((place + 1) / 2 * Double(cells - 1)).rounded()) }
        let cells = Dictionary(
            placed.map { ($0.node.id, (cell($0.x, across: width), cell($0.y, across: height))) }, uniquingKeysWith: { first, _ in first })
        for edge in network.links {
            guard let (x0, y0) = cells[edge.source], let (x1, y1) = cells[edge.target] else { continue }
            let steps = max(abs(x1 - x0), abs(y1 - y0), 1)
            for step in 1..<steps {
                let x = x0 + (x1 - x0) * step / steps
                let y = y0 + (y1 - y0) * step / steps
                if canvas[y][x] == " " { canvas[y][x] = "·" }
            }
        }
        let others = placed.map(\.node).filter { !$0.isMe }.sorted { ($0.degree, $1.label) > ($1.degree, $0.label) }
        for (number, node) in others.enumerated() {
            guard let (x, y) = cells[node.id] else { continue }
            canvas[y][x] = number < 9 ? Character(String(number + 1)) : "*"
        }
        if let me = placed.first(where: \.node.isMe), let (x, y) = cells[me.node.id] {
            canvas[y][x] = "@"
        }
        var lines = canvas.map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
        lines.append("")
        lines += DisplayWidth.wrap(network.caption, to: columns)
        for (number, node) in others.prefix(9).enumerated() {
            let links = " (\(node.degree) link\(node.degree == 1 ? "" : "s"))"
            let label = DisplayWidth.truncate(node.label, to: max(1, columns - 2 - DisplayWidth.of(links)))
            lines.append(DisplayWidth.truncate("\(number + 1) \(label)\(links)", to: columns))
        }
        if others.count > 9 { lines += DisplayWidth.wrap("* and \(others.count - 9) more", to: columns) }
        return lines.joined(separator: "\n")
    }
}
