import ConstellationModel
import Foundation
import Hummingbird
import Keys
import Store
import Tokens

/// Requires `Authorization: Bearer <API key>` and puts the key's profile in the context; a key
/// verified recently is found in `credentials` without a query. An organizer's view token
/// (`Bearer v4.public.…`) is accepted too, as a read-only grant for its event (`viewGrant`), while
/// its link is live (`ViewLinkCache`, else a query): not revoked, and its maker still an organizer.
/// An address that sent too many missing or wrong keys is refused (429) before its key is looked at.
struct AuthenticationMiddleware: RouterMiddleware {
    let profiles: ProfileRepository
    let events: EventRepository
    let credentials: CredentialCache
    let viewLinks: ViewLinkCache
    let limiter: RateLimiter
    let keyRing: KeyRingStore

    /// What a bearer proves.
    private enum Bearer {
        case key(Credential)
        /// A view token's claims and its link (who made it, how many screens it may light).
        case view(ViewClaims, link: LiveViewLink)
    }

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws
        -> Response
    {
        try limiter.check(.authFailure, address: context.clientAddress)
        let bearer: Bearer
        do {
            bearer = try await authenticate(request)
        } catch let problem as Problem where problem.status == 401 {
            limiter.charge(.authFailure, address: context.clientAddress)
            throw problem
        }
        var context = context
        switch bearer {
        case .key(let credential):
            context.profile = credential.profile
            context.deviceId = credential.deviceId
            context.tokensValidFrom = credential.tokensValidFrom
        case .view(let grant, let link):
            // Read-only whatever the route: routes that read check the grant's event (`requireEventReader`),
            // every other route finds no profile (`requireProfile`).
            guard request.method == .get || request.method == .head else { throw Problem.viewTokenReadOnly }
            context.viewGrant = grant
            context.viewLink = link
        }
        return try await next(request, context)
    }

    private func authenticate(_ request: Request) async throws -> Bearer {
        guard let header = request.headers[.authorization] else { throw Problem.missingCredentials }
        guard let key = Self.bearerCredential(in: header) else { throw Problem.missingCredentials }
        if key.hasPrefix("v4.") {
            let grant = try viewGrant(key)
            return .view(grant, link: try await liveLink(of: grant))
        }
        guard APIKey.isWellFormed(key) else { throw Problem.invalidCredentials }
        let hash = try APIKey.hash(key)
        if let cached = credentials.value(for: hash) { return .key(cached) }
        let generation = credentials.generation
        guard let credential = try await profiles.authenticate(apiKeyHash: hash) else { throw Problem.invalidCredentials }
        credentials.remember(credential, for: hash, generation: generation)
        return .key(credential)
    }

    /// The credential of `Bearer <credential>` (the scheme in any case, spaces and tabs around the
    /// credential ignored), or nil for any other header. Read from its UTF-8 bytes: Foundation's
    /// trimming cost more than the key's hash.
    static func bearerCredential(in header: String) -> String? {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let bytes = header.utf8
        let scheme = bytes.prefix(while: { !isBlank($0) })
        guard scheme.elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }), scheme.endIndex != bytes.endIndex else { return nil }
        let rest = bytes[scheme.endIndex...].drop(while: isBlank)
        guard let last = rest.lastIndex(where: { !isBlank($0) }) else { return nil }
        return String(Substring(rest[...last]))
    }

    /// A view token's claims once verified against the keys trusted now: 401 `view_token_expired`
    /// past its expiry (or its key's `notAfter`), 401 `invalid_credentials` for anything not genuine.
    private func viewGrant(_ token: String) throws -> ViewClaims {
        do throws(TokenError) {
            return try ViewTokens.verify(token, keys: keyRing.current.verificationKeys)
        } catch .expired, .keyExpired {
            throw Problem.viewTokenExpired
        } catch {
            throw Problem.invalidViewToken("\(error) [\(error.code)]")
        }
    }

    /// The link `grant` is, while it is live: 401 `view_token_revoked` once it is revoked or its
    /// maker no longer organizes the event, `view_token_expired` once its row's expiry has passed.
    private func liveLink(of grant: ViewClaims) async throws -> LiveViewLink {
        // A link remembered live, and not expired by what was remembered, is taken as it is; one that
        // looks expired is read again, for another instance may have extended it meanwhile.
        if let known = viewLinks.value(for: grant.tokenId), known.expiresAt > Date() { return known }
        let generation = viewLinks.generation
        guard let found = try await events.liveViewLink(grant.tokenId) else { throw Problem.viewTokenRevoked }
        viewLinks.remember(found, for: grant.tokenId, generation: generation)
        // The row decides, within the token's own expiry: an organizer may have extended it, or not.
        guard found.expiresAt > Date() else { throw Problem.viewTokenExpired }
        return found
    }
}
