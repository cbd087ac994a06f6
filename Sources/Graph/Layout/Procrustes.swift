/// The similarity transform (rotation or reflection, uniform scale, translation) that brings one
/// set of points onto another: the rotation and translation of least squares, and the scale of
/// least squares or the one that gives both sets the same spread. A layout computed afresh is thus
/// turned onto the picture people were looking at, so that it glides rather than jumps, at that
/// picture's size (the least-squares scale shrinks a poor match towards a point).
struct Procrustes {
    enum Scale {
        /// The scale closest in the least-squares sense: right for a close match.
        case leastSquares
        /// The scale that gives both the same spread: for any match.
        case sameSpread
    }

    private let cosine, sine, scale: Double
    private let reflects: Bool
    private let from, to: Point

    /// The transform taking `source[i]` closest to `target[i]`, over the indices where both are
    /// given. Nil with fewer than two such pairs or a source that is one point.
    init?(_ source: [Point], onto target: [Point?], scale: Scale) {
        let pairs = source.indices.compactMap { i in target[i].map { (source[i], $0) } }
        guard pairs.count >= 2 else { return nil }
        let n = Double(pairs.count)
        let from = Point(x: pairs.map(\.0.x).reduce(0, +) / n, y: pairs.map(\.0.y).reduce(0, +) / n)
        let to = Point(x: pairs.map(\.1.x).reduce(0, +) / n, y: pairs.map(\.1.y).reduce(0, +) / n)
        // Cross terms of the centred pairs, for a rotation and for a rotation after x → −x.
        var (dot, cross, mirroredDot, mirroredCross, spread, targetSpread) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        for (a, b) in pairs {
            let (ax, ay, bx, by) = (a.x - from.x, a.y - from.y, b.x - to.x, b.y - to.y)
            dot += ax * bx + ay * by
            cross += ax * by - ay * bx
            mirroredDot += -ax * bx + ay * by
            mirroredCross += -ax * by - ay * bx
            spread += ax * ax + ay * ay
            targetSpread += bx * bx + by * by
        }
        guard spread > 0 else { return nil }
        // The better of the two fits: the larger |(dot, cross)| is the smaller residual.
        let plain = (dot * dot + cross * cross).squareRoot()
        let mirrored = (mirroredDot * mirroredDot + mirroredCross * mirroredCross).squareRoot()
        reflects = mirrored > plain
        let (c, s, length) = reflects ? (mirroredDot, mirroredCross, mirrored) : (dot, cross, plain)
        guard length > 0 else { return nil }
        cosine = c / length
        sine = s / length
        self.scale = scale == .leastSquares ? length / spread : (targetSpread / spread).squareRoot()
        self.from = from
        self.to = to
    }

    func apply(_ p: Point) -> Point {
        let x = (reflects ? -(p.x - from.x) : p.x - from.x)
        let y = p.y - from.y
        return Point(x: to.x + scale * (cosine * x - sine * y), y: to.y + scale * (sine * x + cosine * y))
    }
}
