import ConstellationModel
import Hummingbird
import Store
import Tokens

/// Requires `Authorization: Bearer <API key>` and puts the key's profile in the context; a key
/// verified recently is found in `credentials` without a query. An address that sent too many
/// missing or wrong keys is refused (429) before its key is looked at.
struct AuthenticationMiddleware: RouterMiddleware {
    let profiles: ProfileRepository
    let credentials: CredentialCache
    let limiter: RateLimiter

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        try limiter.check(.authFailure, address: context.clientAddress)
        let credential: Credential
        do {
            credential = try await authenticate(request)
        } catch let problem as Problem where problem.status == 401 {
            limiter.charge(.authFailure, address: context.clientAddress)
            throw problem
        }
        var context = context
        context.profile = credential.profile
        context.tokensValidFrom = credential.tokensValidFrom
        return try await next(request, context)
    }

    private func authenticate(_ request: Request) async throws -> Credential {
        guard let header = request.headers[.authorization] else { throw Problem.missingCredentials }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw Problem.missingCredentials }
        let key = String(parts[1]).trimmingCharacters(in: .whitespaces)
        guard APIKey.isWellFormed(key) else { throw Problem.invalidCredentials }
        let hash = try APIKey.hash(key)
        if let cached = credentials.credential(keyHash: hash) { return cached }
        guard let credential = try await profiles.authenticate(apiKeyHash: hash) else { throw Problem.invalidCredentials }
        credentials.remember(credential, keyHash: hash)
        return credential
    }
}
