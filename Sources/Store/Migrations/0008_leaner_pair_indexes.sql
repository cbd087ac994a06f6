-- Fewer index entries per pair, for imports and redemptions alike (`Tools/bench-events`).
--
-- An event's pairs are keyed by their connection: a pair has one connection, so (connection, event)
-- is as unique as (event, person, person) was, and the key now also serves the cascade from
-- `connections`, which needed an index of its own. Reads by event use `event_connections_sequence`.
ALTER TABLE event_connections DROP CONSTRAINT event_connections_pkey;
ALTER TABLE event_connections ADD CONSTRAINT event_connections_pkey PRIMARY KEY (connection_id, event_id);
DROP INDEX event_connections_connection;

-- `connections.event_id` (the event where a pair first met) is looked up only by the cascade from
-- `events` (ON DELETE SET NULL): the time in the index served nothing, and put each imported pair
-- on a page of its own.
DROP INDEX connections_event;
CREATE INDEX connections_event ON connections (event_id) WHERE event_id IS NOT NULL;
