-- Event growth without counting the event's pairs on every request.
--
-- Each pair now records the transaction that inserted it (`xact`, its top-level id). A server that
-- read an event's pairs keeps the snapshot it read them in (`pg_current_snapshot()`); the pairs
-- added since are exactly those whose transaction that snapshot does not see, which one range read
-- of this index finds: transactions from the snapshot's `xmin` on, not visible in it. It also finds
-- a pair that committed after one with a higher `seq`, which `max(seq)` alone would miss; the
-- whole-range `count(*)` that used to reveal those is no longer needed. Updates and removals still
-- raise `events.pairs_revision` (0005). Pairs inserted before this migration keep `xact` 0, which
-- every snapshot sees.
ALTER TABLE event_connections ADD COLUMN xact xid8 NOT NULL DEFAULT '0';
ALTER TABLE event_connections ALTER COLUMN xact SET DEFAULT pg_current_xact_id();
CREATE INDEX event_connections_by_transaction ON event_connections (event_id, xact);
