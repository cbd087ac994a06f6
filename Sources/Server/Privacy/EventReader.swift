import ConstellationModel
import Foundation
import Hummingbird
import Store

/// Who reads an event's constellation (its network, statistics, growth, summary, live stream):
/// an organizer with their API key, or anyone holding a view token for that event. Both are
/// checked here, in `AppServices.requireEventReader`, and nowhere else.
struct EventReader: Sendable {
    let event: Event
    /// Whether attendees who chose `named` appear by name: yes for organizers, and for a view
    /// token unless it was made for a wall. Else (a wall, for the room) only those who chose to be
    /// named on the wall are.
    let showsNames: Bool
    /// What the reader's streams and graph work are counted by: the organizer's profile id, or a
    /// view token's link id (each link holds its own, whoever made it).
    let quotaKey: UUID
    /// How many streams (and graph requests running) `quotaKey` may hold: a link's screens; nil
    /// for an organizer's own key (the server's per-credential limits).
    let allowance: Int?
    /// The organizer reading, nil for a view token (so no node is marked as "me").
    let organizer: UUID?
}

extension AppServices {
    /// The reader of the event the path's `{event}` names: 404 `unknown_event` if there is no such
    /// event; with a view token, 403 `view_token_wrong_event` unless the token is that event's;
    /// with an API key, 403 `not_an_organizer` unless its profile organizes the event; 410
    /// `event_purged` once its purge began. `asWall`
    /// (`?view=wall`): read as a wall is, whatever the credential (an organizer projecting the
    /// picture with their own key shows the room no more than a wall link does: no names but the
    /// wall's, and no node marked as theirs).
    func requireEventReader(_ context: AppRequestContext, asWall: Bool = false) async throws -> EventReader {
        let reader = try await requireEventReader(context)
        guard asWall else { return reader }
        return EventReader(event: reader.event, showsNames: false, quotaKey: reader.quotaKey, allowance: reader.allowance, organizer: nil)
    }

    /// The event the path's `{event}` names (its id or slug): 404 `unknown_event` if there is none.
    func requireEvent(_ context: AppRequestContext) async throws -> Event {
        guard let text = context.parameters.get("event"), let found = try await events.event(EventReference(text)) else {
            throw Problem.unknownEvent
        }
        return found.event
    }

    /// The event the path's `{event}` names, which the caller's profile organizes: 404 `unknown_event`
    /// if there is no such event, 403 `not_an_organizer` for anyone else, attendee or stranger;
    /// 410 `event_purged` once its purge began, unless `evenPurged` (what is left of it).
    func requireOrganizedEvent(_ context: AppRequestContext, evenPurged: Bool = false) async throws -> Event {
        let me = try context.requireProfile()
        guard let text = context.parameters.get("event"), let found = try await events.eventAndChoices(EventReference(text), viewer: me.id)
        else {
            throw Problem.unknownEvent
        }
        guard found.role == .organizer else { throw Problem.notAnOrganizer }
        if !evenPurged { try await refuseIfPurged(found.event) }
        // What an organizer's route shares of the event (a report) names nobody who hid since.
        await graphWork.follow(choicesRevision: found.choicesRevision, of: found.event.id)
        return found.event
    }

    /// 410 `event_purged` if `event`'s purge began (read from the primary), after forgetting what
    /// this server keeps of it: nothing half-purged is shown, here or from a replica.
    func refuseIfPurged(_ event: Event) async throws {
        guard event.purgedAt != nil else { return }
        await graphWork.forget(event: event.id)
        throw Problem.eventPurged
    }

    private func requireEventReader(_ context: AppRequestContext) async throws -> EventReader {
        guard let text = context.parameters.get("event") else { throw Problem.unknownEvent }
        if let grant = context.viewGrant {
            guard let found = try await events.eventAndChoices(EventReference(text), viewer: nil) else { throw Problem.unknownEvent }
            guard found.event.id == grant.eventId else { throw Problem.viewTokenWrongEvent }
            try await refuseIfPurged(found.event)
            await graphWork.follow(choicesRevision: found.choicesRevision, of: found.event.id)
            // Each link holds its own streams and graph work, as many as its maker gave it screens.
            return EventReader(
                event: found.event, showsNames: grant.showsNames, quotaKey: grant.tokenId,
                allowance: context.viewLink?.screens ?? ViewTokenRequest.defaultScreens, organizer: nil)
        }
        let me = try context.requireProfile()
        guard let found = try await events.eventAndChoices(EventReference(text), viewer: me.id) else { throw Problem.unknownEvent }
        guard found.role == .organizer else { throw Problem.notAnOrganizer }
        try await refuseIfPurged(found.event)
        await graphWork.follow(choicesRevision: found.choicesRevision, of: found.event.id)
        return EventReader(event: found.event, showsNames: true, quotaKey: me.id, allowance: nil, organizer: me.id)
    }
}

extension Request {
    /// `?view=wall`: the event's picture or stream as a wall shows it; 400 `invalid_view` for any other view.
    func asksForTheWall() throws -> Bool {
        guard let view = uri.queryParameters.get("view") else { return false }
        guard view == "wall" else { throw Problem(.invalidView, detail: "view must be wall, or left out") }
        return true
    }
}

extension Problem {
    static let viewTokenReadOnly = Problem(
        .viewTokenReadOnly,
        detail: "It opens the event's network, statistics, growth, summary and live stream (a wall's, its join code too); nothing else.")
    static let viewTokenWrongEvent = Problem(.viewTokenWrongEvent)
    static let viewTokenExpired = Problem(
        .viewTokenExpired,
        detail: "Ask an organizer for a new one (`constellation event open SLUG`).")
    static let viewTokenRevoked = Problem(
        .viewTokenRevoked,
        detail: "An organizer revoked it, or its maker no longer organizes the event: ask an organizer for a new one.")
    static func invalidViewToken(_ detail: String) -> Problem {
        Problem(.invalidCredentials, detail: detail)
    }
}
