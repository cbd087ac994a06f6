import ConstellationModel
import Foundation

/// What `GET /v1/me/connections` narrows my connections to; nil fields do not narrow.
public struct ConnectionFilter: Sendable {
    /// Text found (case-insensitively) in the person's name or headline, or my note or one of my tags.
    public var text: String?
    /// One of my tags, compared case-insensitively.
    public var tag: String?
    /// An event at which we met (first or again).
    public var eventId: UUID?

    public init(text: String? = nil, tag: String? = nil, eventId: UUID? = nil) {
        self.text = text
        self.tag = tag
        self.eventId = eventId
    }
}

extension ConnectionRepository {
    /// Sets `owner`'s note (`.some(nil)` clears it) and/or tags on their connection with `peer`;
    /// nil fields stay. The connection as `owner` sees it, or nil when they are not connected. The
    /// connection is held (FOR KEY SHARE) while the note is written: a removal under way is
    /// waited for, and then there is none.
    public func annotate(connectionWith peer: UUID, by owner: UUID, note: String??, tags: [String]?) async throws -> Connection? {
        guard owner != peer else { return nil }
        return try await database.withTransaction { connection in
            let written = try connection.query(
                """
                INSERT INTO connection_notes (connection_id, owner_id, note, tags)
                SELECT c.id, \(owner), \(note ?? nil), \(TextArray(tags ?? []))
                FROM connections c WHERE c.profile_a = LEAST(\(owner), \(peer)) AND c.profile_b = GREATEST(\(owner), \(peer))
                FOR KEY SHARE
                ON CONFLICT (owner_id, connection_id) DO UPDATE SET
                    note = CASE WHEN \(note != nil) THEN EXCLUDED.note ELSE connection_notes.note END,
                    tags = CASE WHEN \(tags != nil) THEN EXCLUDED.tags ELSE connection_notes.tags END,
                    updated_at = now()
                RETURNING connection_id
                """)
            guard let id = try written.first?.int("connection_id") else { return nil }
            return try connection.query("\(Self.annotated(of: owner)) AND c.id = \(id)").map(Connection.init(annotatedRow:))
                .withSharedCards(on: connection).first
        }
    }

    /// `SELECT … FROM` `profile`'s connections with the other person, my note and tags, and the
    /// first event's name, `WHERE` they are `profile`'s: callers add conditions with `AND`.
    static func annotated(of profile: UUID) -> SQL {
        """
        SELECT c.id, c.created_at, c.event_id, e.name AS event_name, n.note, array_to_json(n.tags)::text AS tags_json, \(Profile.columns)
        FROM connections c
        JOIN profiles p ON p.id = CASE WHEN c.profile_a = \(profile) THEN c.profile_b ELSE c.profile_a END
        LEFT JOIN connection_notes n ON n.connection_id = c.id AND n.owner_id = \(profile)
        LEFT JOIN events e ON e.id = c.event_id
        WHERE (c.profile_a = \(profile) OR c.profile_b = \(profile))
        """
    }

    /// The conditions (each starting with `AND`) that `filter` adds to `annotated(of:)`.
    static func conditions(_ filter: ConnectionFilter) -> SQL {
        var sql: SQL = ""
        if let text = filter.text {
            sql = """
                \(sql) AND (\(Self.contains("p.display_name", text)) OR \(Self.contains("p.headline", text))
                    OR \(Self.contains("n.note", text)) OR EXISTS (SELECT 1 FROM unnest(n.tags) t WHERE \(Self.contains("t", text))))
                """
        }
        if let tag = filter.tag {
            sql = """
                \(sql) AND EXISTS (SELECT 1 FROM unnest(n.tags) t WHERE lower(t COLLATE "und-x-icu") = lower(\(tag) COLLATE "und-x-icu"))
                """
        }
        if let eventId = filter.eventId {
            sql = "\(sql) AND EXISTS (SELECT 1 FROM event_connections ec WHERE ec.connection_id = c.id AND ec.event_id = \(eventId))"
        }
        return sql
    }

    /// Whether `column` contains `text`, by Unicode case folding (ICU), not only ASCII's.
    private static func contains(_ column: String, _ text: String) -> SQL {
        "strpos(lower(\(unsafeSQL: column) COLLATE \"und-x-icu\"), lower(\(text) COLLATE \"und-x-icu\")) > 0"
    }
}

extension Connection {
    /// A row of `ConnectionRepository.annotated(of:)`.
    init(annotatedRow row: Row) throws(PostgresError) {
        let tags = try row.optionalString("tags_json").flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
        self.init(
            id: try row.int("id"), peer: try Profile(row: row), connectedAt: try row.date("created_at"),
            eventId: try row.optionalUUID("event_id"), eventName: try row.optionalString("event_name"),
            note: try row.optionalString("note"), tags: tags)
    }
}

/// A `text[]` parameter: each element double-quoted, with `\` and `"` escaped, as PostgreSQL's
/// array input reads it.
struct TextArray: PostgresBindable {
    let values: [String]

    init(_ values: [String]) {
        self.values = values
    }

    static var postgresType: String { "text[]" }
    var postgresText: String {
        "{"
            + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }
}
