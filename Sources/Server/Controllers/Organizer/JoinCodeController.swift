import ConstellationModel
import Hummingbird
import QR
import Store
import Tokens

/// The event's door: its join code, its join link (`BASE/#join=SLUG&code=CODE`; BASE is
/// `CONSTELLATION_PUBLIC_URL`, else the address the server listens on, never the request's `Host`)
/// and that link as an SVG QR code, for its organizers and its walls' view links (which show the
/// code to the room anyway; a live page's link, which does not, is refused 403
/// `view_token_read_only`, so that a leaked one cannot follow the code's rotations); organizers
/// rotate it, and the old code joins nobody from then on. Codes are derived from the
/// event's rotation (`JoinCodes`), so a page that asks again after a rotation gets the new one.
/// An event made before codes were derived has only its code's hash: 409 `join_code_unknown`
/// until an organizer rotates it once, and meanwhile `join-qr?code=XXXX-XXXX` draws the code the
/// organizer gives, checked against the hash (400 `stale_join_code` if it is not the current one).
struct JoinCodeController {
    let services: AppServices

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("events/:event/join-code", use: joinCode)
        group.get("events/:event/join-qr", use: joinQR)
        group.post("events/:event/join-code", use: rotateJoinCode)
    }

    @Sendable func joinCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let event = try await door(context)
        return try .json(try await current(of: event))
    }

    @Sendable func joinQR(_ request: Request, context: AppRequestContext) async throws -> Response {
        let event = try await door(context)
        let link: String
        if let given = request.uri.queryParameters.get("code") {
            guard let code = try services.joinCodes.attempt(given, for: event.id),
                try await services.events.joinCodeMatches(code, of: event.id) == true
            else { throw Self.invalidCode }
            link = services.joinCodes.link(to: event, code: given)
        } else {
            link = try await current(of: event).link
        }
        return .fresh(Array(try QRCode(encoding: link).svg().utf8), contentType: "image/svg+xml")
    }

    /// The event, for its organizers and its walls' links.
    private func door(_ context: AppRequestContext) async throws -> Event {
        if context.viewGrant?.showsNames == true { throw Self.notAWall }
        return try await services.requireEventReader(context).event
    }

    private func current(of event: Event) async throws -> EventJoinCode {
        guard let rotation = try await services.events.joinCodeRotation(of: event.id) else { throw Self.codeUnknown }
        return try services.joinCodes.current(of: event, rotation: rotation)
    }

    static let notAWall = Problem(
        .viewTokenReadOnly,
        detail: "A live page's link reads the event's picture and figures; the join code is for its organizers and its walls.")
    static let invalidCode = Problem(.staleJoinCode, detail: "That is not this event's current join code (XXXX-XXXX).")
    static let codeUnknown = Problem(
        .joinCodeUnknown,
        detail: "The event was made before join codes could be shown again: an organizer rotates the code once, and from then on it can.")

    @Sendable func rotateJoinCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireOrganizedEvent(context)
        let rotation = try await services.events.rotateJoinCode(of: event.id, by: me.id)
        context.logger.info("join code rotated", metadata: ["event.id": "\(event.id)", "event.join_code_rotation": "\(rotation)"])
        return try Response.json(try services.joinCodes.current(of: event, rotation: rotation))
    }
}
