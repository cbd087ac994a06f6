import ConstellationModel
import Hummingbird
import Store

/// `GET /health`: the process is up and serving (no database work, so a load balancer's probe
/// stays cheap and answers even when every database connection is busy).
/// `GET /ready`: ready for traffic: the database answers, its schema is at least the version this
/// server was built for, a signing key is loaded, and the read replica answers if there is one
/// (the read-heavy endpoints read only there); else 503 saying which is not.
struct HealthController {
    let services: AppServices

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("health", use: health)
        router.get("ready", use: ready)
        router.get("metrics", use: metrics)
    }

    struct Health: Encodable { let status: String }

    struct Readiness: Encodable {
        let status: String
        let database: String
        let migrations: String
        let signingKey: String
        /// Absent without a replica.
        let replica: String?
    }

    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        return try Response.json(Health(status: "ok"))
    }

    @Sendable func ready(_ request: Request, context: AppRequestContext) async throws -> Response {
        let schema: String?
        do {
            schema = try await services.database.withConnection { connection in
                try connection.query("SELECT coalesce(max(version), '') AS version FROM schema_migrations")[0].string("version")
            }
        } catch {
            context.logger.warning("readiness check: the database does not answer", metadata: ["error": "\(error)"])
            schema = nil
        }
        let migrations =
            switch (schema, services.schemaVersion) {
            case (nil, _): "unknown"
            case (.some(let found), .some(let needed)) where found < needed: "behind"
            default: "current"
            }
        let signingKey = services.keyRing.verificationKeys.isEmpty ? "missing" : "loaded"
        var replica: String?
        if let database = services.replica {
            do {
                _ = try await database.withConnection { try $0.query("SELECT 1 AS one") }
                replica = "ok"
            } catch {
                context.logger.warning("readiness check: the read replica does not answer", metadata: ["error": "\(error)"])
                replica = "unreachable"
            }
        }
        let isReady = schema != nil && migrations == "current" && signingKey == "loaded" && replica != "unreachable"
        var response = try Response.json(
            Readiness(
                status: isReady ? "ready" : "unavailable", database: schema == nil ? "unreachable" : "ok",
                migrations: migrations, signingKey: signingKey, replica: replica),
            status: isReady ? .ok : .serviceUnavailable)
        if !isReady { response.headers[.retryAfter] = "2" }
        return response
    }

    /// `GET /metrics`: Prometheus's text format (see `ServerMetrics`); with `CONSTELLATION_METRICS_TOKEN`
    /// set, only for `Authorization: Bearer` that token (401 otherwise).
    @Sendable func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let token = services.configuration.metricsToken, request.headers[.authorization] != "Bearer \(token)" {
            throw Problem(
                .invalidCredentials,
                detail: "Send it as: Authorization: Bearer <CONSTELLATION_METRICS_TOKEN>")
        }
        let text = services.metrics.exposition(
            pool: await services.database.poolStatistics(), redemptions: services.connections.redemptionStatistics(),
            graph: services.graphWork.scheduler.load)
        return Response.fresh(Array(text.utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
