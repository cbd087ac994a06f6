import Client
import ConstellationModel
import Foundation
import Server
import Store
import TestSupport
import Testing

/// An organizer's lists of an event are bounded where they are made: at most
/// `EventRepository.liveViewLinkLimit` live view links, and `organizerTeamLimit` organizers and
/// invitations waiting in all. Past a cap a request is 409 and writes nothing; requests at once
/// cannot pass it together; what is revoked or withdrawn makes room again.
@Suite(.tier(.database)) struct CappedListsTests {
    @Test func anEventHoldsAHundredLiveViewLinksEvenWhenAskedAtOnce() async throws {
        try await TestServer.run(configure: { $0.rateLimits = .off }) { server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("many-walls"))
            for _ in 1..<EventRepository.liveViewLinkLimit { _ = try await ada.client.issueViewToken(for: "many-walls", wall: true) }
            // Twenty at once for the last place: one gets it.
            let statuses = try await Self.statuses(20) { _ = try await ada.client.issueViewToken(for: "many-walls") }
            #expect(statuses.sorted() == [201] + Array(repeating: 409, count: 19))
            #expect(try await server.count("view_links") == Int64(EventRepository.liveViewLinkLimit))
            await expectProblem(409, "too_many_view_links") { _ = try await ada.client.issueViewToken(for: "many-walls") }
            #expect(try await server.count("view_links") == Int64(EventRepository.liveViewLinkLimit), "a refused link is not kept")

            let links = try await ada.client.viewLinks(of: "many-walls").items
            #expect(links.count == EventRepository.liveViewLinkLimit, "the list an organizer reads is bounded")
            #expect(try await ada.client.revokeViewLinks(of: "many-walls", id: links[0].id) == 1)
            _ = try await ada.client.issueViewToken(for: "many-walls")
        }
    }

    @Test func anEventsOrganizersAndInvitationsWaitingNumberAHundredAtMost() async throws {
        try await TestServer.run(configure: { $0.rateLimits = .off }) { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Bob", "Cleo")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("big-team"))
            #expect(try await ada.client.inviteOrganizer(bob.profile.id, to: "big-team") != nil)
            // Ada, Bob's invitation and 97 links: one place is left.
            for _ in 0..<(EventRepository.organizerTeamLimit - 3) { _ = try await ada.client.createInvitationLink(to: "big-team") }
            let statuses = try await Self.statuses(20) { _ = try await ada.client.createInvitationLink(to: "big-team") }
            #expect(statuses.sorted() == [201] + Array(repeating: 409, count: 19), "requests at once cannot pass the cap together")
            await expectProblem(409, "organizer_team_full") { _ = try await ada.client.inviteOrganizer(cleo.profile.id, to: "big-team") }
            await expectProblem(409, "organizer_team_full") { _ = try await ada.client.createInvitationLink(to: "big-team") }
            #expect(try await cleo.client.invitations().items.isEmpty, "a refused invitation is not kept")
            // Inviting Bob again is the same invitation: it takes no place.
            #expect(try await ada.client.inviteOrganizer(bob.profile.id, to: "big-team") != nil)

            let pending = try await ada.client.pendingInvitations(to: "big-team")
            #expect(pending.links.count == EventRepository.organizerTeamLimit - 2 && pending.people.count == 1)
            // Bob accepting turns an invitation into an organizer: the count stays.
            _ = try await bob.client.acceptInvitation(to: "big-team")
            await expectProblem(409, "organizer_team_full") { _ = try await ada.client.inviteOrganizer(cleo.profile.id, to: "big-team") }
            try await ada.client.withdrawInvitationLink(pending.links[0].id, of: "big-team")
            #expect(try await ada.client.inviteOrganizer(cleo.profile.id, to: "big-team") != nil, "a withdrawn link makes room")
            #expect(try await ada.client.organizers(of: "big-team").items.count == 2)
        }
    }

    @Test func invitationsToOrganizeKeepAnOrganizersPace() async throws {
        try await TestServer.run(configure: { $0.rateLimits = RateLimits("invite=3/h")! }) { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Bob", "Cleo")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("paced"))
            _ = try await ada.client.createInvitationLink(to: "paced")
            _ = try await ada.client.createInvitationLink(to: "paced")
            _ = try await ada.client.inviteOrganizer(bob.profile.id, to: "paced")
            await expectProblem(429, "rate_limited") { _ = try await ada.client.inviteOrganizer(cleo.profile.id, to: "paced") }
            await expectProblem(429, "rate_limited") { _ = try await ada.client.createInvitationLink(to: "paced") }
            let pending = try await ada.client.pendingInvitations(to: "paced")
            #expect(pending.links.count == 2 && pending.people.map(\.profileId) == [bob.profile.id], "refused invitations are not kept")
        }
    }

    /// The statuses of `count` runs of `request` at once (a problem's status for a refusal).
    static func statuses(_ count: Int, _ request: @escaping @Sendable () async throws -> Void) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do {
                        try await request()
                        return 201
                    } catch {
                        guard case .problem(let problem) = error as? ClientError else { throw error }
                        return problem.status
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}
