import Foundation
import Prometheus
import Store
import Synchronization

/// What the server counts, in Prometheus's text format at `GET /metrics`: requests by route,
/// method and status with their latency, the database pool, tokens minted and redeemed, graph
/// computations and their time, and cache hits. One registry per server (so tests running many
/// servers in one process count apart); labels take route patterns, never paths, so their number
/// stays bounded whatever a client sends.
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    /// Each route, method and status's counter and latency histogram, once made: the registry's
    /// lookup builds names and takes its lock, on every request otherwise.
    private let requestMetrics = Mutex<[RequestKey: (count: Counter, time: DurationHistogram)]>([:])

    private struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    /// Redemptions that made a new connection, and those that answered with one made before:
    /// made once, not looked up by name and label on every redemption.
    private let redemptions: (created: Counter, repeated: Counter)
    /// The redemption queue's batches and the redemptions in them, as counted when last exposed:
    /// the queue counts, and each exposition adds what it counted since.
    private let exposedBatches = Mutex<(batches: Int, redemptions: Int)>((0, 0))
    /// The purges this server finished, as `constellation_events_purged_total` counts them.
    private let purges = Atomic<Int>(0)

    public init() {
        redemptions = (
            registry.makeCounter(descriptor: Self.tokensRedeemed, labels: [("created", "true")]),
            registry.makeCounter(descriptor: Self.tokensRedeemed, labels: [("created", "false")])
        )
    }

    private static var requests: MetricNameDescriptor {
        descriptor("http_requests", unit: "total", "HTTP requests answered, by route pattern, method and status.")
    }
    private static var requestDuration: MetricNameDescriptor {
        descriptor(
            "http_request_duration", unit: "seconds", "Time from a request's head to its response's head, by route pattern and method.")
    }
    private static var poolConnections: MetricNameDescriptor {
        descriptor("db_pool_connections", unit: "", "Database connections open, by state (in_use, idle).")
    }
    private static var poolWaiting: MetricNameDescriptor {
        descriptor("db_pool_waiting", unit: "requests", "Requests waiting for a database connection.")
    }
    private static var redemptionsWaiting: MetricNameDescriptor {
        descriptor("redemptions_waiting", unit: "requests", "Redemptions waiting for the batch at the database to commit (group commit).")
    }
    private static var redemptionBatches: MetricNameDescriptor {
        descriptor("redemption_batches", unit: "total", "Batches of redemptions sent to the database, one alone included (group commit).")
    }
    private static var redemptionsBatched: MetricNameDescriptor {
        descriptor("redemptions_batched", unit: "total", "Redemptions sent in those batches: over the batches, the mean batch size.")
    }
    private static var tokensMinted: MetricNameDescriptor { descriptor("tokens_minted", unit: "total", "Connection tokens issued.") }
    private static var tokensRedeemed: MetricNameDescriptor {
        descriptor("tokens_redeemed", unit: "total", "Tokens redeemed, by whether the redemption made a new connection.")
    }
    private static var eventsPurged: MetricNameDescriptor {
        descriptor("events_purged", unit: "total", "Events whose purge this server finished (of several servers, one purges each).")
    }
    private static var computations: MetricNameDescriptor {
        descriptor("graph_computations", unit: "total", "Graph computations run (layouts, statistics, growth, summaries), by kind.")
    }
    private static var computationDuration: MetricNameDescriptor {
        descriptor("graph_computation_duration", unit: "seconds", "Time graph computations took, by kind.")
    }
    private static var graphWaitDuration: MetricNameDescriptor {
        descriptor("graph_wait_duration", unit: "seconds", "Time graph computations waited for their turn on the graph thread, by kind.")
    }
    private static var graphJobs: MetricNameDescriptor {
        descriptor("graph_jobs", unit: "count", "Graph requests admitted now, and of them those waiting for a turn on the graph thread.")
    }
    private static var graphBytes: MetricNameDescriptor {
        descriptor("graph_input", unit: "bytes", "Memory the inputs of the graph requests admitted will hold, by their estimates.")
    }
    private static var cacheLookups: MetricNameDescriptor {
        descriptor("cache_lookups", unit: "total", "Cache lookups, by cache and result (hit, miss).")
    }

    /// `constellation_NAME_UNIT`, with its help text.
    private static func descriptor(_ name: String, unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "constellation", metricName: name, unitName: unit, helpText: help)
    }

    static let requestBuckets: [Duration] = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000].map { .milliseconds($0) }
    static let computationBuckets: [Duration] = [1, 10, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000].map { .milliseconds($0) }

    /// One answered request: its route pattern (`unmatched` for none), method, status and time.
    func request(route: String, method: String, status: Int, duration: Duration) {
        let key = RequestKey(route: route, method: method, status: status)
        let metrics = requestMetrics.withLock { made in
            if let found = made[key] { return found }
            let count = registry.makeCounter(
                descriptor: Self.requests, labels: [("route", route), ("method", method), ("status", String(status))])
            let time = registry.makeDurationHistogram(
                descriptor: Self.requestDuration, labels: [("route", route), ("method", method)], buckets: Self.requestBuckets)
            made[key] = (count, time)
            return (count, time)
        }
        metrics.count.increment()
        metrics.time.record(duration)
    }

    func tokenMinted() {
        registry.makeCounter(descriptor: Self.tokensMinted).increment()
    }

    func tokenRedeemed(created: Bool) {
        (created ? redemptions.created : redemptions.repeated).increment()
    }

    func eventPurged() {
        registry.makeCounter(descriptor: Self.eventsPurged).increment()
        purges.add(1, ordering: .relaxed)
    }

    /// How many purges this server finished.
    package var eventsPurged: Int { purges.load(ordering: .relaxed) }

    /// One graph computation of `kind` (`layout`, `statistics`, `growth`, `summary`, `export`) that took `duration`.
    func computed(_ kind: String, duration: Duration) {
        registry.makeCounter(descriptor: Self.computations, labels: [("kind", kind)]).increment()
        registry.makeDurationHistogram(
            descriptor: Self.computationDuration, labels: [("kind", kind)],
            buckets: Self.computationBuckets
        ).record(duration)
    }

    /// A graph computation of `kind` that waited `duration` for its turn.
    func graphJobWaited(_ kind: String, duration: Duration) {
        registry.makeDurationHistogram(descriptor: Self.graphWaitDuration, labels: [("kind", kind)], buckets: Self.computationBuckets)
            .record(duration)
    }

    /// A lookup in `cache` that found what it wanted (`hit`) or had to compute it.
    func cacheLookup(_ cache: String, hit: Bool) {
        registry.makeCounter(descriptor: Self.cacheLookups, labels: [("cache", cache), ("result", hit ? "hit" : "miss")]).increment()
    }

    /// Everything counted, with the pool and the redemption queue as they are now, in
    /// Prometheus's text format 0.0.4.
    func exposition(pool: PoolStatistics, redemptions: RedemptionStatistics, graph: GraphScheduler.Load) -> String {
        registry.makeGauge(descriptor: Self.graphJobs, labels: [("state", "admitted")]).set(Double(graph.admitted))
        registry.makeGauge(descriptor: Self.graphJobs, labels: [("state", "waiting")]).set(Double(graph.waiting))
        registry.makeGauge(descriptor: Self.graphBytes).set(Double(graph.bytes))
        registry.makeGauge(descriptor: Self.poolConnections, labels: [("state", "in_use")]).set(Double(pool.inUse))
        registry.makeGauge(descriptor: Self.poolConnections, labels: [("state", "idle")]).set(Double(pool.idle))
        registry.makeGauge(descriptor: Self.poolWaiting).set(Double(pool.waiting))
        registry.makeGauge(descriptor: Self.redemptionsWaiting).set(Double(redemptions.waiting))
        exposedBatches.withLock { exposed in
            // Two scrapes at once may come in either order: a counter only goes up.
            let now = (batches: max(exposed.batches, redemptions.batches), redemptions: max(exposed.redemptions, redemptions.redemptions))
            registry.makeCounter(descriptor: Self.redemptionBatches).increment(by: Int64(now.batches - exposed.batches))
            registry.makeCounter(descriptor: Self.redemptionsBatched).increment(by: Int64(now.redemptions - exposed.redemptions))
            exposed = now
        }
        return registry.emitToString()
    }
}
