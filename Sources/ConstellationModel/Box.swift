/// The box a layout's positions lie in. On the wire, as every layout the project serves or writes
/// has always carried it: `[minX, minY, maxX, maxY]`.
public struct Box: Codable, Sendable, Equatable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The smallest box holding every point `(xs[i], ys[i])`; zeros for none.
    public init(xs: [Double], ys: [Double]) {
        self.init(minX: xs.min() ?? 0, minY: ys.min() ?? 0, maxX: xs.max() ?? 0, maxY: ys.max() ?? 0)
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }

    /// The four numbers in their wire order.
    public var values: [Double] { [minX, minY, maxX, maxY] }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(
            minX: try container.decode(Double.self), minY: try container.decode(Double.self),
            maxX: try container.decode(Double.self), maxY: try container.decode(Double.self))
        guard container.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a box has four numbers")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for value in values { try container.encode(value) }
    }
}
