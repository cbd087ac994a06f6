import Hummingbird

/// Puts the client's address in the context: the connection's peer, or behind a trusted proxy
/// the address `X-Forwarded-For` names (see `TrustedProxies`). Rate limits count by it.
struct ClientAddressMiddleware: RouterMiddleware {
    let proxies: TrustedProxies

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws
        -> Response
    {
        var context = context
        let forwarded = proxies.isEmpty ? [] : request.headers[values: .init("X-Forwarded-For")!]
        context.clientAddress = proxies.client(peer: context.remoteAddress?.ipAddress, forwardedFor: forwarded)
        return try await next(request, context)
    }
}
