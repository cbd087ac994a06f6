import Client
import ConstellationModel
import Foundation
import Keys
import Logging
import Server
import ServiceLifecycle
import Store
import TestSupport
import Testing
import Tokens

/// A real server on a loopback port of its own, with its own database, for one test.
struct TestServer {
    let services: AppServices
    let client: ConstellationClient
    let port: Int
    /// Its database's connection string, for a second pool on it (another server's).
    let conninfo: String

    /// Starts a server, runs `body` against it over HTTP, and stops it.
    /// With `keys`, the server signs and verifies with them (e.g. a data directory's, reread by `reloadIfChanged`);
    /// with `replica`, it reads its networks and statistics there; with `sharing`, it runs on that
    /// server's database (another server of the same deployment: give both the same `keys`).
    static func run(
        keys: KeyRingStore? = nil,
        replica: Database? = nil,
        sharing other: TestServer? = nil,
        logger: Logger = TestDatabase.logger,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestServer) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.databaseWait = .seconds(60)  // hundreds of tests share two cores; a test about the wait sets its own
        // Tests read what they just wrote; a test of the sharing (SharedPictureTests) sets its own interval.
        configuration.pictureInterval = .zero
        configure(&configuration)
        let (database, conninfo) =
            if let other {
                (
                    Database(
                        conninfo: other.conninfo, maximumConnections: configuration.databasePoolSize,
                        connectionWait: configuration.databaseWait, statementTimeout: configuration.statementTimeout, logger: logger),
                    other.conninfo
                )
            } else {
                try await TestDatabase.createMigrated(
                    maximumConnections: configuration.databasePoolSize, connectionWait: configuration.databaseWait,
                    statementTimeout: configuration.statementTimeout)
            }
        let services = AppServices(
            configuration: configuration, database: database, replica: replica,
            keys: try keys ?? KeyRingStore(KeyRing(current: SigningKey.generate(), since: Date())), logger: logger)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = buildApplication(services, logger: logger, onServerRunning: { continuation.yield($0) })
        // Stopped as SIGTERM stops a server: gracefully (streams end, answers in flight finish).
        // Cancelling it instead can drop a connection's writer mid-answer, which NIO traps on.
        let serviceGroup = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await serviceGroup.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            // The whole suite shares two cores: a request may wait its turn for seconds. A test about
            // time says so itself; the client's 10 s default would fail the others for the machine's load.
            let client = ConstellationClient(baseURL: "http://127.0.0.1:\(port)", timeout: .seconds(60))
            let server = TestServer(services: services, client: client, port: port, conninfo: conninfo)
            var failure: (any Error)?
            do { try await body(server) } catch { failure = error }
            await serviceGroup.triggerGracefulShutdown()
            try await group.waitForAll()
            if let failure { throw failure }
        }
    }

    /// Makes `user` an organizer of `event`, as people do: `organizer` invites, `user` accepts.
    func makeOrganizer(_ user: (profile: Profile, client: ConstellationClient), of event: String, by organizer: ConstellationClient)
        async throws
    {
        _ = try await organizer.inviteOrganizer(user.profile.id, to: event)
        _ = try await user.client.acceptInvitation(to: event)
    }

    /// A registered user's client.
    func user(_ name: String) async throws -> (profile: Profile, client: ConstellationClient) {
        let registered = try await client.register(NewProfile(displayName: name))
        return (registered.profile, client.authenticated(registered.apiKey))
    }

    /// Registered users' clients, one a name: `let (ada, bob) = try await server.users("Ada", "Bob")`.
    func users<each Name: StringProtocol>(_ names: repeat each Name) async throws -> (repeat User<each Name>) {
        (repeat try await user(String(each names)))
    }

    /// A registered user, as `users` gives them (`Name` only counts them).
    typealias User<Name> = (profile: Profile, client: ConstellationClient)

    func count(_ table: String) async throws -> Int64 {
        try await services.database.withConnection { try $0.query("SELECT count(*) AS n FROM \(unsafeSQL: table)")[0].int("n") }
    }

    /// A token signed by this server's key for `owner`, issued at `issuedAt`, for `event` if given
    /// (whether or not the server would mint it).
    func token(for owner: Profile, event: UUID? = nil, issuedAt: Date = Date(), lifetime: Duration = .seconds(300)) throws -> String {
        try ConnectionTokens.issue(
            subject: owner.id, eventId: event,
            lifetime: lifetime, now: issuedAt, keys: services.keyRing
        ).token
    }
}

/// Expects `body` to fail with a problem of this status and code.
func expectProblem(
    _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async {
    do {
        try await body()
        Issue.record("expected \(status) \(code), but the call succeeded", sourceLocation: sourceLocation)
    } catch let error as ClientError {
        guard case .problem(let problem) = error else {
            Issue.record("expected a problem, got \(error)", sourceLocation: sourceLocation)
            return
        }
        #expect(problem.status == status, sourceLocation: sourceLocation)
        #expect(problem.code == code, sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
}

extension ConstellationClient {
    /// Redeems a fresh code of `owner`'s, for `event` (a slug) if given, as scanning it would.
    @discardableResult
    func scan(_ owner: ConstellationClient, at event: String? = nil, nonce: String? = nil) async throws -> Redemption {
        try await redeem(RedeemRequest(token: try await owner.issueToken(event: event).token, clientNonce: nonce))
    }
}
