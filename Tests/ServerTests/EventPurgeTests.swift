import Client
import ConstellationModel
import Foundation
import Logging
import Server
import Store
import TestSupport
import Testing

/// Purging an event: what goes and what stays (docs/data-model.md's table, counted table by
/// table), the record kept equal to what the API said before, resuming after a kill, once across
/// two servers, redemptions that never count for a purged event, the purge date's bounds, leaving.
@Suite(.tier(.database)) struct EventPurgeTests {
    /// A server whose purges wait for the test (no offline grace, so an event that ended may go).
    static func run(_ body: @Sendable (TestServer) async throws -> Void) async throws {
        try await TestServer.run(
            configure: {
                $0.offlineGrace = .zero
                $0.purgeInterval = .seconds(86_400)
            }, body)
    }

    /// Ada organizes rustconf-2026 (running now); Bob, Cleo and Dora attend and met there, Bob named
    /// and asking for a badge; a view link, an invitation link and an invitation by id wait; Bob
    /// keeps a note on Cleo. Another event, jsconf, has a pair of its own.
    static func busyEvent(_ server: TestServer) async throws -> (
        ada: TestServer.User<String>, bob: TestServer.User<String>, cleo: TestServer.User<String>, dora: TestServer.User<String>,
        event: Event
    ) {
        let (ada, bob, cleo, dora, eve) = try await server.users("Ada", "Bob", "Cleo", "Dora", "Eve")
        let created = try await ada.client.createEvent(EventRoutesTests.newEvent())
        for person in [bob, cleo, dora] { _ = try await person.client.joinEvent("rustconf-2026", code: created.joinCode) }
        try await bob.client.scan(cleo.client, at: "rustconf-2026")
        try await cleo.client.scan(dora.client, at: "rustconf-2026")
        try await dora.client.scan(bob.client)  // a personal code between members counts for the event too
        _ = try await bob.client.setEventVisibility(.named, at: "rustconf-2026")
        _ = try await bob.client.setBadgePrinting(true, at: "rustconf-2026")
        _ = try await ada.client.issueViewToken(for: "rustconf-2026", wall: true)
        _ = try await ada.client.createInvitationLink(to: "rustconf-2026")
        _ = try await ada.client.inviteOrganizer(eve.profile.id, to: "rustconf-2026")
        _ = try await bob.client.annotate(cleo.profile.id, ConnectionNoteChanges(note: "Rust and kites", tags: ["rust"]))
        let other = try await eve.client.createEvent(EventRoutesTests.newEvent("jsconf"))
        _ = try await ada.client.joinEvent("jsconf", code: other.joinCode)
        try await ada.client.scan(eve.client, at: "jsconf")
        return (ada, bob, cleo, dora, created.event)
    }

    /// The event's end brought to now and its purge date with it, as if its day had come.
    static func due(_ event: UUID, _ server: TestServer) async throws {
        _ = try await server.services.database.withConnection {
            try $0.query("UPDATE events SET ends_at = now(), purge_on = now() WHERE id = \(event)")
        }
    }

    /// Rows per table, of the event and in all.
    static func counts(of event: UUID, _ server: TestServer) async throws -> [String: Int64] {
        try await server.services.database.withConnection { connection in
            var counts: [String: Int64] = [:]
            for table in ["event_connections", "event_members", "view_links", "organizer_invitations", "organizer_invitation_links"] {
                counts[table] = try connection.query("SELECT count(*) AS n FROM \(unsafeSQL: table) WHERE event_id = \(event)")[0].int("n")
                counts["all " + table] = try connection.query("SELECT count(*) AS n FROM \(unsafeSQL: table)")[0].int("n")
            }
            for table in ["connections", "connection_notes", "profiles", "events", "event_records", "redemptions"] {
                counts[table] = try connection.query("SELECT count(*) AS n FROM \(unsafeSQL: table)")[0].int("n")
            }
            counts["met there"] = try connection.query("SELECT count(*) AS n FROM connections WHERE event_id = \(event)")[0].int("n")
            counts["join code"] = try connection.query(
                "SELECT count(*) AS n FROM events WHERE id = \(event) AND (join_code_rotation IS NOT NULL OR join_code_hash IS NOT NULL)"
            )[0].int("n")
            counts["choices"] = try connection.query(
                "SELECT count(*) AS n FROM event_members WHERE event_id = \(event) AND (visibility = 'named' OR print_badge OR wall_name)"
            )[0].int("n")
            return counts
        }
    }

    /// Every step of every due purge, one transaction each, as the background work takes them.
    static func purgeAll(_ server: TestServer, batch: Int = 5_000) async throws {
        let purge = EventPurge(metrics: server.services.metrics, logger: TestDatabase.logger)
        while try await server.services.database.withTransaction({ try purge.step(batch: batch, on: $0) }) > 0 {}
    }

    @Test func aPurgeRemovesWhatTheTableSaysKeepsTheRestAndTheRecordTheAPIGave() async throws {
        try await Self.run { server throws in
            let (ada, bob, cleo, _, event) = try await Self.busyEvent(server)
            try await Self.due(event.id, server)
            let before = try await Self.counts(of: event.id, server)
            #expect(before["event_connections"] == 3 && before["event_members"] == 4 && before["choices"] == 1, "\(before)")
            let record = try await ada.client.record(of: "rustconf-2026", bucket: "5m")
            let summary = try await ada.client.eventSummary("rustconf-2026")
            #expect(!record.purged && record.figures == summary.figures && record.figures.connections == 3)
            let growth = try await ada.client.eventGrowth("rustconf-2026", bucket: "5m").buckets
            #expect(record.growth == growth && !growth.isEmpty)
            // Bob's export says when his attendance is forgotten.
            let export = try JSONDecoder.constellation.decode(PersonalData.self, from: Data(try await bob.client.exportPersonalData()))
            let purgeOn = try await server.client.event("rustconf-2026").purgeOn
            #expect(export.events?.map(\.event.slug) == ["rustconf-2026"] && export.events?.first?.event.purgeOn == purgeOn)
            // What this server keeps of the event (its picture, its graph), to be forgotten.
            _ = try await ada.client.send(.GET, "/v1/events/rustconf-2026/network")

            // Purged as another server would: this one learns of it from the primary, at the next request.
            try await Self.purgeAll(server)

            let after = try await Self.counts(of: event.id, server)
            // Gone: its pairs, its attendees and their choices, invitations, links, view links, join code.
            #expect(after["event_connections"] == 0 && after["view_links"] == 0 && after["join code"] == 0)
            #expect(after["organizer_invitations"] == 0 && after["organizer_invitation_links"] == 0 && after["choices"] == 0)
            #expect(after["event_members"] == 1, "its organizer stays, to read its record")
            // Kept: the other event's rows, everyone's connections and notes, "met at", the event, a record.
            for table in ["event_connections", "event_members", "view_links", "organizer_invitations", "organizer_invitation_links"] {
                #expect(after["all " + table] == before["all " + table]! - before[table]! + after[table]!, "\(table)")
            }
            for table in ["connections", "connection_notes", "profiles", "events", "redemptions", "met there"] {
                #expect(after[table] == before[table], "\(table): \(after[table] ?? -1) of \(before[table] ?? -1)")
            }
            #expect(after["event_records"] == 1)
            #expect(try await bob.client.connections().items.map(\.peer.id).contains(cleo.profile.id), "Bob's connections are his")
            #expect(try await bob.client.myEvents().items.isEmpty)

            // The record is what the API said before, without anyone in it.
            let kept = try await ada.client.record(of: "rustconf-2026", bucket: "5m")
            #expect(kept.purged && kept.figures == record.figures && kept.growth == record.growth)
            let raw = try await ada.client.send(.GET, "/v1/events/rustconf-2026/record")
            for name in ["Bob", "Cleo", "Dora"] { #expect(!String(decoding: raw.body, as: UTF8.self).contains(name)) }

            // Everything else about it answers 410, on every route that showed it.
            for path in ["summary", "growth", "network", "network/stats", "stream", "join-code", "badges", "view-tokens", "invitations"] {
                await expectProblem(410, "event_purged") { _ = try await ada.client.send(.GET, "/v1/events/rustconf-2026/\(path)") }
            }
            #expect(try await server.client.event("rustconf-2026").purgedAt != nil)
            await expectProblem(410, "event_purged") { _ = try await ada.client.issueToken(event: "rustconf-2026") }
            await expectProblem(410, "event_purged") { _ = try await bob.client.joinEvent("rustconf-2026", code: "ABCD-EFGH") }
        }
    }

    @Test func aPurgeKilledMidwayGoesOnAndTwoServersOnOneDatabasePurgeOnce() async throws {
        try await Self.run { server throws in
            let (ada, _, _, _, event) = try await Self.busyEvent(server)
            try await Self.due(event.id, server)
            let before = try await ada.client.record(of: "rustconf-2026")
            // The mark, the record and one pair gone: then the server is killed (its transaction never ends).
            let first = EventPurge(metrics: ServerMetrics(), logger: TestDatabase.logger)
            for _ in 0..<3 { _ = try await server.services.database.withTransaction { try first.step(batch: 1, on: $0) } }
            #expect(try await Self.counts(of: event.id, server)["event_connections"] == 2)
            await #expect(throws: CancellationError.self) {
                try await server.services.database.withTransaction { connection in
                    _ = try first.step(batch: 1, on: connection)
                    throw CancellationError()
                }
            }
            #expect(try await Self.counts(of: event.id, server)["event_connections"] == 2, "the killed step left nothing half-done")
            await expectProblem(410, "event_purged") { _ = try await ada.client.eventSummary("rustconf-2026") }

            // Two servers on the database take the background work's rounds at once: one purges.
            let other = Database(conninfo: server.conninfo, maximumConnections: 2, logger: TestDatabase.logger)
            let (metricsA, metricsB) = (ServerMetrics(), ServerMetrics())
            let works = [(server.services.database, metricsA), (other, metricsB)].map { database, metrics in
                let chore = EventPurge(metrics: metrics, logger: TestDatabase.logger).chore(every: .seconds(1))
                return (BackgroundWork(database: database, chores: [chore], logger: TestDatabase.logger), chore)
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (work, chore) in works {
                    group.addTask { for _ in 0..<40 { _ = try await work.round(of: chore) } }
                }
                try await group.waitForAll()
            }
            await other.shutdown()
            #expect(metricsA.eventsPurged + metricsB.eventsPurged == 1, "one of the two finished it, once")
            let after = try await Self.counts(of: event.id, server)
            #expect(after["event_connections"] == 0 && after["event_members"] == 1 && after["event_records"] == 1)
            let kept = try await ada.client.record(of: "rustconf-2026")
            #expect(kept.figures == before.figures && kept.growth == before.growth)
        }
    }

    /// A purge whose step keeps failing (here a trigger refuses its pairs' removal) is set aside
    /// for a while: the purges due after it go on, and it finishes once it can.
    @Test func aPurgeThatKeepsFailingHoldsBackNoOther() async throws {
        try await Self.run { server throws in
            let (_, _, _, _, event) = try await Self.busyEvent(server)
            let other = try await server.services.database.withConnection {
                try $0.query("SELECT id FROM events WHERE slug = 'jsconf'")[0].uuid("id")
            }
            try await Self.due(event.id, server)
            try await Self.due(other, server)
            try await server.services.database.withConnection { connection in
                _ = try connection.query(
                    """
                    CREATE FUNCTION refuse_removal() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN RAISE EXCEPTION 'not today'; END $$
                    """)
                _ = try connection.query(
                    """
                    CREATE TRIGGER refuse_removal BEFORE DELETE ON event_connections
                        FOR EACH ROW WHEN (OLD.event_id = '\(unsafeSQL: event.id.uuidString)') EXECUTE FUNCTION refuse_removal()
                    """)
            }
            let finished = { (id: UUID) async throws -> Bool in
                try await server.services.database.withConnection {
                    try $0.query("SELECT purge_finished_at IS NOT NULL AS done FROM events WHERE id = \(id)")[0].bool("done")
                }
            }
            let purge = EventPurge(metrics: server.services.metrics, logger: TestDatabase.logger)
            var failures = 0
            for _ in 0..<20 {
                do {
                    if try await server.services.database.withTransaction({ try purge.step(batch: 5_000, on: $0) }) == 0 { break }
                } catch { failures += 1 }
            }
            #expect(failures == 1, "the failing purge, tried once, then set aside")
            #expect(try await finished(other), "the purge due after it finished")
            #expect(try await !finished(event.id))
            try await server.services.database.withConnection { _ = try $0.query("DROP TRIGGER refuse_removal ON event_connections") }
            // Once its hour has passed (here: at once), it is tried again and finishes.
            let again = EventPurge(metrics: server.services.metrics, logger: TestDatabase.logger, retryAfter: .zero)
            while try await server.services.database.withTransaction({ try again.step(batch: 5_000, on: $0) }) > 0 {}
            #expect(try await finished(event.id))
        }
    }

    /// From the purge's mark (what the 202 commits) on, before the background round keeps the
    /// record: the report draws no picture and names nobody, an invitation link names nobody, and a
    /// member's choices are refused as the event's other personal routes refuse it.
    @Test func fromThePurgesMarkOnNothingNamesAnybody() async throws {
        try await Self.run { server throws in
            let (ada, bob, _, _, event) = try await Self.busyEvent(server)
            let before = String(decoding: try await ada.client.report(of: "rustconf-2026"), as: UTF8.self)
            #expect(before.contains("Bob") && before.contains("<circle"), "the report names Bob and draws the picture before")
            let link = try await ada.client.createInvitationLink(to: "rustconf-2026")
            #expect(try await bob.client.lookAtInvitation(link.code).invitedByName == "Ada")
            _ = try await server.services.database.withConnection {
                try $0.query("UPDATE events SET purged_at = now() WHERE id = \(event.id)")
            }
            let after = String(decoding: try await ada.client.report(of: "rustconf-2026"), as: UTF8.self)
            #expect(!after.contains("Bob") && !after.contains("<circle"), "no name and no picture from the mark on")
            await expectProblem(410, "event_purged") { _ = try await bob.client.lookAtInvitation(link.code) }
            await expectProblem(410, "event_purged") { _ = try await bob.client.setEventVisibility(.pseudonymous, at: "rustconf-2026") }
        }
    }

    @Test func aScanNeverCountsForAnEventOnceItsPurgeBegan() async throws {
        try await Self.run { server throws in
            let (ada, bob, _, dora, event) = try await Self.busyEvent(server)
            let eventToken = try await ada.client.issueToken(event: "rustconf-2026").token
            // Marked, as a purge begins (the event still runs: its date is not checked here).
            _ = try await server.services.database.withConnection {
                try $0.query("UPDATE events SET purged_at = now() WHERE id = \(event.id)")
            }
            let pairs = try await Self.counts(of: event.id, server)["event_connections"]
            await expectProblem(410, "event_purged") { _ = try await dora.client.redeem(RedeemRequest(token: eventToken)) }
            // Two of its members meeting by their personal codes: a connection, none of the event's.
            _ = try await bob.client.scan(ada.client)
            #expect(try await Self.counts(of: event.id, server)["event_connections"] == pairs)
            #expect(try await bob.client.connections().items.contains { $0.peer.id == ada.profile.id })
        }
    }

    @Test func thePurgeDateMovesWithinItsBoundsByItsOrganizersOnly() async throws {
        try await Self.run { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Bob", "Cleo")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent())
            _ = try await bob.client.joinEvent("rustconf-2026", code: created.joinCode)
            let date = try await ada.client.purgeDate(of: "rustconf-2026")
            #expect(date.purgeOn == created.event.purgeOn && date.purgedAt == nil)
            #expect(abs(date.purgeOn.timeIntervalSince(created.event.endsAt) - 30 * 86_400) < 2, "30 days after the end, no grace here")
            #expect(abs(date.latest.timeIntervalSince(created.event.endsAt) - 365 * 86_400) < 2)

            for wrong in [created.event.endsAt.addingTimeInterval(-60), date.latest.addingTimeInterval(86_400)] {
                do {
                    _ = try await ada.client.movePurgeDate(of: "rustconf-2026", to: wrong)
                    Issue.record("\(wrong) was taken")
                } catch let error as ClientError {
                    guard case .problem(let problem) = error else { throw error }
                    #expect(problem.status == 422 && problem.code == "validation_failed")
                    let field = try #require(problem.errors?.first)
                    #expect(field.pointer == "/purgeOn" && field.rule == .dateRange && field.latest != nil && field.earliest != nil)
                }
            }
            await expectProblem(403, "not_an_organizer") { _ = try await bob.client.movePurgeDate(of: "rustconf-2026", to: Date()) }
            await expectProblem(403, "not_an_organizer") { _ = try await cleo.client.purgeDate(of: "rustconf-2026") }
            #expect(try await ada.client.purgeDate(of: "rustconf-2026").purgeOn == date.purgeOn, "nothing changed")

            let later = created.event.endsAt.addingTimeInterval(90 * 86_400)
            #expect(try await ada.client.movePurgeDate(of: "rustconf-2026", to: later).purgeOn == later)
            #expect(try await server.client.event("rustconf-2026").purgeOn == later)

            // Purging now: not while its codes redeem, and only when told the slug.
            await expectProblem(409, "event_not_over") { _ = try await ada.client.purge("rustconf-2026", confirming: "rustconf-2026") }
            _ = try await server.services.database.withConnection {
                try $0.query("UPDATE events SET ends_at = now() WHERE id = \(created.event.id)")
            }
            await expectProblem(422, "validation_failed") { _ = try await ada.client.purge("rustconf-2026", confirming: "jsconf") }
            await expectProblem(403, "not_an_organizer") { _ = try await bob.client.purge("rustconf-2026", confirming: "rustconf-2026") }
            // Twenty at once: one begins it, the others hear it began.
            let answers = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        do {
                            return try await ada.client.send(
                                .POST, "/v1/events/rustconf-2026/purge", body: PurgeRequest(confirm: "rustconf-2026")
                            ).status
                        } catch {
                            guard case .problem(let problem) = error as? ClientError, problem.code == "event_purged" else { return -1 }
                            return problem.status
                        }
                    }
                }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(answers.sorted() == [202] + Array(repeating: 410, count: 19), "\(answers.sorted())")
            #expect(try await server.client.event("rustconf-2026").purgedAt != nil)
            await expectProblem(410, "event_purged") { _ = try await ada.client.purge("rustconf-2026", confirming: "rustconf-2026") }
            await expectProblem(410, "event_purged") { _ = try await ada.client.movePurgeDate(of: "rustconf-2026", to: later) }
            #expect(try await ada.client.purgeDate(of: "rustconf-2026").purgedAt != nil)
        }
    }

    /// Twelve attendees leave one event at once, each with a pair there: every one of them leaves.
    /// A leave moves the event's revisions by trigger (its pairs', and its choices' since migration
    /// 0028); under share locks, two leaves each waited to update the row and one was a deadlock.
    @Test func attendeesLeavingAtOnceAllLeave() async throws {
        try await Self.run { server throws in
            let (ada, _, _, _, _) = try await Self.busyEvent(server)
            let code = try await ada.client.joinCode(of: "rustconf-2026").joinCode
            let attendees = try await ada.client.eventSummary("rustconf-2026").attendees
            var leavers: [ConstellationClient] = []
            for index in 0..<12 {
                let registered = try await server.client.register(NewProfile(displayName: "Leaver \(index)"))
                let person = server.client.authenticated(registered.apiKey)
                _ = try await person.joinEvent("rustconf-2026", code: code)
                _ = try await person.redeem(RedeemRequest(token: try await ada.client.issueToken(event: "rustconf-2026").token))
                leavers.append(person)
            }
            let answers = try await withThrowingTaskGroup(of: String.self) { group in
                for person in leavers {
                    group.addTask {
                        do {
                            try await person.leave("rustconf-2026")
                            return "left"
                        } catch { return "\(error)" }
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(answers == Array(repeating: "left", count: 12), "\(answers)")
            #expect(try await ada.client.eventSummary("rustconf-2026").attendees == attendees, "as before they came")
        }
    }

    @Test func anAttendeeLeavesWithTheirPairsThereAndKeepsTheirConnections() async throws {
        try await Self.run { server throws in
            let (ada, bob, cleo, _, event) = try await Self.busyEvent(server)
            let before = try await Self.counts(of: event.id, server)
            try await bob.client.leave("rustconf-2026")
            let after = try await Self.counts(of: event.id, server)
            #expect(after["event_members"] == before["event_members"]! - 1)
            #expect(after["event_connections"] == 1, "Bob's two pairs there went; Cleo and Dora's stayed")
            #expect(after["connections"] == before["connections"] && after["connection_notes"] == before["connection_notes"])
            #expect(try await bob.client.connections().items.contains { $0.peer.id == cleo.profile.id })
            #expect(try await ada.client.eventSummary("rustconf-2026").attendees == 3)
            await expectProblem(403, "not_a_member") { try await bob.client.leave("rustconf-2026") }
            await expectProblem(409, "organizer_cannot_leave") { try await ada.client.leave("rustconf-2026") }
            await expectProblem(404, "unknown_event") { try await bob.client.leave("no-such-event") }
        }
    }
}
