import Foundation

/// Pushes apart points closer than a distance, half the shortfall each, for a few rounds: dots
/// that would be drawn on top of one another are drawn side by side (d3-force's collision force),
/// and points farther apart do not move.
enum Separation {
    static func apply(_ points: inout [Point], distance: Double, rounds: Int) {
        guard distance > 0, points.count > 1 else { return }
        var slots: [Int] = []
        for _ in 0..<rounds {
            let grid = Grid(points, cellSize: distance)
            var pushes = [Point](repeating: Point(x: 0, y: 0), count: points.count)
            var crowded = false
            for (i, p) in points.enumerated() {
                grid.neighbourSlots(of: p, into: &slots)
                for slot in slots {
                    for j in grid.members[grid.start[slot]..<grid.start[slot + 1]].lazy.map(Int.init) where j > i {
                        let (dx, dy) = (p.x - points[j].x, p.y - points[j].y)
                        let d = (dx * dx + dy * dy).squareRoot()
                        guard d < distance else { continue }
                        // The way apart: from one to the other, or for two on one spot a way of their own.
                        let (ux, uy) = d > 1e-9 * distance ? (dx / d, dy / d) : (cos(Double(i &+ j)), sin(Double(i &+ j)))
                        let half = (distance - d) / 2
                        pushes[i].x += ux * half
                        pushes[i].y += uy * half
                        pushes[j].x -= ux * half
                        pushes[j].y -= uy * half
                        crowded = true
                    }
                }
            }
            guard crowded else { return }
            for i in points.indices {
                points[i].x += pushes[i].x
                points[i].y += pushes[i].y
            }
        }
    }
}
