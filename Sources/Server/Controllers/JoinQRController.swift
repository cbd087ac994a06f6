import ConstellationModel
import Hummingbird
import QR
import Store
import Tokens

/// `GET /v1/events/{event}/join-qr?code=XXXX-XXXX`: the event's join link, `BASE/#join=SLUG&code=CODE`,
/// drawn as an SVG QR code for the corner of the organizer's wall (`/events/{slug}/live?wall`).
/// The server keeps only the join code's hash, so the organizer gives the code; it is checked
/// against the stored hash (400 `invalid_join_code` if it is not the current one). Organizers only.
/// A read (GET), so that a read-only view token can draw it too; the code in the query is no
/// secret from anyone who sees the wall, which shows it.
struct JoinQRController {
    let services: AppServices

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("events/:event/join-qr", use: joinQR)
    }

    @Sendable func joinQR(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        guard let text = context.parameters.get("event"),
              let found = try await services.events.event(EventReference(text), viewer: me.id)
        else { throw Problem(status: 404, code: "not_found", title: "No such event") }
        guard found.role == .organizer else { throw Problem.notAnOrganizer }
        guard let code = JoinCode.normalize(request.uri.queryParameters.get("code") ?? ""),
              let hash = try JoinCode.hash(code, eventId: found.event.id),
              try await services.events.joinCodeMatches(found.event.id, codeHash: hash)
        else { throw Self.invalidCode }
        let shown = "\(code.prefix(4))-\(code.dropFirst(4))"
        let link = "\(Self.base(of: request))/#join=\(found.event.slug)&code=\(shown)"
        return .fresh(Array(try QRCode(encoding: link).svg().utf8), contentType: "image/svg+xml")
    }

    static let invalidCode = Problem.badRequest("invalid_join_code", "That is not this event's current join code (XXXX-XXXX).")

    /// Where attendees' phones reach this server: the address the organizer's browser used.
    static func base(of request: Request) -> String {
        "http://\(request.head.authority ?? "127.0.0.1")"
    }
}
