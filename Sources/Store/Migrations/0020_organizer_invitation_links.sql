-- Invitations to organize an event that a person can give: a link or code (kept as a hash only),
-- made by an organizer, used once by whoever opens it first, until it expires. Nobody needs to
-- know the invitee's profile id. A link stays after its use (`answered_at`, `accepted`) or its
-- withdrawal (`withdrawn_at`) so that the next person to open it hears why it no longer works;
-- a day after it expired it is forgotten. Like `organizer_invitations`, a link lapses with its
-- inviter's role, and is never accepted by someone between whom and an organizer a block stands.
CREATE TABLE organizer_invitation_links (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    event_id     uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    invited_by   uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    code_hash    bytea NOT NULL UNIQUE CHECK (octet_length(code_hash) = 32),
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    withdrawn_at timestamptz,
    answered_at  timestamptz,
    answered_by  uuid REFERENCES profiles (id) ON DELETE SET NULL,
    accepted     boolean,
    CONSTRAINT organizer_invitation_links_answer CHECK ((answered_at IS NULL) = (accepted IS NULL)),
    CONSTRAINT organizer_invitation_links_expiry CHECK (expires_at > created_at)
);
CREATE INDEX organizer_invitation_links_event ON organizer_invitation_links (event_id);
CREATE INDEX organizer_invitation_links_inviter ON organizer_invitation_links (invited_by);
CREATE INDEX organizer_invitation_links_answerer ON organizer_invitation_links (answered_by) WHERE answered_by IS NOT NULL;
