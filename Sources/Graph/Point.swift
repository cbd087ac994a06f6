/// A position in the plane.
public struct Point: Sendable, Equatable {
    public var x, y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
