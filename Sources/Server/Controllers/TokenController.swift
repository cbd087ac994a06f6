import ConstellationModel
import Foundation
import Hummingbird
import Keys
import QR
import Store
import Tokens

/// `GET /v1/keys`, `POST /v1/tokens`, `GET /v1/me/qr`. A token for an event (body `{"eventId"}`,
/// `?event=`: its id or slug) carries the event in its `evt` claim; only the event's members get one.
struct TokenController {
    let services: AppServices

    func addPublicRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("keys", use: keys)
    }

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("tokens", use: issue)
        group.get("me/qr", use: qr)
    }

    /// The current key and the retired keys still trusted (an expired one verifies nothing: it is left out).
    @Sendable func keys(_ request: Request, context: AppRequestContext) async throws -> Response {
        let keys = try services.keyRing.publishedKeys().filter { $0.status != .expired }
        let grace = Int(services.configuration.offlineGrace.components.seconds)
        var response = try Response.json(KeySet(keys: keys, offlineGraceSeconds: grace))
        response.headers[.cacheControl] = "public, max-age=300"
        return response
    }

    /// No body (or `{}`): a personal token; `{"eventId": id or slug}`: a token for that event.
    @Sendable func issue(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await JSONBody.decodeIfPresent(TokenRequest.self, from: request, context: context) ?? TokenRequest()
        let me = try context.requireProfile()
        return Response.json(
            bytes: try await freshToken(for: me, event: input.eventId, context: context).jsonBytes(), status: .created)
    }

    /// A fresh token drawn as a QR code: `?format=svg` (default), `png` or `txt`; the code holds the
    /// token's link when the server has a public URL, else the token.
    @Sendable func qr(_ request: Request, context: AppRequestContext) async throws -> Response {
        let format = request.uri.queryParameters.get("format") ?? "svg"
        guard ["svg", "png", "txt"].contains(format) else {
            throw Problem(.unsupportedFormat, detail: "format must be svg, png or txt")
        }
        let token = try await freshToken(for: context.requireProfile(), event: request.uri.queryParameters.get("event"), context: context)
        let code = try QRCode(encoding: token.qrText)
        var response: Response
        switch format {
        case "png": response = .fresh(try code.png(), contentType: "image/png")
        case "txt": response = .fresh(Array(code.terminalText().utf8), contentType: "text/plain; charset=utf-8")
        default: response = .fresh(Array(code.svg().utf8), contentType: "image/svg+xml")
        }
        response.headers[.init("Constellation-Token-Expires")!] = token.expiresAt.formatted(.iso8601)
        return response
    }

    /// A token for `profile`; with `event` (an id or slug), for that event, if `profile` is a member
    /// and the event has not ended (its end plus the offline grace, after which its tokens are refused).
    /// Issued now, or at the profile's `tokensValidFrom` if that is later (by less than a second,
    /// right after `POST /v1/me/qr/reset`), so that a token issued after a reset redeems.
    /// Counted against the minting limits of `profile` and of the client's address.
    private func freshToken(for profile: Profile, event reference: String?, context: AppRequestContext) async throws -> IssuedToken {
        try services.limiter.admit(.mint, credential: profile.id, address: context.clientAddress)
        var eventId: UUID?
        if let reference {
            guard let found = try await services.events.event(EventReference(reference), viewer: profile.id) else {
                throw Problem.unknownEvent
            }
            guard found.role != nil else { throw Problem.notAMember }
            guard found.event.purgedAt == nil else { throw Problem.eventPurged }
            let grace = TimeInterval(services.configuration.offlineGrace.components.seconds)
            guard Date() <= found.event.endsAt.addingTimeInterval(grace) else { throw Problem.eventEnded }
            eventId = found.event.id
        }
        let now = Date()
        let validFrom = context.tokensValidFrom
        let (token, claims) = try ConnectionTokens.issue(
            subject: profile.id, eventId: eventId,
            lifetime: services.configuration.tokenLifetime, now: max(now, validFrom ?? now), keys: services.keyRing)
        services.metrics.tokenMinted()
        return IssuedToken(
            token: token, tokenId: claims.tokenId, issuedAt: claims.issuedAt, expiresAt: claims.expiresAt, eventId: eventId,
            link: services.configuration.link(to: token))
    }
}
