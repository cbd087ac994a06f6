-- A redemption in one round trip: `SELECT * FROM redeem_token(…)`, run as its own transaction.
--
-- The same rules as before, in the same order, each statement seeing what committed before it
-- (READ COMMITTED, as PL/pgSQL runs them):
--   1. a token issued before its owner's QR reset is refused (`token_revoked`), even on a re-scan;
--   2. a scanner who redeemed this token before gets the same answer again (idempotent);
--   3. both profiles are locked FOR KEY SHARE, then a block either way refuses (`blocked`; see
--      0004_blocks.sql for why the lock comes first);
--   4. an event token's event must exist and not have ended longer ago than the grace;
--   5. the token's use is counted under its cap in one upsert (`token_used_up` past it);
--   6. the pair's edge is inserted once (`UNIQUE (profile_a, profile_b)` decides races), then the
--      redemption; an event token adds the scanner as an attendee and the pair to the event.
-- A refusal is returned before anything is written. Should the same scanner's concurrent
-- redemption of the same token commit between steps 2 and 6, the function raises SQLSTATE
-- CNR01 and everything rolls back; the caller runs it again and gets that redemption's answer.
CREATE FUNCTION redeem_token(
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

        INSERT INTO connections AS c (profile_a, profile_b, token_id, event_id)
        VALUES (LEAST(p_owner, p_scanner), GREATEST(p_owner, p_scanner), p_token_id, p_event)
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
            -- The first time the pair met at this event: an offline scan synced late may be earlier.
            INSERT INTO event_connections AS ec (event_id, profile_a, profile_b, connection_id, first_at)
            VALUES (p_event, LEAST(p_owner, p_scanner), GREATEST(p_owner, p_scanner), v_connection, p_scanned_at)
            ON CONFLICT ON CONSTRAINT event_connections_pkey DO UPDATE SET first_at = EXCLUDED.first_at
            WHERE EXCLUDED.first_at < ec.first_at;
        END IF;
    END IF;

    RETURN QUERY
    SELECT 'ok', c.id, c.created_at, c.event_id, v_created, p.id, p.display_name, p.headline, p.created_at
    FROM connections c JOIN profiles p ON p.id = p_owner
    WHERE c.id = v_connection;
END
$$;
