import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing

/// `constellation event create|join|show|growth|summary|view|export` and `show --event` with the real binaries.
@Suite(.serialized, .tier(.endToEnd)) struct EventCommandTests {
    let workspace = Workspace()

    /// `event edit` renames an event, moves its end or ends it now; what the calendar forbids is
    /// refused with the server's reason and exit 65, changing nothing; an attendee cannot.
    @Test func anOrganizerEditsAnEventFromTheCommandLine() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let (ada, bob) = try workspace.homes("ada-edits", "bob-attends")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        _ = try workspace.register("Bob", home: bob, server: server.url)
        let created = try workspace.createEvent("Edit Fset", slug: "edit-fest", home: ada, server: server.url)
        let later = created.event.endsAt.addingTimeInterval(3_600).formatted(Date.ISO8601FormatStyle())
        let edited = try Binaries.cli(
            ["event", "edit", "edit-fest", "--name", "Edit Fest", "--ends", later], home: ada, server: server.url)
        #expect(edited.status == 0 && edited.stdout.hasPrefix("Edit Fest (edit-fest), "), "\(edited.stderr)")
        let event = try await server.client.event("edit-fest")
        #expect(event.name == "Edit Fest" && event.endsAt == created.event.endsAt.addingTimeInterval(3_600))

        let started = try Binaries.cli(["event", "edit", "edit-fest", "--starts", later], home: ada, server: server.url)
        #expect(
            started.status == 65 && started.stderr.contains("start has come") && started.stderr.contains("validation_failed"),
            "\(started.stderr)")
        let nothing = try Binaries.cli(["event", "edit", "edit-fest"], home: ada, server: server.url)
        #expect(nothing.status == 64 && nothing.stderr.contains("--name"), "\(nothing.stderr)")
        _ = try Binaries.cli(["event", "join", "edit-fest", "--code", created.joinCode], home: bob, server: server.url)
        let attendee = try Binaries.cli(["event", "edit", "edit-fest", "--name", "Bob's"], home: bob, server: server.url)
        #expect(attendee.status == 65 && attendee.stderr.contains("not_an_organizer"), "\(attendee.stderr)")
        #expect(try await server.client.event("edit-fest") == event, "the refusals changed nothing")

        let ended = try Binaries.cli(["event", "edit", "edit-fest", "--ends", "now", "--json"], home: ada, server: server.url)
        #expect(ended.status == 0, "\(ended.stderr)")
        let now = try JSONDecoder.constellation.decode(Event.self, from: Data(ended.stdout.utf8))
        #expect(abs(now.endsAt.timeIntervalSinceNow) < 60)
    }

    /// An organizer invites with `event invite`; the invitee sees it with `event invitations` and
    /// answers with `event accept` (or `--decline`); only then do they organize.
    @Test func coOrganizersAreInvitedAndAccept() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let (ada, bob) = try workspace.homes("ada-invites", "bob-invited")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        let bobId = try workspace.register("Bob", home: bob, server: server.url)
        _ = try workspace.createEvent("Invite Fest", slug: "invite-fest", home: ada, server: server.url)
        let invite = try Binaries.cli(["event", "invite", "invite-fest", bobId.uuidString], home: ada, server: server.url)
        #expect(invite.status == 0 && invite.stdout.contains("event accept invite-fest"), "\(invite.stderr)")
        let before = try Binaries.cli(["event", "growth", "invite-fest"], home: bob, server: server.url)
        #expect(before.status == 65 && before.stderr.contains("not_an_organizer"), "invited is not organizing yet")
        let listed = try Binaries.cli(["event", "invitations"], home: bob, server: server.url)
        #expect(listed.status == 0 && listed.stdout.contains("Invite Fest") && listed.stdout.contains("from Ada"), "\(listed.stdout)")
        let accept = try Binaries.cli(["event", "accept", "invite-fest"], home: bob, server: server.url)
        #expect(accept.status == 0 && accept.stdout.contains("You organize invite-fest now"), "\(accept.stderr)")
        let after = try Binaries.cli(["event", "growth", "invite-fest"], home: bob, server: server.url)
        #expect(after.status == 0, "\(after.stderr)")
        let again = try Binaries.cli(["event", "accept", "invite-fest", "--decline"], home: bob, server: server.url)
        #expect(again.status == 65 && again.stderr.contains("unknown_invitation"), "\(again.stderr)")
    }

    /// `event invite SLUG` prints a link and its code; `event accept --code` takes either, once;
    /// `event invitations SLUG` lists and withdraws; `event organizers`; `event step-down` asks for
    /// `--yes`, and the last organizer cannot.
    @Test func anInvitationLinkIsGivenAcceptedOnceAndAnOrganizerStepsDown() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let (ada, bob, cleo) = try workspace.homes("ada-links", "bob-link", "cleo-late")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        _ = try workspace.register("Bob", home: bob, server: server.url)
        _ = try workspace.register("Cleo", home: cleo, server: server.url)
        _ = try workspace.createEvent("Link Fest", slug: "link-fest", home: ada, server: server.url)
        let made = try Binaries.cli(["event", "invite", "link-fest", "--json"], home: ada, server: server.url)
        #expect(made.status == 0, "\(made.stderr)")
        let issued = try JSONDecoder.constellation.decode(IssuedInvitationLink.self, from: Data(made.stdout.utf8))
        let listed = try Binaries.cli(["event", "invitations", "link-fest"], home: ada, server: server.url)
        #expect(listed.status == 0 && listed.stdout.contains(issued.invitation.id.uuidString.lowercased()), "\(listed.stdout)")

        let accepted = try Binaries.cli(["event", "accept", "--code", issued.link], home: bob, server: server.url)
        #expect(accepted.status == 0 && accepted.stdout.contains("You organize Link Fest now (invited by Ada)"), "\(accepted.stderr)")
        let twice = try Binaries.cli(["event", "accept", "--code", issued.code], home: cleo, server: server.url)
        #expect(twice.status == 65 && twice.stderr.contains("invitation_used"), "\(twice.stderr)")
        let organizers = try Binaries.cli(["event", "organizers", "link-fest"], home: bob, server: server.url)
        #expect(
            organizers.status == 0 && organizers.stdout.contains("Ada") && organizers.stdout.contains("Bob (you)"), "\(organizers.stdout)")

        // Withdrawn before anyone used it.
        let second = try Binaries.cli(["event", "invite", "link-fest", "--json"], home: ada, server: server.url)
        let withdrawn = try JSONDecoder.constellation.decode(IssuedInvitationLink.self, from: Data(second.stdout.utf8))
        let withdraw = try Binaries.cli(
            ["event", "invitations", "link-fest", "--withdraw", withdrawn.invitation.id.uuidString], home: ada, server: server.url)
        #expect(withdraw.status == 0, "\(withdraw.stderr)")
        let late = try Binaries.cli(["event", "accept", "--code", withdrawn.code, "--decline"], home: cleo, server: server.url)
        #expect(late.status == 65 && late.stderr.contains("invitation_withdrawn"), "\(late.stderr)")

        let unasked = try Binaries.cli(["event", "step-down", "link-fest"], home: bob, server: server.url)
        #expect(unasked.status == 64 && unasked.stderr.contains("walls and live pages go dark"), "\(unasked.stderr)")
        let steps = try Binaries.cli(["event", "step-down", "link-fest", "--yes"], home: bob, server: server.url)
        #expect(steps.status == 0 && steps.stdout.contains("still an attendee"), "\(steps.stderr)")
        let last = try Binaries.cli(["event", "step-down", "link-fest", "--yes"], home: ada, server: server.url)
        #expect(last.status == 65 && last.stderr.contains("last_organizer"), "\(last.stderr)")
    }

    /// `event purge-date` shows and moves the date within its bounds; `event leave` for an
    /// attendee, not an organizer; `event purge` asks for `--yes`, waits for the event's end, then
    /// purges: the summary is refused, `event record` still answers.
    @Test func anOrganizerMovesThePurgeDateAndPurgesAnAttendeeLeaves() async throws {
        let databaseURL = try await TestDatabase.createEmpty()
        let server = try ServerProcess(
            databaseURL: databaseURL, dataDirectory: workspace.serverData,
            environment: ["CONSTELLATION_OFFLINE_GRACE_SECONDS": "0", "CONSTELLATION_PURGE_INTERVAL_SECONDS": "1"])
        defer { _ = server.stop() }
        let (ada, bob) = try workspace.homes("ada-purges", "bob-leaves")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        _ = try workspace.register("Bob", home: bob, server: server.url)
        let created = try workspace.createEvent("Purge Fest", slug: "purge-fest", home: ada, server: server.url)
        let join = ["event", "join", "purge-fest", "--code", created.joinCode]

        let shown = try Binaries.cli(["event", "purge-date", "purge-fest"], home: ada, server: server.url)
        #expect(shown.status == 0 && shown.stdout.contains("are purged on ") && shown.stdout.contains("--set DATE"), "\(shown.stderr)")
        let early = try Binaries.cli(["event", "purge-date", "purge-fest", "--set", "2020-01-01T00:00"], home: ada, server: server.url)
        #expect(early.status == 65 && early.stderr.contains("validation_failed"), "\(early.stderr)")
        let moved = try Binaries.cli(
            [
                "event", "purge-date", "purge-fest", "--set", Date().addingTimeInterval(9 * 86_400).formatted(Date.ISO8601FormatStyle()),
                "--json",
            ], home: ada, server: server.url)
        #expect(moved.status == 0, "\(moved.stderr)")

        #expect(try Binaries.cli(join, home: bob, server: server.url).status == 0)
        let notAsked = try Binaries.cli(["event", "purge-date", "purge-fest"], home: bob, server: server.url)
        #expect(notAsked.status == 65 && notAsked.stderr.contains("not_an_organizer"), "\(notAsked.stderr)")
        let leaves = try Binaries.cli(["event", "leave", "purge-fest"], home: bob, server: server.url)
        #expect(leaves.status == 0 && leaves.stdout.contains("Your connections stay"), "\(leaves.stderr)")
        let stays = try Binaries.cli(["event", "leave", "purge-fest"], home: ada, server: server.url)
        #expect(stays.status == 65 && stays.stderr.contains("step down first"), "\(stays.stderr)")

        let unasked = try Binaries.cli(["event", "purge", "purge-fest"], home: ada, server: server.url)
        #expect(unasked.status == 64 && unasked.stderr.contains("--yes"), "\(unasked.stderr)")
        let running = try Binaries.cli(["event", "purge", "purge-fest", "--yes"], home: ada, server: server.url)
        #expect(running.status == 65 && running.stderr.contains("event_not_over"), "\(running.stderr)")
        let database = Database(conninfo: databaseURL, maximumConnections: 1, logger: TestDatabase.logger)
        _ = try await database.withConnection { try $0.query("UPDATE events SET ends_at = now() WHERE slug = 'purge-fest'") }
        await database.shutdown()
        let purged = try Binaries.cli(["event", "purge", "purge-fest", "--yes"], home: ada, server: server.url)
        #expect(purged.status == 0 && purged.stdout.contains("Purge Fest is purged"), "\(purged.stderr)")
        let summary = try Binaries.cli(["event", "summary", "purge-fest"], home: ada, server: server.url)
        #expect(summary.status == 65 && summary.stderr.contains("event_purged"), "\(summary.stderr)")
        let record = try Binaries.cli(["event", "record", "purge-fest"], home: ada, server: server.url)
        #expect(record.status == 0 && record.stdout.contains("purged; the figures as its purge kept them"), "\(record.stderr)")
        let rejoin = try Binaries.cli(join, home: bob, server: server.url)
        #expect(rejoin.status != 0 && rejoin.stderr.contains("event_purged"), "\(rejoin.stderr)")
    }

    /// A newcomer joins as they register (`register --event --code`); an organizer's
    /// `event rotate-code` shuts the old code out of both doors at once, and `event code` shows the new one.
    @Test func newcomersJoinAsTheyRegisterAndARotatedCodeShutsTheDoor() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let (olga, nina, late) = try workspace.homes("olga-rotates", "nina-newcomer", "late-newcomer")
        _ = try workspace.register("Olga", home: olga, server: server.url)
        let created = try workspace.createEvent("Door Fest", slug: "door-fest", home: olga, server: server.url)
        let registered = try Binaries.cli(
            ["register", "--name", "Nina", "--event", "door-fest", "--code", created.joinCode], home: nina, server: server.url)
        #expect(registered.status == 0 && registered.stdout.contains("You joined Door Fest as an attendee."), "\(registered.stderr)")
        let asNow = try Binaries.cli(["event", "visibility", "door-fest"], home: nina, server: server.url)
        #expect(asNow.status == 0 && asNow.stdout.contains("see you by a pseudonym"), "\(asNow.stdout)\(asNow.stderr)")
        let named = try Binaries.cli(["event", "visibility", "door-fest", "named", "--json"], home: nina, server: server.url)
        #expect(named.status == 0 && named.stdout.filter { !$0.isWhitespace }.contains("\"visibility\":\"named\""), "\(named.stderr)")
        let wrong = try Binaries.cli(["event", "visibility", "door-fest", "famous"], home: nina, server: server.url)
        #expect(wrong.status == 64, "\(wrong.stderr)")
        let half = try Binaries.cli(["register", "--name", "Half", "--event", "door-fest"], home: late, server: server.url)
        #expect(half.status == 64 && half.stderr.contains("--event and --code together"), "\(half.stderr)")
        let rotated = try Binaries.cli(["event", "rotate-code", "door-fest", "--json"], home: olga, server: server.url)
        #expect(rotated.status == 0, "\(rotated.stderr)")
        let newCode = try JSONDecoder.constellation.decode(EventJoinCode.self, from: Data(rotated.stdout.utf8)).joinCode
        #expect(newCode != created.joinCode)
        let notOrganizer = try Binaries.cli(["event", "rotate-code", "door-fest"], home: nina, server: server.url)
        #expect(notOrganizer.status == 65 && notOrganizer.stderr.contains("not_an_organizer"), "\(notOrganizer.stderr)")
        let shown = try Binaries.cli(["event", "code", "door-fest"], home: olga, server: server.url)
        #expect(shown.status == 0 && shown.stdout.contains("Join code: \(newCode)"), "\(shown.stdout)\(shown.stderr)")
        #expect(shown.stdout.contains("Join link: \(server.url)/#join=door-fest&code=\(newCode)"), "\(shown.stdout)")
        let hidden = try Binaries.cli(["event", "code", "door-fest"], home: nina, server: server.url)
        #expect(hidden.status == 65 && hidden.stderr.contains("not_an_organizer"), "\(hidden.stderr)")
        let stale = try Binaries.cli(
            ["register", "--name", "Late", "--event", "door-fest", "--code", created.joinCode], home: late, server: server.url)
        #expect(stale.status == 65 && stale.stderr.contains("invalid_join_code"), "\(stale.stderr)")
        let fresh = try Binaries.cli(
            ["register", "--name", "Late", "--event", "door-fest", "--code", newCode, "--json"], home: late, server: server.url)
        #expect(fresh.status == 0 && fresh.stdout.contains("\"eventId\""), "\(fresh.stderr)")
    }

    @Test func createJoinShowAndScanAtAnEvent() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let (ada, bob, cleo) = try workspace.homes("ada", "bob", "cleo")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        _ = try workspace.register("Bob", home: bob, server: server.url)
        _ = try workspace.register("Cleo", home: cleo, server: server.url)
        let now = Date()
        let iso = Date.ISO8601FormatStyle()

        let create = try Binaries.cli(
            [
                "event", "create", "--name", "RustConf", "--slug", "rustconf-2026",
                "--starts", now.addingTimeInterval(-3600).formatted(iso),
                "--ends", now.addingTimeInterval(8 * 3600).formatted(iso),
                "--time-zone", "Europe/Paris", "--json",
            ], home: ada, server: server.url)
        #expect(create.status == 0, "\(create.stderr)")
        let created = try JSONDecoder.constellation.decode(CreatedEvent.self, from: Data(create.stdout.utf8))
        #expect(created.event.slug == "rustconf-2026" && created.joinCode.count == 9)

        // A local time is read in the event's time zone; the text answer shows the code once.
        let local = try Binaries.cli(
            [
                "event", "create", "--name", "Meetup", "--slug", "paris-meetup", "--starts", "2026-05-01T09:00",
                "--ends", "2026-05-01T18:30", "--time-zone", "Europe/Paris",
            ], home: ada, server: server.url)
        #expect(local.status == 0, "\(local.stderr)")
        #expect(local.stdout.contains("Join code: ") && local.stdout.contains("2026-05-01 09:00 – 2026-05-01 18:30 Europe/Paris"))
        let shown = try Binaries.cli(["event", "show", "paris-meetup", "--json"], home: cleo, server: server.url)
        let meetup = try JSONDecoder.constellation.decode(Event.self, from: Data(shown.stdout.utf8))
        #expect(meetup.startsAt.formatted(iso) == "2026-05-01T07:00:00Z", "09:00 in Paris in May is 07:00 UTC")
        let text = try Binaries.cli(["event", "show", "rustconf-2026"], home: cleo, server: server.url)
        #expect(text.status == 0 && text.stdout.hasPrefix("RustConf (rustconf-2026)\n"))

        // Bob joins with the code as he typed it; a wrong code is bad data (65) and the server's reason.
        let wrong = try Binaries.cli(["event", "join", "rustconf-2026", "--code", "AAAA-AAAA"], home: bob, server: server.url)
        #expect(wrong.status == 65 && wrong.stderr.contains("invalid_join_code"), "\(wrong.stderr)")
        let join = try Binaries.cli(
            ["event", "join", "rustconf-2026", "--code", created.joinCode.lowercased()], home: bob, server: server.url)
        #expect(join.status == 0 && join.stdout.contains("You are an attendee of RustConf"), "\(join.stderr)")

        // Cleo is no member: no event code for her. Bob's event code makes her one when she scans it.
        let refused = try Binaries.cli(["show", "--event", "rustconf-2026", "--token"], home: cleo, server: server.url)
        #expect(refused.status == 65 && refused.stderr.contains("not_a_member"), "\(refused.stderr)")
        let token = try Binaries.cli(["show", "--event", "rustconf-2026", "--token"], home: bob, server: server.url)
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let scan = try Binaries.cli(["scan", token, "--json"], home: cleo, server: server.url)
        #expect(scan.status == 0, "\(scan.stderr)")
        let redemption = try JSONDecoder.constellation.decode(Redemption.self, from: Data(scan.stdout.utf8))
        #expect(redemption.connection.eventId == created.event.id)
        let cleoToken = try Binaries.cli(["show", "--event", "rustconf-2026", "--token"], home: cleo, server: server.url)
        #expect(cleoToken.status == 0, "now an attendee, Cleo has an event code too: \(cleoToken.stderr)")

        // Bad input: the server's words (65), or the CLI's own usage error (64).
        let badSlug = try Binaries.cli(
            [
                "event", "create", "--name", "X", "--slug", "Bad_Slug", "--starts", "2026-05-01T09:00",
                "--ends", "2026-05-01T10:00",
            ], home: ada, server: server.url)
        #expect(badSlug.status == 65 && badSlug.stderr.contains("slug"), "\(badSlug.stderr)")
        let badDate = try Binaries.cli(
            [
                "event", "create", "--name", "X", "--slug", "ok-slug", "--starts", "tomorrow",
                "--ends", "2026-05-01T10:00",
            ], home: ada, server: server.url)
        #expect(badDate.status == 64 && badDate.stderr.contains("--starts"), "\(badDate.stderr)")
        let missing = try Binaries.cli(["event", "show", "no-such-event"], home: ada, server: server.url)
        #expect(missing.status == 65 && missing.stderr.contains("unknown_event"), "\(missing.stderr)")
    }

    @Test func organizerInsights() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let (ada, bob, cleo) = try workspace.homes("ada", "bob", "cleo")
        let ids = [
            try workspace.register("Ada", home: ada, server: server.url), try workspace.register("Bob", home: bob, server: server.url),
            try workspace.register("Cleo", home: cleo, server: server.url),
        ]
        let now = Date()
        let iso = Date.ISO8601FormatStyle()
        let create = try Binaries.cli(
            [
                "event", "create", "--name", "GopherCon", "--slug", "gophercon", "--starts",
                now.addingTimeInterval(-3600).formatted(iso), "--ends", now.addingTimeInterval(8 * 3600).formatted(iso),
                "--time-zone", "Europe/Paris", "--json",
            ], home: ada, server: server.url)
        let code = try JSONDecoder.constellation.decode(CreatedEvent.self, from: Data(create.stdout.utf8)).joinCode
        for home in [bob, cleo] {
            let join = try Binaries.cli(["event", "join", "gophercon", "--code", code], home: home, server: server.url)
            #expect(join.status == 0, "\(join.stderr)")
        }
        // Bob scans Ada's event code, Cleo scans Bob's: three people, two connections.
        for (shower, scanner) in [(ada, bob), (bob, cleo)] {
            let token = try Binaries.cli(["show", "--event", "gophercon", "--token"], home: shower, server: server.url)
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let scan = try Binaries.cli(["scan", token], home: scanner, server: server.url)
            #expect(scan.status == 0, "\(scan.stderr)")
        }

        let csv = try Binaries.cli(["event", "growth", "gophercon", "--bucket", "5m", "--csv"], home: ada, server: server.url)
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdout.split(whereSeparator: \.isNewline).map { $0.split(separator: ",").map(String.init) }
        #expect(
            rows.first == ["start", "new_connections", "new_people", "cumulative_people", "cumulative_connections", "largest_component"])
        let buckets = rows.dropFirst()
        #expect(buckets.allSatisfy { $0.count == 6 && (try? iso.parse($0[0])) != nil && $0[0].hasSuffix("Z") }, "\(csv.stdout)")
        #expect(buckets.map { Int($0[1]) ?? -1 }.reduce(0, +) == 2 && buckets.map { Int($0[2]) ?? -1 }.reduce(0, +) == 3)
        #expect(buckets.last.map { [$0[3], $0[4], $0[5]] } == ["3", "2", "3"], "\(csv.stdout)")

        let growth = try Binaries.cli(
            ["event", "growth", "gophercon", "--bucket", "5m"], home: ada, server: server.url,
            environment: ["COLUMNS": "80"])
        #expect(growth.status == 0, "\(growth.stderr)")
        let lines = growth.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 3 && lines.allSatisfy { $0.count <= 80 }, "\(growth.stdout)")
        #expect(growth.stdout.contains("█") && growth.stdout.contains("3 people, 2 connections"), "\(growth.stdout)")

        let summary = try Binaries.cli(["event", "summary", "gophercon", "--json"], home: ada, server: server.url)
        #expect(summary.status == 0, "\(summary.stderr)")
        let figures = try JSONDecoder.constellation.decode(EventSummary.self, from: Data(summary.stdout.utf8))
        #expect(figures.people == 3 && figures.connections == 2)
        #expect(figures.joinedLastHour == figures.attendees, "everyone joined just now: \(figures)")
        let table = try Binaries.cli(["event", "summary", "gophercon"], home: ada, server: server.url)
        #expect(table.status == 0 && table.stdout.contains("Top by degree") && table.stdout.contains("Europe/Paris"), "\(table.stdout)")
        #expect(table.stdout.contains("Joined              \(figures.joinedLastHour) in the last hour"), "\(table.stdout)")

        let svg = workspace.root.appendingPathComponent("gophercon.svg")
        let view = try Binaries.cli(["event", "view", "gophercon", "--json", "--svg", svg.path], home: ada, server: server.url)
        #expect(view.status == 0, "\(view.stderr)")
        let network = try JSONDecoder.constellation.decode(EventNetwork.self, from: Data(view.stdout.utf8))
        #expect(network.nodes.count == 3 && network.edges.count == 2)
        #expect(ids.allSatisfy { !view.stdout.lowercased().contains($0.uuidString.lowercased()) }, "no profile id in an event's network")
        #expect(((try? String(contentsOf: svg, encoding: .utf8)) ?? "").hasPrefix("<svg"))
        let picture = try Binaries.cli(["event", "view", "gophercon"], home: ada, server: server.url, environment: ["COLUMNS": "80"])
        #expect(picture.status == 0 && picture.stdout.contains("3 people, 2 links"), "\(picture.stdout)\(picture.stderr)")

        let gexf = try Binaries.cli(["event", "export", "gophercon", "--format", "gexf"], home: ada, server: server.url)
        #expect(gexf.status == 0 && gexf.stdout.contains("<gexf"), "\(gexf.stderr)")
        let file = workspace.root.appendingPathComponent("gophercon.csv")
        let export = try Binaries.cli(
            ["event", "export", "gophercon", "--format", "csv", "--output", file.path], home: ada, server: server.url)
        #expect(export.status == 0 && export.stdout.isEmpty, "\(export.stderr)")
        #expect(FileManager.default.fileExists(atPath: file.path))

        // An attendee is refused in plain words, exit 65 like the server's other refusals.
        let refused = try Binaries.cli(["event", "summary", "gophercon"], home: bob, server: server.url)
        #expect(
            refused.status == 65 && refused.stderr.contains("you do not organize gophercon")
                && refused.stderr.contains("not_an_organizer"), "\(refused.stderr)")
    }
}
