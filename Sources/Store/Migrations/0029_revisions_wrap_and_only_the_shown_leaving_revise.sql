-- The pairs' revision wraps to 0 at its bound, as the choices' revision does (0028): only that it
-- moved matters, and a restored value at the bound (0027 allows it) made every removal or
-- re-dating of the event's pairs fail its check, so that nobody there could leave, block someone
-- they met there or be erased, and the event was never purged.
CREATE FUNCTION event_pairs_revise(revised uuid[]) RETURNS void LANGUAGE sql AS $$
    UPDATE events
    SET pairs_revision = CASE WHEN pairs_revision >= 4611686018427387904 THEN 0 ELSE pairs_revision + 1 END
    WHERE id = ANY(revised)
$$;

CREATE OR REPLACE FUNCTION event_pairs_revised() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM event_pairs_revise(ARRAY[OLD.event_id]);
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION event_pairs_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM event_pairs_revise(ARRAY(SELECT DISTINCT event_id FROM removed));
    RETURN NULL;
END
$$;

-- A member leaving revises the event's choices only if a screen showed them by name (to the
-- organizers, or on the walls): every revision tells every screen of the event to read it again,
-- and someone pseudonymous leaving, or joining and leaving over and over, changed nothing shown
-- that their pairs' removal (which revises the pairs) does not already say.
CREATE OR REPLACE FUNCTION event_members_left() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM event_choices_revise(ARRAY(
        SELECT DISTINCT event_id FROM left_members WHERE visibility = 'named' OR wall_name));
    RETURN NULL;
END
$$;
