/* sql/walpressure--0.1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION walpressure" to load this file. \quit

--
-- Live instrumentation: what the commit probe and the sampler see.
--

CREATE FUNCTION live_figures(
    OUT period text,
    OUT since timestamptz,
    OUT seconds float8,
    OUT commits bigint,
    OUT commits_per_s float8,
    OUT wal_fsyncs bigint,
    OUT wal_fsyncs_per_s float8,
    OUT leader_fsyncs bigint,
    OUT commits_per_fsync float8,
    OUT leader_pct float8,
    OUT fsync_avg_ms float8,
    OUT fsync_p50_ms float8,
    OUT fsync_p99_ms float8,
    OUT commit_avg_ms float8,
    OUT commit_p50_ms float8,
    OUT commit_p99_ms float8,
    OUT wal_mb_per_s float8,
    OUT fpi_pct float8,
    OUT wal_buffers_full_per_s float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'wp_live_figures'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION live_figures() IS
'WAL flush figures since reset() and over the last 60 s; read them through walpressure.live';

CREATE VIEW live AS
SELECT period,
       since,
       round(seconds::numeric, 1) AS seconds,
       commits,
       round(commits_per_s::numeric, 1) AS commits_per_s,
       wal_fsyncs,
       round(wal_fsyncs_per_s::numeric, 1) AS wal_fsyncs_per_s,
       leader_fsyncs,
       round(commits_per_fsync::numeric, 2) AS commits_per_fsync,
       round(leader_pct::numeric, 1) AS leader_pct,
       round(fsync_avg_ms::numeric, 3) AS fsync_avg_ms,
       round(fsync_p50_ms::numeric, 3) AS fsync_p50_ms,
       round(fsync_p99_ms::numeric, 3) AS fsync_p99_ms,
       round(commit_avg_ms::numeric, 3) AS commit_avg_ms,
       round(commit_p50_ms::numeric, 3) AS commit_p50_ms,
       round(commit_p99_ms::numeric, 3) AS commit_p99_ms,
       round(wal_mb_per_s::numeric, 2) AS wal_mb_per_s,
       round(fpi_pct::numeric, 1) AS fpi_pct,
       round(wal_buffers_full_per_s::numeric, 2) AS wal_buffers_full_per_s
FROM live_figures();

COMMENT ON VIEW live IS
'How this server flushes its WAL: since reset() and over the last 60 s';

CREATE FUNCTION sample_rows(
    OUT sample_time timestamptz,
    OUT seconds float8,
    OUT commits bigint,
    OUT leaders bigint,
    OUT wal_fsyncs bigint,
    OUT wal_writes bigint,
    OUT commits_per_fsync float8,
    OUT wal_records bigint,
    OUT wal_fpi bigint,
    OUT wal_bytes bigint,
    OUT wal_buffers_full bigint,
    OUT commit_p50_ms float8,
    OUT commit_p99_ms float8,
    OUT fsync_p50_ms float8,
    OUT fsync_p99_ms float8,
    OUT insert_lsn pg_lsn,
    OUT flush_lsn pg_lsn,
    OUT checkpoints_timed bigint,
    OUT checkpoints_requested bigint,
    OUT waiting_walwrite_lock int,
    OUT waiting_wal_sync int,
    OUT waiting_wal_write int,
    OUT waiting_other int,
    OUT read_iops float8,
    OUT write_iops float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'wp_sample_rows'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION sample_rows() IS
'The sampler''s ring, one row per interval; read it through walpressure.samples';

CREATE VIEW samples AS
SELECT sample_time,
       round(seconds::numeric, 3) AS seconds,
       commits,
       leaders,
       wal_fsyncs,
       wal_writes,
       round(commits_per_fsync::numeric, 2) AS commits_per_fsync,
       wal_records,
       wal_fpi,
       wal_bytes,
       wal_buffers_full,
       round(commit_p50_ms::numeric, 3) AS commit_p50_ms,
       round(commit_p99_ms::numeric, 3) AS commit_p99_ms,
       round(fsync_p50_ms::numeric, 3) AS fsync_p50_ms,
       round(fsync_p99_ms::numeric, 3) AS fsync_p99_ms,
       insert_lsn,
       flush_lsn,
       checkpoints_timed,
       checkpoints_requested,
       waiting_walwrite_lock,
       waiting_wal_sync,
       waiting_wal_write,
       waiting_other,
       round(read_iops::numeric) AS read_iops,
       round(write_iops::numeric) AS write_iops
FROM sample_rows();

COMMENT ON VIEW samples IS
'One row per walpressure.sample_interval: the activity of that interval and the waits at its end';

CREATE FUNCTION reset()
RETURNS void
AS 'MODULE_PATHNAME', 'wp_reset'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION reset() IS
'Start walpressure.live and walpressure.samples afresh from now';

--
-- Privileges: reading is for pg_monitor, changing is for superusers.
--

GRANT USAGE ON SCHEMA walpressure TO pg_monitor;
REVOKE ALL ON FUNCTION live_figures() FROM PUBLIC;
REVOKE ALL ON FUNCTION sample_rows() FROM PUBLIC;
REVOKE ALL ON FUNCTION reset() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION live_figures() TO pg_monitor;
GRANT EXECUTE ON FUNCTION sample_rows() TO pg_monitor;
GRANT SELECT ON live, samples TO pg_monitor;

--
-- Experiments: sweeps, their steps and per-second samples.
--

CREATE TABLE sweeps (
    sweep_id bigserial PRIMARY KEY,
    label text,
    setting text NOT NULL,
    vals text[] NOT NULL,
    clients int NOT NULL,
    duration interval NOT NULL,
    workload text NOT NULL,
    iops_cap int,
    warmup interval NOT NULL,
    repeats int NOT NULL,
    settings jsonb NOT NULL DEFAULT '{}',
    prewarm bool NOT NULL,
    scale int,
    run_by name NOT NULL,
    database name NOT NULL,
    status text NOT NULL DEFAULT 'running'
        CHECK (status IN ('running', 'done', 'cancelled', 'failed', 'aborted')),
    steps_total int NOT NULL,
    steps_done int NOT NULL DEFAULT 0,
    error text,
    server_settings jsonb,
    server_version text NOT NULL DEFAULT current_setting('server_version'),
    walpressure_version text,
    started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at timestamptz
);

COMMENT ON TABLE sweeps IS
'One row per run_sweep call: its arguments, the server settings at its start, status and progress';

CREATE TABLE steps (
    sweep_id bigint NOT NULL REFERENCES sweeps ON DELETE CASCADE,
    step int NOT NULL,
    value text NOT NULL,
    value_pos int NOT NULL,
    repeat int NOT NULL,
    clients int NOT NULL,
    batch_size int,
    started_at timestamptz NOT NULL,
    seconds float8 NOT NULL,
    transactions bigint NOT NULL,
    retries bigint NOT NULL,
    tps float8 NOT NULL,
    rows_per_s float8,
    latency_avg_ms float8,
    latency_stddev_ms float8,
    latency_p50_ms float8,
    latency_p95_ms float8,
    latency_p99_ms float8,
    commits bigint NOT NULL,
    leaders bigint NOT NULL,
    wal_fsyncs bigint NOT NULL,
    commits_per_fsync float8,
    wal_fsyncs_per_s float8 NOT NULL,
    fsync_avg_ms float8,
    fsync_p50_ms float8,
    fsync_p99_ms float8,
    wal_bytes bigint NOT NULL,
    wal_records bigint NOT NULL,
    wal_fpi bigint NOT NULL,
    fpi_pct float8,
    wal_buffers_full bigint NOT NULL,
    checkpoints_timed bigint NOT NULL,
    checkpoints_requested bigint NOT NULL,
    server_seconds float8 NOT NULL,
    iops_cap int,
    read_iops float8,
    write_iops float8,
    PRIMARY KEY (sweep_id, step)
);

COMMENT ON TABLE steps IS
'One row per value x repeat of a sweep: the measured window''s figures';
COMMENT ON COLUMN steps.seconds IS 'length of the measured window (tps and latency cover it)';
COMMENT ON COLUMN steps.write_iops IS
'writes per second to the pg_wal disk over the window: the cgroup''s counters under a cap, /proc/diskstats (the whole disk) otherwise';
COMMENT ON COLUMN steps.server_seconds IS
'window start to the clients'' exit: what the server-side figures (commits, WAL, fsyncs) cover';

CREATE TABLE step_samples (
    sweep_id bigint NOT NULL,
    step int NOT NULL,
    second int NOT NULL,
    tps float8 NOT NULL,
    latency_p50_ms float8,
    latency_p99_ms float8,
    commits bigint NOT NULL,
    wal_fsyncs bigint NOT NULL,
    wal_bytes bigint NOT NULL,
    PRIMARY KEY (sweep_id, step, second),
    FOREIGN KEY (sweep_id, step) REFERENCES steps ON DELETE CASCADE
);

COMMENT ON TABLE step_samples IS
'Each second of each step''s measured window (WAL figures lag up to a second: pg_stat_wal is flushed once a second)';

SELECT pg_catalog.pg_extension_config_dump('sweeps', '');
SELECT pg_catalog.pg_extension_config_dump('sweeps_sweep_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('steps', '');
SELECT pg_catalog.pg_extension_config_dump('step_samples', '');

CREATE VIEW results AS
WITH per_value AS (
    SELECT st.sweep_id, st.value_pos, st.value,
           count(*) AS repeats,
           avg(st.tps) AS tps,
           avg(st.rows_per_s) AS rows_per_s,
           avg(st.latency_avg_ms) AS latency_avg_ms,
           avg(st.latency_stddev_ms) AS latency_stddev_ms,
           avg(st.latency_p50_ms) AS latency_p50_ms,
           avg(st.latency_p95_ms) AS latency_p95_ms,
           avg(st.latency_p99_ms) AS latency_p99_ms,
           sum(st.commits)::float8 / nullif(sum(st.wal_fsyncs), 0) AS commits_per_fsync,
           avg(st.wal_fsyncs_per_s) AS wal_fsyncs_per_s,
           avg(st.fsync_avg_ms) AS fsync_avg_ms,
           sum(st.wal_bytes) / 1048576.0 / count(*) AS wal_mb,
           100.0 * sum(st.wal_fpi) / nullif(sum(st.wal_records), 0) AS fpi_pct,
           sum(st.checkpoints_timed + st.checkpoints_requested) AS checkpoints,
           sum(st.retries) AS retries,
           avg(st.iops_cap) AS iops_cap,
           avg(st.write_iops) AS write_iops,
           avg(st.read_iops) AS read_iops
    FROM steps st
    GROUP BY st.sweep_id, st.value_pos, st.value
)
SELECT s.sweep_id,
       s.label,
       s.setting,
       v.value,
       v.repeats,
       round(v.tps::numeric, 1) AS tps,
       round(v.rows_per_s::numeric, 1) AS rows_per_s,
       round(v.latency_avg_ms::numeric, 3) AS latency_avg_ms,
       round(v.latency_stddev_ms::numeric, 3) AS latency_stddev_ms,
       round(v.latency_p50_ms::numeric, 3) AS latency_p50_ms,
       round(v.latency_p95_ms::numeric, 3) AS latency_p95_ms,
       round(v.latency_p99_ms::numeric, 3) AS latency_p99_ms,
       round(v.commits_per_fsync::numeric, 2) AS commits_per_fsync,
       round(v.wal_fsyncs_per_s::numeric, 1) AS wal_fsyncs_per_s,
       v.iops_cap::int AS iops_cap,
       round(v.write_iops::numeric) AS write_iops,
       round(v.read_iops::numeric) AS read_iops,
       round(v.fsync_avg_ms::numeric, 3) AS fsync_avg_ms,
       round(v.wal_mb::numeric, 1) AS wal_mb,
       round(v.fpi_pct::numeric, 1) AS fpi_pct,
       v.checkpoints,
       v.retries,
       round((v.tps / nullif(b.tps, 0))::numeric, 2) AS speedup
FROM per_value v
JOIN sweeps s USING (sweep_id)
JOIN per_value b ON b.sweep_id = v.sweep_id AND b.value_pos = 1
ORDER BY s.sweep_id, v.value_pos;

COMMENT ON VIEW results IS
'One row per sweep and value: means over the repeats, speedup against the first value';

--
-- Preparing the data.
--

CREATE FUNCTION init_pgbench(scale int DEFAULT 10)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_init_pgbench'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION init_pgbench(int) IS
'The pgbench tables, built in the server as pgbench -i -I dtGvp -s scale does';

CREATE FUNCTION prewarm(relations regclass[] DEFAULT NULL)
RETURNS TABLE (relation regclass, blocks bigint)
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    rels regclass[] := relations;
    prewarm_schema name;
    total bigint := 0;
    buffers bigint;
BEGIN
    IF rels IS NULL THEN
        SELECT array_agg(to_regclass(t) ORDER BY t) INTO rels
        FROM unnest(ARRAY['pgbench_accounts', 'pgbench_branches', 'pgbench_history',
                          'pgbench_tellers']) AS t
        WHERE to_regclass(t) IS NOT NULL;
        IF coalesce(array_length(rels, 1), 0) < 4 THEN
            RAISE EXCEPTION 'the pgbench tables are missing'
                USING HINT = 'Create them with SELECT walpressure.init_pgbench(10); or name the relations to prewarm.';
        END IF;
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

COMMENT ON FUNCTION prewarm(regclass[]) IS
'pg_prewarm (buffer) of the relations and all their indexes; default the pgbench tables';

--
-- Running sweeps.
--

CREATE FUNCTION _free_worker_slots()
RETURNS int
AS 'MODULE_PATHNAME', 'wp_free_worker_slots'
LANGUAGE C STRICT VOLATILE;

CREATE FUNCTION _check_setting(name text, value text)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_check_setting'
LANGUAGE C STRICT VOLATILE;

CREATE FUNCTION _launch_sweep(request text, wait bool)
RETURNS bigint
AS 'MODULE_PATHNAME', 'wp_launch_sweep'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

-- The settings a sweep can vary, or fix for all its steps: those a session
-- sets for itself, applied in each client worker.
CREATE FUNCTION sweepable_settings()
RETURNS text[]
AS 'MODULE_PATHNAME', 'wp_sweepable_settings'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- The pseudo-parameters a sweep can vary: the load itself.
CREATE FUNCTION sweepable_load()
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ARRAY['clients', 'batch_size', 'iops_cap'];

CREATE FUNCTION run_sweep(
    setting text,
    vals text[],
    clients int DEFAULT 10,
    duration interval DEFAULT '60 s',
    workload text DEFAULT 'simple-update',
    iops_cap int DEFAULT NULL,
    warmup interval DEFAULT '5 s',
    repeats int DEFAULT 1,
    settings jsonb DEFAULT '{}',
    prewarm bool DEFAULT true,
    label text DEFAULT NULL,
    wait bool DEFAULT true)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    sweepable text := array_to_string(walpressure.sweepable_settings()
                                       || walpressure.sweepable_load(), ', ');
    workloads text[] := ARRAY['simple-update', 'tpcb-like', 'insert-only',
                              'batch-insert', 'custom'];
    v text;
    k text;
    max_clients int := CASE WHEN setting = 'clients' THEN 0 ELSE clients END;
    free_workers int;
    scale int;
BEGIN
    -- nothing starts before every argument is checked
    free_workers := walpressure._free_worker_slots();   -- also: is the library preloaded?

    IF setting IS NULL OR vals IS NULL OR clients IS NULL OR duration IS NULL
       OR workload IS NULL OR warmup IS NULL OR repeats IS NULL OR settings IS NULL
       OR prewarm IS NULL OR wait IS NULL THEN
        RAISE EXCEPTION 'only iops_cap and label may be NULL'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;

    IF iops_cap IS NOT NULL AND setting = 'iops_cap' THEN
        RAISE EXCEPTION 'iops_cap is the swept setting; it cannot also be passed as iops_cap'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF iops_cap <= 0 THEN
        RAISE EXCEPTION 'iops_cap must be a positive number of write IOs per second'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF NOT (setting = ANY (walpressure.sweepable_settings() || walpressure.sweepable_load())) THEN
        RAISE EXCEPTION 'walpressure cannot sweep "%"', setting
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = format('Sweepable settings: %s.', sweepable);
    END IF;

    IF cardinality(vals) = 0 THEN
        RAISE EXCEPTION 'vals is empty: give at least one value of %', setting
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOREACH v IN ARRAY vals LOOP
        IF v IS NULL THEN
            RAISE EXCEPTION 'vals holds a NULL' USING ERRCODE = 'null_value_not_allowed';
        END IF;
        IF setting = ANY (walpressure.sweepable_load()) THEN
            IF v !~ '^\s*[0-9]+\s*$' OR v::numeric < 1 OR v::numeric > 100000 THEN
                RAISE EXCEPTION 'invalid value for %: "%"', setting, v
                    USING ERRCODE = 'invalid_parameter_value',
                          HINT = 'It must be a whole number of at least 1.';
            END IF;
            IF setting = 'clients' THEN
                max_clients := greatest(max_clients, v::int);
            END IF;
        ELSE
            PERFORM walpressure._check_setting(setting, v);
        END IF;
    END LOOP;

    IF NOT (workload = ANY (workloads)) THEN
        RAISE EXCEPTION 'unknown workload "%"', workload
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = format('Workloads: %s.', array_to_string(workloads, ', '));
    END IF;

    IF jsonb_typeof(settings) <> 'object' THEN
        RAISE EXCEPTION 'settings must be a JSON object, like ''{"commit_siblings": 5}'''
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR k, v IN SELECT key, value FROM jsonb_each_text(settings) LOOP
        IF k = 'sql' THEN
            IF workload <> 'custom' THEN
                RAISE EXCEPTION 'settings has "sql" but the workload is %', workload
                    USING ERRCODE = 'invalid_parameter_value',
                          HINT = 'SQL runs only with workload => ''custom''.';
            END IF;
        ELSIF k = 'batch_size' THEN
            IF v IS NULL OR v !~ '^\s*[0-9]+\s*$' OR v::numeric < 1 OR v::numeric > 100000 THEN
                RAISE EXCEPTION 'invalid value for batch_size: "%"', v
                    USING ERRCODE = 'invalid_parameter_value',
                          HINT = 'It must be a whole number of at least 1.';
            END IF;
        ELSIF k = setting THEN
            RAISE EXCEPTION '% is the swept setting; it cannot also be fixed in settings', k
                USING ERRCODE = 'invalid_parameter_value';
        ELSIF k = ANY (walpressure.sweepable_settings()) THEN
            IF v IS NULL THEN
                RAISE EXCEPTION 'settings gives % no value', k
                    USING ERRCODE = 'null_value_not_allowed';
            END IF;
            PERFORM walpressure._check_setting(k, v);
        ELSE
            RAISE EXCEPTION 'walpressure cannot set "%" in settings', k
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = format('Settings: %s, and batch_size and sql for the workloads that use them.',
                                    array_to_string(walpressure.sweepable_settings(), ', '));
        END IF;
    END LOOP;
    IF workload = 'custom' AND coalesce(settings->>'sql', '') !~ '\S' THEN
        RAISE EXCEPTION 'workload custom needs its SQL in settings->>''sql'''
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'For example settings => ''{"sql": "INSERT INTO t VALUES (1)"}''.';
    END IF;

    IF clients < 1 AND setting <> 'clients' THEN
        RAISE EXCEPTION 'clients must be at least 1' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF duration <= interval '0' THEN
        RAISE EXCEPTION 'duration must be positive' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF warmup < interval '0' THEN
        RAISE EXCEPTION 'warmup cannot be negative' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF repeats < 1 THEN
        RAISE EXCEPTION 'repeats must be at least 1' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF max_clients + 1 > free_workers THEN
        RAISE EXCEPTION '% clients need % background workers (the clients and the coordinator), but only % of max_worker_processes = % are free',
            max_clients, max_clients + 1, free_workers, current_setting('max_worker_processes')
            USING ERRCODE = 'insufficient_resources',
                  HINT = format('Raise max_worker_processes to at least %s (this sweep''s %s and the %s background workers already running) and restart the server, or use fewer clients.',
                                current_setting('max_worker_processes')::int - free_workers + max_clients + 1,
                                max_clients + 1,
                                current_setting('max_worker_processes')::int - free_workers);
    END IF;

    IF iops_cap IS NOT NULL OR setting = 'iops_cap' THEN
        PERFORM walpressure._check_iops_cap();   -- cgroup mounted and delegated, device throttleable
    END IF;

    IF workload <> 'custom' THEN
        IF to_regclass('pgbench_accounts') IS NULL OR to_regclass('pgbench_branches') IS NULL
           OR to_regclass('pgbench_tellers') IS NULL OR to_regclass('pgbench_history') IS NULL THEN
            RAISE EXCEPTION 'workload % needs the pgbench tables, and they are missing', workload
                USING ERRCODE = 'undefined_table',
                      HINT = 'Create them with SELECT walpressure.init_pgbench(10);';
        END IF;
        EXECUTE 'SELECT count(*) FROM pgbench_branches' INTO scale;
    END IF;

    RETURN walpressure._launch_sweep(jsonb_build_object(
        'setting', setting,
        'vals', to_jsonb(vals),
        'clients', clients,
        'duration_s', extract(epoch FROM duration),
        'workload', workload,
        'iops_cap', iops_cap,
        'warmup_s', extract(epoch FROM warmup),
        'repeats', repeats,
        'settings', settings,
        'prewarm', prewarm,
        'label', label,
        'scale', scale,
        'search_path', current_setting('search_path'))::text, wait);
END
$$;

COMMENT ON FUNCTION run_sweep(text, text[], int, interval, text, int, interval, int, jsonb, bool, text, bool) IS
'Run the load once per value of a setting (x repeats, interleaved) and record every step';

CREATE FUNCTION cancel_sweep(sweep_id bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'wp_cancel_sweep'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION cancel_sweep(bigint) IS
'Stop a running sweep and wait until it has stopped; the steps it finished are kept';

REVOKE ALL ON FUNCTION init_pgbench(int) FROM PUBLIC;
REVOKE ALL ON FUNCTION prewarm(regclass[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION _free_worker_slots() FROM PUBLIC;
REVOKE ALL ON FUNCTION _check_setting(text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION _launch_sweep(text, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(text, text[], int, interval, text, int, interval, int, jsonb, bool, text, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION cancel_sweep(bigint) FROM PUBLIC;
GRANT SELECT ON sweeps, steps, step_samples, results TO pg_monitor;

--
-- The disk: a cgroup write-IOPS cap, and what one WAL flush costs.
--

CREATE FUNCTION set_iops_cap(write_iops int, read_iops int DEFAULT NULL, device text DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_set_iops_cap'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION set_iops_cap(int, int, text) IS
'Put every server process in walpressure.cgroup and cap the IOPS of the pg_wal disk (or device => ''MAJ:MIN'')';

CREATE FUNCTION clear_iops_cap(device text DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_clear_iops_cap'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION clear_iops_cap(text) IS
'Remove the IOPS limits of the pg_wal disk (or device) from walpressure.cgroup';

CREATE FUNCTION iops_cap_state(
    OUT mode text,
    OUT cgroup text,
    OUT device text,
    OUT write_iops bigint,
    OUT read_iops bigint,
    OUT processes_enrolled int,
    OUT server_processes int,
    OUT problem text)
AS 'MODULE_PATHNAME', 'wp_iops_cap_state'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

CREATE VIEW iops_cap AS SELECT * FROM iops_cap_state();

COMMENT ON VIEW iops_cap IS
'The cgroup cap: mode (v1/v2), cgroup, the pg_wal disk, its limits (NULL: none), server processes enrolled, and what is wrong if it cannot be set';

CREATE FUNCTION _check_iops_cap()
RETURNS void
AS 'MODULE_PATHNAME', 'wp_check_iops_cap'
LANGUAGE C VOLATILE;

CREATE FUNCTION probe_fsync(
    duration interval DEFAULT '5 s',
    block_size int DEFAULT 8192,
    OUT ops bigint,
    OUT seconds float8,
    OUT ops_per_s float8,
    OUT latency_avg_ms float8,
    OUT latency_p50_ms float8,
    OUT latency_p99_ms float8,
    OUT commit_budget_per_s float8)
AS 'MODULE_PATHNAME', 'wp_probe_fsync'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION probe_fsync(interval, int) IS
'pg_test_fsync''s fdatasync test on a file in pg_wal, under the current cap: ops/s, latency, and the commit budget (1 / latency)';

REVOKE ALL ON FUNCTION set_iops_cap(int, int, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION clear_iops_cap(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION iops_cap_state() FROM PUBLIC;
REVOKE ALL ON FUNCTION _check_iops_cap() FROM PUBLIC;
REVOKE ALL ON FUNCTION probe_fsync(interval, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION iops_cap_state() TO pg_monitor;
GRANT SELECT ON iops_cap TO pg_monitor;
