-- The community: attendees and their credentials, the connections between them,
-- and the redemptions of connection tokens that made those connections.

CREATE TABLE profiles (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    display_name text NOT NULL CHECK (char_length(display_name) BETWEEN 1 AND 80),
    headline     text CHECK (char_length(headline) BETWEEN 1 AND 160),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);

-- API keys are random and shown once; only their BLAKE2b-256 hash is kept.
CREATE TABLE api_keys (
    key_hash   bytea PRIMARY KEY CHECK (octet_length(key_hash) = 32),
    profile_id uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);
CREATE INDEX api_keys_profile ON api_keys (profile_id);

-- One undirected, auto-accepted edge per pair, stored once with the smaller id first.
CREATE TABLE connections (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    profile_a  uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    profile_b  uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    token_id   text NOT NULL,
    event_id   uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT connections_ordered_pair CHECK (profile_a < profile_b),
    CONSTRAINT connections_unique_pair UNIQUE (profile_a, profile_b)
);
CREATE INDEX connections_profile_b ON connections (profile_b);
CREATE INDEX connections_event ON connections (event_id, created_at) WHERE event_id IS NOT NULL;

-- How many people have redeemed each token (capped); the row lock orders concurrent redeemers.
CREATE TABLE token_uses (
    token_id   text PRIMARY KEY,
    owner_id   uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    uses       integer NOT NULL CHECK (uses >= 0),
    expires_at timestamptz NOT NULL
);

-- Each scanner redeems a token at most once; a re-scan finds this row and answers the same.
CREATE TABLE redemptions (
    token_id      text NOT NULL,
    scanner_id    uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    connection_id bigint NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
    created       boolean NOT NULL,
    scanned_at    timestamptz NOT NULL,
    redeemed_at   timestamptz NOT NULL DEFAULT now(),
    client_nonce  text,
    PRIMARY KEY (token_id, scanner_id)
);
CREATE INDEX redemptions_connection ON redemptions (connection_id);
