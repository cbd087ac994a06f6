import ConstellationModel
import Foundation
import Graph
import Store

/// An event's summary from its pairs and members: counts, the peak hour, top connectors as
/// organizers see them (named or pseudonymous, never by profile id), communities and components;
/// or its figures alone, with no one in them.
enum EventSummaryBuilder {
    static let topCount = 5

    /// What a summary is made of before anyone is named in it: the figures, and each connected
    /// person's degree and betweenness. The costly part (betweenness, communities), shared by every
    /// view of the event and kept through its members' changes of choice, which only relabel it.
    struct Core: Sendable {
        struct Person: Sendable {
            let id: UUID
            let degree: Int
            let betweenness: Double
        }

        let figures: EventFigures
        let people: [Person]
    }

    /// The event's summary core, from its pairs and members.
    static func core(pairs: [EventPair], members: [EventMemberView]) -> Core {
        let graph = Graph<UUID>(edges: pairs.map { ($0.profileA, $0.profileB) })
        let betweenness = Betweenness.compute(graph).values
        let people = (0..<graph.nodeCount).map { node in
            Core.Person(id: graph.ids[node], degree: graph.degree(of: node), betweenness: betweenness[node])
        }
        return Core(figures: figures(graph, pairs: pairs, members: members), people: people)
    }

    /// The summary for organizers, when `labels` names each member as they see them (by name or
    /// pseudonym, `EventIdentity`: never a profile id), or for a wall, when `labels` is nil: its
    /// top connectors are only those who chose to be named on the wall, by name, and nobody else
    /// is listed (a wall learns neither pseudonyms nor who chose to be named to organizers).
    /// `members` as they are now: their choices label `core`.
    static func summary(_ core: Core, members: [EventMemberView], labels: [UUID: String]?) -> EventSummary {
        let byId = Dictionary(members.map { ($0.profileId, $0) }, uniquingKeysWith: { first, _ in first })
        let connectors = core.people.compactMap { person -> EventSummary.Connector? in
            let member = byId[person.id]
            guard let labels else {
                guard let member, member.onWall else { return nil }
                return EventSummary.Connector(name: member.displayName, named: true, degree: person.degree, betweenness: person.betweenness)
            }
            return EventSummary.Connector(
                name: labels[person.id] ?? "Attendee", named: member?.named ?? false, degree: person.degree,
                betweenness: person.betweenness)
        }
        // Ties go by name, so the order never depends on anyone's profile id.
        let topByDegree = connectors.sorted { ($0.degree, $1.name) > ($1.degree, $0.name) }.prefix(topCount)
        let topByBetweenness = connectors.filter { $0.betweenness > 0 }
            .sorted { ($0.betweenness, $1.name) > ($1.betweenness, $0.name) }.prefix(topCount)
        let hourAgo = Date().addingTimeInterval(-3_600)
        return EventSummary(
            core.figures, joinedLastHour: members.count { $0.joinedAt > hourAgo }, topByDegree: Array(topByDegree),
            topByBetweenness: Array(topByBetweenness))
    }

    /// The top connectors among the members who chose to be named, by name: nobody pseudonymous.
    /// Their betweenness is not computed (0).
    static func namedConnectors(pairs: [EventPair], members: [EventMemberView]) -> [EventSummary.Connector] {
        var degrees: [UUID: Int] = [:]
        for pair in pairs {
            degrees[pair.profileA, default: 0] += 1
            degrees[pair.profileB, default: 0] += 1
        }
        let named = members.filter(\.named).compactMap { member in
            degrees[member.profileId].map { EventSummary.Connector(name: member.displayName, named: true, degree: $0, betweenness: 0) }
        }
        return Array(named.sorted { ($0.degree, $1.name) > ($1.degree, $0.name) }.prefix(topCount))
    }

    /// The event's figures, with no one in them: what its record keeps.
    static func figures(pairs: [EventPair], members: [EventMemberView]) -> EventFigures {
        figures(Graph<UUID>(edges: pairs.map { ($0.profileA, $0.profileB) }), pairs: pairs, members: members)
    }

    private static func figures(_ graph: Graph<UUID>, pairs: [EventPair], members: [EventMemberView]) -> EventFigures {
        let communities = Communities.detect(graph)
        let connected = Set(graph.ids)
        let membersConnected = members.filter { connected.contains($0.profileId) }.count
        return EventFigures(
            people: graph.nodeCount, connections: graph.edgeCount, attendees: members.count,
            connectedShare: members.isEmpty ? 0 : Double(membersConnected) / Double(members.count),
            peakHour: peakHour(pairs), communities: communities.count, modularity: communities.modularity,
            largestComponent: Components(graph).largest)
    }

    /// The UTC hour with the most new connections, the earliest on a tie.
    private static func peakHour(_ pairs: [EventPair]) -> EventSummary.Peak? {
        var counts: [Int: Int] = [:]
        for pair in pairs { counts[GrowthSeries.index(pair.firstAt, size: 3_600), default: 0] += 1 }
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }
            .map { .init(start: Date(timeIntervalSince1970: Double($0.key * 3_600)), newConnections: $0.value) }
    }
}
