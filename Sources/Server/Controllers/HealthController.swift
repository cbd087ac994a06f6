import Hummingbird

/// `GET /health`: 200 when the server can reach its database, 503 when it cannot.
struct HealthController {
    let services: AppServices

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("health", use: health)
    }

    struct Health: Encodable { let status: String; let database: String }

    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            _ = try await services.database.withConnection { try $0.query("SELECT 1") }
            return try .json(Health(status: "ok", database: "ok"))
        } catch {
            context.logger.warning("health check failed", metadata: ["error": "\(error)"])
            return try .json(Health(status: "unavailable", database: "unreachable"), status: .serviceUnavailable)
        }
    }
}
