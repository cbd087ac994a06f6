import ConstellationModel
import Hummingbird
import Store
import Tokens

/// Requires `Authorization: Bearer <API key>` and puts the key's profile in the context.
struct AuthenticationMiddleware: RouterMiddleware {
    let profiles: ProfileRepository

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { throw Problem.missingCredentials }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw Problem.missingCredentials }
        let key = String(parts[1]).trimmingCharacters(in: .whitespaces)
        guard APIKey.isWellFormed(key), let profile = try await profiles.authenticate(apiKeyHash: APIKey.hash(key)) else {
            throw Problem.invalidCredentials
        }
        var context = context
        context.profile = profile
        return try await next(request, context)
    }
}
