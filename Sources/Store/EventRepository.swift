import ConstellationModel
import Foundation

/// How a request names an event: by id or by slug.
public enum EventReference: Sendable, Equatable {
    case id(UUID)
    case slug(String)

    /// A path segment or a body field: a UUID is an id, anything else a slug (slugs are lower
    /// case, so `RustConf-2026` finds `rustconf-2026`). Slugs never have the shape of a UUID.
    public init(_ text: String) {
        if let id = UUID(uuidString: text) { self = .id(id) } else { self = .slug(text.lowercased()) }
    }

    /// Whether an event could have this reference: an id, or a slug's letters (at most 64 ASCII
    /// letters, digits and hyphens). Anything else names no event and is not sent to the database.
    var canNameAnEvent: Bool {
        switch self {
        case .id: true
        case .slug(let slug):
            slug.utf8.count <= 64 && slug.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
        }
    }

    /// The condition that picks the event from `events e`.
    var condition: SQL {
        switch self {
        case .id(let id): "e.id = \(id)"
        case .slug(let slug): "e.slug = \(slug)"
        }
    }
}

/// Events, their members and roles, and their join codes (the rotation each is derived from).
public struct EventRepository: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Creates the event, its join code at rotation 0, and makes `organizer` its organizer, in one transaction.
    /// - Parameter id: the new event's id (its join code is derived from it).
    /// - Parameter purgeOn: when its personal data goes.
    public func create(
        id: UUID, slug: String, name: String, startsAt: Date, endsAt: Date, timeZone: String, purgeOn: Date, organizer: UUID
    ) async throws -> Event {
        try await database.withTransaction { connection in
            try Self.insert(
                id: id, slug: slug, name: name, startsAt: startsAt, endsAt: endsAt, timeZone: timeZone, purgeOn: purgeOn,
                organizer: organizer, on: connection)
        }
    }

    /// Inserts the event (its join code at rotation 0) and its organizer's membership, in the
    /// caller's transaction; `slugTaken` when another event has the slug.
    static func insert(
        id: UUID, slug: String, name: String, startsAt: Date, endsAt: Date, timeZone: String, purgeOn: Date, organizer: UUID,
        on connection: PostgresConnection
    ) throws -> Event {
        let rows: [Row]
        do {
            rows = try connection.query(
                """
                WITH e AS (
                    INSERT INTO events (id, slug, name, starts_at, ends_at, time_zone, purge_on, join_code_rotation)
                    VALUES (\(id), \(slug), \(name), \(startsAt), \(endsAt), \(timeZone), \(purgeOn), 0)
                    RETURNING *)
                SELECT \(Event.columns) FROM e
                """)
        } catch {
            // A catch-all: `catch … where error.isUniqueViolation` here crashes Swift 6.3.1's
            // MandatoryAllocBoxToStack pass.
            throw error.isUniqueViolation ? StoreError.slugTaken : error
        }
        let event = try Event(row: rows[0])
        try connection.query(
            """
            INSERT INTO event_members (event_id, profile_id, role) VALUES (\(event.id), \(organizer), \(EventRole.organizer))
            """)
        return event
    }

    /// The event `reference` names, and `viewer`'s role there (nil: not a member, or no viewer).
    public func event(_ reference: EventReference, viewer: UUID? = nil) async throws -> (event: Event, role: EventRole?)? {
        try await eventAndChoices(reference, viewer: viewer).map { ($0.event, $0.role) }
    }

    /// As `event(_:viewer:)`, with the revision of its members' choices (`choices_revision`,
    /// migration 0028: it moves when a member hides or leaves), which whoever shares what shows its
    /// people compares with the one that was made under.
    public func eventAndChoices(_ reference: EventReference, viewer: UUID? = nil) async throws -> (
        event: Event, role: EventRole?, choicesRevision: Int64
    )? {
        guard reference.canNameAnEvent else { return nil }
        return try await database.withConnection { connection in
            guard
                let row = try connection.query(
                    """
                    SELECT \(Event.columns), m.role, e.choices_revision FROM events e
                    LEFT JOIN event_members m ON m.event_id = e.id AND m.profile_id = \(viewer)
                    WHERE \(reference.condition)
                    """
                ).first
            else { return nil }
            return (
                try Event(row: row), try row.optionalString("role") == nil ? nil : EventRole(row: row), try row.int("choices_revision")
            )
        }
    }

    /// The event's members, organizers first, then by when they joined.
    public func members(of event: UUID) async throws -> [EventMember] {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT event_id, profile_id, role, joined_at FROM event_members WHERE event_id = \(event)
                ORDER BY role = 'organizer' DESC, joined_at, profile_id
                """
            ).map(EventMember.init(row:))
        }
    }

    /// Replaces the event's join code by the next rotation's, if `caller` organizes it: the old code
    /// stops working at once (an event made before codes were derived gets its first derived one).
    /// Two rotations at once are one after the other: each returns its own, the later one stays.
    public func rotateJoinCode(of event: UUID, by caller: UUID) async throws -> Int {
        try await database.withTransaction { connection in
            try Self.requireOrganizer(caller, of: event, on: connection)
            return Int(
                try connection.query(
                    """
                    UPDATE events SET join_code_rotation = coalesce(join_code_rotation + 1, 0), join_code_hash = NULL
                    WHERE id = \(event) RETURNING join_code_rotation
                    """)[0].int("join_code_rotation"))
        }
    }

    /// The rotation `event`'s join code is derived from; nil for an event made before codes were
    /// derived, whose code only its hash records (or for no such event).
    public func joinCodeRotation(of event: UUID) async throws -> Int? {
        try await database.withConnection { connection in
            try connection.query("SELECT join_code_rotation FROM events WHERE id = \(event)").first.flatMap { row throws(PostgresError) in
                try row.optionalInt("join_code_rotation")
            }
        }
    }

    /// Makes `profile` an attendee of `event` if `code` is its current join code;
    /// a member already keeps their role. `joined` is false when they were a member already.
    public func join(_ event: UUID, profile: UUID, code: JoinCodeAttempt) async throws -> (membership: MyEvent, joined: Bool) {
        try await database.withTransaction { connection in
            let found = try Self.checkJoinCode(code, of: event, on: connection)
            return try Self.join(found, profile: profile, on: connection)
        }
    }

    /// Whether `code` is `event`'s join code now; nil when there is no such event. Reads only: nobody joins.
    public func joinCodeMatches(_ code: JoinCodeAttempt, of event: UUID) async throws -> Bool? {
        try await database.withConnection { connection in
            try connection.query(
                "SELECT \(JoinCodeAttempt.columns(comparingWith: code)) FROM events e WHERE e.id = \(event)"
            ).first.map { row throws(PostgresError) in try code.matches(row) }
        }
    }

    /// The event, if `code` is its join code: `unknownEvent` or `invalidJoinCode` else. FOR SHARE:
    /// a rotation running now either commits first (and this sees the new code) or waits.
    static func checkJoinCode(_ code: JoinCodeAttempt, of event: UUID, on connection: PostgresConnection) throws -> Event {
        guard
            let row = try connection.query(
                """
                SELECT \(Event.columns), \(JoinCodeAttempt.columns(comparingWith: code)) FROM events e
                WHERE e.id = \(event) FOR SHARE
                """
            ).first
        else { throw StoreError.unknownEvent }
        let found = try Event(row: row)
        guard found.purgedAt == nil else { throw StoreError.eventPurged }
        guard try code.matches(row) else { throw StoreError.invalidJoinCode }
        return found
    }

    /// Makes `profile` an attendee of `event` unless it is a member already (its role stays).
    static func join(_ event: Event, profile: UUID, on connection: PostgresConnection) throws -> (membership: MyEvent, joined: Bool) {
        let inserted = try connection.query(
            """
            INSERT INTO event_members (event_id, profile_id, role) VALUES (\(event.id), \(profile), \(EventRole.attendee))
            ON CONFLICT (event_id, profile_id) DO NOTHING RETURNING role, joined_at, visibility, print_badge, wall_name
            """)
        let row =
            try inserted.first
            ?? connection.query(
                """
                SELECT role, joined_at, visibility, print_badge, wall_name FROM event_members
                WHERE event_id = \(event.id) AND profile_id = \(profile)
                """)[0]
        let membership = MyEvent(
            event: event, role: try EventRole(row: row), joinedAt: try row.date("joined_at"), visibility: try EventVisibility(row: row),
            printsBadge: try row.bool("print_badge"), onWall: try row.bool("wall_name"))
        return (membership, !inserted.isEmpty)
    }

    /// A page of the events `profile` belongs to, the latest start first: at most `limit`, after
    /// `cursor` (the previous page's `next`), and the cursor of the page after it, if there is one.
    public func events(of profile: UUID, after cursor: PageCursor?, limit: Int) async throws -> (items: [MyEvent], next: PageCursor?) {
        try await database.withConnection { connection in
            PageCursor.page(try Self.events(of: profile, after: cursor, limit: limit + 1, on: connection), limit: limit)
        }
    }

    /// The events `profile` belongs to, in the caller's transaction (every one, for their personal data).
    static func events(of profile: UUID, on connection: PostgresConnection) throws(PostgresError) -> [MyEvent] {
        try events(of: profile, after: nil, limit: nil, on: connection).map(\.item)
    }

    private static func events(
        of profile: UUID, after cursor: PageCursor?, limit: Int?, on connection: PostgresConnection
    ) throws(PostgresError) -> [(item: MyEvent, cursor: PageCursor)] {
        let bound: SQL = limit.map { "LIMIT \($0)" } ?? ""
        return try connection.query(
            """
            SELECT \(Event.columns), m.role, m.joined_at, m.visibility, m.print_badge, m.wall_name, \(PageCursor.microseconds("e.starts_at")) AS start_us
            FROM event_members m JOIN events e ON e.id = m.event_id
            WHERE m.profile_id = \(profile) AND \(PageCursor.after(cursor, time: "e.starts_at", id: "e.id")) ORDER BY e.starts_at DESC, e.id DESC \(bound)
            """
        ).map { row throws(PostgresError) in
            let event = try Event(row: row)
            return (
                MyEvent(
                    event: event, role: try EventRole(row: row), joinedAt: try row.date("joined_at"),
                    visibility: try EventVisibility(row: row), printsBadge: try row.bool("print_badge"), onWall: try row.bool("wall_name")),
                PageCursor(microseconds: try row.int("start_us"), id: event.id)
            )
        }
    }

    /// Holds, until the transaction ends, the lock under which `event`'s capped lists (its organizer
    /// team, its live view links) are counted and added to, so that requests at once cannot
    /// together pass a cap. A two-key advisory lock: a space apart from the single-key locks of
    /// the migrations and the background work.
    static func lockCappedLists(of event: UUID, on connection: PostgresConnection) throws(PostgresError) {
        try connection.query("SELECT pg_advisory_xact_lock(1, hashtext(\(event)::text))")
    }

    /// Throws `notAnOrganizer` unless `profile` organizes `event`; the row stays locked (shared)
    /// until the transaction ends, so a change of role cannot slip in between.
    static func requireOrganizer(_ profile: UUID, of event: UUID, on connection: PostgresConnection) throws {
        let rows = try connection.query(
            """
            SELECT role FROM event_members WHERE event_id = \(event) AND profile_id = \(profile) FOR SHARE
            """)
        guard try rows.first.map({ row throws(PostgresError) in try EventRole(row: row) }) == .organizer else {
            throw StoreError.notAnOrganizer
        }
    }

    static func member(_ profile: UUID, of event: UUID, on connection: PostgresConnection) throws -> EventMember {
        guard
            let row = try connection.query(
                """
                SELECT event_id, profile_id, role, joined_at FROM event_members WHERE event_id = \(event) AND profile_id = \(profile)
                """
            ).first
        else { throw PostgresError(.decoding, message: "membership vanished") }
        return try EventMember(row: row)
    }
}

extension EventMember {
    init(row: Row) throws(PostgresError) {
        self.init(
            eventId: try row.uuid("event_id"), profileId: try row.uuid("profile_id"),
            role: try EventRole(row: row), joinedAt: try row.date("joined_at"))
    }
}
