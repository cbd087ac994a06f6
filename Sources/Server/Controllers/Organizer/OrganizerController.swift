import ConstellationModel
import Foundation
import Hummingbird
import Store
import Tokens

/// Who organizes an event, and how someone comes to: `GET /v1/events/{event}/organizers`;
/// invitations a person can give, `POST /v1/events/{event}/invitation-links` (a link or code, used
/// once, until it expires), answered by whoever holds it (`POST /v1/invitation-links/look`,
/// `…/accept`, `…/decline`); invitations by profile id, `POST /v1/events/{event}/organizers`,
/// answered under `/v1/me/invitations`; what waits, `GET /v1/events/{event}/invitations`, and
/// withdrawing it; stepping down, `DELETE /v1/events/{event}/organizers/me`.
///
/// Every failed answer to an invitation code counts against the client's address, like a wrong
/// API key: codes are short enough to type, and guessing one would make the guesser an organizer.
struct OrganizerController {
    let services: AppServices

    func addPublicRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("invitation-links/look", use: look)
    }

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("events/:event/organizers", use: organizers)
        group.post("events/:event/organizers", use: inviteOrganizer)
        group.delete("events/:event/organizers/me", use: stepDown)
        group.post("events/:event/invitation-links", use: createLink)
        group.delete("events/:event/invitation-links/:link", use: withdrawLink)
        group.get("events/:event/invitations", use: pending)
        group.delete("events/:event/invitations/:profile", use: withdrawInvitation)
        group.post("invitation-links/accept", use: accept)
        group.post("invitation-links/decline", use: decline)
        group.get("me/invitations", use: myInvitations)
        group.post("me/invitations/:event", use: acceptInvitation)
        group.delete("me/invitations/:event", use: declineInvitation)
    }

    static let invalidCode = Problem(
        .invalidInvitationCode,
        detail: "Give the code (XXXXX-XXXXX-XXXXX-XXXXX) or the invitation link that holds it.")
    /// `body`, a block between the one invited and an organizer said as what it stops: organizing
    /// the event (never who blocked whom), not connecting with someone.
    private static func organizing<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch StoreError.blocked {
            throw Problem(.blockedFromOrganizing, detail: "A block stands between the one invited and one of the event's organizers.")
        }
    }
    static let noSuchInvitation = Problem(.unknownInvitation, detail: "This event has no such invitation waiting")

    @Sendable func organizers(_ request: Request, context: AppRequestContext) async throws -> Response {
        let event = try await services.requireOrganizedEvent(context)
        return try .json(EventOrganizerList(items: try await services.events.organizers(of: event.id)))
    }

    /// 202 with the invitation the profile must accept to organize the event (a second request is the
    /// same invitation), 200 with its membership when it organizes the event already; 403 `blocked_from_organizing`
    /// between two people of whom one blocked the other (neither learns which); 409
    /// `organizer_team_full` past `EventRepository.organizerTeamLimit`. Counted as `invite`.
    @Sendable func inviteOrganizer(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireOrganizedEvent(context)
        let input = try await request.decode(as: NewOrganizer.self, context: context)
        try services.limiter.admit(.invite, credential: me.id, address: context.clientAddress)
        switch try await Self.organizing({ try await services.events.inviteOrganizer(input.profileId, to: event.id, by: me.id) }) {
        case .organizer(let member):
            return try .json(member)
        case .invited(let invitation):
            context.logger.info("organizer invited", metadata: ["event.id": "\(event.id)", "profile.id": "\(input.profileId)"])
            return try .json(invitation, status: .accepted)
        }
    }

    /// 200 with my membership, now an attendee's; 409 `last_organizer` for the event's only
    /// organizer. The view links I made stop working at once here, within the credential cache's
    /// lifetime elsewhere; the invitations I made lapse.
    @Sendable func stepDown(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireOrganizedEvent(context)
        let (member, links) = try await services.events.stepDown(me.id, from: event.id)
        services.viewLinks.forget(links)
        context.logger.info(
            "organizer stepped down", metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)", "view.count": "\(links.count)"])
        return try .json(member)
    }

    /// 201 with a new invitation link, its code and address shown this once (`no-store`, as every
    /// answer); it works once, for `CONSTELLATION_INVITATION_HOURS`. 409 `organizer_team_full` past
    /// `EventRepository.organizerTeamLimit`. Counted as `invite`.
    @Sendable func createLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireOrganizedEvent(context)
        try services.limiter.admit(.invite, credential: me.id, address: context.clientAddress)
        let (code, hash) = try SecretCode.organizerInvitation.generate()
        let expiresAt = Date(
            timeIntervalSince1970: (Date().timeIntervalSince1970 + services.configuration.invitationLifetime.seconds).rounded(.down))
        let invitation = try await services.events.createInvitationLink(to: event.id, by: me.id, codeHash: hash, expiresAt: expiresAt)
        context.logger.info("invitation link made", metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)"])
        return try .json(
            IssuedInvitationLink(invitation: invitation, code: code, link: "\(services.publicBase)/invitation#code=\(code)"),
            status: .created)
    }

    /// 204 once the link is withdrawn; 404 when the event has no such link waiting for an answer.
    @Sendable func withdrawLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireOrganizedEvent(context)
        guard let id = context.parameters.get("link").flatMap(UUID.init(uuidString:)),
            try await services.events.withdrawInvitationLink(id, of: event.id)
        else { throw Self.noSuchInvitation }
        context.logger.info("invitation link withdrawn", metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)"])
        return Response(status: .noContent)
    }

    /// What waits for an answer: the links and the invitations by profile id, newest first.
    @Sendable func pending(_ request: Request, context: AppRequestContext) async throws -> Response {
        let event = try await services.requireOrganizedEvent(context)
        async let links = services.events.invitationLinks(to: event.id)
        async let people = services.events.invitations(to: event.id)
        return try .json(EventInvitations(links: try await links, people: try await people))
    }

    /// 204 once the invitation made to `{profile}` is withdrawn; 404 when there is none.
    @Sendable func withdrawInvitation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireOrganizedEvent(context)
        guard let profile = context.parameters.get("profile").flatMap(UUID.init(uuidString:)),
            try await services.events.declineInvitation(to: event.id, profile: profile)
        else { throw Self.noSuchInvitation }
        context.logger.info("invitation withdrawn", metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)"])
        return Response(status: .noContent)
    }

    /// The event a code invites to, and who invited, while it waits for an answer: public, so that
    /// a browser without a profile can say what it is before asking for a name. 404
    /// `invitation_unknown`; 410 `invitation_used`, `invitation_lapsed`, `invitation_withdrawn`, `invitation_expired`.
    @Sendable func look(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await counted(context) {
            let hash = try await codeHash(request, context)
            return try .json(try await services.events.invitationLink(codeHash: hash))
        }
    }

    /// 201 with my membership, now an organizer's (200 with it when I organized the event already:
    /// the link stays unused); the refusals of `look`, and 403 `blocked_from_organizing` when a block stands
    /// between me and one of the event's organizers.
    @Sendable func accept(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        return try await counted(context) {
            let hash = try await codeHash(request, context)
            switch try await Self.organizing({
                try await services.events.answerInvitationLink(codeHash: hash, profile: me.id, accept: true)
            }) {
            case .accepted(let member):
                context.logger.info("organizer invitation accepted", metadata: ["event.id": "\(member.eventId)", "profile.id": "\(me.id)"])
                return try .json(member, status: .created)
            case .organizesAlready(let member): return try .json(member)
            case .declined: preconditionFailure("an accepted invitation is not declined")
            }
        }
    }

    /// 204 once the link is used up, nothing else changed (an organizer's own answer changes nothing).
    @Sendable func decline(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        return try await counted(context) {
            let hash = try await codeHash(request, context)
            _ = try await services.events.answerInvitationLink(codeHash: hash, profile: me.id, accept: false)
            return Response(status: .noContent)
        }
    }

    /// A page of the invitations to organize an event that wait for my answer, newest first (`PageQuery`).
    @Sendable func myInvitations(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try PageQuery(request.uri.queryParameters)
        let (invitations, next) = try await services.events.invitations(
            of: context.requireProfile().id, after: try page.cursor(PageCursor.init), limit: page.limit)
        return try .json(OrganizerInvitationList(items: invitations, nextCursor: next?.text))
    }

    /// 201 with my membership, now an organizer's; 404 `unknown_invitation` when none stands.
    @Sendable func acceptInvitation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireEvent(context)
        let member = try await services.events.acceptInvitation(to: event.id, profile: me.id)
        context.logger.info("organizer invitation accepted", metadata: ["event.id": "\(event.id)", "profile.id": "\(me.id)"])
        return try .json(member, status: .created)
    }

    /// 204 once my invitation is gone; 404 `unknown_invitation` when there was none.
    @Sendable func declineInvitation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let event = try await services.requireEvent(context)
        guard try await services.events.declineInvitation(to: event.id, profile: me.id) else { throw StoreError.unknownInvitation }
        return Response(status: .noContent)
    }

    /// The hash of the code in the body (`{"code"}`: the code, or the link holding it after `#code=`).
    private func codeHash(_ request: Request, _ context: AppRequestContext) async throws -> [UInt8] {
        let input = try await request.decode(as: InvitationCode.self, context: context)
        let code = input.code.range(of: "#code=").map { String(input.code[$0.upperBound...]) } ?? input.code
        guard let hash = try SecretCode.organizerInvitation.hash(code) else { throw Self.invalidCode }
        return hash
    }

    /// `answer`, for a client that has not run out of failed attempts; a guess that is no code (400
    /// `invalid_invitation_code`, 404 `invitation_unknown`) counts as one. A code that was one but no
    /// longer works (410, a block) is no guess, and a venue's shared address is not charged for it.
    private func counted(_ context: AppRequestContext, _ answer: () async throws -> Response) async throws -> Response {
        try services.limiter.check(.authFailure, address: context.clientAddress)
        do {
            return try await answer()
        } catch let refusal as any ProblemConvertible
            where ["invalid_invitation_code", "invitation_unknown"].contains(refusal.problem.code)
        {
            services.limiter.charge(.authFailure, address: context.clientAddress)
            throw refusal
        }
    }
}
