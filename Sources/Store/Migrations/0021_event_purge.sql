-- Events are purged: on a date per event (`purge_on`), its personal data goes and what stays is
-- an anonymous record of it (docs/data-model.md, "When an event is purged", says table by table).
--
-- A purge first marks the event (`purged_at`), holding its row FOR UPDATE: from then on every
-- route and every read refuses it (410 `event_purged`), and no redemption adds to it, because each
-- holds the row FOR KEY SHARE from its check to its commit. The server then keeps the record
-- (`event_records`), removes the rest in batches, and says when it is done (`purge_finished_at`);
-- killed in between, it goes on where it stopped.
ALTER TABLE events
    ADD COLUMN purge_on timestamptz,
    ADD COLUMN purged_at timestamptz,
    ADD COLUMN purge_finished_at timestamptz;
-- Events from before this migration: the default date (30 days after the end and the default
-- offline grace of 2 hours), never sooner than 30 days from the upgrade, so none is purged at the
-- first start and their organizers have time to take what they want and to set another date.
UPDATE events SET purge_on = greatest(ends_at + interval '30 days 2 hours', now() + interval '30 days');
ALTER TABLE events
    ALTER COLUMN purge_on SET NOT NULL,
    ADD CONSTRAINT events_purged_after_the_end CHECK (purge_on >= ends_at),
    ADD CONSTRAINT events_purge_finished_once_begun CHECK (purge_finished_at IS NULL OR purged_at IS NOT NULL),
    DROP CONSTRAINT events_one_join_code,
    -- A purged event has no join code left.
    ADD CONSTRAINT events_one_join_code CHECK ((join_code_hash IS NULL) <> (join_code_rotation IS NULL) OR purged_at IS NOT NULL);
CREATE INDEX events_to_purge ON events (purge_on) WHERE purge_finished_at IS NULL;

-- What an event leaves behind: its figures, computed when it was purged, with no one in them.
-- `growth` is its growth in five-minute steps, each `[step, new connections, new people, people,
-- connections, largest group]` (step s covers 300·s to 300·(s+1) seconds since 1970).
CREATE TABLE event_records (
    event_id              uuid PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    computed_at           timestamptz NOT NULL DEFAULT now(),
    people                integer NOT NULL CHECK (people >= 0),
    connections           integer NOT NULL CHECK (connections >= 0),
    attendees             integer NOT NULL CHECK (attendees >= 0),
    connected_share       double precision NOT NULL CHECK (connected_share BETWEEN 0 AND 1),
    peak_hour             timestamptz,
    peak_hour_connections integer CHECK (peak_hour_connections >= 0),
    communities           integer NOT NULL CHECK (communities >= 0),
    modularity            double precision NOT NULL,
    largest_component     integer NOT NULL CHECK (largest_component >= 0),
    growth                jsonb NOT NULL CHECK (jsonb_typeof(growth) = 'array')
);

-- Removed pairs revise their event once per statement, not once per row: a purge's batch of
-- thousands of pairs updated the event's row as many times, each update longer to reach than the
-- one before. An update (a pair re-dated) stays per row: it is one pair at a time.
DROP TRIGGER event_pairs_revised ON event_connections;
CREATE TRIGGER event_pairs_revised AFTER UPDATE ON event_connections
    FOR EACH ROW EXECUTE FUNCTION event_pairs_revised();
CREATE FUNCTION event_pairs_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE events SET pairs_revision = pairs_revision + 1 WHERE id IN (SELECT DISTINCT event_id FROM removed);
    RETURN NULL;
END
$$;
CREATE TRIGGER event_pairs_removed AFTER DELETE ON event_connections
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION event_pairs_removed();

-- A redemption refuses a purged event's code (`event_purged`), and a personal code's scan no
-- longer counts for a purged event. Everything else is 0015's.
CREATE OR REPLACE FUNCTION redeem_token(
    p_token_id text, p_owner uuid, p_scanner uuid, p_event uuid, p_issued_at timestamptz, p_expires_at timestamptz,
    p_scanned_at timestamptz, p_client_nonce text, p_maximum_uses bigint, p_event_grace_seconds bigint
) RETURNS TABLE (
    outcome text, id bigint, created_at timestamptz, event_id uuid, created boolean,
    profile_id uuid, display_name text, headline text, profile_created_at timestamptz
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_valid_from timestamptz;
    v_ends_at timestamptz;
    v_purged_at timestamptz;
    v_connection bigint;
    v_created boolean := true;
    v_locked integer;
    v_events uuid[];
BEGIN
    SELECT p.tokens_valid_from INTO v_valid_from FROM profiles p WHERE p.id = p_owner;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'unknown_owner', NULL::bigint, NULL::timestamptz, NULL::uuid, NULL::boolean,
                            NULL::uuid, NULL::text, NULL::text, NULL::timestamptz;
        RETURN;
    END IF;
    IF v_valid_from IS NOT NULL AND p_issued_at < v_valid_from THEN
        RETURN QUERY SELECT 'token_revoked', NULL::bigint, NULL::timestamptz, NULL::uuid, NULL::boolean,
                            NULL::uuid, NULL::text, NULL::text, NULL::timestamptz;
        RETURN;
    END IF;

    SELECT r.connection_id INTO v_connection FROM redemptions r WHERE r.token_id = p_token_id AND r.scanner_id = p_scanner;
    IF FOUND THEN
        v_created := false;
    ELSE
        PERFORM 1 FROM profiles p WHERE p.id IN (p_owner, p_scanner) ORDER BY p.id FOR KEY SHARE;
        GET DIAGNOSTICS v_locked = ROW_COUNT;
        IF v_locked < 2 THEN
            RETURN QUERY SELECT 'unknown_owner', NULL::bigint, NULL::timestamptz, NULL::uuid, NULL::boolean,
                                NULL::uuid, NULL::text, NULL::text, NULL::timestamptz;
            RETURN;
        END IF;
        IF EXISTS (SELECT 1 FROM blocks b
                   WHERE (b.blocker_id = p_owner AND b.blocked_id = p_scanner)
                      OR (b.blocker_id = p_scanner AND b.blocked_id = p_owner)) THEN
            RETURN QUERY SELECT 'blocked', NULL::bigint, NULL::timestamptz, NULL::uuid, NULL::boolean,
                                NULL::uuid, NULL::text, NULL::text, NULL::timestamptz;
            RETURN;
        END IF;
        IF p_event IS NOT NULL THEN
            -- FOR KEY SHARE until the end: a purge marks the event FOR UPDATE, so it waits for this
            -- redemption, or this one waits for it and sees the mark.
            SELECT e.ends_at, e.purged_at INTO v_ends_at, v_purged_at FROM events e WHERE e.id = p_event FOR KEY SHARE;
            IF NOT FOUND OR v_purged_at IS NOT NULL OR now() > v_ends_at + make_interval(secs => p_event_grace_seconds) THEN
                RETURN QUERY SELECT CASE WHEN v_ends_at IS NULL THEN 'unknown_event'
                                         WHEN v_purged_at IS NOT NULL THEN 'event_purged' ELSE 'event_ended' END,
                                    NULL::bigint, NULL::timestamptz, NULL::uuid, NULL::boolean,
                                    NULL::uuid, NULL::text, NULL::text, NULL::timestamptz;
                RETURN;
            END IF;
        END IF;

        INSERT INTO token_uses AS u (token_id, owner_id, uses, expires_at)
        VALUES (p_token_id, p_owner, 1, p_expires_at)
        ON CONFLICT (token_id) DO UPDATE SET uses = u.uses + 1
        WHERE u.uses < p_maximum_uses AND u.owner_id = EXCLUDED.owner_id;
        IF NOT FOUND THEN
            RETURN QUERY SELECT 'token_used_up', NULL::bigint, NULL::timestamptz, NULL::uuid, NULL::boolean,
                                NULL::uuid, NULL::text, NULL::text, NULL::timestamptz;
            RETURN;
        END IF;

        -- The events the scan counts for: the event code's own, else every event both belong to
        -- that ran when they met (its dates, and the offline grace after them), the one the
        -- scanner joined last first (a new connection's "met at").
        IF p_event IS NOT NULL THEN
            v_events := ARRAY[p_event];
        ELSE
            SELECT coalesce(array_agg(counted.id ORDER BY counted.joined_at DESC, counted.id), '{}') INTO v_events
            FROM (SELECT e.id, mine.joined_at
                  FROM event_members mine
                  JOIN event_members theirs ON theirs.event_id = mine.event_id AND theirs.profile_id = p_owner
                  JOIN events e ON e.id = mine.event_id
                  WHERE mine.profile_id = p_scanner AND e.purged_at IS NULL
                    AND p_scanned_at BETWEEN e.starts_at AND e.ends_at + make_interval(secs => p_event_grace_seconds)
                  FOR KEY SHARE OF e) AS counted;
        END IF;

        INSERT INTO connections AS c (profile_a, profile_b, token_id, event_id)
        VALUES (LEAST(p_owner, p_scanner), GREATEST(p_owner, p_scanner), p_token_id, v_events[1])
        ON CONFLICT (profile_a, profile_b) DO NOTHING
        RETURNING c.id INTO v_connection;
        IF NOT FOUND THEN
            v_created := false;
            SELECT c.id INTO v_connection FROM connections c
            WHERE c.profile_a = LEAST(p_owner, p_scanner) AND c.profile_b = GREATEST(p_owner, p_scanner);
        END IF;

        INSERT INTO redemptions AS r (token_id, scanner_id, connection_id, created, scanned_at, client_nonce)
        VALUES (p_token_id, p_scanner, v_connection, v_created, p_scanned_at, p_client_nonce)
        ON CONFLICT (token_id, scanner_id) DO NOTHING;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'a concurrent redemption of this token by this scanner committed first' USING ERRCODE = 'CNR01';
        END IF;

        IF p_event IS NOT NULL THEN
            INSERT INTO event_members (event_id, profile_id, role) VALUES (p_event, p_scanner, 'attendee')
            ON CONFLICT ON CONSTRAINT event_members_pkey DO NOTHING;
        END IF;
        -- The first time the pair met at each event: an offline scan synced late may be earlier.
        INSERT INTO event_connections AS ec (event_id, profile_a, profile_b, connection_id, first_at)
        SELECT counted, LEAST(p_owner, p_scanner), GREATEST(p_owner, p_scanner), v_connection, p_scanned_at
        FROM unnest(v_events) AS counted
        ON CONFLICT ON CONSTRAINT event_connections_pkey DO UPDATE SET first_at = EXCLUDED.first_at
        WHERE EXCLUDED.first_at < ec.first_at;
    END IF;

    RETURN QUERY
    SELECT 'ok', c.id, c.created_at, c.event_id, v_created, p.id, p.display_name, p.headline, p.created_at
    FROM connections c JOIN profiles p ON p.id = p_owner
    WHERE c.id = v_connection;
END
$$;

ALTER FUNCTION redeem_token ROWS 1;
