import ConstellationModel
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Server
import Store
import Tokens

/// The application's router, driven without a socket (HummingbirdTesting's router mode) and with
/// a database that does not exist: what these tests send must be answered before any query. One
/// that reached the database would be a 503 `database_unavailable`, which no test here expects.
enum RouterHarness {
    static let logger = Logger(label: "constellation.routing-tests")

    static func run(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await runWithServices { client, _ in try await body(client) }
    }

    /// `run`, with the services the router was built from (to build it again, or look into them).
    static func runWithServices(_ body: @Sendable (any TestClientProtocol, AppServices) async throws -> Void) async throws {
        let database = Database(
            conninfo: "host=/nonexistent/constellation-routing-tests dbname=none", maximumConnections: 1,
            connectionWait: .milliseconds(200), logger: logger)
        let services = AppServices(
            configuration: ServerConfiguration(), database: database,
            keyRing: try KeyRing(current: SigningKey.generate(), since: Date()), logger: logger)
        do {
            try await buildApplication(services, logger: logger).test(.router) { client in try await body(client, services) }
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }
}

extension TestResponse {
    /// The body as a problem, if it is one (`application/problem+json`).
    var problem: Problem? {
        guard headers[.contentType] == Problem.mediaType else { return nil }
        return try? JSONDecoder().decode(Problem.self, from: Data(buffer: body))
    }
}
