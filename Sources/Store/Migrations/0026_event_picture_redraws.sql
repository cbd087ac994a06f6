-- A stored event picture says how many pairs the graph had when it was last laid out afresh, so
-- that the next picture may be redrawn once the graph has half again as many (docs/graph-engine.md,
-- "a picture that grows"), not only after ten grown pictures in a row: a busy server makes fewer
-- pictures while the pairs arrive, and ten in a row may not come before the event is over.
-- Pictures from before it say nothing (NULL, read as 0): their next picture may be redrawn.
ALTER TABLE event_pictures
    ADD COLUMN pairs_when_drawn_afresh integer CHECK (pairs_when_drawn_afresh >= 0);
