import Client
import ConstellationModel
import Foundation
import Server
import Store
import TestSupport
import Testing

/// Invitations a person can give (a link or code, used once, until it expires), who organizes,
/// and stepping down: every way an invitation stops working says why, and nothing is written.
@Suite(.tier(.database)) struct InvitationLinkTests {
    @Test func whoeverOpensALinkFirstAcceptsItOnceAndSeesWhatItIsFirst() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Bob", "Cleo")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent())
            _ = try await bob.client.joinEvent("rustconf-2026", code: created.joinCode)
            let raw = try await ada.client.send(.POST, "/v1/events/rustconf-2026/invitation-links")
            #expect(raw.status == 201)
            #expect(raw.header("Cache-Control") == "no-store", "the code is shown once, and kept by no cache")
            let issued = try JSONDecoder.constellation.decode(IssuedInvitationLink.self, from: Data(raw.body))
            #expect(issued.link == "http://127.0.0.1:\(server.port)/invitation#code=\(issued.code)")
            #expect(issued.invitation.invitedBy == ada.profile.id && issued.invitation.eventId == created.event.id)
            let week = issued.invitation.expiresAt.timeIntervalSince(issued.invitation.createdAt)
            #expect(abs(week - 7 * 86_400) < 5, "a week by default: \(week) s")
            // The database keeps only the code's hash.
            let stored = try await server.services.database.withConnection {
                try $0.query("SELECT encode(code_hash, 'hex') AS hash FROM organizer_invitation_links")[0].string("hash")
            }
            #expect(!stored.contains(issued.code.replacingOccurrences(of: "-", with: "")))

            // Anyone may see what it invites to, before having a profile; in any case, with or without its hyphen.
            let preview = try await server.client.lookAtInvitation(issued.code.lowercased().replacingOccurrences(of: "-", with: ""))
            #expect(
                preview
                    == InvitationPreview(
                        eventId: created.event.id, eventSlug: "rustconf-2026", eventName: "RustConf", invitedByName: "Ada",
                        expiresAt: issued.invitation.expiresAt))
            #expect(try await ada.client.pendingInvitations(to: "rustconf-2026").links == [issued.invitation])

            // Bob, an attendee, accepts through the whole link, and is promoted.
            let accepted = try await bob.client.send(.POST, "/v1/invitation-links/accept", body: InvitationCode(code: issued.link))
            #expect(accepted.status == 201)
            #expect(try await bob.client.myEvents().items.map(\.role) == [.organizer])
            #expect(try await ada.client.organizers(of: "rustconf-2026").items.map(\.displayName) == ["Ada", "Bob"])
            #expect(try await ada.client.pendingInvitations(to: "rustconf-2026").links.isEmpty)

            // A second person, and the same one again: it worked once.
            await expectProblem(410, "invitation_used") { _ = try await cleo.client.acceptInvitationLink(issued.code) }
            await expectProblem(410, "invitation_used") { _ = try await server.client.lookAtInvitation(issued.code) }
            await expectProblem(410, "invitation_used") { try await cleo.client.declineInvitationLink(issued.code) }
            #expect(try await cleo.client.myEvents().items.isEmpty)
            #expect(try await server.count("event_members") == 2)
        }
    }

    @Test func aDeclinedWithdrawnExpiredOrLapsedLinkSaysWhyAndChangesNothing() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo, dora) = try await server.users("Ada", "Bob", "Cleo", "Dora")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent())

            // Declined: used up, and the one who declined is no organizer.
            let declined = try await ada.client.createInvitationLink(to: "rustconf-2026")
            try await cleo.client.declineInvitationLink(declined.code)
            await expectProblem(410, "invitation_used") { _ = try await dora.client.acceptInvitationLink(declined.code) }

            // Withdrawn by an organizer: gone from the list, and its holder hears so.
            let withdrawn = try await ada.client.createInvitationLink(to: "rustconf-2026")
            try await ada.client.withdrawInvitationLink(withdrawn.invitation.id, of: "rustconf-2026")
            await expectProblem(404, "unknown_invitation") {
                try await ada.client.withdrawInvitationLink(withdrawn.invitation.id, of: "rustconf-2026")
            }
            await expectProblem(410, "invitation_withdrawn") { _ = try await dora.client.acceptInvitationLink(withdrawn.code) }

            // Expired.
            let expired = try await ada.client.createInvitationLink(to: "rustconf-2026")
            _ = try await server.services.database.withConnection {
                try $0.query(
                    """
                    UPDATE organizer_invitation_links SET created_at = now() - interval '8 days', expires_at = now() - interval '1 second'
                    WHERE id = \(expired.invitation.id)
                    """)
            }
            await expectProblem(410, "invitation_expired") { _ = try await server.client.lookAtInvitation(expired.code) }
            await expectProblem(410, "invitation_expired") { _ = try await dora.client.acceptInvitationLink(expired.code) }

            // Made by Bob, who then steps down: it lapses with his role, and stays dead if he comes back.
            try await server.makeOrganizer(bob, of: "rustconf-2026", by: ada.client)
            let lapsed = try await bob.client.createInvitationLink(to: "rustconf-2026")
            #expect(try await bob.client.stepDown(from: "rustconf-2026").role == .attendee)
            await expectProblem(410, "invitation_lapsed") { _ = try await dora.client.acceptInvitationLink(lapsed.code) }
            try await server.makeOrganizer(bob, of: "rustconf-2026", by: ada.client)
            await expectProblem(410, "invitation_withdrawn") { _ = try await dora.client.acceptInvitationLink(lapsed.code) }

            // Codes that are none, or nobody's.
            await expectProblem(404, "invitation_unknown") { _ = try await dora.client.acceptInvitationLink("ABCDE-FGHJK-MNPQR-STUVW") }
            await expectProblem(400, "invalid_invitation_code") { _ = try await dora.client.acceptInvitationLink("not a code ✨") }
            await expectProblem(400, "invalid_invitation_code") { _ = try await dora.client.acceptInvitationLink("ABCDE-FGHJK") }
            await expectProblem(400, "invalid_invitation_code") {
                _ = try await server.client.lookAtInvitation(String(repeating: "A", count: 1_000))
            }
            #expect(try await ada.client.pendingInvitations(to: "rustconf-2026").links.isEmpty)
            #expect(try await dora.client.myEvents().items.isEmpty)
            #expect(try await cleo.client.myEvents().items.isEmpty)
            #expect(try await ada.client.organizers(of: "rustconf-2026").items.map(\.displayName) == ["Ada", "Bob"])
        }
    }

    @Test func aBlockKeepsSomeoneOutAndTheLinkWaitsForSomeoneElse() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, eve, gina) = try await server.users("Ada", "Bob", "Eve", "Gina")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent())
            try await server.makeOrganizer(bob, of: "rustconf-2026", by: ada.client)
            // Eve blocked Bob, a co-organizer: Ada's link does not make her one.
            _ = try await eve.client.block(bob.profile.id)
            let link = try await ada.client.createInvitationLink(to: "rustconf-2026")
            await expectProblem(403, "blocked_from_organizing") { _ = try await eve.client.acceptInvitationLink(link.code) }
            #expect(try await eve.client.myEvents().items.isEmpty)
            #expect(try await ada.client.pendingInvitations(to: "rustconf-2026").links.map(\.id) == [link.invitation.id])
            // An organizer's own answer changes nothing: the link stays for whom it was meant.
            #expect(try await ada.client.acceptInvitationLink(link.code).role == .organizer)
            #expect(try await gina.client.acceptInvitationLink(link.code).role == .organizer)
        }
    }

    @Test func twentyPeopleAcceptingOneLinkAtOnceMakeOneOrganizer() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent())
            let link = try await ada.client.createInvitationLink(to: "rustconf-2026")
            var people: [ConstellationClient] = []
            for index in 0..<20 { people.append(try await server.user("Person \(index)").client) }
            let outcomes = await withTaskGroup(of: String.self) { group in
                for client in people {
                    group.addTask {
                        do {
                            return try await client.acceptInvitationLink(link.code).role.rawValue
                        } catch let ClientError.problem(problem) {
                            return problem.code
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(outcomes == ["organizer": 1, "invitation_used": 19])
            #expect(try await ada.client.organizers(of: "rustconf-2026").items.count == 2)
        }
    }

    @Test func anEventKeepsAnOrganizerAndAStepDownEndsTheWallsOfItsMaker() async throws {
        try await TestServer.run(configure: { $0.credentialCacheLifetime = .seconds(60) }) { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent())
            await expectProblem(409, "last_organizer") { _ = try await ada.client.stepDown(from: "rustconf-2026") }
            try await server.makeOrganizer(bob, of: "rustconf-2026", by: ada.client)
            let bobsWall = try await bob.client.issueViewToken(for: "rustconf-2026", wall: true)
            let adasWall = try await ada.client.issueViewToken(for: "rustconf-2026", wall: true)
            let bobsScreen = server.client.authenticated(bobsWall.token)
            let adasScreen = server.client.authenticated(adasWall.token)
            _ = try await bobsScreen.eventNetwork("rustconf-2026")  // cached as live from here on

            // Both step down at the same moment: one stays.
            async let adaSteps = Self.succeeds { _ = try await ada.client.stepDown(from: "rustconf-2026") }
            async let bobSteps = Self.succeeds { _ = try await bob.client.stepDown(from: "rustconf-2026") }
            #expect([await adaSteps, await bobSteps].filter { $0 }.count == 1, "exactly one steps down")
            let organizers = try await server.services.events.organizers(
                of: try #require(await server.services.events.event(.slug("rustconf-2026")))
                    .event.id)
            #expect(organizers.count == 1)
            let stayed = organizers[0].profileId == ada.profile.id ? (adasScreen, bobsScreen) : (bobsScreen, adasScreen)
            // The stepped-down organizer's wall goes dark at once, though its link was cached.
            await expectProblem(401, "view_token_revoked") { _ = try await stayed.1.eventNetwork("rustconf-2026") }
            _ = try await stayed.0.eventNetwork("rustconf-2026")
            // Invited again, the one who stepped down finds their old wall still dark.
            let (back, stayer) = organizers[0].profileId == ada.profile.id ? (bob, ada.client) : (ada, bob.client)
            try await server.makeOrganizer(back, of: "rustconf-2026", by: stayer)
            await expectProblem(401, "view_token_revoked") { _ = try await stayed.1.eventNetwork("rustconf-2026") }
        }
    }

    /// Whether `body` succeeds.
    static func succeeds(_ body: () async throws -> Void) async -> Bool {
        do {
            try await body()
            return true
        } catch {
            return false
        }
    }

    @Test func onlyOrganizersSeeOrganizersAndMakeOrWithdrawInvitations() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, eve) = try await server.users("Ada", "Bob", "Eve")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent())
            _ = try await bob.client.joinEvent("rustconf-2026", code: created.joinCode)
            let link = try await ada.client.createInvitationLink(to: "rustconf-2026")
            _ = try await ada.client.inviteOrganizer(eve.profile.id, to: "rustconf-2026")
            let view = try await ada.client.issueViewToken(for: "rustconf-2026")
            let screen = server.client.authenticated(view.token)
            for (who, client, code) in [
                ("stranger", eve.client, "not_an_organizer"), ("attendee", bob.client, "not_an_organizer"),
                ("view link", screen, "view_token_read_only"),
            ] {
                await expectProblem(403, code) { _ = try await client.organizers(of: "rustconf-2026") }
                await expectProblem(403, code) { _ = try await client.createInvitationLink(to: "rustconf-2026") }
                await expectProblem(403, code) { _ = try await client.pendingInvitations(to: "rustconf-2026") }
                await expectProblem(403, code) { try await client.withdrawInvitationLink(link.invitation.id, of: "rustconf-2026") }
                await expectProblem(403, code) { try await client.withdrawInvitation(to: "rustconf-2026", of: eve.profile.id) }
                await expectProblem(403, code) { _ = try await client.stepDown(from: "rustconf-2026") }
                #expect(try await ada.client.pendingInvitations(to: "rustconf-2026").links.count == 1, "\(who) changed nothing")
            }
            await expectProblem(401, "missing_credentials") { _ = try await server.client.createInvitationLink(to: "rustconf-2026") }
            await expectProblem(401, "missing_credentials") { _ = try await server.client.acceptInvitationLink(link.code) }
            await expectProblem(404, "unknown_event") { _ = try await ada.client.createInvitationLink(to: "no-such-event") }

            // The invitation by profile id is listed with its invitee's name, and withdrawn.
            let pending = try await ada.client.pendingInvitations(to: "rustconf-2026")
            #expect(pending.people.map(\.profileName) == ["Eve"])
            try await ada.client.withdrawInvitation(to: "rustconf-2026", of: eve.profile.id)
            #expect(try await eve.client.invitations().items.isEmpty)
            await expectProblem(404, "unknown_invitation") {
                try await ada.client.withdrawInvitation(to: "rustconf-2026", of: eve.profile.id)
            }
        }
    }

    @Test func wrongCodesCountAgainstTheAddressLikeWrongKeys() async throws {
        try await TestServer.run(configure: { $0.rateLimits.perAddress[.authFailure] = RateRule(5, per: .seconds(3600)) }) {
            server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent())
            let link = try await ada.client.createInvitationLink(to: "rustconf-2026")
            for _ in 0..<5 {
                await expectProblem(404, "invitation_unknown") { _ = try await server.client.lookAtInvitation("ABCDE-FGHJK-MNPQR-STUVW") }
            }
            // Out of attempts, even the right code waits.
            await expectProblem(429, "rate_limited") { _ = try await server.client.lookAtInvitation(link.code) }
        }
    }
}
