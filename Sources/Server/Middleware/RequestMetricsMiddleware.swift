import Hummingbird

/// Counts every answered request in `ServerMetrics`: its route pattern (`unmatched` when no route
/// matched, so that odd paths cannot multiply the labels), method, status and time. It sits outside
/// `ProblemMiddleware`, so problems are counted with their status.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        // A route pattern starts with `/`; Hummingbird names a miss `NotFound`.
        let route = context.endpointPath.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "unmatched"
        metrics.request(
            route: route, method: request.method.rawValue,
            status: response.status.code, duration: ContinuousClock.now - start)
        return response
    }
}
