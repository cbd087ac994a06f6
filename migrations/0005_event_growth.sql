-- Event growth without rereading the whole event.
--
-- Every row of `event_connections` gets a sequence number when it is written, and a new one
-- whenever it is updated (an offline scan synced late moves `first_at` earlier; the trigger
-- renumbers any update, whoever makes it). The server keeps each event's growth in memory with
-- the `(count, max(seq), sum(seq))` it was computed from; one index-only scan recomputes that
-- triple, and when rows were only added since, the server reads just `seq > max` and extends its
-- series. A removal or an update changes the triple in a way additions cannot hide (new numbers
-- exceed every old one), and the server reads the event again.
ALTER TABLE event_connections ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
DROP INDEX event_connections_growth;
CREATE INDEX event_connections_sequence ON event_connections (event_id, seq) INCLUDE (first_at);

CREATE FUNCTION event_connections_renumber() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.seq := nextval(pg_get_serial_sequence('event_connections', 'seq'));
    RETURN NEW;
END
$$;
CREATE TRIGGER event_connections_renumber BEFORE UPDATE ON event_connections
    FOR EACH ROW EXECUTE FUNCTION event_connections_renumber();
