import ConstellationModel
import Hummingbird

/// Headers every response carries: `X-Content-Type-Options: nosniff` (a browser never guesses a
/// type other than the one sent), `Constellation-Version` (the server's release, so that a client
/// can say when it is older or newer), and `Cache-Control: no-store` unless the route chose how its
/// answer is cached (pages, assets, keys): API answers hold personal data and credentials.
struct ResponseHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.constellationVersion] = Release.version
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}

extension HTTPFields.Element.Name {
    /// `Constellation-Version`: the server's release (`Release.version`).
    static let constellationVersion = Self(Release.header)!
}
