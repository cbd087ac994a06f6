import ConstellationModel
import Foundation

extension ProfileRepository {
    /// `profile`'s contact card, every entry with its audience, in its order; nil when there is no such profile.
    public func card(of profile: UUID) async throws -> ContactCard? {
        try await database.withTransaction(readOnly: true) { connection in
            guard try !connection.query("SELECT 1 FROM profiles WHERE id = \(profile)").isEmpty else { return nil }
            return ContactCard(entries: try Self.card(of: profile, on: connection))
        }
    }

    /// Replaces `profile`'s contact card with `entries` (checked), in one transaction, once
    /// `precondition` has accepted the card as it is (it throws to refuse: nothing changes); nil
    /// when there is no such profile.
    public func replaceCard(
        of profile: UUID, with entries: [ContactEntry], if precondition: @escaping @Sendable (ContactCard) throws -> Void = { _ in }
    ) async throws -> ContactCard? {
        try await database.withTransaction { connection in
            // Locks the profile against a concurrent replacement or erasure.
            guard try !connection.query("SELECT 1 FROM profiles WHERE id = \(profile) FOR UPDATE").isEmpty else { return nil }
            try precondition(ContactCard(entries: try Self.card(of: profile, on: connection)))
            _ = try connection.query("DELETE FROM contact_entries WHERE profile_id = \(profile) RETURNING position")
            for (position, entry) in entries.enumerated() {
                _ = try connection.query(
                    """
                    INSERT INTO contact_entries (profile_id, position, kind, label, value, audience)
                    VALUES (\(profile), \(position), \(entry.kind.rawValue), \(entry.label), \(entry.value),
                            \((entry.audience ?? .nobody).rawValue))
                    RETURNING position
                    """)
            }
            return ContactCard(entries: try Self.card(of: profile, on: connection))
        }
    }

    /// Every entry of `profile`'s card, with its audience, in the caller's transaction.
    static func card(of profile: UUID, on connection: PostgresConnection) throws(PostgresError) -> [ContactEntry] {
        try connection.query(
            "SELECT kind, label, value, audience FROM contact_entries WHERE profile_id = \(profile) ORDER BY position"
        ).map { row throws(PostgresError) in
            ContactEntry(
                kind: try Self.decode(ContactEntry.Kind.self, row, "kind"), label: try row.optionalString("label"),
                value: try row.string("value"), audience: try Self.decode(ContactEntry.Audience.self, row, "audience"))
        }
    }

    /// What each of `peers` shares with their connections (the entries for `connections`, without
    /// the audience), by profile: for the lists of someone connected with them.
    static func sharedCards(of peers: [UUID], on connection: PostgresConnection) throws(PostgresError) -> [UUID: [ContactEntry]] {
        guard !peers.isEmpty else { return [:] }
        var cards: [UUID: [ContactEntry]] = [:]
        for row in try connection.query(
            """
            SELECT profile_id, kind, label, value FROM contact_entries
            WHERE profile_id = ANY(\(peers)) AND audience = 'connections' ORDER BY profile_id, position
            """)
        {
            cards[try row.uuid("profile_id"), default: []].append(
                ContactEntry(
                    kind: try Self.decode(ContactEntry.Kind.self, row, "kind"), label: try row.optionalString("label"),
                    value: try row.string("value")))
        }
        return cards
    }

    /// A shared card written by PostgreSQL as `json_agg(json_build_array(kind, label, value))`: the
    /// entries in order, none for NULL.
    static func sharedCard(json text: String?) throws(PostgresError) -> [ContactEntry] {
        guard let text else { return [] }
        guard let rows = try? JSONDecoder().decode([[String?]].self, from: Data(text.utf8)) else {
            throw PostgresError(.decoding, message: "a shared card is not JSON rows")
        }
        return try rows.map { row throws(PostgresError) in
            guard row.count == 3, let kindText = row[0], let kind = ContactEntry.Kind(rawValue: kindText), let value = row[2] else {
                throw PostgresError(.decoding, message: "a shared card entry is not [kind, label, value]")
            }
            return ContactEntry(kind: kind, label: row[1], value: value)
        }
    }

    private static func decode<Value: RawRepresentable>(_ type: Value.Type, _ row: Row, _ column: String) throws(PostgresError) -> Value
    where Value.RawValue == String {
        let text = try row.string(column)
        guard let value = Value(rawValue: text) else { throw PostgresError(.decoding, message: "\(column) '\(text)' is unknown") }
        return value
    }
}

extension [Connection] {
    /// These connections, each with what its peer shares with their connections, read on `connection`.
    func withSharedCards(on connection: PostgresConnection) throws(PostgresError) -> [Connection] {
        let cards = try ProfileRepository.sharedCards(of: map(\.peer.id), on: connection)
        return map { item in
            var shown = item
            shown.card = cards[item.peer.id] ?? []
            return shown
        }
    }
}
