import ConstellationModel
import Foundation
import Hummingbird
import Store
import Tokens

/// `POST /v1/profiles`, `GET /v1/profiles/{id}`, `GET /v1/me`, `PATCH /v1/me`, `GET` and `PUT /v1/me/card`.
struct ProfileController {
    let services: AppServices

    func addPublicRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("profiles", use: register)
    }

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("profiles/:id", use: show)
        group.get("me", use: me)
        group.patch("me", use: update)
        group.get("me/card", use: card)
        group.put("me/card", use: replaceCard)
    }

    /// 201 with the new profile and its key. What brought the newcomer decides whose budget the
    /// registration counts against (`admit`); a join code also makes them an attendee of its event.
    @Sendable func register(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await request.decode(as: NewProfile.self, context: context)
        let name = try ProfileFields.displayName(input.displayName)
        let headline = try input.headline.flatMap(ProfileFields.headline)
        let deviceName = try input.deviceName.map(DeviceController.deviceNameText.check)
        let joining = try await admit(input, address: context.clientAddress)
        let apiKey = try APIKey.generate()
        let (profile, device, event) = try await services.profiles.create(
            displayName: name, headline: headline, apiKeyHash: apiKey.hash, deviceName: deviceName, joining: joining)
        context.logger.info("profile registered", metadata: ["profile.id": "\(profile.id)"])
        return try Response.json(RegisteredProfile(profile: profile, apiKey: apiKey.key, device: device, event: event), status: .created)
    }

    /// Counts a registration against what brought it: the event whose join code it carries (the
    /// event to join, returned), the event or the person whose code it is about to scan, or, with
    /// nothing behind it, its address; one through a code also against its address's budget for
    /// those (`registerThroughCode`). A wrong event, code or token, an ended event's join code, or
    /// a code its redemption would refuse (revoked by a QR reset, its owner erased, used up),
    /// counts against the address as a registration with nothing behind it does, and is refused.
    private func admit(_ input: NewProfile, address: String?) async throws -> (event: UUID, code: JoinCodeAttempt)? {
        let limiter = services.deploymentLimits
        switch (input.event, input.joinCode, input.token) {
        case (nil, nil, nil):
            try await limiter.admit(.register, address: address)
            return nil
        case (let reference?, let code?, nil):
            let event: UUID
            let attempt: JoinCodeAttempt
            do {
                guard let found = try await services.events.event(EventReference(reference)) else { throw Problem.unknownEvent }
                // A purged event has no join code left: said as what it is, not as a wrong code.
                guard found.event.purgedAt == nil else { throw Problem.eventPurged }
                guard let given = try services.joinCodes.attempt(code, for: found.event.id),
                    try await services.events.joinCodeMatches(given, of: found.event.id) == true
                else { throw StoreError.invalidJoinCode }
                guard Date() < found.event.endsAt else { throw Problem.eventEnded }
                (event, attempt) = (found.event.id, given)
            } catch {
                try await limiter.admit(.register, address: address)
                throw error
            }
            try await limiter.admit(.register, address: address, event: event, addressAction: .registerThroughCode)
            return (event, attempt)
        case (nil, nil, let token?):
            let claims: ConnectionClaims
            do {
                // The code may have been scanned offline a while ago: valid within the offline grace.
                guard token.utf8.count <= 2048 else { throw Problem(.malformedToken, detail: "the token is too long") }
                let now = Date()
                let grace = TimeInterval(services.configuration.offlineGrace.components.seconds)
                claims = try await services.verifiedCode(token, validAtSomeMomentOf: now.addingTimeInterval(-grace)...now, now: now)
                let configuration = services.configuration
                if let refusal = try await services.connections.refusal(
                    ofCode: claims.tokenId, ownedBy: claims.subject, issuedAt: claims.issuedAt, event: claims.eventId,
                    maximumUses: claims.kind == .badge
                        ? configuration.maximumRedemptionsPerBadge : configuration.maximumRedemptionsPerToken,
                    eventGrace: grace)
                {
                    throw refusal
                }
            } catch {
                try await limiter.admit(.register, address: address)
                throw error
            }
            if let event = claims.eventId {
                try await limiter.admit(.register, address: address, event: event, addressAction: .registerThroughCode)
            } else {
                try await limiter.admit(.register, credential: claims.subject, address: address, addressAction: .registerThroughCode)
            }
            return nil
        default:
            throw Problem.validation(
                "give event and joinCode together, or token, or none of them", FieldError("", .required, fields: ["event", "joinCode"]))
        }
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()  // a key's holder, not a view token's
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
            throw Problem(.notFound, detail: "No such profile")
        }
        guard let profile = try await services.profiles.profile(id: id, seenBy: me.id) else {
            throw Problem(.notFound, detail: "No such profile")
        }
        return try .json(profile)
    }

    /// Read afresh: the profile in the context may come from the credential cache.
    @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let profile = try await services.profiles.profile(id: context.requireProfile().id) else { throw Problem.invalidCredentials }
        return try .json(profile)
    }

    /// My contact card, every entry with who sees it, and its ETag (for `If-Match` on a change).
    @Sendable func card(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let card = try await services.profiles.card(of: context.requireProfile().id) else { throw Problem.invalidCredentials }
        return try Response.tagged(card)
    }

    /// Replaces my contact card as a whole (checked first: a bad entry changes nothing). With
    /// `If-Match`, only if the card is still the one that ETag names: 412 `card_changed` if another
    /// device changed it meanwhile, so that an old copy never undoes a newer choice.
    @Sendable func replaceCard(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let input = try await request.decode(as: ContactCard.self, context: context)
        let entries = try ContactFields.entries(input.entries)
        let expected = request.headers[.ifMatch]
        let card = try await services.profiles.replaceCard(of: me.id, with: entries) { current in
            guard let expected, !EntityTag.list(expected, names: try EntityTag.of(json: current)) else {
                return
            }
            throw Problem(
                .cardChanged,
                detail: "another device changed this card since it was read: read it again, then change it")
        }
        guard let card else { throw Problem.invalidCredentials }
        return try Response.tagged(card)
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let changes = try await request.decode(as: ProfileChanges.self, context: context)
        guard changes.displayName != nil || changes.headline != nil else {
            throw Problem.validation("give displayName and/or headline", FieldError("", .required, fields: ["displayName", "headline"]))
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
