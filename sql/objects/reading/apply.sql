--
-- How to put an answer in place: ALTER SYSTEM for what cannot lose data;
-- a value that can lose commits in a crash per transaction (SET LOCAL),
-- never server-wide; fsync or full_page_writes off not at all.  What a
-- value can lose is read from the value itself (sweep/policy.c) as well
-- as from what its steps recorded: no stored row can hide it.
--

CREATE OR REPLACE FUNCTION _apply(sweep_id bigint, value_pos int)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH f AS (
        SELECT r.value, r.data_loss, s.setting
        FROM walpressure.results r JOIN walpressure.sweeps s USING (sweep_id)
        WHERE r.sweep_id = $1 AND r.value_pos = $2
    ), dl AS (
        SELECT string_agg(DISTINCT l, ', ' ORDER BY l) AS labels
        FROM f, regexp_split_to_table(concat_ws(', ', f.data_loss,
                                                CASE WHEN f.setting <> 'settings' THEN
                                                    walpressure._data_loss(f.setting, f.value) END), ',\s*') AS l
        WHERE l <> ''
    ), cfg AS (
        -- a configuration's settings: server-wide the safe ones, per
        -- transaction those that lose commits, never the load's
        SELECT c.key, c.value, walpressure._data_loss(c.key, c.value) AS loses
        FROM f, jsonb_each_text(CASE WHEN f.setting = 'settings' THEN f.value::jsonb ELSE '{}' END) c
        WHERE c.key = ANY (walpressure.sweepable_settings() || walpressure.sweepable_server_settings())
    )
    SELECT nullif(btrim(CASE
        WHEN f.setting = 'disk' THEN
            '-- disk is the model of the cap, not a server setting'
        WHEN f.setting = ANY (walpressure.sweepable_load()) THEN
            format('-- %s is the load, not a server setting', f.setting)
        WHEN dl.labels LIKE '%fsync=off%' OR dl.labels LIKE '%full_page_writes=off%' THEN
            format('-- not applied: with %s a crash can corrupt the cluster; no session or transaction can take it alone',
                   dl.labels)
        WHEN f.setting = 'settings' THEN
            coalesce((SELECT string_agg(format('ALTER SYSTEM SET %I = %L;', c.key, c.value), ' ' ORDER BY c.key)
                      FROM cfg c WHERE c.loses IS NULL) || ' SELECT pg_reload_conf();', '')
            || coalesce((SELECT string_agg(format(' SET LOCAL %I = %L; -- in each transaction that may lose its commit in a crash, never server-wide',
                                                  c.key, c.value), '' ORDER BY c.key)
                         FROM cfg c WHERE c.loses IS NOT NULL), '')
            || CASE WHEN f.value::jsonb ? 'clients' THEN
                   format(' -- measured with %s clients (the load, not a setting: part of the gain may be theirs)',
                          f.value::jsonb->>'clients') ELSE '' END
        WHEN dl.labels IS NOT NULL THEN
            format('SET LOCAL %I = %L; -- in each transaction that may lose its commit in a crash, never server-wide',
                   f.setting, f.value)
        -- what a commit waits for on standbys: weaker, a commit acknowledged
        -- can be lost on a failover
        WHEN f.setting = 'synchronous_commit' AND f.value IN ('local', 'remote_write') THEN
            format('SET LOCAL synchronous_commit = %L; -- in each transaction that may be lost on a failover, never server-wide',
                   f.value)
        WHEN f.setting = 'synchronous_standby_names' THEN
            format('ALTER SYSTEM SET synchronous_standby_names = %L; SELECT pg_reload_conf(); -- a failover can lose commits not on those standbys',
                   f.value)
        WHEN f.setting = ANY (walpressure.sweepable_settings() || walpressure.sweepable_server_settings()) THEN
            format('ALTER SYSTEM SET %I = %L; SELECT pg_reload_conf();', f.setting, f.value)
        ELSE format('-- %s is not a setting a sweep varies', f.setting)
    END), '')
    FROM f, dl
$$;
