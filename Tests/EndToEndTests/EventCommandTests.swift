import ConstellationModel
import Foundation
import Testing
import TestSupport

/// `constellation event create|join|show` and `show --event` with the real binaries.
@Suite(.serialized) struct EventCommandTests {
    let workspace = Workspace()

    @Test func createJoinShowAndScanAtAnEvent() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let ada = try workspace.home("ada"), bob = try workspace.home("bob"), cleo = try workspace.home("cleo")
        _ = try workspace.register("Ada", home: ada, server: server.url)
        _ = try workspace.register("Bob", home: bob, server: server.url)
        _ = try workspace.register("Cleo", home: cleo, server: server.url)
        let now = Date()
        let iso = Date.ISO8601FormatStyle()

        let create = try Binaries.cli(["event", "create", "--name", "RustConf", "--slug", "rustconf-2026",
                                       "--starts", now.addingTimeInterval(-3600).formatted(iso),
                                       "--ends", now.addingTimeInterval(8 * 3600).formatted(iso),
                                       "--time-zone", "Europe/Paris", "--json"], home: ada, server: server.url)
        #expect(create.status == 0, "\(create.stderr)")
        let created = try JSONDecoder.constellation.decode(CreatedEvent.self, from: Data(create.stdout.utf8))
        #expect(created.event.slug == "rustconf-2026" && created.joinCode.count == 9)

        // A local time is read in the event's time zone; the text answer shows the code once.
        let local = try Binaries.cli(["event", "create", "--name", "Meetup", "--slug", "paris-meetup", "--starts", "2026-05-01T09:00",
                                      "--ends", "2026-05-01T18:30", "--time-zone", "Europe/Paris"], home: ada, server: server.url)
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
        let join = try Binaries.cli(["event", "join", "rustconf-2026", "--code", created.joinCode.lowercased()], home: bob, server: server.url)
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
        let badSlug = try Binaries.cli(["event", "create", "--name", "X", "--slug", "Bad_Slug", "--starts", "2026-05-01T09:00",
                                        "--ends", "2026-05-01T10:00"], home: ada, server: server.url)
        #expect(badSlug.status == 65 && badSlug.stderr.contains("slug"), "\(badSlug.stderr)")
        let badDate = try Binaries.cli(["event", "create", "--name", "X", "--slug", "ok-slug", "--starts", "tomorrow",
                                        "--ends", "2026-05-01T10:00"], home: ada, server: server.url)
        #expect(badDate.status == 64 && badDate.stderr.contains("--starts"), "\(badDate.stderr)")
        let missing = try Binaries.cli(["event", "show", "no-such-event"], home: ada, server: server.url)
        #expect(missing.status == 65 && missing.stderr.contains("not_found"), "\(missing.stderr)")
    }
}
