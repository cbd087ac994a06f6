import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The router: public routes, then routes behind an API key; every error becomes problem+json.
/// Its routes are the API's, each described in `openapi.json` (a test holds them together);
/// `buildApplication` adds the answers to the methods a path has no route for.
public func buildRouter(_ services: AppServices) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: ResponseHeadersMiddleware())
    router.add(middleware: RequestMetricsMiddleware(metrics: services.metrics))
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: ClientAddressMiddleware(proxies: services.configuration.trustedProxies))
    HealthController(services: services).addRoutes(to: router)
    WebController(assets: .bundled).addRoutes(to: router)
    OpenAPIController(documents: .openAPI).addRoutes(to: router)

    let v1 = router.group("v1")
    ProfileController(services: services).addPublicRoutes(to: v1)
    TokenController(services: services).addPublicRoutes(to: v1)
    EventController(services: services).addPublicRoutes(to: v1)
    DeviceController(services: services).addPublicRoutes(to: v1)
    OrganizerController(services: services).addPublicRoutes(to: v1)

    let authenticated = v1.group().add(
        middleware: AuthenticationMiddleware(
            profiles: services.profiles, events: services.events, credentials: services.credentials, viewLinks: services.viewLinks,
            limiter: services.limiter, keyRing: services.keys))
    ProfileController(services: services).addAuthenticatedRoutes(to: authenticated)
    TokenController(services: services).addAuthenticatedRoutes(to: authenticated)
    BadgeController(services: services).addAuthenticatedRoutes(to: authenticated)
    ConnectionController(services: services).addAuthenticatedRoutes(to: authenticated)
    EventController(services: services).addAuthenticatedRoutes(to: authenticated)
    OrganizerController(services: services).addAuthenticatedRoutes(to: authenticated)
    PurgeController(services: services).addAuthenticatedRoutes(to: authenticated)
    ReportController(services: services).addAuthenticatedRoutes(to: authenticated)
    JoinCodeController(services: services).addAuthenticatedRoutes(to: authenticated)
    ViewLinkController(services: services).addAuthenticatedRoutes(to: authenticated)
    EventMembershipController(services: services).addAuthenticatedRoutes(to: authenticated)
    DeviceController(services: services).addAuthenticatedRoutes(to: authenticated)
    PrivacyController(services: services).addAuthenticatedRoutes(to: authenticated)
    let reads = authenticated.group().add(middleware: ReplicaLagMiddleware(lag: services.replicaLag))
    NetworkController(services: services).addAuthenticatedRoutes(to: reads)
    EventNetworkController(services: services).addAuthenticatedRoutes(to: reads)
    EventInsightsController(services: services).addAuthenticatedRoutes(to: reads)
    EventStreamController(services: services, feeds: services.feeds).addAuthenticatedRoutes(to: authenticated)
    return router
}

/// The HTTP application on `configuration.host:port`, with the services it stands on, in the
/// order they start; they stop in the reverse order, after the HTTP server (the last one first):
/// `underlying` (e.g. an embedded PostgreSQL), the database pools, the live feeds' readers, the
/// key-file watcher, the background work. `beforeServing` runs once they have started, before
/// the first request (the migrations); `onServerRunning` learns the bound port.
public func buildApplication(
    _ services: AppServices, logger: Logger, underlying: [any Service] = [],
    beforeServing: @escaping @Sendable () async throws -> Void = {},
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let configuration = services.configuration
    let router = buildRouter(services)
    router.addMethodNotAllowedRoutes()
    let pools: [any Service] = [services.database] + (services.replica.map { [$0] } ?? [])
    let watcher: [any Service] = services.keys.dataDirectory == nil ? [] : [KeyRingWatcher(store: services.keys, logger: logger)]
    let purge = EventPurge(metrics: services.metrics, logger: logger)
    let chores = BackgroundWork(
        database: services.database,
        chores: [
            .forgetSpentCodes(offlineGrace: configuration.offlineGrace), purge.chore(every: configuration.purgeInterval),
            .forgetIdleRateBuckets,
        ],
        logger: logger)
    var application = Application(
        router: router,
        server: HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                responder: responder, requestTimeout: .init(configuration.requestTimeout),
                idleTimeout: configuration.idleTimeout, drainTimeout: .init(configuration.drainTimeout),
                perAddress: services.connectionsPerAddress)
        },
        configuration: .init(
            address: .hostname(services.configuration.host, port: services.configuration.port),
            serverName: "constellation"),
        services: underlying + pools + [services.feeds, services.personalFeeds] + watcher + [chores],
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? 0
            services.listening.listening(on: port)
            await onServerRunning(port)
        },
        logger: logger
    )
    application.beforeServerStarts(perform: beforeServing)
    return application
}
