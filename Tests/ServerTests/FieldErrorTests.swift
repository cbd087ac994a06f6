import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing

/// A refused field says, besides its English `detail`, which field (a JSON Pointer), which rule and
/// that rule's bounds (`errors`), so that a page says it in its own language: one case per kind of
/// rule, each through the route a person's form sends.
@Suite(.tier(.database)) struct FieldErrorTests {
    /// The first field error of the problem `body` fails with, with the problem's code.
    static func refusal(_ body: () async throws -> Void) async -> (code: String, error: FieldError?) {
        do {
            try await body()
            Issue.record("the request succeeded")
            return ("", nil)
        } catch ClientError.problem(let problem) {
            #expect(problem.errors?.count == 1, "\(problem)")
            return (problem.code, problem.errors?.first)
        } catch {
            Issue.record("\(error)")
            return ("", nil)
        }
    }

    @Test func eachRuleNamesItsFieldAndBounds() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 86_400).rounded(.down))
            func event(_ slug: String = "field-errors", startsAt: Date? = nil, endsAt: Date? = nil, zone: String = "UTC") -> NewEvent {
                NewEvent(
                    name: "Fields", slug: slug, startsAt: startsAt ?? start, endsAt: endsAt ?? start.addingTimeInterval(3600),
                    timeZone: zone)
            }

            var (code, error) = await Self.refusal { _ = try await ada.client.createEvent(event(endsAt: start.addingTimeInterval(-60))) }
            #expect(code == "validation_failed" && error == FieldError("/endsAt", .after, other: "/startsAt"))
            (code, error) = await Self.refusal {
                _ = try await ada.client.createEvent(event(endsAt: start.addingTimeInterval(40 * 86_400)))
            }
            #expect(error == FieldError("/endsAt", .after, maximum: 31, other: "/startsAt"))
            (code, error) = await Self.refusal { _ = try await ada.client.createEvent(event("Not A Slug")) }
            #expect(error == FieldError("/slug", .format, minimum: 3, maximum: 64, format: "slug"))
            (code, error) = await Self.refusal { _ = try await ada.client.createEvent(event(zone: "Mars/Olympus")) }
            #expect(error == FieldError("/timeZone", .format, format: "time_zone"))
            (code, error) = await Self.refusal {
                _ = try await ada.client.createEvent(
                    event(startsAt: Date(timeIntervalSince1970: 0), endsAt: Date(timeIntervalSince1970: 3600)))
            }
            #expect(code == "invalid_date" && error?.pointer == "/startsAt" && error?.rule == .dateRange)
            #expect(
                error?.earliest == Date(timeIntervalSince1970: 946_684_800) && error?.latest == Date(timeIntervalSince1970: 7_258_118_399))

            (code, error) = await Self.refusal {
                _ = try await ada.client.updateMe(ProfileChanges(displayName: String(repeating: "a", count: 81)))
            }
            #expect(error == FieldError("/displayName", .tooLong, maximum: 80))
            (code, error) = await Self.refusal { _ = try await ada.client.updateMe(ProfileChanges(displayName: "Ada\u{202E}")) }
            #expect(error == FieldError("/displayName", .invisibleCharacter))
            (code, error) = await Self.refusal { _ = try await ada.client.updateMe(ProfileChanges()) }
            #expect(error == FieldError("", .required, fields: ["displayName", "headline"]))

            (code, error) = await Self.refusal {
                _ = try await ada.client.replaceCard(
                    ContactCard(entries: [
                        ContactEntry(kind: .phone, value: "+4930123456"), ContactEntry(kind: .email, value: "not-an-address"),
                    ]))
            }
            #expect(error == FieldError("/entries/1/value", .format, format: "email"))

            _ = try await ada.client.createEvent(event())
            (code, error) = await Self.refusal { _ = try await ada.client.issueViewToken(for: "field-errors", screens: 0) }
            #expect(error == FieldError("/screens", .range, minimum: 1, maximum: 50))
            #expect(try await server.count("events") == 1, "nothing refused was written")
        }
    }
}
