-- Event growth without rereading the whole event.
--
-- Every row of `event_connections` gets a sequence number when it is inserted, and each event
-- counts the revisions of its pairs (`pairs_revision`): a trigger adds one whenever a pair is
-- updated (an offline scan synced late moves `first_at` earlier) or removed (a disconnection, a
-- block, an erased profile). Both are rare, so the counter is no hot spot; insertions, the common
-- case, leave it alone. The server keeps each event's growth in memory with the
-- `(pairs_revision, count, max(seq))` it was computed from: one index-only scan of the event's
-- range recomputes it. Same revision and only higher numbers added: the server reads just the rows
-- with `seq` above the remembered maximum and extends its series. Anything else (a revision, or
-- a row that committed late with a lower number, which the count reveals): it reads the event again.
ALTER TABLE event_connections ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE events ADD COLUMN pairs_revision bigint NOT NULL DEFAULT 0;
DROP INDEX event_connections_growth;
CREATE INDEX event_connections_sequence ON event_connections (event_id, seq);

CREATE FUNCTION event_pairs_revised() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE events SET pairs_revision = pairs_revision + 1 WHERE id = OLD.event_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER event_pairs_revised AFTER UPDATE OR DELETE ON event_connections
    FOR EACH ROW EXECUTE FUNCTION event_pairs_revised();
