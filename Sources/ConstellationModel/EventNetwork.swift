import Foundation

/// An event's whole graph laid out for its organizers: `GET /v1/events/{event}/network`. The
/// nodes are the people who connected at the event, the edges the pairs that connected there.
/// Node ids are per-event pseudonyms (`p…`), never profile ids; a label is the person's name only
/// if they chose `named` for this event, else a pseudonym such as `Attendee 7KQ2MZ`.
public struct EventNetwork: Codable, Sendable, Equatable {
    /// A node as in `Network` (`isMe`: the organizer who asked), with its community.
    public typealias Node = Network.Node

    public struct Edge: Codable, Sendable, Equatable {
        public let source: String
        public let target: String
        /// When the pair first connected at this event.
        public let firstAt: Date

        public init(source: String, target: String, firstAt: Date) {
            self.source = source
            self.target = target
            self.firstAt = firstAt
        }
    }

    /// What an event's picture is of: the event, as it is now or as it was a moment ago.
    public struct Scope: Codable, Sendable, Equatable {
        public let eventId: UUID
        /// True when the people are placed by a picture made before the event's latest pairs (the
        /// pairs are drawn all the same): the next picture is being made, so ask again within the
        /// picture interval (`CONSTELLATION_PICTURE_INTERVAL_MS`) to see them placed.
        public let behind: Bool

        public init(eventId: UUID, behind: Bool = false) {
            self.eventId = eventId
            self.behind = behind
        }

        private enum CodingKeys: String, CodingKey { case eventId, behind }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            eventId = try container.decode(UUID.self, forKey: .eventId)
            behind = try container.decodeIfPresent(Bool.self, forKey: .behind) ?? false
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

/// Whether an event's organizers see a member by name or by a pseudonym (the default).
public enum EventVisibility: String, Codable, Sendable, Equatable, CaseIterable {
    case named
    case pseudonymous
}

/// `PATCH /v1/events/{event}/me`: how organizers see me there, and whether they print my badge
/// (either or both).
public struct EventVisibilityChange: Codable, Sendable {
    public var visibility: String?
    /// True: the organizers' badge sheet holds my badge (my name, headline and a code that connects
    /// with me); false: it does not.
    public var printBadge: Bool?
    /// True: the event's walls (the picture projected for the room) label me by name; false (the
    /// default): they draw me without a label.
    public var onWall: Bool?

    public init(visibility: String? = nil, printBadge: Bool? = nil, onWall: Bool? = nil) {
        self.visibility = visibility
        self.printBadge = printBadge
        self.onWall = onWall
    }

    public init(_ visibility: EventVisibility) {
        self.visibility = visibility.rawValue
    }
}

/// My standing at an event: my role and how organizers see me.
public struct EventPrivacy: Codable, Sendable, Equatable {
    public let eventId: UUID
    public let role: EventRole
    public let visibility: EventVisibility
    /// Whether the organizers' badge sheet holds my badge.
    public let printsBadge: Bool
    /// Whether the event's walls label me by name.
    public let onWall: Bool

    public init(eventId: UUID, role: EventRole, visibility: EventVisibility, printsBadge: Bool = false, onWall: Bool = false) {
        self.eventId = eventId
        self.role = role
        self.visibility = visibility
        self.printsBadge = printsBadge
        self.onWall = onWall
    }
}
