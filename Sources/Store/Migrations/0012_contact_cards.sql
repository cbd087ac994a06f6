-- A contact card: what a person shares with the people they connect with, entry by entry. Each
-- entry (an email address, a phone number, a link, their organization or role) is for their
-- connections or for nobody (kept for them only); nothing is shared unless they say so. A card goes
-- with its profile.
CREATE TABLE contact_entries (
    profile_id uuid     NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    position   smallint NOT NULL CHECK (position >= 0),
    kind       text     NOT NULL CHECK (kind IN ('email', 'phone', 'link', 'organization', 'role')),
    label      text     CHECK (char_length(label) BETWEEN 1 AND 40),
    value      text     NOT NULL CHECK (char_length(value) BETWEEN 1 AND 2000),
    audience   text     NOT NULL CHECK (audience IN ('connections', 'nobody')),
    PRIMARY KEY (profile_id, position)
);
