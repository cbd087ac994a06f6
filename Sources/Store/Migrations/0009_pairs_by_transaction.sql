-- Event growth without counting the event's pairs on every request.
--
-- Each pair now records the transaction that inserted it (`xact`, its top-level id). A server that
-- read an event's pairs keeps where the read's snapshot stood: its `xmin` (every older transaction
-- had ended, so their pairs were all seen) and the pairs of transactions from `xmin` on that it did
-- see. The pairs added since are those from `xmin` on that it did not see, which one range read of
-- this index finds. That includes a pair that committed after one with a higher `seq`, which
-- `max(seq)` alone would miss; the whole-range `count(*)` that used to reveal those is no longer
-- needed. Only `xmin` is taken from the snapshot, not its list of running transactions: on a hot
-- standby, `pg_current_snapshot()` leaves that list empty. Updates and removals still raise
-- `events.pairs_revision` (0005). Pairs inserted before this migration keep `xact` 0, which is
-- older than any snapshot.
ALTER TABLE event_connections ADD COLUMN xact xid8 NOT NULL DEFAULT '0';
ALTER TABLE event_connections ALTER COLUMN xact SET DEFAULT pg_current_xact_id();
CREATE INDEX event_connections_by_transaction ON event_connections (event_id, xact);
