import ConstellationModel
import Foundation
import Hummingbird
import Store

/// My membership of an event: joining it with its code, my choices there (how its organizers see
/// me, whether its badge sheet holds my badge, whether its walls name me), and leaving it.
struct EventMembershipController {
    let services: AppServices

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("events/:event/join", use: join)
        group.patch("events/:event/me", use: setChoices)
        group.delete("events/:event/me", use: leave)
    }

    /// 201 when the caller becomes an attendee, 200 when they were a member already (their role stays);
    /// 410 `event_ended` once its end has come. Wrong codes are counted per person and per event
    /// (`DeploymentLimits.takeGuess`): 429 past them.
    @Sendable func join(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireEvent(context)
        // A purged event says so (the store refuses it); any other whose end has come, this.
        guard event.purgedAt != nil || Date() < event.endsAt else { throw Problem.eventEnded }
        let input = try await request.decode(as: JoinRequest.self, context: context)
        let limits = services.deploymentLimits
        try await limits.takeGuess(credential: me.id, event: event.id)
        let membership: MyEvent
        let joined: Bool
        do {
            guard let code = try services.joinCodes.attempt(input.code, for: event.id) else { throw StoreError.invalidJoinCode }
            (membership, joined) = try await services.events.join(event.id, profile: me.id, code: code)
        } catch StoreError.invalidJoinCode {
            try await limits.chargeGuess(credential: me.id, event: event.id)
            throw StoreError.invalidJoinCode
        } catch {
            // Not a wrong code (the event purged meanwhile, the database busy): no guess spent.
            try? await limits.refundGuess(credential: me.id, event: event.id)
            throw error
        }
        // A refund that fails costs the person one guess of their room, nothing more.
        try? await limits.refundGuess(credential: me.id, event: event.id)
        if joined { context.logger.info("event joined", metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)"]) }
        return try .json(membership, status: joined ? .created : .ok)
    }

    /// Any member (attendee or organizer) chooses how the event shows them. My choices at an
    /// event: `visibility` (how organizers see me), `printBadge` (whether their badge sheet holds my
    /// badge), `onWall` (whether its walls label me by name); any of them.
    @Sendable func setChoices(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        guard let text = context.parameters.get("event"),
            let found = try await services.events.event(EventReference(text), viewer: me.id)
        else { throw Problem.unknownEvent }
        // Purged first: a purge removed its members, and "not a member" would not say why.
        guard found.event.purgedAt == nil else { throw Problem.eventPurged }
        guard found.role != nil else { throw Problem.notAMember }
        let input = try await request.decode(as: EventVisibilityChange.self, context: context)
        try services.limiter.admit(.choices, credential: me.id, address: context.clientAddress)
        guard input.visibility != nil || input.printBadge != nil || input.onWall != nil else {
            throw Problem.validation(
                "give visibility, printBadge and/or onWall", FieldError("", .required, fields: ["visibility", "printBadge", "onWall"]))
        }
        let visibility = try input.visibility.map { text in
            guard let visibility = EventVisibility(rawValue: text) else {
                throw Problem.validation(
                    "visibility must be named or pseudonymous", FieldError("/visibility", .oneOf, allowed: ["named", "pseudonymous"]))
            }
            return visibility
        }
        guard
            let privacy = try await services.events.setChoices(
                visibility: visibility, printsBadge: input.printBadge, onWall: input.onWall, of: me.id, at: found.event.id)
        else { throw Problem.notAMember }
        // The next picture no longer names them at once; one that names them may come a computation later.
        let hides = visibility == .pseudonymous || input.onWall == false
        await services.graphWork.choicesChanged(found.event.id, hides: hides)
        context.logger.info(
            "event choices set",
            metadata: [
                "event.id": "\(found.event.id)", "profile.id": "\(me.id)",
                "event.visibility": "\(privacy.visibility.rawValue)", "event.print_badge": "\(privacy.printsBadge)",
                "event.on_wall": "\(privacy.onWall)",
            ])
        return try .json(privacy)
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
}
