-- A view link's life can change without a new link: its row's expiry decides, up to the latest
-- moment signed into its token (`longest_until`: the event's end, or the first expiry if that is
-- later). Links made before keep the expiry they were signed with as both.
ALTER TABLE view_links ADD COLUMN longest_until timestamptz;
UPDATE view_links SET longest_until = expires_at;
ALTER TABLE view_links ALTER COLUMN longest_until SET NOT NULL;
ALTER TABLE view_links ADD CONSTRAINT view_links_within_their_token CHECK (expires_at <= longest_until);
