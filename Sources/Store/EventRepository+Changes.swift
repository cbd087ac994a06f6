import ConstellationModel
import Foundation

/// What an event becomes when its organizers change it (`PATCH /v1/events/{event}`): its slug stays,
/// so that printed posters keep working.
public struct EventChanges: Sendable, Equatable {
    public var name: String
    public var startsAt: Date
    public var endsAt: Date
    public var timeZone: String
    public var purgeOn: Date
    /// Whether an organizer chose the purge date; else it is the default, and moves with the end.
    public var purgeOnChosen: Bool

    public init(name: String, startsAt: Date, endsAt: Date, timeZone: String, purgeOn: Date, purgeOnChosen: Bool) {
        self.name = name
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.timeZone = timeZone
        self.purgeOn = purgeOn
        self.purgeOnChosen = purgeOnChosen
    }
}

/// A purge date outside what an event's new end allows: the bounds it may take with that end.
public struct PurgeDateOutOfBounds: Error, Sendable, Equatable {
    public let earliest: Date
    public let latest: Date
}

extension EventRepository {
    /// Changes `event` to what `decide` makes of it as it is (and of whether its purge date was
    /// chosen), if `caller` organizes it and its purge has not begun (`notAnOrganizer`,
    /// `eventPurged`). A purge date that moves, or whose end does, must lie within `bounds` of the
    /// new end (`PurgeDateOutOfBounds`, with them). The row is held from the read to the change:
    /// organizers changing it at once change it one after the other, each deciding on the last.
    public func change(
        _ event: UUID, by caller: UUID, bounds: PurgeBounds,
        _ decide: @escaping @Sendable (_ current: Event, _ purgeOnChosen: Bool) throws -> EventChanges
    ) async throws -> Event {
        try await database.withTransaction { connection in
            try Self.requireOrganizer(caller, of: event, on: connection)
            let row = try connection.query(
                "SELECT \(Event.columns), e.purge_on_chosen FROM events e WHERE e.id = \(event) FOR NO KEY UPDATE")
            guard let row = row.first else { throw StoreError.unknownEvent }
            let current = try Event(row: row)
            guard current.purgedAt == nil else { throw StoreError.eventPurged }
            let changes = try decide(current, try row.bool("purge_on_chosen"))
            if changes.purgeOn != current.purgeOn || changes.endsAt != current.endsAt {
                let end: SQL = "\(changes.endsAt)::timestamptz"
                let limits = try connection.query(
                    """
                    SELECT \(bounds.earliest(endingAt: end)) AS earliest, \(bounds.latest(endingAt: end)) AS latest
                    FROM events e WHERE e.id = \(event)
                    """)[0]
                let (earliest, latest) = (try limits.date("earliest"), try limits.date("latest"))
                // An event that ended longer ago than the latest date allows has no date left to move
                // to (earliest, now, past latest): refused, as any date outside the bounds is.
                guard earliest <= changes.purgeOn, changes.purgeOn <= latest else {
                    throw PurgeDateOutOfBounds(earliest: earliest, latest: latest)
                }
            }
            return try Event(
                row: try connection.query(
                    """
                    UPDATE events e SET name = \(changes.name), starts_at = \(changes.startsAt), ends_at = \(changes.endsAt),
                        time_zone = \(changes.timeZone), purge_on = \(changes.purgeOn), purge_on_chosen = \(changes.purgeOnChosen)
                    WHERE e.id = \(event)
                    RETURNING \(Event.columns)
                    """)[0])
        }
    }
}
