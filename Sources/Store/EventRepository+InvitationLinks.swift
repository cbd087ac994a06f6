import ConstellationModel
import Foundation

/// Invitation links to organize an event (`migrations/0020_organizer_invitation_links.sql`): an
/// organizer makes one, whoever holds its code accepts or declines it, once. A link counts only
/// while it is unused, not withdrawn, not expired, and its inviter organizes the event; it is
/// accepted only by someone between whom and the event's organizers no block stands.
extension EventRepository {
    private static let columns: SQL = """
        l.id, l.event_id, l.invited_by, p.display_name AS inviter_name, l.created_at, l.expires_at
        """

    /// The condition on `organizer_invitation_links l` that its inviter still organizes the event.
    private static let inviterOrganizes: SQL = """
        EXISTS (SELECT 1 FROM event_members m WHERE m.event_id = l.event_id AND m.profile_id = l.invited_by AND m.role = 'organizer')
        """

    /// The condition on `organizer_invitation_links l` that a link waits for an answer: unused, not
    /// withdrawn, not expired, and its inviter organizes the event.
    static let waitingLink: SQL = """
        l.answered_at IS NULL AND l.withdrawn_at IS NULL AND l.expires_at > now() AND \(inviterOrganizes)
        """

    /// Records a new link to organize `event`, made by `caller` (who must organize it), usable once
    /// until `expiresAt`; `organizerTeamFull` past `organizerTeamLimit`. The event's links that
    /// expired over a day ago are forgotten meanwhile.
    public func createInvitationLink(to event: UUID, by caller: UUID, codeHash: [UInt8], expiresAt: Date) async throws -> InvitationLink {
        try await database.withTransaction { connection in
            try Self.requireOrganizer(caller, of: event, on: connection)
            try Self.requireRoomInTeam(of: event, on: connection)
            try connection.query(
                "DELETE FROM organizer_invitation_links WHERE event_id = \(event) AND expires_at < now() - interval '1 day'")
            return try InvitationLink(
                row: try connection.query(
                    """
                    WITH l AS (
                        INSERT INTO organizer_invitation_links (event_id, invited_by, code_hash, expires_at)
                        VALUES (\(event), \(caller), \(ByteString(codeHash)), \(expiresAt)) RETURNING *
                    )
                    SELECT \(Self.columns) FROM l JOIN profiles p ON p.id = l.invited_by
                    """)[0])
        }
    }

    /// `event`'s links that wait for an answer, newest first.
    public func invitationLinks(to event: UUID) async throws -> [InvitationLink] {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT \(Self.columns) FROM organizer_invitation_links l JOIN profiles p ON p.id = l.invited_by
                WHERE l.event_id = \(event) AND \(Self.waitingLink)
                ORDER BY l.created_at DESC, l.id
                """
            ).map(InvitationLink.init(row:))
        }
    }

    /// Withdraws `event`'s link `id` while it waits for an answer: whether it did. Whoever opens it
    /// next hears that it was withdrawn.
    public func withdrawInvitationLink(_ id: UUID, of event: UUID) async throws -> Bool {
        try await database.withConnection { connection in
            !(try connection.query(
                """
                UPDATE organizer_invitation_links SET withdrawn_at = now()
                WHERE id = \(id) AND event_id = \(event) AND answered_at IS NULL AND withdrawn_at IS NULL AND expires_at > now()
                RETURNING id
                """
            ).isEmpty)
        }
    }

    /// What the link whose code hashes to `codeHash` invites to, while it waits for an answer;
    /// else the `StoreError` that says why it does not (`invitationLinkUnknown`, `…Used`, `…Lapsed`,
    /// `…Withdrawn`, `…Expired`).
    public func invitationLink(codeHash: [UInt8]) async throws -> InvitationPreview {
        try await database.withConnection { connection in
            let rows = try connection.query(
                """
                SELECT e.id AS event_id, e.slug, e.name, e.purged_at IS NOT NULL AS purged, p.display_name AS inviter_name,
                       l.expires_at, \(Self.state)
                FROM organizer_invitation_links l JOIN events e ON e.id = l.event_id JOIN profiles p ON p.id = l.invited_by
                WHERE l.code_hash = \(ByteString(codeHash))
                """)
            guard let row = rows.first else { throw StoreError.invitationLinkUnknown }
            // From the purge's mark on, a look names nobody, before the purge removes the link.
            if try row.bool("purged") { throw StoreError.eventPurged }
            try Self.requireWaiting(row)
            return InvitationPreview(
                eventId: try row.uuid("event_id"), eventSlug: try row.string("slug"), eventName: try row.string("name"),
                invitedByName: try row.string("inviter_name"), expiresAt: try row.date("expires_at"))
        }
    }

    /// What came of answering an invitation link.
    public enum LinkAnswer: Sendable, Equatable {
        /// Accepted: the answerer organizes the event now (an attendee is promoted).
        case accepted(EventMember)
        /// The answerer organized the event already: the link stays unused, for whom it was meant.
        case organizesAlready(EventMember)
        /// Declined: the link is used up, and nothing else changed.
        case declined
    }

    /// Answers the link whose code hashes to `codeHash` for `profile`, in one transaction that
    /// locks the link (of two answers at once, the second finds it used): accepting makes them an
    /// organizer, and `StoreError.blocked` (writing nothing) when a block stands between them and
    /// any of the event's organizers; declining uses the link up.
    public func answerInvitationLink(codeHash: [UInt8], profile: UUID, accept: Bool) async throws -> LinkAnswer {
        try await database.withTransaction { connection in
            let rows = try connection.query(
                """
                SELECT l.id, l.event_id, \(Self.state) FROM organizer_invitation_links l
                WHERE l.code_hash = \(ByteString(codeHash)) FOR UPDATE
                """)
            guard let link = rows.first else { throw StoreError.invitationLinkUnknown }
            try Self.requireWaiting(link)
            let id = try link.uuid("id")
            let event = try link.uuid("event_id")
            try Self.requireUnpurged(event, on: connection, lock: .share)
            // Accepted, an invitation by profile id to the same event is answered with it: first, then
            // the membership, the order `acceptInvitation` takes them in, so that both kinds accepted
            // at once (two tabs) wait for each other rather than deadlock.
            if accept { try connection.query("DELETE FROM organizer_invitations WHERE event_id = \(event) AND profile_id = \(profile)") }
            let membership = try connection.query(
                "SELECT role FROM event_members WHERE event_id = \(event) AND profile_id = \(profile) FOR UPDATE")
            if try membership.first.map({ row throws(PostgresError) in try EventRole(row: row) }) == .organizer {
                return .organizesAlready(try Self.member(profile, of: event, on: connection))
            }
            guard accept else {
                try connection.query(
                    "UPDATE organizer_invitation_links SET answered_at = now(), answered_by = \(profile), accepted = false WHERE id = \(id)"
                )
                return .declined
            }
            let blocked = try connection.query(
                """
                SELECT EXISTS (
                    SELECT 1 FROM blocks b JOIN event_members m ON m.event_id = \(event) AND m.role = 'organizer'
                    WHERE (b.blocker_id = m.profile_id AND b.blocked_id = \(profile)) OR (b.blocker_id = \(profile) AND b.blocked_id = m.profile_id)
                ) AS blocked
                """)[0]
            guard try !blocked.bool("blocked") else { throw StoreError.blocked }
            try connection.query(
                "UPDATE organizer_invitation_links SET answered_at = now(), answered_by = \(profile), accepted = true WHERE id = \(id)")
            return .accepted(
                try EventMember(
                    row: try connection.query(
                        """
                        INSERT INTO event_members (event_id, profile_id, role) VALUES (\(event), \(profile), \(EventRole.organizer))
                        ON CONFLICT (event_id, profile_id) DO UPDATE SET role = EXCLUDED.role
                        RETURNING event_id, profile_id, role, joined_at
                        """)[0]))
        }
    }

    /// The columns that say whether a link `l` waits: used, lapsed, withdrawn, expired.
    private static let state: SQL = """
        l.answered_at IS NOT NULL AS used, NOT \(inviterOrganizes) AS lapsed, l.withdrawn_at IS NOT NULL AS withdrawn,
        l.expires_at <= now() AS expired
        """

    /// Throws why the link `row` (with `state`'s columns) no longer waits for an answer, if it does not.
    private static func requireWaiting(_ row: Row) throws {
        if try row.bool("used") { throw StoreError.invitationLinkUsed }
        if try row.bool("lapsed") { throw StoreError.invitationLinkLapsed }
        if try row.bool("withdrawn") { throw StoreError.invitationLinkWithdrawn }
        if try row.bool("expired") { throw StoreError.invitationLinkExpired }
    }

    /// `event`'s organizers, in the order they joined.
    public func organizers(of event: UUID) async throws -> [EventOrganizer] {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT m.profile_id, p.display_name, m.joined_at FROM event_members m JOIN profiles p ON p.id = m.profile_id
                WHERE m.event_id = \(event) AND m.role = 'organizer' ORDER BY m.joined_at, m.profile_id
                """
            ).map { row throws(PostgresError) in
                EventOrganizer(
                    profileId: try row.uuid("profile_id"), displayName: try row.string("display_name"), joinedAt: try row.date("joined_at"))
            }
        }
    }

    /// `profile` stops organizing `event` and stays an attendee: the view links they made stop
    /// working (their ids are returned, for the caches), and so do the invitations they made.
    /// The organizers' rows are locked first, so that of two organizers stepping down at once, the
    /// second finds herself the last one: `StoreError.lastOrganizer`, and nothing changes.
    public func stepDown(_ profile: UUID, from event: UUID) async throws -> (member: EventMember, viewLinks: [UUID]) {
        try await database.withTransaction { connection in
            // The organizers' rows, in one order: of two stepping down at once, the second waits, then
            // finds the first no longer among them (and no redemption waits: it takes no such lock).
            let organizers = try connection.query(
                """
                SELECT profile_id FROM event_members WHERE event_id = \(event) AND role = 'organizer'
                ORDER BY profile_id FOR NO KEY UPDATE
                """
            ).map { row throws(PostgresError) in try row.uuid("profile_id") }
            guard organizers.contains(profile) else { throw StoreError.notAnOrganizer }
            guard organizers.count > 1 else { throw StoreError.lastOrganizer }
            let member = try EventMember(
                row: try connection.query(
                    """
                    UPDATE event_members SET role = \(EventRole.attendee) WHERE event_id = \(event) AND profile_id = \(profile)
                    RETURNING event_id, profile_id, role, joined_at
                    """)[0])
            try connection.query(
                """
                UPDATE organizer_invitation_links SET withdrawn_at = now()
                WHERE event_id = \(event) AND invited_by = \(profile) AND answered_at IS NULL AND withdrawn_at IS NULL
                """)
            try connection.query("DELETE FROM organizer_invitations WHERE event_id = \(event) AND invited_by = \(profile)")
            // Revoked, not only lapsed: they stay dead if they are invited again.
            let links = try connection.query(
                """
                UPDATE view_links SET revoked_at = now() WHERE event_id = \(event) AND created_by = \(profile) AND revoked_at IS NULL
                RETURNING id
                """
            ).map { row throws(PostgresError) in try row.uuid("id") }
            return (member, links)
        }
    }
}

extension InvitationLink {
    init(row: Row) throws(PostgresError) {
        self.init(
            id: try row.uuid("id"), eventId: try row.uuid("event_id"), invitedBy: try row.uuid("invited_by"),
            invitedByName: try row.string("inviter_name"), createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"))
    }
}
