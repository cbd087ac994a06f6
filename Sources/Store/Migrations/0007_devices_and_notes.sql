-- One person, several devices, and the follow-up after the event.
--
-- Each API key is a device: it gets an id to be listed, renamed and revoked by, a name its owner
-- chooses, and when it was last used, to the hour (written at most once an hour per key, when an
-- uncached request authenticates).
ALTER TABLE api_keys
    ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid() CONSTRAINT api_keys_id UNIQUE,
    ADD COLUMN name text CHECK (char_length(name) BETWEEN 1 AND 60),
    ADD COLUMN last_used_at timestamptz;

-- A signed-in device lends its profile to a new one: a short-lived, single-use link whose code
-- the server keeps only as a hash. `used_at` is set once, in the transaction that creates the new
-- device's key (`device_id`). Revoking the device that made a link (`created_by`) voids it.
CREATE TABLE device_links (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    profile_id uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    created_by uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    code_hash  bytea NOT NULL UNIQUE CHECK (octet_length(code_hash) = 32),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    device_id  uuid REFERENCES api_keys (id) ON DELETE SET NULL
);
CREATE INDEX device_links_profile ON device_links (profile_id);
CREATE INDEX device_links_creator ON device_links (created_by);
CREATE INDEX device_links_device ON device_links (device_id) WHERE device_id IS NOT NULL;

-- At most one recovery code per profile, as a hash; a new one replaces it, using it deletes it,
-- and so does revoking the device that made it (`created_by`): a stolen device, once revoked,
-- cannot come back with a code it made.
CREATE TABLE recovery_codes (
    profile_id uuid PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
    created_by uuid NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    code_hash  bytea NOT NULL UNIQUE CHECK (octet_length(code_hash) = 32),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- One person's private note and tags on one of their connections: seen by its owner only, gone
-- with the connection (a disconnection, a block, either person erased).
CREATE TABLE connection_notes (
    connection_id bigint NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
    owner_id      uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    note          text CHECK (char_length(note) <= 2000),
    tags          text[] NOT NULL DEFAULT '{}' CHECK (cardinality(tags) <= 20),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (owner_id, connection_id)
);
CREATE INDEX recovery_codes_creator ON recovery_codes (created_by);
CREATE INDEX connection_notes_connection ON connection_notes (connection_id);
