--
-- Preparing the data.
--

CREATE OR REPLACE FUNCTION init_pgbench(scale int DEFAULT 10)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_init_pgbench'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION init_pgbench(int) IS
'The pgbench tables, built in the server as pgbench -i -I dtGvp -s scale does';

-- prewarm() after its check (the pgbench tables exist when no relation is
-- named): the relations and their indexes.
CREATE OR REPLACE FUNCTION _prewarm(relations regclass[])
RETURNS TABLE (relation regclass, blocks bigint)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    rels regclass[] := _prewarm.relations;
    prewarm_schema name;
    total bigint := 0;
    buffers bigint;
BEGIN
    -- (prewarm() names the pgbench tables when it is given none)

    SELECT n.nspname INTO prewarm_schema
    FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_prewarm';

    FOR relation IN
        SELECT r FROM unnest(rels) AS r
        UNION
        SELECT i.indexrelid::regclass
        FROM unnest(rels) AS r JOIN pg_catalog.pg_index i ON i.indrelid = r
        ORDER BY 1
    LOOP
        EXECUTE format('SELECT %I.pg_prewarm($1, ''buffer'')', prewarm_schema)
            INTO blocks USING relation;
        total := total + blocks;
        RETURN NEXT;
    END LOOP;

    SELECT setting::bigint INTO buffers FROM pg_catalog.pg_settings WHERE name = 'shared_buffers';
    IF total > buffers THEN
        RAISE NOTICE '% blocks prewarmed, but shared_buffers holds %: they do not all stay cached',
            total, buffers
            USING HINT = 'Raise shared_buffers or use a smaller scale, so that steps read no data from disk.';
    END IF;
END
$$;

COMMENT ON FUNCTION _prewarm(regclass[]) IS
'prewarm() after its check';

CREATE OR REPLACE FUNCTION prewarm(relations regclass[] DEFAULT NULL)
RETURNS TABLE (relation regclass, blocks bigint)
AS 'MODULE_PATHNAME', 'wp_prewarm'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION prewarm(regclass[]) IS
'pg_prewarm (buffer) of the relations and all their indexes; default the pgbench tables';

--
-- Running sweeps.
--

-- The settings a sweep can vary, or fix for all its steps.
CREATE OR REPLACE FUNCTION sweepable_settings()
RETURNS text[]
AS 'MODULE_PATHNAME', 'wp_sweepable_settings'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- Those of sweepable_settings() applied to the whole server (ALTER SYSTEM and
-- a reload) and restored when the sweep ends.
CREATE OR REPLACE FUNCTION sweepable_server_settings()
RETURNS text[]
AS 'MODULE_PATHNAME', 'wp_sweepable_server_settings'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- The pseudo-parameters a sweep can vary: the load itself.
-- round_trip_us: the emulated client round trip before each statement.
CREATE OR REPLACE FUNCTION sweepable_load()
RETURNS text[]
AS 'MODULE_PATHNAME', 'wp_sweepable_load'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- What a crash with this value can lose: 'fsync=off', 'full_page_writes=off',
-- 'synchronous_commit=off', or NULL.
CREATE OR REPLACE FUNCTION _data_loss(setting text, value text)
RETURNS text
AS 'MODULE_PATHNAME', 'wp_data_loss_sql'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

-- An integer setting's value as the GUC machinery reads it ('1.5', '1e1',
-- '0x5' are 2, 10, 5), NULL when it is not one: for the views.
CREATE OR REPLACE FUNCTION _int_setting(value text)
RETURNS int
AS 'MODULE_PATHNAME', 'wp_int_setting_sql'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

-- Every argument is checked in C, as the caller, before anything starts;
-- the checked request goes to the coordinator as it is.  vals takes what
-- people type: ARRAY['0', '1000'], ARRAY[0, 1000], '{0,1000}'; duration and
-- warmup an interval ('60 s') or a number of seconds (60); repeats a number
-- of rounds or 'auto', and budget (an interval or seconds) the time the
-- rounds of repeats => 'auto' may take; rate (transactions per second,
-- pgbench's --rate) makes it an open loop, latency_limit (ms) counts late
-- transactions and skips those that would start later than it.  range
-- instead of vals: a search over '[low, high]' of a number setting, by the
-- resolution (a number, or text with a unit), search => 'golden' (or
-- 'auto', the default).
CREATE OR REPLACE FUNCTION run_sweep(
    setting text,
    vals "any" DEFAULT NULL::text[],
    clients int DEFAULT 10,
    duration "any" DEFAULT '60 s'::interval,
    workload text DEFAULT 'simple-update',
    iops_cap int DEFAULT NULL,
    warmup "any" DEFAULT '5 s'::interval,
    repeats "any" DEFAULT 1,
    settings jsonb DEFAULT '{}',
    prewarm bool DEFAULT true,
    label text DEFAULT NULL,
    wait bool DEFAULT true,
    accept_data_loss bool DEFAULT false,
    engine text DEFAULT 'pgbench',
    script text DEFAULT NULL,
    budget "any" DEFAULT NULL::interval,
    checkpoint bool DEFAULT true,
    on_standby_loss text DEFAULT 'stop',
    standby_conninfo text DEFAULT NULL,
    rate float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    range text DEFAULT NULL,
    search text DEFAULT NULL,
    resolution "any" DEFAULT NULL::text,
    disk text DEFAULT NULL,
    flush_floor_ms float8 DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'wp_run_sweep'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool, text, text, float8, float8, text, text, "any", text, float8) IS
'Run the load once per value of a setting (x repeats, interleaved) and record every step; vals: an array of text or numbers, or for setting ''settings'' JSON objects of settings (one configuration each); range instead of vals: a golden-section search for the value with the most tps in ''[low, high]'' of a number setting, to a resolution (default a twentieth of the range), each round measuring the current value and the pair being compared, rounds added while the rule cannot order the pair (search_rounds records each round and why); checkpoint => false: no CHECKPOINT before each step; duration, warmup: an interval or seconds; repeats => ''auto'' (or a budget) adds rounds until the answer is clear; on_standby_loss => ''stop'' or ''skip'': what to do when a step''s synchronous standby is lost; standby_conninfo: a libpq connection string to the standby, whose own WAL figures each step then records; rate: an open loop, transactions per second started on a Poisson schedule (pgbench''s --rate; run_sweep(''rate'', ...) sweeps it), each latency counted from its scheduled start; latency_limit: milliseconds above which a transaction is late (with a rate, one that would start later is skipped); disk: what iops_cap stands for, ''paced'' (the default where the server was started with walpressure_pacer.so: every write IO and flush its share of the cap, in arrival order, as a volume; flush_floor_ms the least a flush takes) or ''throttle'' (the cgroup''s blk-throttle: a 100 ms slice''s IOs at once, then a stall); run_sweep(''disk'', ARRAY[''paced'', ''throttle''], iops_cap => N) sweeps it';

CREATE OR REPLACE FUNCTION cancel_sweep(sweep_id bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'wp_cancel_sweep'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION cancel_sweep(bigint) IS
'Stop a running sweep and wait until it has stopped; the steps it finished are kept';

CREATE OR REPLACE FUNCTION progress_row(
    OUT pid int,
    OUT job text,
    OUT sweep_id bigint,
    OUT database text,
    OUT run_by text,
    OUT step int,
    OUT steps_total int,
    OUT steps_done int,
    OUT setting text,
    OUT value text,
    OUT repeat int,
    OUT phase text,
    OUT phase_seconds float8,
    OUT estimated_end timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'wp_progress'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

CREATE OR REPLACE VIEW progress AS
SELECT pid, job, sweep_id, database, run_by, step, steps_total, steps_done,
       setting, value, repeat, phase, round(phase_seconds::numeric, 1) AS phase_seconds,
       estimated_end
FROM progress_row();

COMMENT ON VIEW progress IS
'The sweep or init_pgbench that runs, in the manner of pg_stat_progress_*: step i of n, its value and repeat, its phase (checkpoint, warm-up, measured window, ...) and for how long, and the estimated end; no row when none runs';

REVOKE ALL ON FUNCTION init_pgbench(int) FROM PUBLIC;
REVOKE ALL ON FUNCTION prewarm(regclass[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool, text, text, float8, float8, text, text, "any", text, float8) FROM PUBLIC;
REVOKE ALL ON FUNCTION cancel_sweep(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION progress_row() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION progress_row() TO pg_monitor;
GRANT SELECT ON sweeps, steps, step_samples, step_replication, search_rounds, results, progress TO pg_monitor;
-- the load's statement texts: pg_stat_statements shows another role's only
-- to pg_read_all_stats, and so do these
GRANT USAGE ON SCHEMA walpressure TO pg_read_all_stats;
GRANT SELECT ON step_statements, statements TO pg_read_all_stats;

--
-- Who may sweep, and cleaning up.
--

-- grant_sweeper() after the caller's side (C): give a role every right a
-- sweep needs that it does not hold yet, and record each, so that
-- revoke_sweeper takes back exactly what was given.  pg_execute_server_program
-- (the pgbench engine: any program as the server's OS user, which equals
-- superuser) only with engine => 'pgbench'.  The results' statement texts
-- (step_statements, statements) are not among them: pg_read_all_stats'.
CREATE OR REPLACE FUNCTION _grant_sweeper(role regrole, engine text, tables regclass[])
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r text := _grant_sweeper.role::text;
    g record;
BEGIN
    FOR g IN
        SELECT * FROM (
            SELECT 1 AS o, format('GRANT USAGE ON SCHEMA walpressure TO %s', r) AS grant_sql,
                   format('REVOKE USAGE ON SCHEMA walpressure FROM %s', r) AS revoke_sql,
                   has_schema_privilege(_grant_sweeper.role, 'walpressure', 'USAGE') AS held
            UNION ALL
            SELECT 2, format('GRANT EXECUTE ON FUNCTION %s TO %s', f::regprocedure, r),
                   format('REVOKE EXECUTE ON FUNCTION %s FROM %s', f::regprocedure, r),
                   has_function_privilege(_grant_sweeper.role, f, 'EXECUTE')
            FROM unnest(ARRAY(SELECT p.oid FROM pg_catalog.pg_proc p
                              WHERE p.pronamespace = 'walpressure'::regnamespace
                                AND p.proname IN ('run_sweep', 'cancel_sweep', 'prewarm', 'progress_row')
                              ORDER BY p.proname)) AS f
            UNION ALL
            SELECT 3, format('GRANT SELECT ON %s TO %s', c, r), format('REVOKE SELECT ON %s FROM %s', c, r),
                   has_table_privilege(_grant_sweeper.role, c, 'SELECT')
            FROM unnest(ARRAY['walpressure.sweeps', 'walpressure.steps', 'walpressure.step_samples',
                              'walpressure.step_replication', 'walpressure.search_rounds',
                              'walpressure.results', 'walpressure.best',
                              'walpressure.progress']::regclass[]) AS c
            UNION ALL
            SELECT 4, format('GRANT pg_checkpoint TO %s', r), format('REVOKE pg_checkpoint FROM %s', r),
                   pg_has_role(_grant_sweeper.role, 'pg_checkpoint', 'MEMBER')
            UNION ALL
            SELECT 5, format('GRANT SET ON PARAMETER %s TO %s', p, r),
                   format('REVOKE SET ON PARAMETER %s FROM %s', p, r),
                   has_parameter_privilege(_grant_sweeper.role, p, 'SET')
            FROM unnest(ARRAY['commit_delay', 'track_wal_io_timing']) AS p
            UNION ALL
            SELECT 6, format('GRANT pg_execute_server_program TO %s', r),
                   format('REVOKE pg_execute_server_program FROM %s', r),
                   pg_has_role(_grant_sweeper.role, 'pg_execute_server_program', 'MEMBER')
            WHERE _grant_sweeper.engine = 'pgbench'
            UNION ALL
            -- the pgbench tables: the rights the role lacks of those the load uses
            SELECT 7, format('GRANT %s ON %s TO %s', privs, t, r), format('REVOKE %s ON %s FROM %s', privs, t, r),
                   privs IS NULL
            FROM (SELECT t, string_agg(p, ', ' ORDER BY p <> 'SELECT', p) FILTER (WHERE NOT has_table_privilege(_grant_sweeper.role, t, p)) AS privs
                  FROM unnest(coalesce(_grant_sweeper.tables, '{}')) AS t,
                       LATERAL unnest(CASE WHEN (SELECT c.relname FROM pg_catalog.pg_class c WHERE c.oid = t) = 'pgbench_history'
                                           THEN ARRAY['SELECT', 'INSERT'] ELSE ARRAY['SELECT', 'UPDATE'] END) AS p
                  GROUP BY t) AS tp
        ) AS items
        WHERE NOT held
        ORDER BY o, grant_sql
    LOOP
        EXECUTE g.grant_sql;
        INSERT INTO walpressure.sweeper_grants (role, granted, revoke) VALUES (_grant_sweeper.role, g.grant_sql, g.revoke_sql);
        RETURN NEXT g.grant_sql || CASE WHEN g.o = 6
            THEN '   -- the pgbench engine runs the server''s pgbench: the role may run any program as the server''s OS user, which equals superuser'
            ELSE '' END;
    END LOOP;
    IF coalesce(array_length(_grant_sweeper.tables, 1), 0) = 0 THEN
        RAISE NOTICE 'no pgbench tables yet: after walpressure.init_pgbench(), call grant_sweeper again for their rows';
    END IF;
END
$$;

COMMENT ON FUNCTION _grant_sweeper(regrole, text, regclass[]) IS
'grant_sweeper() after its check: the GRANTs the role lacks, each recorded in sweeper_grants';

CREATE OR REPLACE FUNCTION grant_sweeper(role regrole, engine text DEFAULT 'backend')
RETURNS SETOF text
AS 'MODULE_PATHNAME', 'wp_grant_sweeper'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION grant_sweeper(regrole, text) IS
'Grant a role every right a sweep needs that it lacks (with engine => ''pgbench'' also pg_execute_server_program, which equals superuser), recorded for revoke_sweeper; returns the GRANTs';

-- revoke_sweeper() after the caller's side (C, which cancels the role's
-- running sweep first): what grant_sweeper gave the role, taken back, and
-- nothing else (a right it held before stays).
CREATE OR REPLACE FUNCTION _revoke_sweeper(role regrole)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    g record;
BEGIN
    FOR g IN WITH gone AS (DELETE FROM walpressure.sweeper_grants sg WHERE sg.role = _revoke_sweeper.role
                           RETURNING sg.revoke, sg.grant_id)
             SELECT * FROM gone ORDER BY grant_id DESC LOOP
        BEGIN
            EXECUTE g.revoke;
            RETURN NEXT g.revoke;
        EXCEPTION WHEN undefined_table OR undefined_function OR undefined_object THEN
            -- a pgbench table dropped since: nothing left to revoke on it
            RETURN NEXT '-- gone: ' || g.revoke;
        END;
    END LOOP;
    IF NOT FOUND THEN
        RAISE NOTICE 'grant_sweeper gave % nothing that is not taken back already', _revoke_sweeper.role
            USING HINT = 'Rights granted by walpressure before 0.7.0 were not recorded: revoke them by hand.';
    END IF;
END
$$;

COMMENT ON FUNCTION _revoke_sweeper(regrole) IS
'revoke_sweeper() after its check: the recorded GRANTs of grant_sweeper, revoked';

CREATE OR REPLACE FUNCTION revoke_sweeper(role regrole)
RETURNS SETOF text
AS 'MODULE_PATHNAME', 'wp_revoke_sweeper'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION revoke_sweeper(regrole) IS
'Cancel the role''s running sweep, then revoke what grant_sweeper gave it (and nothing it held before); returns the REVOKEs';

-- Delete the sweeps that ended before now() - older_than, with their steps
-- and samples; a running sweep is never deleted.  Returns how many went.
CREATE OR REPLACE FUNCTION delete_sweeps(older_than interval)
RETURNS bigint
AS 'MODULE_PATHNAME', 'wp_delete_sweeps'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION delete_sweeps(interval) IS
'Delete the sweeps that ended more than older_than ago (steps and samples with them); never a running one; refuses an interval that is not positive; returns how many';

REVOKE ALL ON FUNCTION grant_sweeper(regrole, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION _grant_sweeper(regrole, text, regclass[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION _revoke_sweeper(regrole) FROM PUBLIC;
REVOKE ALL ON FUNCTION revoke_sweeper(regrole) FROM PUBLIC;
REVOKE ALL ON FUNCTION delete_sweeps(interval) FROM PUBLIC;
