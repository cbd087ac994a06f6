import Foundation

/// A picture's `meta`: how its positions were made, beside what the picture is of (`Scope`),
/// both in one JSON object. `meta.depth` reads the scope's `depth` directly.
@dynamicMemberLookup
public struct PictureMeta<Scope: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// The box the positions lie in.
    public let box: Box
    public let layout: String
    public let seed: UInt64
    /// Whether the layout started from the previous picture of this network (it grew).
    public let warmStart: Bool
    /// What the picture is of.
    public let scope: Scope

    public init(box: Box, layout: String, seed: UInt64, warmStart: Bool, scope: Scope) {
        self.box = box
        self.layout = layout
        self.seed = seed
        self.warmStart = warmStart
        self.scope = scope
    }

    /// The meta of `nodes` laid out by the constellation layout: their box, and how it was made.
    public init(of nodes: [Network.Node], seed: UInt64, warmStart: Bool, scope: Scope) {
        self.init(box: Box(xs: nodes.map(\.x), ys: nodes.map(\.y)), layout: "constellation", seed: seed, warmStart: warmStart, scope: scope)
    }

    public subscript<Value>(dynamicMember path: KeyPath<Scope, Value>) -> Value { scope[keyPath: path] }

    private enum CodingKeys: String, CodingKey { case box, layout, seed, warmStart }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        box = try container.decode(Box.self, forKey: .box)
        layout = try container.decode(String.self, forKey: .layout)
        seed = try container.decode(UInt64.self, forKey: .seed)
        warmStart = try container.decode(Bool.self, forKey: .warmStart)
        scope = try Scope(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(box, forKey: .box)
        try container.encode(layout, forKey: .layout)
        try container.encode(seed, forKey: .seed)
        try container.encode(warmStart, forKey: .warmStart)
        try scope.encode(to: encoder)
    }
}
