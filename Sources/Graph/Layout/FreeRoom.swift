/// Room in a picture for groups of newcomers: for people who met only each other, as a fresh
/// layout packs its small components, first in the empty parts of the picture's bounding box
/// (its corners, around a round picture), then just outside it, where it keeps the box's larger
/// side, the picture's scale, from growing; for a group that met people drawn already, the
/// nearest room to them. A grid of unit cells over the box and a margin around it holds
/// each cell's distance, in cells, to the nearest cell taken; cells are offered in that order.
///
/// Placing such groups at the farthest point's distance in a random direction, as before, put
/// them on a circle around the picture's corners: its box grew by 40% at once and everything
/// drawn shrank with it (a 10,000-person picture, still mostly scattered pairs, then had 0.7
/// more pairs a person closer than 0.4% of the side than a fresh layout).
struct FreeRoom {
    private let minX: Double, minY: Double, cell: Double
    private let width: Int, height: Int
    /// Per cell, the distance (Chebyshev, in cells) to the nearest cell taken.
    private var clearance: [Int32]
    /// The picture's bounding box, which the offers keep from growing.
    private let box: PictureChange.Box
    /// The cells in the order they are offered to groups with no target: made when first needed
    /// (a picture whose newcomers all met people drawn already never needs it).
    private var order: [Int32]?
    /// Cells before it in `order` are too close to a taken one for any group.
    private var first = 0
    /// The largest group's radius, in cells: farther than that beyond it, a taken cell changes no offer.
    private let widest: Int32

    /// Room around `points` (in units of the picture's median pair) for groups of the given
    /// sizes, which then ask for it in turn (`take(radius:)` with `FreeRoom.radius(of:)`).
    init(around points: [Point], groups sizes: [Int]) {
        precondition(!points.isEmpty, "a picture to make room in")
        let box = PictureChange.Box(points)!
        self.box = box
        let (lowX, highX, lowY, highY, side) = (box.minX, box.maxX, box.minY, box.maxY, box.side)
        // Cells of a unit, fewer (larger) for a very large picture; a margin with room for all the groups.
        let cell = max(1, side / 400)
        self.cell = cell
        let reaches = sizes.map { Int(Self.cells(Self.radius(of: $0), of: cell)) }
        widest = Int32(reaches.max() ?? 0)
        // Enough for every group's square, side by side.
        let room = Double(reaches.reduce(0) { $0 + (2 * $1 + 1) * (2 * $1 + 1) }).squareRoot()
        let margin = Int(room.rounded(.up)) + 2 * Int(widest) + 2
        minX = lowX - Double(margin) * cell
        minY = lowY - Double(margin) * cell
        width = Int(((highX - lowX) / cell).rounded(.down)) + 1 + 2 * margin
        height = Int(((highY - lowY) / cell).rounded(.down)) + 1 + 2 * margin
        clearance = [Int32](repeating: Int32.max, count: width * height)
        // Distances to the drawn points: a breadth-first search from every taken cell at once.
        var queue: [Int32] = []
        for p in points {
            let index = Int(((p.y - minY) / cell).rounded(.down)) * width + Int(((p.x - minX) / cell).rounded(.down))
            if clearance[index] != 0 {
                clearance[index] = 0
                queue.append(Int32(index))
            }
        }
        var next = 0
        while next < queue.count {
            let index = Int(queue[next])
            next += 1
            let (x, y) = (index % width, index / width)
            for dy in -1...1 {
                for dx in -1...1 where (0..<width).contains(x + dx) && (0..<height).contains(y + dy) {
                    let neighbour = (y + dy) * width + x + dx
                    if clearance[neighbour] == Int32.max {
                        clearance[neighbour] = clearance[index] + 1
                        queue.append(Int32(neighbour))
                    }
                }
            }
        }
    }

    /// The cells in the order they are offered: the fewest cells the box's larger side would grow
    /// by first; then, inside the box, the farthest from its centre (its empty corners), outside
    /// it the nearest. Cells next to a taken one are never offered.
    private func offers() -> [Int32] {
        let (lowX, highX, lowY, highY, side) = (box.minX, box.maxX, box.minY, box.maxY, box.side)
        let centre = Point(x: (lowX + highX) / 2, y: (lowY + highY) / 2)
        let farthest = Double(width + height) * cell
        var offers: [(key: Double, cell: Int32)] = []
        for index in clearance.indices where clearance[index] > 1 {
            let x = minX + (Double(index % width) + 0.5) * cell
            let y = minY + (Double(index / width) + 0.5) * cell
            let grown = max(max(highX, x) - min(lowX, x), max(highY, y) - min(lowY, y))
            let growth = ((grown - side) / cell).rounded(.up)
            let distance = ((x - centre.x) * (x - centre.x) + (y - centre.y) * (y - centre.y)).squareRoot()
            let inside = growth == 0 && (lowX...highX).contains(x) && (lowY...highY).contains(y)
            offers.append((growth * 2 * farthest + (inside ? -distance : distance), Int32(index)))
        }
        offers.sort { ($0.key, $0.cell) < ($1.key, $1.cell) }
        return offers.map(\.cell)
    }

    /// How far a group of `size` people is spread around its spot when first placed.
    static func radius(of size: Int) -> Double { 0.5 * Double(size).squareRoot() }

    /// The spot offered for a group of `radius`, now taken: the first cell in the order whose
    /// square of that radius touches no cell taken (side by side, as a fresh layout packs); for
    /// a group with a `target` (the people it met), the nearest such cell to it.
    mutating func take(radius: Double, near target: Point?) -> Point {
        let reach = Self.cells(radius, of: cell)
        let spot = target.flatMap { nearest(to: $0, clearance: reach) } ?? offered(clearance: reach)
        let (x, y) = (Int(spot) % width, Int(spot) / width)
        // Every cell within the group's reach is taken; cells around it are the nearer to a taken one.
        let far = reach + widest + 2
        for cy in max(0, y - Int(far))...min(height - 1, y + Int(far)) {
            for cx in max(0, x - Int(far))...min(width - 1, x + Int(far)) {
                let distance = Int32(max(0, max(abs(cx - x), abs(cy - y)) - Int(reach)))
                clearance[cy * width + cx] = min(clearance[cy * width + cx], distance)
            }
        }
        return Point(x: minX + (Double(x) + 0.5) * cell, y: minY + (Double(y) + 0.5) * cell)
    }

    /// The first cell in the order whose clearance exceeds `reach` (the last offered if none does).
    private mutating func offered(clearance reach: Int32) -> Int32 {
        let order = self.order ?? offers()
        self.order = order
        while first < order.count && clearance[Int(order[first])] < 2 { first += 1 }
        return order[first...].first { clearance[Int($0)] > reach } ?? order[order.count - 1]
    }

    /// The cell nearest `target` whose clearance exceeds `reach`: ring after ring of cells around
    /// it, the nearest of the first ring that has one (of equals, the lowest row, then the leftmost).
    private func nearest(to target: Point, clearance reach: Int32) -> Int32? {
        let tx = min(max(Int(((target.x - minX) / cell).rounded(.down)), 0), width - 1)
        let ty = min(max(Int(((target.y - minY) / cell).rounded(.down)), 0), height - 1)
        for ring in 0..<max(width, height) {
            var best: (distance: Int, cell: Int32)?
            func consider(_ cx: Int, _ cy: Int) {
                guard (0..<width).contains(cx), (0..<height).contains(cy), clearance[cy * width + cx] > reach else { return }
                let distance = (cx - tx) * (cx - tx) + (cy - ty) * (cy - ty)
                let index = Int32(cy * width + cx)
                if best.map({ (distance, index) < ($0.distance, $0.cell) }) ?? true { best = (distance, index) }
            }
            // The ring's top and bottom rows, then its two sides between them.
            for cx in (tx - ring)...(tx + ring) {
                consider(cx, ty - ring)
                if ring > 0 { consider(cx, ty + ring) }
            }
            for cy in (ty - ring + 1)..<max(ty + ring, ty - ring + 1) {
                consider(tx - ring, cy)
                consider(tx + ring, cy)
            }
            if let best { return best.cell }
        }
        return nil
    }

    /// A radius in whole cells.
    private static func cells(_ radius: Double, of cell: Double) -> Int32 { Int32((radius / cell).rounded(.up)) }
}
