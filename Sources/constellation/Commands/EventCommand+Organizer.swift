import Client
import ConstellationModel
import Foundation

extension EventCommand {
    /// Runs a request only an event's organizers may make. The server's 403 `not_an_organizer`
    /// becomes a sentence naming the event, with exit 65 like every other refusal the server
    /// gives (77 is kept for missing or refused credentials, which this is not).
    static func asOrganizer<T>(of event: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ClientError where error.is(.notAnOrganizer) {
            throw CommandFailure.data(
                "you do not organize \(event): only its organizers see its join code, growth, summary, network and badge sheet "
                    + "[not_an_organizer]")
        }
    }

    /// My membership of `event` (its slug or id), or exit 65 when I am not a member.
    static func membership(of event: String, in session: Session) async throws -> MyEvent {
        guard
            let mine = try await session.client.allMyEvents().first(where: {
                $0.event.slug == event || $0.event.id.uuidString.lowercased() == event.lowercased()
            })
        else { throw CommandFailure.data("you are not a member of \(event): join it first") }
        return mine
    }

    /// A date and time in the event's time zone, as the event's other times are shown.
    static func localTime(_ date: Date, in zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
