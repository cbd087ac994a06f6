/// A position in the plane.
public struct Point: Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The box that points lie in, `[minX, minY, maxX, maxY]` (zeros for none): the `box` of every
/// layout the project serves or writes.
public func boundingBox(xs: [Double], ys: [Double]) -> [Double] {
    [xs.min() ?? 0, ys.min() ?? 0, xs.max() ?? 0, ys.max() ?? 0]
}
