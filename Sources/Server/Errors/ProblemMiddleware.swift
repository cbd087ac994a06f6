import ConstellationModel
import Hummingbird
import Logging

/// Turns every error into an `application/problem+json` response: an error that describes itself
/// (`ProblemConvertible`) with its status and code, anything else as a logged 500 that shows
/// nothing but the request's id.
package struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let described = error as? any ProblemConvertible
            let problem = described?.problem ?? .internalError
            if problem.status < 500 {
                if described?.logsItsCause == true {
                    context.logger.notice(
                        "request refused", metadata: ["error": "\(String(reflecting: error))", "code": "\(problem.code)"])
                }
            } else if problem.status == 503 {
                // The cause (a database down or restarting) is logged where it is handled, not per request.
                context.logger.debug("request refused: service unavailable", metadata: ["error": "\(String(reflecting: error))"])
            } else if problem.status >= 500 {
                context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
                if case .string(let id) = context.logger[metadataKey: "request.id"] {
                    return problem.forRequest(id).response
                }
            }
            return problem.response
        }
    }
}
