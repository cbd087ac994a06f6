/// A statistic that may be exact or estimated; an estimate says how and how far off it may be.
public struct Estimate: Sendable, Codable, Equatable {
    public let value: Double
    /// "exact", or how it was estimated.
    public let method: String
    /// The true value lies in `value ± errorBound` (0 when exact), with the stated confidence.
    public let errorBound: Double
    /// The probability that the bound holds (1 when exact or deterministic).
    public let confidence: Double

    public static func exact(_ value: Double) -> Estimate {
        Estimate(value: value, method: "exact", errorBound: 0, confidence: 1)
    }
}
