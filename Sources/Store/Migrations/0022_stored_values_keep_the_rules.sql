-- The rules the API enforces on what it stores hold in the schema too, so that a restored backup
-- (or a hand-made row) cannot hold what the server was never meant to read: an event of 164
-- years, a purge date in 9999, an invitation valid for ever, a growth series whose steps overflow.
-- Each bound is the widest any setting, and any row an earlier release wrote, allows (the
-- settings' own bounds are in docs/configuration-and-operations.md); the server checks the
-- narrower ones it is configured with, such as how far ahead an event may start. Intervals are in
-- hours: a day's length depends on the session's time zone, an hour's does not.
--
-- A cluster whose rows break a rule is not changed: this migration stops before adding any, and
-- says which rows (by key) break which rule, so that an operator can mend or remove them by hand
-- (docs/data-model.md, "When a migration refuses rows").

-- Whether `growth` is an event record's growth series as the server writes it: an array of steps,
-- each six integers from 0 to 2^31 - 1 ([step, new connections, new people, people, connections,
-- largest group]), the steps consecutive.
CREATE FUNCTION event_growth_is_well_formed(growth jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT CASE WHEN jsonb_typeof(growth) <> 'array' THEN false
                ELSE NOT EXISTS (
                    SELECT 1 FROM jsonb_array_elements(growth) WITH ORDINALITY AS s(step, position)
                    WHERE CASE WHEN jsonb_typeof(step) <> 'array' OR jsonb_array_length(step) <> 6 THEN true
                               WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(step) AS v(value)
                                            WHERE CASE WHEN jsonb_typeof(value) <> 'number' THEN true
                                                       ELSE value::numeric < 0 OR value::numeric > 2147483647
                                                            OR value::numeric <> trunc(value::numeric) END)
                                   THEN true
                               ELSE (step->>0)::numeric <> (growth->0->>0)::numeric + position - 1 END)
           END
$$;

DO $$
DECLARE
    broken text := '';
    rule record;
    keys text;
BEGIN
    FOR rule IN SELECT * FROM (VALUES
        ('events', 'an event lasts at most 31 days',
         'SELECT id::text FROM events WHERE NOT (ends_at <= starts_at + interval ''744 hours'')'),
        ('events', 'its dates and its creation are finite',
         'SELECT id::text FROM events WHERE NOT (isfinite(starts_at) AND isfinite(ends_at) AND isfinite(created_at))'),
        ('events', 'its purge date is at most 3657 days after the later of its end and its creation',
         'SELECT id::text FROM events WHERE NOT (purge_on <= greatest(ends_at, created_at) + interval ''87768 hours'')'),
        ('view_links', 'a view link lasts at most until a week into 2200 (events end by 2199)',
         'SELECT id::text FROM view_links WHERE NOT (longest_until < ''2200-01-08 00:00:00+00'')'),
        ('organizer_invitation_links', 'an invitation expires at most 720 hours after it was made (and an hour of clocks apart)',
         'SELECT id::text FROM organizer_invitation_links WHERE NOT (expires_at <= created_at + interval ''721 hours'')'),
        ('event_records', 'its growth is six integers from 0 to 2147483647 a step, the steps consecutive',
         'SELECT event_id::text FROM event_records WHERE NOT event_growth_is_well_formed(growth)'),
        ('event_records', 'its modularity is a number from -1 to 1',
         'SELECT event_id::text FROM event_records WHERE NOT (modularity BETWEEN -1 AND 1)'),
        ('event_connections', 'a pair met in 1970 or later (growth steps count from 1970)',
         'SELECT event_id::text FROM event_connections WHERE NOT (first_at >= ''1970-01-01 00:00:00+00'')')
    ) AS rules (table_name, description, query)
    UNION ALL
    -- Every time the server reads: years 1 to 9999, the ones it parses. Rows are named by their
    -- first column when it is an id (uuid or integer), else only counted (a key's hash is no name).
    SELECT c.table_name::text, c.column_name || ' lies in the years 1 to 9999',
           format('SELECT %s FROM %I WHERE NOT (%I BETWEEN ''0001-01-01 00:00:00+00'' AND ''9999-12-31 23:59:59+00'')',
                  CASE WHEN a.atttypid IN ('uuid'::regtype, 'bigint'::regtype, 'integer'::regtype)
                       THEN format('%I::text', a.attname) ELSE '''a row''' END,
                  c.table_name, c.column_name)
    FROM information_schema.columns c
    JOIN pg_attribute a ON a.attrelid = format('public.%I', c.table_name)::regclass AND a.attnum = 1
    WHERE c.table_schema = 'public' AND c.data_type = 'timestamp with time zone' AND c.table_name <> 'schema_migrations'
    LOOP
        EXECUTE format('SELECT string_agg(key, '', '') FROM (SELECT DISTINCT * FROM (%s) AS found (key) ORDER BY 1 LIMIT 5) AS shown (key)',
                       rule.query) INTO keys;
        IF keys IS NOT NULL THEN
            broken := broken || format(E'\n  %s (%s): %s', rule.table_name, rule.description, keys);
        END IF;
    END LOOP;
    IF broken <> '' THEN
        RAISE EXCEPTION 'rows break rules the server keeps (at most five keys a rule):%', broken
                        || E'\nNothing was changed: mend or delete these rows by hand '
                        || '(docs/data-model.md, "When a migration refuses rows"), then start again.'
            USING ERRCODE = 'CNR02';
    END IF;
END
$$;

-- Each table's new rules are added by one ALTER TABLE, so that it reads the table once.
DO $$
DECLARE
    t record;
BEGIN
    FOR t IN
        SELECT table_name, string_agg(
                   format('ADD CONSTRAINT %I CHECK (%I BETWEEN ''0001-01-01 00:00:00+00'' AND ''9999-12-31 23:59:59+00'')',
                          left(table_name || '_' || column_name || '_in_years_1_to_9999', 63), column_name),
                   ', ' ORDER BY column_name) AS years
        FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type = 'timestamp with time zone' AND table_name <> 'schema_migrations'
        GROUP BY table_name ORDER BY table_name
    LOOP
        EXECUTE format('ALTER TABLE %I %s%s', t.table_name, t.years, CASE t.table_name
            WHEN 'events' THEN
                ', ADD CONSTRAINT events_last_at_most_31_days CHECK (ends_at <= starts_at + interval ''744 hours'')'
                ', ADD CONSTRAINT events_dates_are_finite CHECK (isfinite(starts_at) AND isfinite(ends_at) AND isfinite(created_at))'
                ', ADD CONSTRAINT events_purge_within_3657_days_of_the_end'
                ' CHECK (purge_on <= greatest(ends_at, created_at) + interval ''87768 hours'')'
            WHEN 'view_links' THEN
                ', ADD CONSTRAINT view_links_last_until_a_week_into_2200 CHECK (longest_until < ''2200-01-08 00:00:00+00'')'
            WHEN 'organizer_invitation_links' THEN
                ', ADD CONSTRAINT organizer_invitation_links_expire_within_721_hours'
                ' CHECK (expires_at <= created_at + interval ''721 hours'')'
            WHEN 'event_connections' THEN
                ', ADD CONSTRAINT event_connections_met_from_1970 CHECK (first_at >= ''1970-01-01 00:00:00+00'')'
            ELSE '' END);
    END LOOP;
END
$$;
ALTER TABLE event_records
    ADD CONSTRAINT event_records_growth_well_formed CHECK (event_growth_is_well_formed(growth)),
    ADD CONSTRAINT event_records_modularity_from_minus_1_to_1 CHECK (modularity BETWEEN -1 AND 1);
