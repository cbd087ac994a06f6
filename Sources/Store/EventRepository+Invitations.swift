import ConstellationModel
import Foundation

/// Invitations to organize an event (`migrations/0011_organizer_invitations.sql`): an organizer
/// invites, the invitee accepts or declines. An invitation counts only while its inviter organizes
/// the event and no block stands between the invitee and any of the event's organizers, either
/// way: organizers share the event's people, so nobody becomes the co-organizer of someone who
/// blocked them or whom they blocked.
extension EventRepository {
    /// The condition on `organizer_invitations i` that an invitation stands (never once its
    /// event's purge began: from the mark on, nothing names its people).
    private static let standing: SQL = """
        NOT EXISTS (SELECT 1 FROM events x WHERE x.id = i.event_id AND x.purged_at IS NOT NULL)
        AND EXISTS (SELECT 1 FROM event_members m WHERE m.event_id = i.event_id AND m.profile_id = i.invited_by AND m.role = 'organizer')
        AND NOT EXISTS (
            SELECT 1 FROM blocks b JOIN event_members m ON m.event_id = i.event_id AND m.role = 'organizer'
            WHERE (b.blocker_id = m.profile_id AND b.blocked_id = i.profile_id) OR (b.blocker_id = i.profile_id AND b.blocked_id = m.profile_id))
        """

    private static let columns: SQL = """
        i.event_id, e.name AS event_name, i.profile_id, q.display_name AS profile_name, i.invited_by, p.display_name AS inviter_name,
        i.created_at
        """

    /// The tables `columns` reads, for `organizer_invitations i`.
    private static let joins: SQL = """
        JOIN events e ON e.id = i.event_id JOIN profiles p ON p.id = i.invited_by JOIN profiles q ON q.id = i.profile_id
        """

    /// What inviting someone to organize an event came to.
    public enum Invited: Sendable {
        /// The standing invitation (a second invitation is the first).
        case invited(OrganizerInvitation)
        /// They organize the event already: their membership.
        case organizer(EventMember)
    }

    /// How many organizers and invitations waiting for an answer (to a profile, or as a link) an
    /// event may have in all: far more than an event's team, and a bound on its organizer lists.
    public static let organizerTeamLimit = 100

    /// Throws `organizerTeamFull` unless `event` has room for one more organizer or invitation
    /// (`invitee`'s own standing invitation is not counted: inviting them again takes no room);
    /// holds `lockCappedLists` until the transaction ends.
    static func requireRoomInTeam(of event: UUID, besides invitee: UUID? = nil, on connection: PostgresConnection) throws {
        try lockCappedLists(of: event, on: connection)
        let team = try connection.query(
            """
            SELECT (SELECT count(*) FROM event_members WHERE event_id = \(event) AND role = 'organizer')
                 + (SELECT count(*) FROM organizer_invitations i
                    WHERE i.event_id = \(event) AND i.profile_id IS DISTINCT FROM \(invitee) AND \(standing))
                 + (SELECT count(*) FROM organizer_invitation_links l WHERE l.event_id = \(event) AND \(waitingLink)) AS team
            """)[0]
        guard try team.int("team") < organizerTeamLimit else { throw StoreError.organizerTeamFull }
    }

    /// Invites `profile` to organize `event`, if `caller` organizes it, no block stands between
    /// `profile` and any of its organizers (`StoreError.blocked`) and the team has room
    /// (`organizerTeamFull`).
    public func inviteOrganizer(_ profile: UUID, to event: UUID, by caller: UUID) async throws -> Invited {
        do {
            return try await database.withTransaction { connection -> Invited in
                try Self.requireOrganizer(caller, of: event, on: connection)
                let state = try connection.query(
                    """
                    SELECT
                        EXISTS (SELECT 1 FROM profiles WHERE id = \(profile)) AS known,
                        EXISTS (SELECT 1 FROM event_members WHERE event_id = \(event) AND profile_id = \(profile) AND role = 'organizer') AS organizes,
                        EXISTS (SELECT 1 FROM blocks b JOIN event_members m ON m.event_id = \(event) AND m.role = 'organizer'
                                WHERE (b.blocker_id = m.profile_id AND b.blocked_id = \(profile))
                                   OR (b.blocker_id = \(profile) AND b.blocked_id = m.profile_id)) AS blocked
                    """)[0]
                guard try state.bool("known") else { throw StoreError.unknownProfile }
                guard try !state.bool("organizes") else { return .organizer(try Self.member(profile, of: event, on: connection)) }
                guard try !state.bool("blocked") else { throw StoreError.blocked }
                try Self.requireRoomInTeam(of: event, besides: profile, on: connection)
                let row = try connection.query(
                    """
                    WITH i AS (
                        INSERT INTO organizer_invitations (event_id, profile_id, invited_by) VALUES (\(event), \(profile), \(caller))
                        ON CONFLICT (event_id, profile_id) DO UPDATE SET invited_by = EXCLUDED.invited_by
                        RETURNING event_id, profile_id, invited_by, created_at
                    )
                    SELECT \(Self.columns) FROM i \(Self.joins)
                    """
                )[0]
                return .invited(try OrganizerInvitation(row: row))
            }
        } catch let error as PostgresError where error.sqlState == "23503" {
            throw StoreError.unknownProfile
        }
    }

    /// A page of `profile`'s standing invitations, newest first: at most `limit`, after `cursor`
    /// (the previous page's `next`), and the cursor of the page after it, if there is one.
    public func invitations(of profile: UUID, after cursor: PageCursor? = nil, limit: Int) async throws -> (
        items: [OrganizerInvitation], next: PageCursor?
    ) {
        try await database.withConnection { connection in
            let rows = try connection.query(
                """
                SELECT \(Self.columns), \(PageCursor.microseconds("i.created_at")) AS at_us FROM organizer_invitations i \(Self.joins)
                WHERE i.profile_id = \(profile) AND \(Self.standing) AND \(PageCursor.after(cursor, time: "i.created_at", id: "i.event_id"))
                ORDER BY i.created_at DESC, i.event_id DESC LIMIT \(limit + 1)
                """
            ).map { row throws(PostgresError) in
                let invitation = try OrganizerInvitation(row: row)
                return (invitation, PageCursor(microseconds: try row.int("at_us"), id: invitation.eventId))
            }
            return PageCursor.page(rows, limit: limit)
        }
    }

    /// The standing invitations to organize `event` made to a profile by its id, newest first.
    public func invitations(to event: UUID) async throws -> [OrganizerInvitation] {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT \(Self.columns) FROM organizer_invitations i \(Self.joins)
                WHERE i.event_id = \(event) AND \(Self.standing) ORDER BY i.created_at DESC, i.profile_id
                """
            ).map(OrganizerInvitation.init(row:))
        }
    }

    /// Accepts `profile`'s standing invitation to `event`: in one transaction the invitation goes and
    /// the role is theirs (an attendee is promoted). `StoreError.unknownInvitation` when none stands.
    public func acceptInvitation(to event: UUID, profile: UUID) async throws -> EventMember {
        try await database.withTransaction { connection in
            try Self.requireUnpurged(event, on: connection, lock: .share)
            let accepted = try connection.query(
                """
                DELETE FROM organizer_invitations i WHERE i.event_id = \(event) AND i.profile_id = \(profile) AND \(Self.standing)
                RETURNING i.event_id
                """)
            guard !accepted.isEmpty else { throw StoreError.unknownInvitation }
            return try EventMember(
                row: try connection.query(
                    """
                    INSERT INTO event_members (event_id, profile_id, role) VALUES (\(event), \(profile), \(EventRole.organizer))
                    ON CONFLICT (event_id, profile_id) DO UPDATE SET role = EXCLUDED.role
                    RETURNING event_id, profile_id, role, joined_at
                    """)[0])
        }
    }

    /// Declines (forgets) `profile`'s invitation to `event`, or an organizer withdraws it: whether there was one.
    public func declineInvitation(to event: UUID, profile: UUID) async throws -> Bool {
        try await database.withConnection { connection in
            !(try connection.query(
                "DELETE FROM organizer_invitations WHERE event_id = \(event) AND profile_id = \(profile) RETURNING event_id"
            ).isEmpty)
        }
    }
}

extension OrganizerInvitation {
    init(row: Row) throws(PostgresError) {
        self.init(
            eventId: try row.uuid("event_id"), eventName: try row.string("event_name"), profileId: try row.uuid("profile_id"),
            profileName: try row.string("profile_name"), invitedBy: try row.uuid("invited_by"),
            invitedByName: try row.string("inviter_name"), createdAt: try row.date("created_at"))
    }
}
