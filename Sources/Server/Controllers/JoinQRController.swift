import ConstellationModel
import Hummingbird
import QR
import Store
import Tokens

/// `GET /v1/events/{event}/join-qr?code=XXXX-XXXX`: the event's join link, `BASE/#join=SLUG&code=CODE`,
/// drawn as an SVG QR code for the corner of the organizer's wall (`/events/{slug}/live?wall`).
/// BASE is `CONSTELLATION_PUBLIC_URL`, else the address the server listens on: never the request's `Host`.
/// The server keeps only the join code's hash, so the organizer gives the code; it is checked
/// against the stored hash (400 `invalid_join_code` if it is not the current one). For the event's
/// readers (`requireEventReader`): organizers, and a view token's wall. A read (GET), so that a
/// read-only view token can draw it; the code in the query is no secret from the wall that shows it.
struct JoinQRController {
    let services: AppServices

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("events/:event/join-qr", use: joinQR)
    }

    @Sendable func joinQR(_ request: Request, context: AppRequestContext) async throws -> Response {
        let event = try await services.requireEventReader(context).event
        guard let code = JoinCode.normalize(request.uri.queryParameters.get("code") ?? ""),
            let hash = try JoinCode.hash(code, eventId: event.id),
            try await services.events.joinCodeMatches(event.id, codeHash: hash)
        else { throw Self.invalidCode }
        let shown = "\(code.prefix(4))-\(code.dropFirst(4))"
        let link = "\(services.configuration.publicURL ?? services.listening.base)/#join=\(event.slug)&code=\(shown)"
        return .fresh(Array(try QRCode(encoding: link).svg().utf8), contentType: "image/svg+xml")
    }

    static let invalidCode = Problem.badRequest("invalid_join_code", "That is not this event's current join code (XXXX-XXXX).")
}
