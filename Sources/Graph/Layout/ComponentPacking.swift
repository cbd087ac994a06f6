/// Places separately laid-out components side by side in rows, largest first, then scales
/// the whole picture so its larger side spans [-1, 1], centred.
enum ComponentPacking {
    static func pack(_ pieces: [(nodes: [Int], points: [Point])], nodeCount: Int) -> [Point] {
        var result = [Point](repeating: Point(x: 0, y: 0), count: nodeCount)
        guard !pieces.isEmpty else { return result }
        let boxes = pieces.map { piece -> (minX: Double, minY: Double, width: Double, height: Double) in
            let xs = piece.points.map(\.x)
            let ys = piece.points.map(\.y)
            return (xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!)
        }
        let order = pieces.indices.sorted { (pieces[$0].nodes.count, $1) > (pieces[$1].nodes.count, $0) }
        let gap = 2.0
        let area = boxes.reduce(0) { $0 + ($1.width + gap) * ($1.height + gap) }
        let rowWidth = max(area.squareRoot() * 1.2, order.map { boxes[$0].width + gap }.max() ?? 0)
        var x = 0.0
        var y = 0.0
        var rowHeight = 0.0
        for index in order {
            let box = boxes[index]
            if x > 0 && x + box.width > rowWidth {
                x = 0
                y += rowHeight + gap
                rowHeight = 0
            }
            for (k, v) in pieces[index].nodes.enumerated() {
                result[v] = Point(x: pieces[index].points[k].x - box.minX + x, y: pieces[index].points[k].y - box.minY + y)
            }
            x += box.width + gap
            rowHeight = max(rowHeight, box.height)
        }
        return normalized(result)
    }

    /// Centres the points and scales them uniformly so the larger side spans [-1, 1].
    static func normalized(_ points: [Point]) -> [Point] {
        guard let first = points.first else { return [] }
        var minX = first.x
        var maxX = first.x
        var minY = first.y
        var maxY = first.y
        for p in points {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        let span = max(maxX - minX, maxY - minY)
        let scale = span > 0 ? 2 / span : 1
        let cx = (minX + maxX) / 2
        let cy = (minY + maxY) / 2
        return points.map { Point(x: ($0.x - cx) * scale, y: ($0.y - cy) * scale) }
    }
}
