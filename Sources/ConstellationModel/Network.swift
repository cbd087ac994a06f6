import Foundation

/// A laid-out network any renderer can draw: `GET /v1/me/network`.
public struct Network: Codable, Sendable, Equatable {
    public struct Node: Codable, Sendable, Equatable {
        public let id: String
        public let label: String
        public let x: Double
        public let y: Double
        public let degree: Int
        /// Whether this node is the person who asked.
        public let isMe: Bool

        public init(id: String, label: String, x: Double, y: Double, degree: Int, isMe: Bool) {
            self.id = id
            self.label = label
            self.x = x
            self.y = y
            self.degree = degree
            self.isMe = isMe
        }
    }

    public struct Edge: Codable, Sendable, Equatable {
        public let source: String
        public let target: String

        public init(source: String, target: String) {
            self.source = source
            self.target = target
        }
    }

    public struct Meta: Codable, Sendable, Equatable {
        /// Positions lie in [-1, 1] × [-1, 1].
        public let box: [Double]
        public let layout: String
        public let seed: UInt64

        public init(box: [Double], layout: String, seed: UInt64) {
            self.box = box
            self.layout = layout
            self.seed = seed
        }
    }

    public let nodes: [Node]
    public let edges: [Edge]
    public let meta: Meta

    public init(nodes: [Node], edges: [Edge], meta: Meta) {
        self.nodes = nodes
        self.edges = edges
        self.meta = meta
    }
}
