-- Organizers' view links (the view tokens behind `/events/{slug}/live#view=…`) as rows, so that
-- they can be listed and revoked, and so that a link dies with its maker's role: a token verifies
-- only while its row is live (not revoked, not expired) and its maker still organizes the event.
-- A maker who erases their profile takes their links along (ON DELETE CASCADE). The row's id is
-- the token's id (its `j` claim); the token itself is never stored.
CREATE TABLE view_links (
    id          uuid PRIMARY KEY,
    event_id    uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    created_by  uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    shows_names boolean NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);
CREATE INDEX view_links_event ON view_links (event_id, expires_at);
CREATE INDEX view_links_maker ON view_links (created_by);
