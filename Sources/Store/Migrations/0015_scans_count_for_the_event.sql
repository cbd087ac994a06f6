-- Scans at an event count for it, whatever code was shown. Until now only an event's own code
-- wrote the event's pairs, so two attendees who scanned each other's personal codes (what the home
-- page showed by default) never reached the organizers' numbers or the wall. From now on a
-- redemption of a personal code also counts, for every event that both people belong to and that
-- ran when they met: `p_scanned_at` (the offline scan's own time) between the event's start and
-- its end plus the offline grace (`p_event_grace_seconds`). An event's code still counts for its
-- event alone. A re-scan of a pair already connected counts as event codes' re-scans do (the first
-- meeting at the event); connections made before are not back-filled. A new connection's
-- `event_id` (its "met at") is the counted event the scanner joined last.
--
-- Everything else is 0006's, in its order; see there.
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
            SELECT e.ends_at INTO v_ends_at FROM events e WHERE e.id = p_event;
            IF NOT FOUND OR now() > v_ends_at + make_interval(secs => p_event_grace_seconds) THEN
                RETURN QUERY SELECT CASE WHEN v_ends_at IS NULL THEN 'unknown_event' ELSE 'event_ended' END,
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
            SELECT coalesce(array_agg(e.id ORDER BY mine.joined_at DESC, e.id), '{}') INTO v_events
            FROM event_members mine
            JOIN event_members theirs ON theirs.event_id = mine.event_id AND theirs.profile_id = p_owner
            JOIN events e ON e.id = mine.event_id
            WHERE mine.profile_id = p_scanner
              AND p_scanned_at BETWEEN e.starts_at AND e.ends_at + make_interval(secs => p_event_grace_seconds);
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
