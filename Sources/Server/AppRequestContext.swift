import ConstellationModel
import Foundation
import Hummingbird

/// The per-request context: Hummingbird's core storage plus the authenticated profile.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `AuthenticationMiddleware` on routes that require a key.
    public var profile: Profile?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// Request bodies are small JSON documents.
    public var maxUploadSize: Int { 64 * 1024 }

    public var requestDecoder: JSONDecoder { .constellation }

    /// The authenticated profile; only called on routes behind `AuthenticationMiddleware`.
    func requireProfile() throws -> Profile {
        guard let profile else { throw Problem.missingCredentials }
        return profile
    }
}
