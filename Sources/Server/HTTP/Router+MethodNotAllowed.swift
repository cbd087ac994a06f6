import ConstellationModel
import Hummingbird

extension Router {
    /// The methods this server knows (RFC 9110's and PATCH, but CONNECT, which names no resource);
    /// any other is answered 501 by `KnownMethodsMiddleware`. TRACE is routed nowhere: 405.
    static var knownMethods: Set<HTTPRequest.Method> { [.get, .head, .post, .put, .patch, .delete, .options, .trace] }

    /// For every path with routes, answers the known methods it has no route for: `OPTIONS` with
    /// 204 and `Allow`, the others with 405 problem+json and `Allow` (RFC 9110 §15.5.6). Call it
    /// after every route is added; `HEAD` counts as allowed wherever `GET` is (the router answers it).
    func addMethodNotAllowedRoutes() {
        var methodsByPath: [String: (path: RouterPath, methods: Set<HTTPRequest.Method>)] = [:]
        for route in routes {
            methodsByPath[route.path.description, default: (route.path, [])].methods.insert(route.method)
        }
        for (path, methods) in methodsByPath.values {
            var allowed = methods.union([.options])
            if allowed.contains(.get) { allowed.insert(.head) }
            let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            for method in Self.knownMethods.subtracting(allowed.subtracting([.options])) {
                on(path, method: method) { _, _ -> Response in
                    var response =
                        method == .options
                        ? Response(status: .noContent)
                        : Problem(
                            status: 405, code: "method_not_allowed", title: "Method not allowed on this resource",
                            detail: "Allowed: \(allow)"
                        ).response
                    response.headers[.allow] = allow
                    return response
                }
            }
        }
    }
}

/// Answers 501 problem+json for a method the server does not implement on any resource.
struct KnownMethodsMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Router<Context>.knownMethods.contains(request.method) else {
            return Problem(
                status: 501, code: "not_implemented", title: "Method not implemented",
                detail: "\(request.method.rawValue) is not a method this server implements"
            ).response
        }
        return try await next(request, context)
    }
}
