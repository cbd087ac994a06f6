import Foundation
import Store

/// The rules on stored values that the schema cannot hold, checked by the code that checks a
/// request: a restore asks every restored row, so that a backup cannot bring in what the API
/// refuses (the schema's `CHECK`s hold the rest, `migrations/0022_stored_values_keep_the_rules.sql`).
package enum StoredValueRules {
    /// The rules, with the settings they depend on: `eventHorizon`, how far ahead an event may
    /// start (`CONSTELLATION_EVENT_HORIZON_DAYS`).
    package static func all(eventHorizon: Duration) -> [StoredValueRule] {
        let days = eventHorizon.components.seconds / 86_400
        let atMostADayAfterNow = { @Sendable (date: Date) in date <= Date().addingTimeInterval(86_400) }
        return [
            StoredValueRule(table: "events", key: "id", column: "time_zone", rule: "an IANA time zone this server knows") {
                (try? EventFields.timeZone($0)) != nil
            },
            // The schema bounds an event's purge date, and an invitation link's expiry, from its
            // creation: a creation in the future would stretch them.
            StoredValueRule(
                table: "events", key: "id", column: "created_at", rule: "created at most a day after now",
                acceptsDate: atMostADayAfterNow),
            StoredValueRule(
                table: "organizer_invitation_links", key: "id", column: "created_at", rule: "made at most a day after now",
                acceptsDate: atMostADayAfterNow),
            // The API's horizon is from the creation (`EventFields.startsAt`), which is never after
            // now: an event the API let through starts at most the horizon after now, and one dated
            // far ahead (its data kept as long beyond the purge rules) is refused.
            StoredValueRule(
                table: "events", key: "id", column: "starts_at", rule: "starts at most \(days) days after now",
                acceptsDate: { date in (try? EventFields.startsAt(date, within: eventHorizon, of: Date())) != nil }),
        ]
    }
}
