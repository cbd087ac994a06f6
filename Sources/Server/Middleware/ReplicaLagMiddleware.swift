import Foundation
import Hummingbird

/// On the routes that read from the replica (`DATABASE_READ_URL`): a successful `GET` says how
/// stale it may be, `Replica-Lag: SECONDS` (see `ReplicaLag`). Without a replica it adds nothing.
struct ReplicaLagMiddleware<Context: RequestContext>: RouterMiddleware {
    let lag: ReplicaLag?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if let lag, request.method == .get, response.status.code < 300, let seconds = await lag.seconds() {
            response.headers[.replicaLag] = String(format: "%.3f", seconds)
        }
        return response
    }
}

extension HTTPFields.Element.Name {
    /// `Replica-Lag`: seconds the replica that served the response was behind its primary.
    static let replicaLag = Self("Replica-Lag")!
}
