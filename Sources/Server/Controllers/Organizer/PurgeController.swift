import ConstellationModel
import Foundation
import Hummingbird
import Store

/// An event's purge, for its organizers: `GET|PUT /v1/events/{event}/purge-date` (when its
/// personal data goes, and the bounds it may move within), `POST /v1/events/{event}/purge` (now,
/// once its codes no longer redeem), and `GET /v1/events/{event}/record` (what it leaves behind:
/// its figures and growth, computed now before the purge and as kept after it). The rest of the
/// organizer's routes answer a purged event 410 `event_purged`; these go on answering.
struct PurgeController {
    let services: AppServices
    var work: GraphWork { services.graphWork }
    var bounds: PurgeBounds { services.configuration.purgeBounds }

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("events/:event/purge-date", use: purgeDate)
        group.put("events/:event/purge-date", use: movePurgeDate)
        group.post("events/:event/purge", use: purgeNow)
        group.get("events/:event/record", use: record)
    }

    @Sendable func purgeDate(_ request: Request, context: AppRequestContext) async throws -> Response {
        let event = try await services.requireOrganizedEvent(context, evenPurged: true)
        guard let date = try await services.events.purgeDate(of: event.id, bounds: bounds) else { throw Problem.unknownEvent }
        return try .json(date)
    }

    /// `{"purgeOn"}` between the earliest and the latest date (422 `validation_failed` with both
    /// in `errors` else); 410 `event_purged` once the purge began.
    @Sendable func movePurgeDate(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireOrganizedEvent(context)
        let input = try await request.decode(as: NewPurgeDate.self, context: context)
        do {
            let moved = try await services.events.setPurgeDate(of: event.id, to: input.purgeOn, by: me.id, bounds: bounds)
            context.logger.info(
                "purge date moved", metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)", "event.purge_on": "\(moved.purgeOn)"])
            return try .json(moved)
        } catch StoreError.purgeDateOutOfBounds {
            guard let now = try await services.events.purgeDate(of: event.id, bounds: bounds) else { throw Problem.unknownEvent }
            throw Problem.validation(
                "purgeOn must be between \(ISO8601Seconds.string(now.earliest)) and \(ISO8601Seconds.string(now.latest))",
                FieldError("/purgeOn", .dateRange, earliest: now.earliest, latest: now.latest))
        }
    }

    /// `{"confirm": the event's slug}`: begins the purge now (202, the event as it is now, purged);
    /// 409 `event_not_over` while its codes still redeem; 422 when `confirm` is not the slug.
    @Sendable func purgeNow(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireOrganizedEvent(context)
        let input = try await request.decode(as: PurgeRequest.self, context: context)
        guard input.confirm.lowercased() == event.slug else {
            throw Problem.validation(
                "confirm must be the event's slug, \(event.slug): it names what goes", FieldError("/confirm", .oneOf, allowed: [event.slug])
            )
        }
        let purged = try await services.events.purgeNow(event.id, by: me.id, bounds: bounds)
        await work.forget(event: event.id)
        context.logger.notice(
            "event purge: asked for now by an organizer", metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)"])
        return try .json(purged, status: .accepted)
    }

    /// `?bucket=5m|15m|1h|1d` (1 h by default) for the growth, over the event's dates.
    @Sendable func record(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let query = try GrowthQuery(request.uri.queryParameters)
        // Counted before the event is looked up: a loop past the limit costs no query.
        try await services.deploymentLimits.admit(.report, credential: me.id, address: context.clientAddress)
        let event = try await services.requireOrganizedEvent(context, evenPurged: true)
        let kept = try await work.run("record", event: event.id, credential: me.id, sharedResult: "record", clientGone: { false }) {
            try await work.records.value(for: event.id) { try await keptOrComputed(event) }
        }
        guard let series = GrowthSeries(recorded: kept.steps) else {
            context.logger.error("an event's kept record holds no growth series the server can read", metadata: ["event.id": "\(event.id)"])
            throw Problem(.recordUnreadable)
        }
        let dates = event.startsAt...event.endsAt
        let growth = try series.window(size: query.size, from: query.from, to: query.to, within: dates).map(series.buckets) ?? []
        return try .json(
            EventRecord(
                eventId: event.id, purged: event.purgedAt != nil, computedAt: kept.computedAt, figures: kept.figures, growth: growth))
    }

    /// What the purge kept of `event`, or, before, its record as it would be now: from the primary,
    /// in one snapshot, which holds the event whole until its record is kept.
    private func keptOrComputed(_ event: Event) async throws -> KeptRecord {
        switch try await services.events.record(of: event.id) {
        case .kept(let kept):
            return kept
        case .graph(let pairs, let members):
            work.noteSize(of: event.id, members: members.count, pairs: pairs.count)
            return try await work.compute.run("record") { EventPurge.record(pairs: pairs, members: members) }
        }
    }
}
