import Graph
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// The router: public routes, then routes behind an API key; every error becomes problem+json.
/// Its routes are the API's, each described in `openapi.json` (a test holds them together);
/// `buildApplication` adds the answers to the methods a path has no route for.
public func buildRouter(_ services: AppServices) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: RequestMetricsMiddleware(metrics: services.metrics))
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: KnownMethodsMiddleware())
    router.add(middleware: ClientAddressMiddleware(proxies: services.configuration.trustedProxies))
    HealthController(services: services).addRoutes(to: router)
    WebController(assets: .bundled).addRoutes(to: router)
    OpenAPIController(documents: .openAPI).addRoutes(to: router)

    let v1 = router.group("v1")
    ProfileController(services: services).addPublicRoutes(to: v1)
    TokenController(services: services).addPublicRoutes(to: v1)
    EventController(services: services).addPublicRoutes(to: v1)
    DeviceController(services: services).addPublicRoutes(to: v1)

    let authenticated = v1.group().add(middleware: AuthenticationMiddleware(
        profiles: services.profiles, credentials: services.credentials, limiter: services.limiter, keyRing: services.keys))
    ProfileController(services: services).addAuthenticatedRoutes(to: authenticated)
    TokenController(services: services).addAuthenticatedRoutes(to: authenticated)
    ConnectionController(services: services).addAuthenticatedRoutes(to: authenticated)
    EventController(services: services).addAuthenticatedRoutes(to: authenticated)
    JoinQRController(services: services).addAuthenticatedRoutes(to: authenticated)
    DeviceController(services: services).addAuthenticatedRoutes(to: authenticated)
    let compute = GraphComputation(metrics: services.metrics)
    let cacheEntries = services.configuration.graphCacheEntries
    let layouts = SubgraphLayouts(capacity: cacheEntries, compute: compute)
    let growth = GrowthCache(events: services.eventReads, compute: compute)
    let statistics = VersionedCache<SubgraphLayouts.Subject, GraphStatistics>(capacity: cacheEntries) { [metrics = services.metrics] in
        metrics.cacheLookup("statistics", hit: $0)
    }
    let quota = GraphWorkQuota(limit: services.configuration.graphRequestsPerCredential)
    let eventGraphs = EventGraphCache(events: services.eventReads)
    PrivacyController(services: services, layouts: layouts, statistics: statistics, growth: growth, eventGraphs: eventGraphs)
        .addAuthenticatedRoutes(to: authenticated)
    let reads = authenticated.group().add(middleware: ReplicaLagMiddleware(lag: services.replicaLag))
    NetworkController(services: services, layouts: layouts, statistics: statistics, compute: compute, quota: quota)
        .addAuthenticatedRoutes(to: reads)
    EventNetworkController(services: services, layouts: layouts, graphs: eventGraphs, statistics: statistics, compute: compute, quota: quota)
        .addAuthenticatedRoutes(to: reads)
    EventInsightsController(services: services, compute: compute, growthCache: growth, quota: quota).addAuthenticatedRoutes(to: reads)
    let feeds = EventFeeds(events: services.events, identity: { EventIdentity(keyRing: services.keyRing) },
                           logger: Logger(label: "constellation.feeds"))
    EventStreamController(services: services, feeds: feeds).addAuthenticatedRoutes(to: authenticated)
    return router
}

/// The HTTP application on `configuration.host:port`; `onServerRunning` learns the bound port.
/// Keys from files are reread while it runs (`KeyRingWatcher`).
public func buildApplication(
    _ services: AppServices, logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let configuration = services.configuration
    let router = buildRouter(services)
    router.addMethodNotAllowedRoutes()
    return Application(
        router: router,
        server: HTTPServerBuilder { responder in
            GuardedHTTP1Channel(responder: responder, requestTimeout: .init(configuration.requestTimeout),
                                idleTimeout: configuration.idleTimeout)
        },
        configuration: .init(address: .hostname(services.configuration.host, port: services.configuration.port),
                             serverName: "constellation"),
        services: services.keys.dataDirectory == nil ? [] : [KeyRingWatcher(store: services.keys, logger: logger)],
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
        logger: logger
    )
}
