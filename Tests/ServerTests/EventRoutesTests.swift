import Client
import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing
import Tokens

/// Events: creation, lookup by id or slug, members and roles, join codes, and who may do what.
@Suite(.tier(.database)) struct EventRoutesTests {
    /// An event from now (whole seconds, as ISO 8601 carries them) lasting `hours`.
    static func newEvent(
        _ slug: String = "rustconf-2026", name: String = "RustConf", startsIn: TimeInterval = -3600,
        hours: Double = 8, timeZone: String = "Europe/Paris"
    ) -> NewEvent {
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + startsIn).rounded(.down))
        return NewEvent(name: name, slug: slug, startsAt: start, endsAt: start.addingTimeInterval(hours * 3600), timeZone: timeZone)
    }

    /// `XXXX-XXXX` over the 31 symbols without 0, O, 1, I and L.
    static func isJoinCode(_ code: String) -> Bool {
        let symbols = Set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { $0.count == 4 && $0.allSatisfy(symbols.contains) }
    }

    @Test func creatingMakesMeTheOrganizerAndGivesTheJoinCode() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let input = Self.newEvent(name: "  RustConf 2026 ")
            let raw = try await ada.client.send(.POST, "/v1/events", body: input)
            #expect(raw.status == 201)
            let created = try JSONDecoder.constellation.decode(CreatedEvent.self, from: Data(raw.body))
            #expect(Self.isJoinCode(created.joinCode), "\(created.joinCode)")
            #expect(created.event.name == "RustConf 2026")
            #expect(created.event.slug == input.slug && created.event.timeZone == "Europe/Paris")
            #expect(created.event.startsAt == input.startsAt && created.event.endsAt == input.endsAt)

            // Only the rotation is stored; the code is derived from it under the server's pseudonym key.
            let stored = try await server.services.database.withConnection {
                try $0.query("SELECT join_code_rotation, join_code_hash IS NULL AS no_hash FROM events")[0]
            }
            #expect(try stored.int("join_code_rotation") == 0 && stored.bool("no_hash"))
            let derived = try JoinCode.derive(key: server.services.keyRing.eventPseudonyms, eventId: created.event.id, rotation: 0)
            #expect(created.joinCode == derived)

            let mine = try await ada.client.myEvents().items
            #expect(mine.map(\.event) == [created.event] && mine.map(\.role) == [.organizer])
        }
    }

    @Test func anEventIsPublicByIdOrSlugWithoutMembersOrCode() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let created = try await ada.client.createEvent(Self.newEvent())
            // No key needed: the join page shows the event before anyone has an account.
            #expect(try await server.client.event(created.event.id.uuidString) == created.event)
            #expect(try await server.client.event("rustconf-2026") == created.event)
            #expect(try await server.client.event("RustConf-2026") == created.event, "slugs are looked up in lower case")
            let raw = try await server.client.send(.GET, "/v1/events/rustconf-2026")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(raw.body)) as? [String: Any])
            #expect(Set(object.keys) == ["id", "slug", "name", "startsAt", "endsAt", "timeZone", "purgeOn"], "purgedAt only once purged")
            #expect(!String(decoding: raw.body, as: UTF8.self).contains(created.joinCode))
            await expectProblem(404, "unknown_event") { _ = try await server.client.event("no-such-event") }
            await expectProblem(404, "unknown_event") { _ = try await server.client.event(UUID().uuidString) }
            await expectProblem(404, "unknown_event") { _ = try await server.client.event("caf\u{E9}") }
        }
    }

    /// Once its end has come, an event's join code makes nobody an attendee: 410 `event_ended`.
    @Test func nobodyJoinsAnEventWhoseEndHasCome() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let created = try await ada.client.createEvent(Self.newEvent("over-now", startsIn: -7_200, hours: 1))
            await expectProblem(410, "event_ended") { _ = try await bob.client.joinEvent("over-now", code: created.joinCode) }
            #expect(try await bob.client.myEvents().items.isEmpty, "Bob is no member")
        }
    }

    @Test func aTakenSlugIsAConflictAndChangesNothing() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let first = try await ada.client.createEvent(Self.newEvent())
            await expectProblem(409, "slug_taken") { _ = try await bob.client.createEvent(Self.newEvent(name: "Other")) }
            #expect(try await server.count("events") == 1)
            #expect(try await server.count("event_members") == 1)
            #expect(try await bob.client.myEvents().items.isEmpty)
            #expect(try await server.client.event(first.event.slug).name == "RustConf")
        }
    }

    @Test func badEventsAreRefusedAndChangeNothing() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            func body(
                slug: String = "rustconf-2026", name: String = "RustConf", startsAt: String = "2026-05-01T09:00:00Z",
                endsAt: String = "2026-05-01T18:00:00Z", timeZone: String = "Europe/Paris"
            ) -> String {
                let object = ["slug": slug, "name": name, "startsAt": startsAt, "endsAt": endsAt, "timeZone": timeZone]
                return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
            }
            let cases: [(String, Int, String, String)] = [
                ("{\"slug\":", 400, "malformed_json", "truncated JSON"),
                ("{}", 400, "malformed_json", "no fields"),
                (
                    "{\"slug\":\"ok-slug\",\"name\":\"N\",\"startsAt\":\"2026-05-01T09:00:00Z\",\"endsAt\":\"2026-05-01T18:00:00Z\"}", 400,
                    "malformed_json", "no time zone"
                ),
                (body(startsAt: "tomorrow"), 422, "invalid_date", "a date that is not RFC 3339"),
                (body(endsAt: "2026-05-01"), 422, "invalid_date", "a date without a time"),
                (body(slug: "ab"), 422, "validation_failed", "a slug too short"),
                (body(slug: String(repeating: "a", count: 65)), 422, "validation_failed", "a slug too long"),
                (body(slug: "Rust-Conf"), 422, "validation_failed", "an uppercase slug"),
                (body(slug: "caf\u{E9}-2026"), 422, "validation_failed", "a slug with a non-ASCII letter"),
                (body(slug: "\u{FF52}ust"), 422, "validation_failed", "a slug with a fullwidth letter"),
                (body(slug: "-rust"), 422, "validation_failed", "a slug starting with a hyphen"),
                (body(slug: "rust-"), 422, "validation_failed", "a slug ending with a hyphen"),
                (body(slug: "rust conf"), 422, "validation_failed", "a slug with a space"),
                (body(slug: "rust_conf"), 422, "validation_failed", "a slug with an underscore"),
                (body(slug: UUID().uuidString.lowercased()), 422, "validation_failed", "a slug shaped like a UUID"),
                (body(name: "   "), 422, "validation_failed", "an empty name"),
                (body(name: String(repeating: "n", count: 121)), 422, "validation_failed", "a name too long"),
                (body(name: "Ada\u{202E}evil"), 422, "validation_failed", "a name with a bidi override"),
                (body(name: "a\u{7}b"), 422, "validation_failed", "a name with a control character"),
                (body(timeZone: "Mars/Olympus_Mons"), 422, "validation_failed", "an unknown time zone"),
                (body(timeZone: ""), 422, "validation_failed", "an empty time zone"),
                (body(timeZone: "europe/paris"), 422, "validation_failed", "a time zone in the wrong case"),
                (body(endsAt: "2026-05-01T08:00:00Z"), 422, "validation_failed", "endsAt before startsAt"),
                (body(endsAt: "2026-05-01T09:00:00Z"), 422, "validation_failed", "endsAt equal to startsAt"),
                (body(endsAt: "2026-06-02T09:00:00Z"), 422, "validation_failed", "an event of 32 days"),
            ]
            for (json, status, code, what) in cases {
                do {
                    _ = try await ada.client.send(
                        .POST, "/v1/events", rawBody: Array(json.utf8), headers: [("Content-Type", "application/json")])
                    Issue.record("\(what): accepted")
                } catch let ClientError.problem(problem) {
                    #expect(problem.status == status && problem.code == code, "\(what): \(problem)")
                }
            }
            #expect(try await server.count("events") == 0)
            #expect(try await server.count("event_members") == 0)
            // The rules let a good one through: 31 days is the longest, and an offset is a fine ISO 8601 date.
            let longest = body(startsAt: "2026-05-01T09:00:00+02:00", endsAt: "2026-06-01T09:00:00+02:00", timeZone: "UTC")
            #expect(
                try await ada.client.send(
                    .POST, "/v1/events", rawBody: Array(longest.utf8),
                    headers: [("Content-Type", "application/json")]
                ).status == 201)
        }
    }

    /// Nobody is made an organizer without saying yes: an organizer invites, the invitee sees the
    /// invitation and accepts (or declines); a second invitation is the same one; an attendee is
    /// promoted by accepting; never someone who blocked, or was blocked by, any of the event's
    /// organizers.
    @Test func organizersInviteCoOrganizersWhoAcceptOrDecline() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo, dora, eve) = try await server.users("Ada", "Bob", "Cleo", "Dora", "Eve")
            let created = try await ada.client.createEvent(Self.newEvent())
            let invited = try await ada.client.send(
                .POST, "/v1/events/rustconf-2026/organizers", body: NewOrganizer(profileId: bob.profile.id))
            #expect(invited.status == 202)
            let invitation = try JSONDecoder.constellation.decode(OrganizerInvitation.self, from: Data(invited.body))
            #expect(
                invitation.profileId == bob.profile.id && invitation.invitedBy == ada.profile.id && invitation.eventId == created.event.id)
            #expect(try await bob.client.myEvents().items.isEmpty, "an invitation is no role")
            let again = try await ada.client.send(
                .POST, "/v1/events/rustconf-2026/organizers", body: NewOrganizer(profileId: bob.profile.id))
            #expect(again.status == 202, "inviting twice is the same invitation")
            #expect(try await bob.client.invitations().items.map(\.eventName) == ["RustConf"])
            #expect(try await bob.client.acceptInvitation(to: "rustconf-2026").role == .organizer)
            #expect(try await bob.client.myEvents().items.map(\.role) == [.organizer])
            #expect(try await bob.client.invitations().items.isEmpty)
            await expectProblem(404, "unknown_invitation") { _ = try await bob.client.acceptInvitation(to: "rustconf-2026") }
            #expect(try await ada.client.inviteOrganizer(bob.profile.id, to: "rustconf-2026") == nil, "an organizer already")

            // An attendee is promoted by a co-organizer's invitation, addressing the event by id.
            _ = try await cleo.client.joinEvent("rustconf-2026", code: created.joinCode)
            _ = try await bob.client.inviteOrganizer(cleo.profile.id, to: created.event.id.uuidString)
            #expect(try await cleo.client.myEvents().items.map(\.role) == [.attendee])
            _ = try await cleo.client.acceptInvitation(to: created.event.id.uuidString)
            #expect(try await cleo.client.myEvents().items.map(\.role) == [.organizer])

            // Declined: nothing changes; blocked either way: no invitation at all.
            _ = try await ada.client.inviteOrganizer(dora.profile.id, to: "rustconf-2026")
            try await dora.client.declineInvitation(to: "rustconf-2026")
            await expectProblem(404, "unknown_invitation") { _ = try await dora.client.acceptInvitation(to: "rustconf-2026") }
            _ = try await dora.client.block(ada.profile.id)
            await expectProblem(403, "blocked_from_organizing") {
                _ = try await ada.client.inviteOrganizer(dora.profile.id, to: "rustconf-2026")
            }
            // A block between a person and any one organizer keeps them out of the event's organizers:
            // a co-organizer's invitation is refused too.
            await expectProblem(403, "blocked_from_organizing") {
                _ = try await bob.client.inviteOrganizer(dora.profile.id, to: "rustconf-2026")
            }
            // Bob's standing invitation lapses once another organizer (Ada) blocks its invitee.
            _ = try await bob.client.inviteOrganizer(eve.profile.id, to: "rustconf-2026")
            _ = try await ada.client.block(eve.profile.id)
            #expect(try await eve.client.invitations().items.isEmpty, "an invitation to someone an organizer blocked since lapses")
            await expectProblem(404, "unknown_invitation") { _ = try await eve.client.acceptInvitation(to: "rustconf-2026") }
            #expect(try await dora.client.myEvents().items.isEmpty)
            #expect(try await eve.client.myEvents().items.isEmpty)

            await expectProblem(404, "unknown_profile") { _ = try await ada.client.inviteOrganizer(UUID(), to: "rustconf-2026") }
            await expectProblem(400, "malformed_json") {
                _ = try await ada.client.send(.POST, "/v1/events/rustconf-2026/organizers", rawBody: Array("{\"profileId\":\"x\"}".utf8))
            }
            #expect(try await server.count("event_members") == 3)
        }
    }

    @Test func whoMayDoWhatOnEveryEventRoute() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, eve) = try await server.users("Ada", "Bob", "Eve")
            let created = try await ada.client.createEvent(Self.newEvent())
            _ = try await bob.client.joinEvent("rustconf-2026", code: created.joinCode)
            let anonymous = server.client
            let rotationBefore = try await Self.codeRotation(server)

            // No key.
            await expectProblem(401, "missing_credentials") { _ = try await anonymous.createEvent(Self.newEvent("other-event")) }
            await expectProblem(401, "missing_credentials") { _ = try await anonymous.myEvents() }
            await expectProblem(401, "missing_credentials") { _ = try await anonymous.inviteOrganizer(eve.profile.id, to: "rustconf-2026") }
            await expectProblem(401, "missing_credentials") { _ = try await anonymous.rotateJoinCode(of: "rustconf-2026") }
            await expectProblem(401, "missing_credentials") { _ = try await anonymous.joinEvent("rustconf-2026", code: created.joinCode) }
            await expectProblem(401, "missing_credentials") { _ = try await anonymous.issueToken(event: "rustconf-2026") }
            // The public view needs none.
            #expect(try await anonymous.event("rustconf-2026") == created.event)

            // A stranger (Eve) and an attendee (Bob) on organizer routes; Eve may not make herself one.
            for (who, client) in [("stranger", eve.client), ("attendee", bob.client)] {
                await expectProblem(403, "not_an_organizer") { _ = try await client.inviteOrganizer(eve.profile.id, to: "rustconf-2026") }
                await expectProblem(403, "not_an_organizer") {
                    _ = try await client.inviteOrganizer(bob.profile.id, to: created.event.id.uuidString)
                }
                await expectProblem(403, "not_an_organizer") { _ = try await client.rotateJoinCode(of: "rustconf-2026") }
                await expectProblem(403, "not_an_organizer") { _ = try await client.joinCode(of: "rustconf-2026") }
                #expect(try await Self.codeRotation(server) == rotationBefore, "\(who): the code is unchanged")
            }
            #expect(try await eve.client.myEvents().items.isEmpty)
            #expect(try await bob.client.myEvents().items.map(\.role) == [.attendee])
            #expect(try await server.count("event_members") == 2)
            // Strangers may mint no event token; members may.
            await expectProblem(403, "not_a_member") { _ = try await eve.client.issueToken(event: "rustconf-2026") }
            #expect(try await bob.client.issueToken(event: "rustconf-2026").eventId == created.event.id)

            // The organizer may do all of it.
            #expect(try await ada.client.inviteOrganizer(eve.profile.id, to: "rustconf-2026")?.profileId == eve.profile.id)
            #expect(try await ada.client.joinCode(of: "rustconf-2026").joinCode == created.joinCode, "the code is shown again")
            let rotated = try await ada.client.rotateJoinCode(of: created.event.id.uuidString)
            #expect(rotated.eventId == created.event.id && rotated.joinCode != created.joinCode)
            #expect(try await ada.client.joinCode(of: "rustconf-2026") == rotated, "the new code is the one shown")
            await expectProblem(401, "missing_credentials") { _ = try await anonymous.joinCode(of: "rustconf-2026") }
            #expect(try await Self.codeRotation(server) != rotationBefore)
            #expect(try await ada.client.myEvents().items.map(\.role) == [.organizer])
            // Organizer routes on an event that does not exist.
            await expectProblem(404, "unknown_event") { _ = try await ada.client.rotateJoinCode(of: "no-such-event") }
            await expectProblem(404, "unknown_event") { _ = try await ada.client.inviteOrganizer(bob.profile.id, to: UUID().uuidString) }
        }
    }

    /// A well-formed code that is not `code`.
    static func otherCode(than code: String) -> String {
        let first = code.first == "A" ? "B" : "A"
        return first + code.dropFirst()
    }

    static func codeRotation(_ server: TestServer) async throws -> Int64 {
        try await server.services.database.withConnection {
            try $0.query("SELECT join_code_rotation FROM events WHERE slug = 'rustconf-2026'")[0].int("join_code_rotation")
        }
    }
}
