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
AS $$
DECLARE
    rels regclass[] := _prewarm.relations;
    prewarm_schema name;
    total bigint := 0;
    buffers bigint;
BEGIN
    IF rels IS NULL THEN
        SELECT array_agg(to_regclass(t) ORDER BY t) INTO rels
        FROM unnest(ARRAY['pgbench_accounts', 'pgbench_branches', 'pgbench_history',
                          'pgbench_tellers']) AS t
        WHERE to_regclass(t) IS NOT NULL;
    END IF;

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
-- rounds of repeats => 'auto' may take.
CREATE OR REPLACE FUNCTION run_sweep(
    setting text,
    vals "any",
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
    standby_conninfo text DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'wp_run_sweep'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool, text, text) IS
'Run the load once per value of a setting (x repeats, interleaved) and record every step; vals: an array of text or numbers, or for setting ''settings'' JSON objects of settings (one configuration each); checkpoint => false: no CHECKPOINT before each step; duration, warmup: an interval or seconds; repeats => ''auto'' (or a budget) adds rounds until the answer is clear; on_standby_loss => ''stop'' or ''skip'': what to do when a step''s synchronous standby is lost; standby_conninfo: a libpq connection string to the standby, whose own WAL figures each step then records';

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
REVOKE ALL ON FUNCTION run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION cancel_sweep(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION progress_row() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION progress_row() TO pg_monitor;
GRANT SELECT ON sweeps, steps, step_samples, step_statements, step_replication, results, statements, progress TO pg_monitor;

--
-- Who may sweep, and cleaning up.
--

-- Every right a sweep with the default arguments needs, in one call: the
-- schema, run_sweep, cancel_sweep, prewarm, reading the results, a
-- CHECKPOINT per step (pg_checkpoint), setting commit_delay (the setting
-- sweeps are made for; only superusers may by default), the server's pgbench (the default
-- engine: pg_execute_server_program, which lets the role run any program as
-- the server's OS user; engine => 'backend' needs none of it), and the rows
-- of the pgbench tables the load reads and writes.  Returns each GRANT.
CREATE OR REPLACE FUNCTION grant_sweeper(role regrole, engine text DEFAULT 'pgbench')
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    r text := grant_sweeper.role::text;
    g text;
    t text;
BEGIN
    IF grant_sweeper.engine NOT IN ('pgbench', 'backend') THEN
        RAISE EXCEPTION 'unknown engine "%"', grant_sweeper.engine
            USING ERRCODE = 'invalid_parameter_value', HINT = 'Engines: pgbench, backend.';
    END IF;
    FOREACH g IN ARRAY ARRAY[
        format('GRANT USAGE ON SCHEMA walpressure TO %s', r),
        format('GRANT EXECUTE ON FUNCTION walpressure.run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool, text, text), '
               'walpressure.cancel_sweep(bigint), walpressure.prewarm(regclass[]), walpressure.progress_row() TO %s', r),
        format('GRANT SELECT ON walpressure.sweeps, walpressure.steps, walpressure.step_samples, '
               'walpressure.step_statements, walpressure.step_replication, walpressure.results, walpressure.statements, '
               'walpressure.best, walpressure.progress TO %s', r),
        format('GRANT pg_checkpoint TO %s', r),
        format('GRANT SET ON PARAMETER commit_delay TO %s', r)]
    LOOP
        EXECUTE g;
        RETURN NEXT g;
    END LOOP;
    IF grant_sweeper.engine = 'pgbench' THEN
        g := format('GRANT pg_execute_server_program TO %s', r);
        EXECUTE g;
        RETURN NEXT g || '   -- the default engine runs the server''s pgbench: this lets the role run any program as the server''s OS user';
    END IF;
    -- the pgbench tables the caller's search_path finds (as run_sweep will),
    -- when they exist
    FOR t, g IN
        SELECT c.oid::regclass::text, CASE WHEN c.relname = 'pgbench_history' THEN 'SELECT, INSERT' ELSE 'SELECT, UPDATE' END
        FROM unnest(ARRAY['pgbench_accounts', 'pgbench_branches', 'pgbench_tellers', 'pgbench_history']) AS n
        JOIN pg_catalog.pg_class c ON c.oid = pg_catalog.to_regclass(n)
        ORDER BY 1
    LOOP
        g := format('GRANT %s ON %s TO %s', g, t, r);
        EXECUTE g;
        RETURN NEXT g;
    END LOOP;
    IF NOT FOUND THEN
        RAISE NOTICE 'no pgbench tables yet: after walpressure.init_pgbench(), call grant_sweeper again for their rows';
    END IF;
END
$$;

COMMENT ON FUNCTION grant_sweeper(regrole, text) IS
'Grant a role every right a sweep with the default arguments needs (engine => ''backend'': without pg_execute_server_program); returns the GRANTs';

-- The reverse of grant_sweeper.
CREATE OR REPLACE FUNCTION revoke_sweeper(role regrole)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    r text := revoke_sweeper.role::text;
    g text;
    t text;
BEGIN
    FOR t IN
        SELECT c.oid::regclass::text
        FROM unnest(ARRAY['pgbench_accounts', 'pgbench_branches', 'pgbench_tellers', 'pgbench_history']) AS n
        JOIN pg_catalog.pg_class c ON c.oid = pg_catalog.to_regclass(n)
        ORDER BY 1
    LOOP
        g := format('REVOKE SELECT, INSERT, UPDATE ON %s FROM %s', t, r);
        EXECUTE g;
        RETURN NEXT g;
    END LOOP;
    FOREACH g IN ARRAY ARRAY[
        format('REVOKE pg_execute_server_program FROM %s', r),
        format('REVOKE pg_checkpoint FROM %s', r),
        format('REVOKE SET ON PARAMETER commit_delay FROM %s', r),
        format('REVOKE SELECT ON walpressure.sweeps, walpressure.steps, walpressure.step_samples, '
               'walpressure.step_statements, walpressure.step_replication, walpressure.results, walpressure.statements, '
               'walpressure.best, walpressure.progress FROM %s', r),
        format('REVOKE EXECUTE ON FUNCTION walpressure.run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool, text, text), '
               'walpressure.cancel_sweep(bigint), walpressure.prewarm(regclass[]), walpressure.progress_row() FROM %s', r),
        format('REVOKE USAGE ON SCHEMA walpressure FROM %s', r)]
    LOOP
        EXECUTE g;
        RETURN NEXT g;
    END LOOP;
END
$$;

COMMENT ON FUNCTION revoke_sweeper(regrole) IS
'Revoke what grant_sweeper granted; returns the REVOKEs';

-- Delete the sweeps that ended before now() - older_than, with their steps
-- and samples; a running sweep is never deleted.  Returns how many went.
CREATE OR REPLACE FUNCTION delete_sweeps(older_than interval)
RETURNS bigint
LANGUAGE sql VOLATILE
BEGIN ATOMIC
    WITH gone AS (
        DELETE FROM walpressure.sweeps
        WHERE status <> 'running' AND coalesce(finished_at, started_at) < now() - older_than
        RETURNING 1)
    SELECT count(*) FROM gone;
END;

COMMENT ON FUNCTION delete_sweeps(interval) IS
'Delete the sweeps that ended more than older_than ago (steps and samples with them); never a running one; returns how many';

REVOKE ALL ON FUNCTION grant_sweeper(regrole, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION revoke_sweeper(regrole) FROM PUBLIC;
REVOKE ALL ON FUNCTION delete_sweeps(interval) FROM PUBLIC;
