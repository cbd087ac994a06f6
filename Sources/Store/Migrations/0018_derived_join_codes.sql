-- Join codes the server can show again. An event's code is derived from the server's pseudonym
-- key, the event's id and a rotation counter (`JoinCode.derive`), and only the counter is stored:
-- every instance computes the current code, and a dump without the key files reveals nothing of
-- it. Events made before keep the salted hash of a random code, which nobody can show; their
-- organizers rotate once to get a code that can be shown again (the upgrade notes say so).
ALTER TABLE events ALTER COLUMN join_code_hash DROP NOT NULL;
ALTER TABLE events ADD COLUMN join_code_rotation integer CHECK (join_code_rotation >= 0);
ALTER TABLE events ADD CONSTRAINT events_one_join_code CHECK ((join_code_hash IS NULL) <> (join_code_rotation IS NULL));
