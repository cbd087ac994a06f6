import ConstellationModel
import Foundation
import Hummingbird
import Store

/// What an event's organizers learn about it: `GET /v1/events/{event}/growth` and
/// `GET /v1/events/{event}/summary`, or a view token's bearer (`AppServices.requireEventReader`).
/// Anyone else, attendee or stranger, gets 403 `not_an_organizer`.
/// Both read one snapshot in a read-only transaction and compute on the graph thread pool; growth
/// is kept per event (`GrowthCache`) and extended as the event grows, and a summary is shared by
/// everyone who asks within `pictureInterval` (`SharedResults`).
struct EventInsightsController {
    let services: AppServices
    /// The graph caches, quota and threads, built once with the other services.
    var work: GraphWork { services.graphWork }

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("events/:event/growth", use: growth)
        group.get("events/:event/summary", use: summary)
    }

    /// `?bucket=5m|15m|1h|1d` (default 1h), `from` and `to` (RFC 3339; `to` exclusive).
    @Sendable func growth(_ request: Request, context: AppRequestContext) async throws -> Response {
        let reader = try await services.requireEventReader(context)
        let query = try GrowthQuery(request.uri.queryParameters)
        // Others may wait for the growth it brings up to date: made even if its client leaves.
        let series = try await work.run(
            "growth", event: reader.event.id, credential: reader.quotaKey, allowance: reader.allowance, clientGone: { false }
        ) {
            try await work.growth.series(of: reader.event.id)
        }
        let event = reader.event.startsAt...reader.event.endsAt
        guard let window = try series.window(size: query.size, from: query.from, to: query.to, within: event) else {
            return try .json(EventGrowth(buckets: []))
        }
        return try .json(EventGrowth(buckets: series.buckets(window)))
    }

    @Sendable func summary(_ request: Request, context: AppRequestContext) async throws -> Response {
        let reader = try await services.requireEventReader(context)
        let event = reader.event.id
        let showsNames = reader.showsNames
        let summary = try await work.run(
            "summary", event: event, credential: reader.quotaKey, allowance: reader.allowance, sharedResult: "summary",
            clientGone: { false }
        ) {
            try await work.summaries.value(for: SummaryKey(event: event, showsNames: showsNames)) { [services, work] in
                let core = try await work.summaryCores.value(for: event) {
                    let (pairs, members) = try await services.eventReads.graph(of: event)
                    work.noteSize(of: event, members: members.count, pairs: pairs.count)
                    return try await work.compute.run("summary") { EventSummaryBuilder.core(pairs: pairs, members: members) }
                }
                // Labelled afresh with the members' choices as they are now: a change of choice costs this, not the core.
                let members = try await services.eventReads.memberViews(of: event)
                let labels =
                    showsNames
                    ? try EventIdentity(keyRing: services.keyRing)
                        .faces(of: members.map { ($0.profileId, $0.named ? $0.displayName : nil) }, at: event).mapValues(\.label) : nil
                return try await work.compute.run("labels") { EventSummaryBuilder.summary(core, members: members, labels: labels) }
            }
        }
        return try .json(summary)
    }
}

/// The growth route's query, checked: 400 `invalid_bucket` or `invalid_range`, 422 `invalid_date`.
struct GrowthQuery {
    let size: Int
    let from: Date?
    let to: Date?

    init(_ parameters: Parameters) throws {
        let bucket = parameters.get("bucket") ?? "1h"
        guard let size = EventGrowth.bucketSizes[bucket] else {
            throw Problem(.invalidBucket, detail: "bucket must be one of 5m, 15m, 1h, 1d")
        }
        self.size = size
        from = try Self.date(parameters, "from")
        to = try Self.date(parameters, "to")
        if let from, let to, from >= to { throw Problem(.invalidRange, detail: "from must be before to") }
    }

    private static func date(_ parameters: Parameters, _ name: String) throws -> Date? {
        guard let text = parameters.get(name) else { return nil }
        guard let date = RFC3339.date(text) else { throw InvalidDate(field: name) }
        guard RFC3339.accepted.contains(date) else { throw InvalidDate(field: name, within: RFC3339.accepted) }
        return date
    }
}
