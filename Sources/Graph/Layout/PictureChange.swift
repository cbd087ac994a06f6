/// How a picture looks and how it moved, as docs/graph-engine.md measures a picture that grows: the share
/// of people on its bounding box, how crowded it is, and how far the people of an earlier picture
/// moved. Distances are shares of the side of the picture's bounding box (its larger side).
public enum PictureChange {
    /// The share of points within `margin` of the side from an edge of their bounding box.
    public static func shareOnTheBox(_ points: [Point], margin: Double = 0.005) -> Double {
        guard let box = Box(points), box.side > 0 else { return 0 }
        let limit = margin * box.side
        let near = points.count { p in
            p.x - box.minX <= limit || box.maxX - p.x <= limit || p.y - box.minY <= limit || box.maxY - p.y <= limit
        }
        return Double(near) / Double(points.count)
    }

    /// Whether a share of `people` exceeds `reference` by at most 2 points, counted in whole
    /// people (2 points of 149 people is 2.98 of them: three are within it).
    public static func withinTwoPoints(_ share: Double, of reference: Double, people: Int) -> Bool {
        ((share - reference) * Double(people)).rounded() <= (0.02 * Double(people)).rounded(.up)
    }

    /// Pairs of points closer than `closeness` of the side, per point.
    public static func crowding(_ points: [Point], closeness: Double = 0.004) -> Double {
        guard let box = Box(points), box.side > 0 else { return 0 }
        let limit = closeness * box.side
        let grid = Grid(points, cellSize: limit)
        var slots: [Int] = []
        var pairs = 0
        for (i, p) in points.enumerated() {
            grid.neighbourSlots(of: p, into: &slots)
            for slot in slots {
                for j in grid.members[grid.start[slot]..<grid.start[slot + 1]] where Int(j) > i {
                    let q = points[Int(j)]
                    if (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) < limit * limit { pairs += 1 }
                }
            }
        }
        return Double(pairs) / Double(points.count)
    }

    /// The median distance the points drawn before moved (`before[i]` nil: not drawn then), as a
    /// share of the side of the newer picture's bounding box.
    public static func medianMove(from before: [Point?], to after: [Point]) -> Double {
        precondition(before.count == after.count, "one earlier place (or nil) per point")
        guard let box = Box(after), box.side > 0 else { return 0 }
        var moves = before.indices.compactMap { i in
            before[i].map { p in ((p.x - after[i].x) * (p.x - after[i].x) + (p.y - after[i].y) * (p.y - after[i].y)).squareRoot() }
        }
        guard !moves.isEmpty else { return 0 }
        moves.sort()
        return moves[moves.count / 2] / box.side
    }

    /// The bounding box of some points.
    struct Box {
        let minX, maxX, minY, maxY: Double
        var side: Double { max(maxX - minX, maxY - minY) }

        init?(_ points: [Point]) {
            guard let first = points.first else { return nil }
            var (minX, maxX, minY, maxY) = (first.x, first.x, first.y, first.y)
            for p in points {
                minX = min(minX, p.x)
                maxX = max(maxX, p.x)
                minY = min(minY, p.y)
                maxY = max(maxY, p.y)
            }
            (self.minX, self.maxX, self.minY, self.maxY) = (minX, maxX, minY, maxY)
        }
    }
}
