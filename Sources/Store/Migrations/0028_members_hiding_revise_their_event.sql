-- A member who hides (no longer named to the organizers, no longer named on the walls) or leaves
-- revises the event's `choices_revision`, as removed pairs revise `pairs_revision`. Every server
-- reads it with the event at each of the event's views and forgets what it shares of the event
-- (pictures, summaries, reports) when it moved: the member is hidden from the next request on
-- every server, not only on the one that took the change. A choice that only names someone does
-- not revise it: it may be seen an interval later (docs/http-api.md). Only that it moved matters,
-- so it wraps to 0 rather than overflow.
ALTER TABLE events ADD COLUMN choices_revision bigint NOT NULL DEFAULT 0
    CHECK (choices_revision BETWEEN 0 AND 4611686018427387904);

CREATE FUNCTION event_choices_revise(revised uuid[]) RETURNS void LANGUAGE sql AS $$
    UPDATE events
    SET choices_revision = CASE WHEN choices_revision >= 4611686018427387904 THEN 0 ELSE choices_revision + 1 END
    WHERE id = ANY(revised)
$$;

CREATE FUNCTION event_members_hidden() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM event_choices_revise(ARRAY(
        SELECT DISTINCT after_change.event_id FROM after_change
        JOIN before_change USING (event_id, profile_id)
        WHERE (before_change.visibility = 'named' AND after_change.visibility <> 'named')
            OR (before_change.wall_name AND NOT after_change.wall_name)));
    RETURN NULL;
END
$$;
CREATE TRIGGER event_members_hidden AFTER UPDATE ON event_members
    REFERENCING OLD TABLE AS before_change NEW TABLE AS after_change
    FOR EACH STATEMENT EXECUTE FUNCTION event_members_hidden();

CREATE FUNCTION event_members_left() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM event_choices_revise(ARRAY(SELECT DISTINCT event_id FROM left_members));
    RETURN NULL;
END
$$;
CREATE TRIGGER event_members_left AFTER DELETE ON event_members
    REFERENCING OLD TABLE AS left_members FOR EACH STATEMENT EXECUTE FUNCTION event_members_left();
