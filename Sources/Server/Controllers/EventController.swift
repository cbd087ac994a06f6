import ConstellationModel
import Foundation
import Hummingbird
import Store
import Tokens

/// Events themselves: made by anyone with a key, public to read, changed by their organizers; and
/// the list of my events. `{event}` is an event's id or its slug. Its members are
/// `EventMembershipController`'s, its organizers `OrganizerController`'s, its door
/// `JoinCodeController`'s and its view links `ViewLinkController`'s.
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

}
