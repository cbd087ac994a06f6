import ConstellationModel
import Hummingbird
import Store
import Tokens

/// Requires `Authorization: Bearer <API key>` and puts the key's profile in the context; a key
/// verified recently is found in `credentials` without a query.
struct AuthenticationMiddleware: RouterMiddleware {
    let profiles: ProfileRepository
    let credentials: CredentialCache

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { throw Problem.missingCredentials }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw Problem.missingCredentials }
        let key = String(parts[1]).trimmingCharacters(in: .whitespaces)
        guard APIKey.isWellFormed(key) else { throw Problem.invalidCredentials }
        let hash = try APIKey.hash(key)
        var profile = credentials.profile(keyHash: hash)
        if profile == nil {
            profile = try await profiles.authenticate(apiKeyHash: hash)
            guard let profile else { throw Problem.invalidCredentials }
            credentials.remember(profile, keyHash: hash)
        }
        var context = context
        context.profile = profile
        return try await next(request, context)
    }
}
