-- Nobody becomes an organizer without saying yes: an organizer invites, the invitee accepts (or
-- declines), and only then is the role theirs. An invitation lapses with its inviter's role, and is
-- never made or accepted between two people of whom one blocked the other.
CREATE TABLE organizer_invitations (
    event_id   uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    profile_id uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    invited_by uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, profile_id)
);
CREATE INDEX organizer_invitations_profile ON organizer_invitations (profile_id);
CREATE INDEX organizer_invitations_inviter ON organizer_invitations (invited_by);
