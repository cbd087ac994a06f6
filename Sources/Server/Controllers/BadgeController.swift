import ConstellationModel
import Foundation
import Hummingbird
import QR
import Store
import Tokens

/// Printed badges: `GET /v1/me/badge?event=` (my badge code for an event, as JSON or as the badge
/// to print in SVG), `GET /v1/events/{event}/badges?paper=a4|letter` (the organizers' print sheet,
/// holding only the attendees who asked for their badge to be printed) and how many asked,
/// `GET /v1/events/{event}/badge-requests`. The drawings' words follow `?lang=` (`Words`).
/// A badge code (`BadgeTokens`) is valid until the event ends; a QR reset revokes it with the others.
struct BadgeController {
    let services: AppServices

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("me/badge", use: mine)
        group.get("events/:event/badges", use: sheet)
        group.get("events/:event/badge-requests", use: requests)
    }

    /// How many of the event's attendees asked for a printed badge: what the sheet would hold (organizers only).
    @Sendable func requests(_ request: Request, context: AppRequestContext) async throws -> Response {
        let event = try await services.requireOrganizedEvent(context)
        return try .json(BadgeRequests(count: try await services.events.badgeRequestCount(of: event.id)))
    }

    /// `?event=` (id or slug, required) and `?format=json` (default, the `IssuedToken`: what a badge
    /// laid out elsewhere needs) or `svg` (the badge: name, headline, event, code). Only the event's
    /// members get one, and only before it ends.
    @Sendable func mine(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let query = request.uri.queryParameters
        let format = query.get("format") ?? "json"
        guard ["json", "svg"].contains(format) else { throw Problem(.unsupportedFormat, detail: "format must be json or svg") }
        let words = try Words.of(request)
        guard let reference = query.get("event") else {
            throw Problem(.missingEvent, detail: "a badge is for an event: give ?event= its id or slug")
        }
        try services.limiter.admit(.mint, credential: me.id, address: context.clientAddress)
        guard let found = try await services.events.event(EventReference(reference), viewer: me.id) else { throw Problem.unknownEvent }
        guard found.role != nil else { throw Problem.notAMember }
        guard found.event.purgedAt == nil else { throw Problem.eventPurged }
        let badge = try issue(for: me.id, validFrom: context.tokensValidFrom, at: found.event)
        var response: Response
        if format == "svg" {
            let drawing = BadgeDrawing(
                displayName: me.displayName, headline: me.headline, eventName: found.event.name, code: try QRCode(encoding: badge.qrText),
                words: words)
            response = .fresh(Array(drawing.svg().utf8), contentType: "image/svg+xml")
        } else {
            response = .json(bytes: badge.jsonBytes(), status: .ok)
        }
        response.headers[.init("Constellation-Token-Expires")!] = badge.expiresAt.formatted(.iso8601)
        return response
    }

    /// The print sheet (`BadgeSheet`), for the event's organizers: a badge, freshly signed, for
    /// each member who asked for theirs to be printed, and nobody else. `?paper=a4` (default) or
    /// `letter`. Signing and drawing run on the graph thread, away from the event loops.
    @Sendable func sheet(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let paperText = request.uri.queryParameters.get("paper") ?? "a4"
        guard let paper = BadgeSheet.Paper(rawValue: paperText) else {
            throw Problem(.invalidPaper, detail: "paper must be a4 or letter")
        }
        let words = try Words.of(request)
        let event = try await services.requireOrganizedEvent(context)
        guard Date() < event.endsAt else { throw Problem.eventEnded }
        let (html, count) = try await services.graphWork.run("badges", event: event.id, credential: me.id, clientGone: context.clientIsGone)
        {
            // A member whose codes are revoked until after the event's end (a restored row: a
            // reset moves it to the next second) has no badge that could connect: left off the
            // sheet, where signing theirs failed everyone's. Compared in whole seconds, as a token
            // states its times.
            let lastSecond = event.endsAt.timeIntervalSince1970.rounded(.down)
            let holders = try await services.events.badgeHolders(of: event.id).filter {
                ($0.tokensValidFrom ?? .distantPast).timeIntervalSince1970.rounded(.down) < lastSecond
            }
            let html = try await services.graphWork.compute.run("badges") { () -> Result<String, any Error> in
                Result {
                    let badges = try holders.map { holder in
                        let badge = try issue(for: holder.profile.id, validFrom: holder.tokensValidFrom, at: event)
                        return BadgeDrawing(
                            displayName: holder.profile.displayName, headline: holder.profile.headline, eventName: event.name,
                            code: try QRCode(encoding: badge.qrText), words: words
                        ).svg()
                    }
                    return BadgeSheet(eventName: event.name, paper: paper, badges: badges, words: words).html()
                }
            }.get()
            return (html, holders.count)
        }
        context.logger.info("badge sheet made", metadata: ["event.id": "\(event.id)", "badges": "\(count)"])
        var response = Response.fresh(Array(html.utf8), contentType: "text/html; charset=utf-8")
        response.headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
        response.headers[.contentDisposition] = "attachment; filename=\"badges-\(event.slug)-\(paper.rawValue).html\""
        response.headers[.init("Constellation-Badges")!] = "\(count)"
        return response
    }

    /// A badge code for `profile` at `event`, valid until the event ends; issued now, or at
    /// `validFrom` when that is later (right after a QR reset). 410 `event_ended` once it has ended.
    private func issue(for profile: UUID, validFrom: Date?, at event: Event) throws -> IssuedToken {
        let now = Date()
        guard now < event.endsAt else { throw Problem.eventEnded }
        let (token, claims) = try BadgeTokens.issue(
            subject: profile, eventId: event.id, expiresAt: event.endsAt, now: max(now, validFrom ?? now), keys: services.keyRing)
        services.metrics.tokenMinted()
        return IssuedToken(
            token: token, tokenId: claims.tokenId, issuedAt: claims.issuedAt, expiresAt: claims.expiresAt, eventId: event.id,
            link: services.configuration.link(to: token))
    }
}
