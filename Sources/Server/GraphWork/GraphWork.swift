import ConstellationModel
import Foundation
import Graph
import GraphExport
import Store

/// The server's graph work and what it keeps of it, built once per server: the one graph thread,
/// the pictures and statistics of networks and events, each event's growth and graph, the event
/// pictures and summaries that everyone watching an event shares for an interval, and how many
/// graph requests one credential may have running.
package struct GraphWork: Sendable {
    let compute: GraphComputation
    let layouts: SubgraphLayouts
    let statistics: VersionedCache<SubgraphLayouts.Subject, GraphStatistics>
    let growth: GrowthCache
    let eventGraphs: EventGraphCache
    /// An event's graph and picture, shared for `pictureInterval`.
    package let eventPictures: SharedResults<UUID, EventPicture>
    /// An event's network as one reader sees it, rendered in one format, shared for `pictureInterval`;
    /// the last one answers while the next is made.
    package let renderings: SharedResults<RenderingKey, Rendering>
    /// An event's summary (with names or without), shared for `pictureInterval`; the last one answers
    /// while the next is made.
    package let summaries: SharedResults<SummaryKey, EventSummary>
    package let quota: GraphWorkQuota

    init(configuration: ServerConfiguration, eventReads: EventRepository, metrics: ServerMetrics) {
        compute = GraphComputation(metrics: metrics)
        let entries = configuration.graphCacheEntries
        layouts = SubgraphLayouts(capacity: entries, compute: compute)
        growth = GrowthCache(events: eventReads, compute: compute)
        statistics = VersionedCache(capacity: entries) { metrics.cacheLookup("statistics", hit: $0) }
        quota = GraphWorkQuota(limit: configuration.graphRequestsPerCredential)
        eventGraphs = EventGraphCache(events: eventReads)
        eventPictures = SharedResults(interval: configuration.pictureInterval)
        // What the screens fetch: while the next is computed, they get the last one at once.
        summaries = SharedResults(interval: configuration.pictureInterval, answersWhileComputing: true)
        renderings = SharedResults(interval: configuration.pictureInterval, answersWhileComputing: true)
    }

    /// Forgets everything kept of `event`: its graph, growth and what is shared of it (it was purged).
    func forget(event: UUID) async {
        await eventGraphs.forget(event: event)
        await growth.forget(event: event)
        await forgetShared(event)
    }

    /// Forgets what is shared of `event` (its members' choices changed), or of every event (nil:
    /// a profile was erased).
    func forgetShared(_ event: UUID?) async {
        await eventPictures.forget { event == nil || $0 == event }
        await renderings.forget { event == nil || $0.event == event }
        await summaries.forget { event == nil || $0.event == event }
    }
}

/// An event's graph as read, and its picture.
package struct EventPicture: Sendable {
    let graph: EventGraph
    let picture: SubgraphLayouts.Picture
}

/// Which rendering of an event's network: its format, and whom it names and marks as "me".
package struct RenderingKey: Hashable, Sendable {
    let event: UUID
    let format: LayoutDocument.Format
    let showsNames: Bool
    let viewer: UUID?
}

/// A rendered document and its media type.
package struct Rendering: Sendable {
    let bytes: [UInt8]
    let type: String
}

/// Which summary of an event: with the names of those who chose to be named, or without.
package struct SummaryKey: Hashable, Sendable {
    let event: UUID
    let showsNames: Bool
}
