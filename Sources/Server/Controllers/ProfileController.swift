import ConstellationModel
import Foundation
import Hummingbird
import Tokens

/// `POST /v1/profiles`, `GET /v1/profiles/{id}`, `GET /v1/me`, `PATCH /v1/me`.
struct ProfileController {
    let services: AppServices

    func addPublicRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("profiles", use: register)
    }

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("profiles/:id", use: show)
        group.get("me", use: me)
        group.patch("me", use: update)
    }

    @Sendable func register(_ request: Request, context: AppRequestContext) async throws -> Response {
        try services.limiter.admit(.register, address: context.clientAddress)
        let input = try await request.decode(as: NewProfile.self, context: context)
        let name = try ProfileFields.displayName(input.displayName)
        let headline = try input.headline.flatMap(ProfileFields.headline)
        let deviceName = try input.deviceName.map(DeviceController.deviceNameText.check)
        let apiKey = try APIKey.generate()
        let (profile, device) = try await services.profiles.create(
            displayName: name, headline: headline, apiKeyHash: apiKey.hash, deviceName: deviceName)
        context.logger.info("profile registered", metadata: ["profile.id": "\(profile.id)"])
        return try Response.json(RegisteredProfile(profile: profile, apiKey: apiKey.key, device: device), status: .created)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()  // a key's holder, not a view token's
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
            throw Problem(status: 404, code: "not_found", title: "No such profile")
        }
        guard let profile = try await services.profiles.profile(id: id, seenBy: me.id) else {
            throw Problem(status: 404, code: "not_found", title: "No such profile")
        }
        return try .json(profile)
    }

    /// Read afresh: the profile in the context may come from the credential cache.
    @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let profile = try await services.profiles.profile(id: context.requireProfile().id) else { throw Problem.invalidCredentials }
        return try .json(profile)
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let changes = try await request.decode(as: ProfileChanges.self, context: context)
        guard changes.displayName != nil || changes.headline != nil else {
            throw Problem.validation("give displayName and/or headline")
        }
        let name = try changes.displayName.map(ProfileFields.displayName)
        let headline: String?? = try changes.headline.map(ProfileFields.headline)
        guard let updated = try await services.profiles.update(id: me.id, displayName: name, headline: headline) else {
            throw Problem.invalidCredentials
        }
        services.credentials.forget(profile: me.id)
        return try .json(updated)
    }
}
