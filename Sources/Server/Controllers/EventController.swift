import ConstellationModel
import Foundation
import Hummingbird
import Store
import Tokens

/// Events and their members: `POST /v1/events`, `GET /v1/events/{event}` (public),
/// `PATCH /v1/events/{event}` (its organizers), `GET /v1/me/events`, `POST /v1/events/{event}/join-code`, `POST /v1/events/{event}/join`,
/// `DELETE /v1/events/{event}/me` (leaving), and
/// view links, `…/view-tokens`. `{event}` is an event's id or its slug. Organizers themselves and
/// invitations are `OrganizerController`'s.
///
/// Organizer routes answer a caller who is not an organizer 403 `not_an_organizer`, stranger and
/// attendee alike: an event's existence is public (`GET /v1/events/{event}`), so a 404 would hide nothing.
struct EventController {
    let services: AppServices

    func addPublicRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("events/:event", use: show)
    }

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("events", use: create)
        group.patch("events/:event", use: change)
        group.get("me/events", use: mine)
        group.post("events/:event/join-code", use: rotateJoinCode)
        group.post("events/:event/join", use: join)
        group.delete("events/:event/me", use: leave)
        group.post("events/:event/view-tokens", use: issueViewToken)
        group.get("events/:event/view-tokens", use: listViewLinks)
        group.delete("events/:event/view-tokens", use: revokeViewLinks)
        group.delete("events/:event/view-tokens/:link", use: revokeViewLinks)
        group.patch("events/:event/view-tokens/:link", use: extendViewLink)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let input = try EventFields.check(
            try await request.decode(as: NewEvent.self, context: context), horizon: services.configuration.eventHorizon)
        try await services.deploymentLimits.admit(.createEvent, credential: me.id, address: context.clientAddress)
        let event = try await services.events.create(
            id: UUID(), slug: input.slug, name: input.name, startsAt: input.startsAt, endsAt: input.endsAt, timeZone: input.timeZone,
            purgeOn: services.configuration.defaultPurgeDate(endingAt: input.endsAt), organizer: me.id)
        context.logger.info("event created", metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)"])
        // `ResponseHeadersMiddleware` keeps caches from keeping the code.
        let code = try services.joinCodes.current(of: event, rotation: 0)
        return try Response.json(CreatedEvent(event: event, joinCode: code.joinCode), status: .created)
    }

    /// Public: the event's name, slug, dates and time zone; no members, no join code. Its ETag
    /// names this version of it, for `If-Match` on a change.
    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try Response.tagged(try await services.requireEvent(context))
    }

    /// Changes the event's name, dates, time zone or purge date (`EventFields.changes` says how
    /// each may move), for its organizers. `If-Match` must name the version changed (428
    /// `if_match_required` without it, 412 `event_changed` when another organizer changed it since):
    /// two organizers never overwrite each other. Badge codes and walls follow the new dates.
    @Sendable func change(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireOrganizedEvent(context)
        guard let expected = request.headers[.ifMatch] else { throw Self.ifMatchRequired }
        let input = try await request.decode(as: EventChangeRequest.self, context: context)
        let configuration = services.configuration
        let now = Date()
        let changed: Event
        do {
            changed = try await services.events.change(event.id, by: me.id, bounds: configuration.purgeBounds) { current, chosen in
                guard EntityTag.list(expected, names: try EntityTag.of(json: current)) else {
                    throw Self.eventChanged
                }
                return try EventFields.changes(
                    input, to: current, purgeOnChosen: chosen, now: now, horizon: configuration.eventHorizon,
                    defaultPurgeDate: { configuration.defaultPurgeDate(endingAt: $0, now: now) })
            }
        } catch let bounds as PurgeDateOutOfBounds {
            let (earliest, latest) = (ISO8601Seconds.string(bounds.earliest), ISO8601Seconds.string(bounds.latest))
            throw Problem.validation(
                input.purgeOn == nil
                    ? "the purge date comes before the new end and the offline grace: give purgeOn too, from \(earliest) to \(latest)"
                    : "purgeOn must be from \(earliest) to \(latest) with this end",
                FieldError("/purgeOn", .dateRange, earliest: bounds.earliest, latest: bounds.latest))
        }
        await services.graphWork.eventChanged(event.id)
        context.logger.info("event changed", metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)"])
        return try Response.tagged(changed)
    }

    static let ifMatchRequired = Problem(
        .ifMatchRequired,
        detail: "Send If-Match with the ETag that GET /v1/events/{event} gave: two organizers then never overwrite each other.")

    static let eventChanged = Problem(
        .eventChanged,
        detail: "Another organizer changed this event since it was read: read it again, then change it.")

    /// A page of my events, the latest start first (`PageQuery`).
    @Sendable func mine(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try PageQuery(request.uri.queryParameters)
        let (events, next) = try await services.events.events(
            of: context.requireProfile().id, after: try page.cursor(PageCursor.init), limit: page.limit)
        return try .json(MyEvents(items: events, nextCursor: next?.text))
    }

    @Sendable func rotateJoinCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireOrganizedEvent(context)
        let rotation = try await services.events.rotateJoinCode(of: event.id, by: me.id)
        context.logger.info("join code rotated", metadata: ["event.id": "\(event.id)", "event.join_code_rotation": "\(rotation)"])
        return try Response.json(try services.joinCodes.current(of: event, rotation: rotation))
    }

    /// 201 when the caller becomes an attendee, 200 when they were a member already (their role stays);
    /// 410 `event_ended` once its end has come. Wrong codes are counted per person and per event
    /// (`DeploymentLimits.checkGuess`): 429 past them.
    @Sendable func join(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireEvent(context)
        // A purged event says so (the store refuses it); any other whose end has come, this.
        guard event.purgedAt != nil || Date() < event.endsAt else { throw Problem.eventEnded }
        let input = try await request.decode(as: JoinRequest.self, context: context)
        try await services.deploymentLimits.checkGuess(credential: me.id, event: event.id)
        let membership: MyEvent
        let joined: Bool
        do {
            guard let code = try services.joinCodes.attempt(input.code, for: event.id) else { throw StoreError.invalidJoinCode }
            (membership, joined) = try await services.events.join(event.id, profile: me.id, code: code)
        } catch StoreError.invalidJoinCode {
            try await services.deploymentLimits.chargeGuess(credential: me.id, event: event.id)
            throw StoreError.invalidJoinCode
        }
        if joined { context.logger.info("event joined", metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)"]) }
        return try .json(membership, status: joined ? .created : .ok)
    }

    /// I leave the event (204): my membership and choices there go, and so do the event's pairs
    /// I am in; my connections stay. 403 `not_a_member` if I was none; 409
    /// `organizer_cannot_leave` for an organizer, who steps down first.
    @Sendable func leave(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireEvent(context)
        guard try await services.events.leave(event.id, profile: me.id) else { throw Problem.notAMember }
        await services.graphWork.memberLeft(event.id)
        context.logger.info("event left", metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)"])
        return Response(status: .noContent)
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
