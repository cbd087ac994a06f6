import Foundation

/// `GET /v1/events/{event}/growth`: how the event's graph grew, bucket by bucket.
///
/// Buckets are aligned to UTC boundaries of their size and contiguous (empty ones included), from
/// the bucket of the first connection to that of the last, or over the `from`/`to` window asked for.
public struct EventGrowth: Codable, Sendable, Equatable {
    public let buckets: [GrowthBucket]

    public init(buckets: [GrowthBucket]) {
        self.buckets = buckets
    }

    /// The bucket sizes the route accepts, by their query spelling, in seconds.
    public static let bucketSizes: [String: Int] = ["5m": 300, "15m": 900, "1h": 3_600, "1d": 86_400]
    /// The most buckets one answer holds.
    public static let maximumBuckets = 10_000
}

/// One bucket of an event's growth. Cumulative values count everything up to the bucket's end,
/// also what happened before the window asked for.
public struct GrowthBucket: Codable, Sendable, Equatable {
    /// The bucket's start, a UTC multiple of its size.
    public let start: Date
    /// Pairs that first connected at the event in this bucket.
    public let newConnections: Int
    /// People whose first connection at the event falls in this bucket.
    public let newPeople: Int
    public let cumulativePeople: Int
    public let cumulativeConnections: Int
    /// The number of people in the largest connected component at the bucket's end.
    public let largestComponent: Int

    public init(
        start: Date, newConnections: Int, newPeople: Int, cumulativePeople: Int, cumulativeConnections: Int,
        largestComponent: Int
    ) {
        self.start = start
        self.newConnections = newConnections
        self.newPeople = newPeople
        self.cumulativePeople = cumulativePeople
        self.cumulativeConnections = cumulativeConnections
        self.largestComponent = largestComponent
    }
}

/// `GET /v1/events/{event}/summary`: the event's graph in a few figures, for its organizers.
/// People appear as organizers see them: by name if they chose to be named, else by a pseudonym.
public struct EventSummary: Codable, Sendable, Equatable {
    /// Distinct people with at least one connection at the event.
    public let people: Int
    /// Distinct pairs that connected at the event.
    public let connections: Int
    /// The event's members (organizers and attendees).
    public let attendees: Int
    /// The members who joined in the hour before the summary was made.
    public let joinedLastHour: Int
    /// The share of members with at least one connection at the event, 0…1 (0 without members).
    public let connectedShare: Double
    /// The hour (UTC) with the most new connections, the earliest on a tie; nil without connections.
    public let peakHour: Peak?
    /// Up to 5 people with the most connections at the event.
    public let topByDegree: [Connector]
    /// Up to 5 people with the highest betweenness (normalised to 0…1), those above 0 only.
    public let topByBetweenness: [Connector]
    /// Leiden communities (modularity, resolution 1) and their modularity.
    public let communities: Int
    public let modularity: Double
    /// The number of people in the largest connected component.
    public let largestComponent: Int

    public init(
        people: Int, connections: Int, attendees: Int, joinedLastHour: Int, connectedShare: Double, peakHour: Peak?,
        topByDegree: [Connector], topByBetweenness: [Connector], communities: Int, modularity: Double, largestComponent: Int
    ) {
        self.people = people
        self.connections = connections
        self.attendees = attendees
        self.joinedLastHour = joinedLastHour
        self.connectedShare = connectedShare
        self.peakHour = peakHour
        self.topByDegree = topByDegree
        self.topByBetweenness = topByBetweenness
        self.communities = communities
        self.modularity = modularity
        self.largestComponent = largestComponent
    }

    public struct Peak: Codable, Sendable, Equatable {
        public let start: Date
        public let newConnections: Int

        public init(start: Date, newConnections: Int) {
            self.start = start
            self.newConnections = newConnections
        }
    }

    /// A person as the event's organizers see them: never their profile id.
    public struct Connector: Codable, Sendable, Equatable {
        /// Their display name if they chose to be named at this event, else a stable pseudonym.
        public let name: String
        public let named: Bool
        /// Their connections at the event.
        public let degree: Int
        public let betweenness: Double

        public init(name: String, named: Bool, degree: Int, betweenness: Double) {
            self.name = name
            self.named = named
            self.degree = degree
            self.betweenness = betweenness
        }
    }
}

/// An event's figures with no one in them: what its summary counts, without its top connectors.
/// What a purge keeps of the event (`EventRecord`).
public struct EventFigures: Codable, Sendable, Equatable {
    public let people: Int
    public let connections: Int
    public let attendees: Int
    public let connectedShare: Double
    public let peakHour: EventSummary.Peak?
    public let communities: Int
    public let modularity: Double
    public let largestComponent: Int

    public init(
        people: Int, connections: Int, attendees: Int, connectedShare: Double, peakHour: EventSummary.Peak?, communities: Int,
        modularity: Double, largestComponent: Int
    ) {
        self.people = people
        self.connections = connections
        self.attendees = attendees
        self.connectedShare = connectedShare
        self.peakHour = peakHour
        self.communities = communities
        self.modularity = modularity
        self.largestComponent = largestComponent
    }
}

extension EventSummary {
    /// The summary of `figures`, with those who joined in the last hour and its top connectors.
    public init(_ figures: EventFigures, joinedLastHour: Int, topByDegree: [Connector], topByBetweenness: [Connector]) {
        self.init(
            people: figures.people, connections: figures.connections, attendees: figures.attendees, joinedLastHour: joinedLastHour,
            connectedShare: figures.connectedShare, peakHour: figures.peakHour, topByDegree: topByDegree,
            topByBetweenness: topByBetweenness, communities: figures.communities, modularity: figures.modularity,
            largestComponent: figures.largestComponent)
    }

    /// Its figures, without anyone in them.
    public var figures: EventFigures {
        EventFigures(
            people: people, connections: connections, attendees: attendees, connectedShare: connectedShare, peakHour: peakHour,
            communities: communities, modularity: modularity, largestComponent: largestComponent)
    }
}

/// `GET /v1/events/{event}/record`: what the event leaves behind, for its organizers. Before its
/// purge, the figures and growth as they are now; after it, as the purge kept them, anonymous:
/// no names, no pseudonyms, no top connectors.
public struct EventRecord: Codable, Sendable, Equatable {
    public let eventId: UUID
    /// Whether the event was purged (the record is then all that is left of it).
    public let purged: Bool
    /// When the figures were computed: now, or when the purge kept them.
    public let computedAt: Date
    public let figures: EventFigures
    /// The growth over the event in buckets of the size asked for (`?bucket=`, 1 h by default).
    public let growth: [GrowthBucket]

    public init(eventId: UUID, purged: Bool, computedAt: Date, figures: EventFigures, growth: [GrowthBucket]) {
        self.eventId = eventId
        self.purged = purged
        self.computedAt = computedAt
        self.figures = figures
        self.growth = growth
    }
}
