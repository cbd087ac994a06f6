import ConstellationModel
import Foundation
import Hummingbird
import QR
import Tokens

/// `GET /v1/keys`, `POST /v1/tokens`, `GET /v1/me/qr`.
struct TokenController {
    let services: AppServices

    func addPublicRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("keys", use: keys)
    }

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("tokens", use: issue)
        group.get("me/qr", use: qr)
    }

    @Sendable func keys(_ request: Request, context: AppRequestContext) async throws -> Response {
        let keys = try services.keyRing.verificationKeys.values.sorted { $0.notBefore < $1.notBefore }.map { key in
            PublishedKey(kid: key.kid, publicKey: PASERK.encode(key.publicKey), pid: try PASERK.publicId(of: key.publicKey),
                         notBefore: key.notBefore, notAfter: key.notAfter)
        }
        let grace = Int(services.configuration.offlineGrace.components.seconds)
        var response = try Response.json(KeySet(keys: keys, offlineGraceSeconds: grace))
        response.headers[.cacheControl] = "public, max-age=300"
        return response
    }

    @Sendable func issue(_ request: Request, context: AppRequestContext) async throws -> Response {
        var response = try Response.json(try await freshToken(for: context.requireProfile()), status: .created)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// A fresh token drawn as a QR code: `?format=svg` (default), `png` or `txt`.
    @Sendable func qr(_ request: Request, context: AppRequestContext) async throws -> Response {
        let format = request.uri.queryParameters.get("format") ?? "svg"
        guard ["svg", "png", "txt"].contains(format) else {
            throw Problem.badRequest("unsupported_format", "format must be svg, png or txt")
        }
        let token = try await freshToken(for: context.requireProfile())
        let code = try QRCode(encoding: token.token)
        var response: Response
        switch format {
        case "png": response = .fresh(try code.png(), contentType: "image/png")
        case "txt": response = .fresh(Array(code.terminalText().utf8), contentType: "text/plain; charset=utf-8")
        default: response = .fresh(Array(code.svg().utf8), contentType: "image/svg+xml")
        }
        response.headers[.init("Constellation-Token-Expires")!] = token.expiresAt.formatted(.iso8601)
        return response
    }

    /// A token issued now, or at the profile's `tokensValidFrom` if that is later (by less than a
    /// second, right after `POST /v1/me/qr/reset`), so that a token issued after a reset redeems.
    private func freshToken(for profile: Profile) async throws -> IssuedToken {
        let now = Date()
        let validFrom = try await services.profiles.tokensValidFrom(of: profile.id)
        let (token, claims) = try ConnectionTokens.issue(
            subject: profile.id.uuidString.lowercased(), lifetime: services.configuration.tokenLifetime,
            now: max(now, validFrom ?? now), keys: services.keyRing)
        return IssuedToken(token: token, tokenId: claims.tokenId, issuedAt: claims.issuedAt, expiresAt: claims.expiresAt)
    }
}
