-- Blocks: a person I block can no longer connect with me, through my tokens or theirs.
--
-- A block removes the pair's connection (and with it, by cascade, the redemptions that made it
-- and its rows in event graphs). Redemption and blocking order themselves on the two profiles'
-- rows: a redemption takes FOR KEY SHARE on both and only then looks for a block; a block takes
-- FOR UPDATE on both, so it waits for a redemption in flight (and then removes the connection it
-- made) or makes the redemption wait and then find the block. No check-then-insert race.
CREATE TABLE blocks (
    blocker_id uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    blocked_id uuid NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (blocker_id, blocked_id),
    CONSTRAINT blocks_not_self CHECK (blocker_id <> blocked_id)
);
CREATE INDEX blocks_blocked ON blocks (blocked_id);
