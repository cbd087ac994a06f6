import Hummingbird

/// Headers every response carries: `X-Content-Type-Options: nosniff` (a browser never guesses a
/// type other than the one sent), and `Cache-Control: no-store` unless the route chose how its
/// answer is cached (pages, assets, keys): API answers hold personal data and credentials.
struct ResponseHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}
