-- The rule 0022 keeps on every stored time (years 1 to 9999) holds on the tables that came after
-- it too (event_pictures, rate_buckets, event_changes), and the counters the server adds one to
-- stay far below the bigint maximum, so that a restored archive cannot bring a value the server
-- then trips over for good: a picture made at -infinity answered every screen of its event with
-- an error, and an event whose pairs revision sat at the maximum could be neither purged (nor,
-- behind it, any event due later) nor left by its members. 2^62 is more steps than any server takes.
--
-- As 0022: a cluster whose rows break a rule is not changed; this migration stops before adding
-- any, and says which rows (by key) break which rule (docs/data-model.md, "When a migration
-- refuses rows").

DO $$
DECLARE
    broken text := '';
    rule record;
    keys text;
BEGIN
    FOR rule IN SELECT * FROM (VALUES
        ('events', 'its pairs revision is from 0 to 2^62',
         'SELECT id::text FROM events WHERE NOT (pairs_revision BETWEEN 0 AND 4611686018427387904)'),
        ('event_pictures', 'its lease generation is from 0 to 2^62',
         'SELECT event_id::text FROM event_pictures WHERE NOT (lease_generation BETWEEN 0 AND 4611686018427387904)')
    ) AS rules (table_name, description, query)
    UNION ALL
    SELECT c.table_name::text, c.column_name || ' lies in the years 1 to 9999',
           format('SELECT %s FROM %I WHERE NOT (%I BETWEEN ''0001-01-01 00:00:00+00'' AND ''9999-12-31 23:59:59+00'')',
                  CASE WHEN a.atttypid IN ('uuid'::regtype, 'bigint'::regtype, 'integer'::regtype)
                       THEN format('%I::text', a.attname) ELSE '''a row''' END,
                  c.table_name, c.column_name)
    FROM information_schema.columns c
    JOIN pg_attribute a ON a.attrelid = format('public.%I', c.table_name)::regclass AND a.attnum = 1
    WHERE c.table_schema = 'public' AND c.data_type = 'timestamp with time zone' AND c.table_name <> 'schema_migrations'
      AND NOT EXISTS (SELECT 1 FROM pg_constraint k
                      WHERE k.conname = left(c.table_name || '_' || c.column_name || '_in_years_1_to_9999', 63))
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
        FROM information_schema.columns c
        WHERE table_schema = 'public' AND data_type = 'timestamp with time zone' AND table_name <> 'schema_migrations'
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k
                          WHERE k.conname = left(c.table_name || '_' || c.column_name || '_in_years_1_to_9999', 63))
        GROUP BY table_name ORDER BY table_name
    LOOP
        EXECUTE format('ALTER TABLE %I %s', t.table_name, t.years);
    END LOOP;
END
$$;
ALTER TABLE events
    ADD CONSTRAINT events_pairs_revision_within_2_62 CHECK (pairs_revision BETWEEN 0 AND 4611686018427387904);
ALTER TABLE event_pictures
    ADD CONSTRAINT event_pictures_lease_generation_within_2_62 CHECK (lease_generation BETWEEN 0 AND 4611686018427387904);
