import ConstellationModel
import Foundation
import Hummingbird
import Store
import Tokens

/// An event's live view links, for its organizers: a link opens the event's live page (or, made
/// for a wall, the room's picture) without an account, for as long as the link lives.
struct ViewLinkController {
    let services: AppServices

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("events/:event/view-tokens", use: issueViewToken)
        group.get("events/:event/view-tokens", use: listViewLinks)
        group.delete("events/:event/view-tokens", use: revokeViewLinks)
        group.delete("events/:event/view-tokens/:link", use: revokeViewLinks)
        group.patch("events/:event/view-tokens/:link", use: extendViewLink)
    }

    /// A view token for the event's live page (organizers only): body `{"wall": true}` for a
    /// projector's link, which names only those who chose the wall, and `screens` (1 to 50, else 422), how many
    /// screens it may light; lives `CONSTELLATION_VIEW_TOKEN_MINUTES`. 409 `too_many_view_links` past
    /// `EventRepository.liveViewLinkLimit` live links.
    @Sendable func issueViewToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireOrganizedEvent(context)
        let input = try await JSONBody.decodeIfPresent(ViewTokenRequest.self, from: request, context: context) ?? ViewTokenRequest()
        try services.limiter.admit(.viewLink, credential: me.id, address: context.clientAddress)
        let wall = input.wall ?? false
        let screens = input.screens ?? ViewTokenRequest.defaultScreens
        guard ViewTokenRequest.screenRange.contains(screens) else {
            let (lowest, highest) = (ViewTokenRequest.screenRange.lowerBound, ViewTokenRequest.screenRange.upperBound)
            throw Problem.validation(
                "screens must be \(lowest) to \(highest)", FieldError("/screens", .range, minimum: lowest, maximum: highest))
        }
        // The token lives until the event's end (or the link's first expiry, if later); the link's row
        // decides within that, so that an organizer can extend it without a new link.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let expiresAt = now.addingTimeInterval(TimeInterval(services.configuration.viewTokenLifetime.components.seconds))
        let longest = max(expiresAt, Date(timeIntervalSince1970: event.endsAt.timeIntervalSince1970.rounded(.up)))
        let (token, claims) = try ViewTokens.issue(
            eventId: event.id, showsNames: !wall, lifetime: .seconds(Int64(longest.timeIntervalSince(now))), now: now,
            keys: services.keyRing)
        try await services.events.createViewLink(
            claims.tokenId, of: event.id, by: me.id, showsNames: claims.showsNames, screens: screens, expiresAt: expiresAt,
            longestUntil: claims.expiresAt)
        let path = "/events/\(event.slug)/live\(wall ? "?wall" : "")#view=\(token)"
        context.logger.info(
            "view token issued",
            metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)", "view.wall": "\(wall)", "view.screens": "\(screens)"])
        return try Response.json(
            IssuedViewToken(
                token: token, expiresAt: expiresAt, eventId: event.id, showsNames: claims.showsNames, screens: screens,
                path: path,
                url: services.configuration.publicURL.map { $0 + path }), status: .created)
    }

    /// The event's live view links, newest first (organizers only).
    @Sendable func listViewLinks(_ request: Request, context: AppRequestContext) async throws -> Response {
        let event = try await services.requireOrganizedEvent(context)
        return try .json(ViewLinkList(items: try await services.events.viewLinks(of: event.id)))
    }

    /// Moves a live view link's expiry (`{"expiresAt"}`, after now and at most its `longestUntil`, else
    /// 422): its open pages go on without a new link. 404 when the event has no such live link
    /// (revoked, expired, or its maker no longer organizes the event).
    @Sendable func extendViewLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireOrganizedEvent(context)
        guard let id = context.parameters.get("link").flatMap(UUID.init(uuidString:)) else { throw Self.noSuchLink }
        let change = try await request.decode(as: ViewLinkChange.self, context: context)
        let now = Date()
        guard change.expiresAt > now else {
            throw Problem.validation("expiresAt must be in the future", FieldError("/expiresAt", .dateRange, earliest: now))
        }
        let link: ViewLink?
        do {
            link = try await services.events.extendViewLink(id, of: event.id, until: change.expiresAt)
        } catch let beyond as ViewLinkBeyondItsToken {
            throw Problem.validation(
                "expiresAt must be at most \(ISO8601Seconds.string(beyond.longestUntil)), what the link's token allows",
                FieldError("/expiresAt", .dateRange, earliest: now, latest: beyond.longestUntil))
        }
        guard let link else { throw Self.noSuchLink }
        services.viewLinks.forget([id])
        context.logger.info(
            "view link extended", metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)", "view.expires_at": "\(link.expiresAt)"])
        return try .json(link)
    }

    /// Revokes one live view link (`…/view-tokens/{link}`, 404 if it is not one of the event's) or
    /// every one (organizers only); every instance refuses them within the credential cache's lifetime.
    @Sendable func revokeViewLinks(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireOrganizedEvent(context)
        let link = context.parameters.get("link")
        if let link, UUID(uuidString: link) == nil { throw Self.noSuchLink }
        let revoked = try await services.events.revokeViewLinks(of: event.id, id: link.flatMap(UUID.init(uuidString:)))
        services.viewLinks.forget(revoked)
        context.logger.info(
            "view links revoked", metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)", "view.count": "\(revoked.count)"])
        if link != nil {
            guard !revoked.isEmpty else { throw Self.noSuchLink }
            return Response(status: .noContent)
        }
        return try .json(ViewLinksRevoked(revoked: revoked.count))
    }

    static let noSuchLink = Problem(.unknownViewLink)
}
