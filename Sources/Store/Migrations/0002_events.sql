-- Events: their organizers and attendees, and which pairs connected at each one.

-- An event is addressed by id or by slug, so a slug never has the shape of a UUID.
--
-- The join code is kept only as a hash (BLAKE2b-256 of the normalized code, salted with the
-- event's id) and shown in clear only when it is made: at creation and at rotation. A join code is
-- a credential (it makes its holder a member, who may then mint event tokens), and credentials
-- here are stored the way API keys are, so a dump, a replica or a log of this table does not
-- hand them out. An organizer who lost the code rotates it, which is also what a leaked code
-- needs. The code has about 40 bits, so the hash keeps it out of plain sight rather than out of
-- reach of someone who has this table and time to search; the salt makes that search per event.
CREATE TABLE events (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    slug           text NOT NULL CHECK (
                       slug ~ '^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$'
                       AND slug !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
    name           text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
    starts_at      timestamptz NOT NULL,
    ends_at        timestamptz NOT NULL,
    -- An IANA zone name (Europe/Paris): the event's local time, for growth buckets and display.
    time_zone      text NOT NULL CHECK (char_length(time_zone) BETWEEN 1 AND 64),
    join_code_hash bytea NOT NULL CHECK (octet_length(join_code_hash) = 32),
    created_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT events_slug_unique UNIQUE (slug),
    CONSTRAINT events_ends_after_start CHECK (ends_at > starts_at)
);

-- Who belongs to an event and as what. Attendees choose whether organizers see them by name.
CREATE TABLE event_members (
    event_id   uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    profile_id uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    role       text NOT NULL CHECK (role IN ('organizer', 'attendee')),
    visibility text NOT NULL DEFAULT 'pseudonymous' CHECK (visibility IN ('named', 'pseudonymous')),
    joined_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, profile_id)
);
CREATE INDEX event_members_profile ON event_members (profile_id);

-- The pairs that connected at each event, and when they first did there. A pair that meets at
-- two events has a row for each, and one row in `connections` (a person's network has one edge).
CREATE TABLE event_connections (
    event_id      uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    profile_a     uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    profile_b     uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    connection_id bigint NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
    first_at      timestamptz NOT NULL,
    PRIMARY KEY (event_id, profile_a, profile_b),
    CONSTRAINT event_connections_ordered_pair CHECK (profile_a < profile_b)
);
CREATE INDEX event_connections_growth ON event_connections (event_id, first_at);
CREATE INDEX event_connections_connection ON event_connections (connection_id);

-- `connections.event_id` stays the event of the pair's first meeting; a deleted event leaves the
-- personal edge in place. Until now nothing could mint an event token, so every value is NULL.
ALTER TABLE connections
    ADD CONSTRAINT connections_event FOREIGN KEY (event_id) REFERENCES events (id) ON DELETE SET NULL;
