import ConstellationModel
import Hummingbird
import Logging

/// Turns every error into an `application/problem+json` response: known errors with their
/// status and code, anything else as a logged 500 that reveals nothing.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            guard let problem = Problem(error) else {
                context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
                return Problem(status: 500, code: "internal_error", title: "Internal error").response
            }
            if problem.status == 503 {
                // The cause (a database down or restarting) is logged where it is handled, not per request.
                context.logger.debug("request refused: service unavailable", metadata: ["error": "\(String(reflecting: error))"])
            } else if problem.status >= 500 {
                context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            }
            return problem.response
        }
    }
}
