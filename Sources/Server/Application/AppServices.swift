import Graph
import Keys
import Logging
import Store
import Tokens

/// What the routes stand on, assembled once per server.
public struct AppServices: Sendable {
    public let configuration: ServerConfiguration
    public let database: Database
    /// The signing and verification keys, reread when their files change.
    public let keys: KeyRingStore
    /// The key ring in use now: read it once per request.
    public var keyRing: KeyRing { keys.current }
    package let profiles: ProfileRepository
    package let connections: ConnectionRepository
    package let personalData: PersonalDataRepository
    package let events: EventRepository
    package let blocks: BlockRepository
    package let devices: DeviceRepository
    /// Where the read-heavy endpoints (networks, statistics, growth, summaries) read: the replica
    /// in `DATABASE_READ_URL` when there is one, else `database`. Nothing on their path writes.
    package let connectionReads: ConnectionRepository
    package let eventReads: EventRepository
    /// The read replica (`DATABASE_READ_URL`), if there is one.
    let replica: Database?
    /// The replica's lag, for the `Replica-Lag` header of what it served (nil without a replica).
    let replicaLag: ReplicaLag?
    /// API keys verified recently (see `CredentialCache`).
    let credentials: CredentialCache
    /// View links found live recently (see `ViewLinkCache`).
    let viewLinks: ViewLinkCache
    /// Rate limits, counted in this instance (see `RateLimiter`).
    /// The limits each server counts on its own, at its share (`CONSTELLATION_INSTANCES`).
    let limiter: RateLimiter
    /// The limits counted for the whole deployment (`RateLimits.deploymentWide`).
    let deploymentLimits: DeploymentLimits
    /// What `GET /metrics` shows.
    public let metrics: ServerMetrics
    /// Where layouts, statistics and growth are computed, and what is kept of them.
    package let graphWork: GraphWork
    /// The live feeds of the events being watched.
    package let feeds: EventFeeds
    /// The live feeds of people watching their own new connections.
    package let personalFeeds: PersonalFeeds
    /// Where this server listens, for links when there is no public URL.
    let listening: ListeningAddress
    /// The connections each client address holds open, and how many it may.
    package let connectionsPerAddress: ConnectionsPerAddress
    /// Events' join codes, as the key ring in use now derives them.
    var joinCodes: JoinCodes { JoinCodes(keyRing: keyRing, base: publicBase) }
    /// The start of the links the server hands out: `CONSTELLATION_PUBLIC_URL`, else the address it listens on.
    var publicBase: String { configuration.publicURL ?? listening.base }

    /// The newest migration this server was built for: `/ready` answers 503 while the database is
    /// behind it (nil: not checked).
    public let schemaVersion: String?

    /// Services whose keys stay `keyRing`.
    public init(
        configuration: ServerConfiguration, database: Database, replica: Database? = nil, keyRing: KeyRing, schemaVersion: String? = nil,
        logger: Logger
    ) {
        self.init(
            configuration: configuration, database: database, replica: replica, keys: KeyRingStore(keyRing),
            schemaVersion: schemaVersion, logger: logger)
    }

    /// - Parameter replica: a read-only streaming replica of `database` for the read-heavy endpoints.
    /// - Parameter logger: the application's, for what runs outside any request (the live feeds).
    public init(
        configuration: ServerConfiguration, database: Database, replica: Database? = nil, keys: KeyRingStore, schemaVersion: String? = nil,
        logger: Logger
    ) {
        self.configuration = configuration
        self.database = database
        self.keys = keys
        self.schemaVersion = schemaVersion
        profiles = ProfileRepository(database: database)
        connections = ConnectionRepository(database: database)
        personalData = PersonalDataRepository(database: database)
        events = EventRepository(database: database)
        blocks = BlockRepository(database: database)
        devices = DeviceRepository(database: database)
        connectionReads = ConnectionRepository(database: replica ?? database)
        eventReads = EventRepository(database: replica ?? database)
        self.replica = replica
        replicaLag = replica.map(ReplicaLag.init)
        credentials = CredentialCache(lifetime: configuration.credentialCacheLifetime)
        viewLinks = ViewLinkCache(lifetime: configuration.credentialCacheLifetime)
        let local = Set(RateLimits.Action.allCases).subtracting(RateLimits.deploymentWide)
        limiter = RateLimiter(limits: configuration.rateLimits.only(local).share(of: configuration.instances))
        deploymentLimits = DeploymentLimits(limits: configuration.rateLimits, store: RateBucketRepository(database: database))
        listening = ListeningAddress(host: configuration.host, port: configuration.port)
        let metrics = ServerMetrics()
        self.metrics = metrics
        var graphLogger = logger
        graphLogger[metadataKey: "component"] = "graph"
        graphWork = GraphWork(
            configuration: configuration, eventReads: eventReads, pictures: EventPictureRepository(database: database), metrics: metrics,
            logger: graphLogger)
        var feedsLogger = logger
        feedsLogger[metadataKey: "component"] = "feeds"
        let files = OpenFiles.raiseSoftLimit()
        let slots = StreamSlots(limit: configuration.maximumStreams ?? OpenFiles.streamCapacity(of: files.now), logger: feedsLogger)
        connectionsPerAddress = ConnectionsPerAddress(
            limit: configuration.connectionsPerAddress ?? min(8_000, files.now / 2), proxies: configuration.trustedProxies)
        logger.notice(
            "open files and live streams",
            metadata: [
                "files.limit": "\(files.now)", "files.limit_before": "\(files.before)", "files.hard_limit": "\(files.hard)",
                "streams.limit": "\(slots.limit)", "connections.per_address": "\(connectionsPerAddress.limit)",
            ])
        let feedSettings = FeedSettings(lifetime: configuration.streamLifetime, keepAlive: configuration.streamKeepAlive)
        feeds = EventFeeds(
            events: events, identity: { [keys] in EventIdentity(keyRing: keys.current) }, logger: feedsLogger, settings: feedSettings,
            slots: slots)
        personalFeeds = PersonalFeeds(connections: connections, logger: feedsLogger, settings: feedSettings, slots: slots)
    }
}
