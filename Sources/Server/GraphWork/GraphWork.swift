import Graph
import Store

/// The server's graph work and what it keeps of it, built once per server: the one graph thread,
/// the pictures and statistics of networks and events, each event's growth and graph, and how
/// many graph requests one credential may have running.
package struct GraphWork: Sendable {
    let compute: GraphComputation
    let layouts: SubgraphLayouts
    let statistics: VersionedCache<SubgraphLayouts.Subject, GraphStatistics>
    let growth: GrowthCache
    let eventGraphs: EventGraphCache
    package let quota: GraphWorkQuota

    init(configuration: ServerConfiguration, eventReads: EventRepository, metrics: ServerMetrics) {
        compute = GraphComputation(metrics: metrics)
        let entries = configuration.graphCacheEntries
        layouts = SubgraphLayouts(capacity: entries, compute: compute)
        growth = GrowthCache(events: eventReads, compute: compute)
        statistics = VersionedCache(capacity: entries) { metrics.cacheLookup("statistics", hit: $0) }
        quota = GraphWorkQuota(limit: configuration.graphRequestsPerCredential)
        eventGraphs = EventGraphCache(events: eventReads)
    }
}
