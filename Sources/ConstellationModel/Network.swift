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
        /// The node's community (Leiden), for colouring.
        public let community: Int?
        /// In an event's picture, whether `label` is a pseudonym (`Attendee 7KQ2MZ`) rather than a
        /// name, so that a page need not read the label to know (a wall draws no pseudonym). Nil
        /// in a personal network, where every label is a name.
        public let pseudonymous: Bool?

        public init(
            id: String, label: String, x: Double, y: Double, degree: Int, isMe: Bool, community: Int? = nil, pseudonymous: Bool? = nil
        ) {
            self.id = id
            self.label = label
            self.x = x
            self.y = y
            self.degree = degree
            self.isMe = isMe
            self.community = community
            self.pseudonymous = pseudonymous
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

    /// What a personal network is of: how far it reaches, and whether the size limit cut it.
    public struct Scope: Codable, Sendable, Equatable {
        /// 1: my connections; 2: theirs too.
        public let depth: Int
        /// Whether the size limit left people out (the nearest are kept).
        public let truncated: Bool

        public init(depth: Int, truncated: Bool) {
            self.depth = depth
            self.truncated = truncated
        }
    }

    public typealias Meta = PictureMeta<Scope>

    public let nodes: [Node]
    public let edges: [Edge]
    public let meta: Meta

    public init(nodes: [Node], edges: [Edge], meta: Meta) {
        self.nodes = nodes
        self.edges = edges
        self.meta = meta
    }
}
