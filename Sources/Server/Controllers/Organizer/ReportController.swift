import ConstellationModel
import Foundation
import Hummingbird
import Store

/// `GET /v1/events/{event}/report?lang=`: the event's report (`EventReport`), an HTML page
/// for its organizers to print, save as PDF or share; before and after its purge.
struct ReportController {
    let services: AppServices

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("events/:event/report", use: report)
    }

    /// Read in one snapshot from the primary and computed (the layout, the communities) on the
    /// graph thread in its turn; shared per language by every organizer who asks within
    /// `pictureInterval`, each request admitted as one of the organizer's graph requests.
    @Sendable func report(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let words = try Words.of(request)
        // Counted before the event is looked up: a loop past the limit costs no query.
        try await services.deploymentLimits.admit(.report, credential: me.id, address: context.clientAddress)
        let event = try await services.requireOrganizedEvent(context, evenPurged: true)
        let limit = services.configuration.eventNetworkLimit
        let work = services.graphWork
        let html = try await work.run(
            "report", event: event.id, credential: me.id, sharedResult: "report \(words.language)", clientGone: { false }
        ) {
            try await work.reports.value(for: ReportKey(event: event.id, language: words.language)) { [services] in
                let source = try await services.events.record(of: event.id)
                if case .graph(let pairs, let members) = source { work.noteSize(of: event.id, members: members.count, pairs: pairs.count) }
                // Kept as the bytes sent: every organizer's copy of a report of megabytes is the same buffer.
                return try await work.compute.run("report") { () -> Result<ByteBuffer, any Error> in
                    Result {
                        let report = EventReport(event: event, source: source, limit: limit, words: words)
                        return ByteBuffer(string: try report.html())
                    }
                }.get()
            }
        }
        context.logger.info("event report made", metadata: ["event.id": "\(event.id)", "event.purged": "\(event.purgedAt != nil)"])
        var response = Response.fresh(html, contentType: "text/html; charset=utf-8")
        response.headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'"
        response.headers[.contentDisposition] = "attachment; filename=\"report-\(event.slug).html\""
        return response
    }
}
