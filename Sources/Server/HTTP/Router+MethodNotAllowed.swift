import ConstellationModel
import Hummingbird

extension Router {
    /// Every method the HTTP parser reads (llhttp's, as NIO passes them on): RFC 9110's, PATCH,
    /// WebDAV's, QUERY and the rest. A request with any other method is refused by the parser
    /// before its path is read (501 `not_implemented`, `RequestTracker`).
    static var parsedMethods: Set<HTTPRequest.Method> {
        Set(
            [
                "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "QUERY", "COPY", "LOCK", "MKCOL",
                "MOVE", "PROPFIND", "PROPPATCH", "SEARCH", "UNLOCK", "BIND", "REBIND", "UNBIND", "ACL", "REPORT", "MKACTIVITY",
                "CHECKOUT", "MERGE", "MSEARCH", "NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE", "PURGE", "MKCALENDAR", "LINK", "UNLINK", "SOURCE",
            ].compactMap(HTTPRequest.Method.init(rawValue:)))
    }

    /// For every path with routes, answers the methods it has no route for: `OPTIONS` with 204 and
    /// `Allow`, every other method the parser reads with 405 problem+json and `Allow` (RFC 9110
    /// §15.5.6); a path without routes is 404 whatever the method. Call it after every route is
    /// added; `HEAD` counts as allowed wherever `GET` is (the router answers it).
    func addMethodNotAllowedRoutes() {
        var methodsByPath: [String: (path: RouterPath, methods: Set<HTTPRequest.Method>)] = [:]
        for route in routes {
            methodsByPath[route.path.description, default: (route.path, [])].methods.insert(route.method)
        }
        for (path, methods) in methodsByPath.values {
            var allowed = methods.union([.options])
            if allowed.contains(.get) { allowed.insert(.head) }
            let allow = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            for method in Self.parsedMethods.subtracting(allowed.subtracting([.options])) {
                on(path, method: method) { _, _ -> Response in
                    var response =
                        method == .options
                        ? Response(status: .noContent)
                        : Problem(
                            .methodNotAllowed,
                            detail: "Allowed: \(allow)"
                        ).response
                    response.headers[.allow] = allow
                    return response
                }
            }
        }
    }
}
