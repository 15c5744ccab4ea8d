/* walpressure--0.2.0.sql, built by the Makefile from sql/install/ */

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
    accept_data_loss bool NOT NULL DEFAULT false,
    engine text NOT NULL DEFAULT 'pgbench' CHECK (engine IN ('pgbench', 'backend')),
    script text,
    server_settings jsonb,
    server_originals jsonb,
    server_settings_restored text,
    server_version text NOT NULL DEFAULT current_setting('server_version'),
    walpressure_version text,
    started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at timestamptz
);

COMMENT ON TABLE sweeps IS
'One row per run_sweep call: its arguments, the server settings at its start, status and progress';
COMMENT ON COLUMN sweeps.engine IS
'what ran the load: pgbench (this server''s pgbench over its Unix socket, as the caller) or backend (in-server client workers)';
COMMENT ON COLUMN sweeps.script IS
'the pgbench script the sweep ran (run_sweep''s script argument), NULL for the others';
COMMENT ON COLUMN sweeps.server_originals IS
'the server-wide settings the sweep changed, as they were before its first change, and whether postgresql.auto.conf set them';
COMMENT ON COLUMN sweeps.server_settings_restored IS
'how the server-wide settings were put back when the sweep ended (NULL: it changed none)';

CREATE TABLE steps (
    sweep_id bigint NOT NULL REFERENCES sweeps ON DELETE CASCADE,
    step int NOT NULL,
    value text NOT NULL,
    value_pos int NOT NULL,
    repeat int NOT NULL,
    clients int NOT NULL,
    batch_size int,
    round_trip_us int NOT NULL,
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
    wal_fsyncs bigint,
    commits_per_fsync float8,
    wal_fsyncs_per_s float8,
    fsync_avg_ms float8,
    fsync_p50_ms float8,
    fsync_p99_ms float8,
    wal_bytes bigint,
    wal_records bigint,
    wal_fpi bigint,
    fpi_pct float8,
    wal_buffers_full bigint,
    checkpoints_timed bigint,
    checkpoints_requested bigint,
    server_seconds float8 NOT NULL,
    iops_cap int,
    read_iops float8,
    write_iops float8,
    checkpoint_write_ms float8,
    checkpoint_sync_ms float8,
    data_loss text,
    discarded text,
    setup_s float8,
    client_cpu_s float8,
    server_cpu_s float8,
    wal_lsn_start pg_lsn,
    wal_lsn_end pg_lsn,
    PRIMARY KEY (sweep_id, step)
);

COMMENT ON TABLE steps IS
'One row per value x repeat of a sweep: the measured window''s figures';
COMMENT ON COLUMN steps.round_trip_us IS
'the emulated client round trip each client waited before each statement (BEGIN, queries, COMMIT)';
COMMENT ON COLUMN steps.seconds IS 'length of the measured window (tps and latency cover it)';
COMMENT ON COLUMN steps.write_iops IS
'writes per second to the pg_wal disk over the window: the cgroup''s counters under a cap, /proc/diskstats (the whole disk) otherwise';
COMMENT ON COLUMN steps.checkpoint_write_ms IS
'time the checkpoints completed in the window spent writing buffers (pg_stat_bgwriter.checkpoint_write_time)';
COMMENT ON COLUMN steps.checkpoint_sync_ms IS
'time the checkpoints completed in the window spent in fsync (pg_stat_bgwriter.checkpoint_sync_time)';
COMMENT ON COLUMN steps.data_loss IS
'the step''s settings that can lose data in a crash: fsync=off, full_page_writes=off (corruption), synchronous_commit=off (the last commits); NULL: none';
COMMENT ON COLUMN steps.discarded IS
'why the step is left out of results, best, report and plot: pgbench lost clients, ended early or was killed (in pgbench''s own words), or the server''s statistics were reset during the window (the figures taken from them are then NULL); what else it measured is kept; NULL: the step counts';
COMMENT ON COLUMN steps.setup_s IS
'seconds from the step''s start to its load''s start: the server-wide value put in effect, the step''s CHECKPOINT, the cap';
COMMENT ON COLUMN steps.client_cpu_s IS
'CPU seconds (user + system, all threads) pgbench spent over the measured window; NULL with the backend engine, whose clients are server processes';
COMMENT ON COLUMN steps.server_cpu_s IS
'CPU seconds the server''s processes (postmaster, backends, workers, auxiliary processes) spent over the measured window';
COMMENT ON COLUMN steps.wal_lsn_start IS
'WAL insert position at the window''s start; with wal_lsn_end, what pg_waldump --stats reads to show what the step''s WAL was made of';
COMMENT ON COLUMN steps.wal_lsn_end IS
'WAL insert position when the clients had exited (the end of server_seconds)';
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
    wal_fsyncs bigint,
    wal_bytes bigint,
    PRIMARY KEY (sweep_id, step, second),
    FOREIGN KEY (sweep_id, step) REFERENCES steps ON DELETE CASCADE
);

COMMENT ON TABLE step_samples IS
'Each second of each step''s measured window (WAL figures lag up to a second: pg_stat_wal is flushed once a second)';

SELECT pg_catalog.pg_extension_config_dump('sweeps', '');
SELECT pg_catalog.pg_extension_config_dump('sweeps_sweep_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('steps', '');
SELECT pg_catalog.pg_extension_config_dump('step_samples', '');
-- The 97.5% quantile of Student's t with df degrees of freedom: the factor of
-- a 95% confidence interval of a mean.  Exact to three decimals up to 30,
-- then the Cornish-Fisher expansion (error under 0.001).
CREATE FUNCTION _t975(df float8)
RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE
    WHEN df < 1 THEN NULL
    WHEN df <= 30 THEN (ARRAY[12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                              2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                              2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042])[floor(df)::int]
    ELSE 1.959964 + 2.37224 / df + 2.82217 / (df * df)
END;

CREATE VIEW results AS
WITH seconds AS (
    -- each step's per-second samples
    SELECT sweep_id, step, count(*) AS n,
           stddev_samp(tps) AS tps_sd,
           avg(latency_p99_ms) AS p99, stddev_samp(latency_p99_ms) AS p99_sd,
           count(latency_p99_ms) AS p99_n
    FROM step_samples
    GROUP BY sweep_id, step
), per_value AS (
    SELECT st.sweep_id, st.value_pos, st.value,
           count(*) AS repeats,
           avg(st.tps) AS tps,
           stddev_samp(st.tps) AS tps_sd_repeats,
           sqrt(avg(se.tps_sd * se.tps_sd)) AS tps_sd_seconds,
           max(se.n) AS seconds_n,
           avg(st.rows_per_s) AS rows_per_s,
           avg(st.latency_avg_ms) AS latency_avg_ms,
           avg(st.latency_stddev_ms) AS latency_stddev_ms,
           avg(st.latency_p50_ms) AS latency_p50_ms,
           avg(st.latency_p95_ms) AS latency_p95_ms,
           avg(st.latency_p99_ms) AS latency_p99_ms,
           stddev_samp(st.latency_p99_ms) AS p99_sd_repeats,
           max(se.p99_sd) AS p99_sd_seconds,
           max(se.p99_n) AS p99_seconds_n,
           sum(st.commits)::float8 / nullif(sum(st.wal_fsyncs), 0) AS commits_per_fsync,
           avg(st.wal_fsyncs_per_s) AS wal_fsyncs_per_s,
           avg(st.fsync_avg_ms) AS fsync_avg_ms,
           sum(st.wal_bytes) / 1048576.0 / count(*) AS wal_mb,
           100.0 * sum(st.wal_fpi) / nullif(sum(st.wal_records), 0) AS fpi_pct,
           sum(st.wal_buffers_full) AS wal_buffers_full,
           sum(st.checkpoints_timed) AS checkpoints_timed,
           sum(st.checkpoints_requested) AS checkpoints_requested,
           sum(st.checkpoint_write_ms) / 1000.0 AS checkpoint_write_s,
           sum(st.checkpoint_sync_ms) / 1000.0 AS checkpoint_sync_s,
           string_agg(DISTINCT st.data_loss, '; ') AS data_loss,
           sum(st.retries) AS retries,
           avg(st.iops_cap) AS iops_cap,
           avg(st.write_iops) AS write_iops,
           avg(st.read_iops) AS read_iops
    FROM steps st
    LEFT JOIN seconds se ON se.sweep_id = st.sweep_id AND se.step = st.step
    WHERE st.discarded IS NULL      -- a step whose load was not clean is not averaged
    GROUP BY st.sweep_id, st.value_pos, st.value
), lost AS (
    SELECT sweep_id, value_pos, count(*) AS steps_discarded
    FROM steps
    WHERE discarded IS NOT NULL
    GROUP BY sweep_id, value_pos
), vals AS (
    -- every value a sweep has a step of, clean or not
    SELECT sweep_id, value_pos, min(value) AS value
    FROM steps
    GROUP BY sweep_id, value_pos
), stats AS (
    -- the sample behind each interval: the repeats' means when there are
    -- two or more, else the single step's seconds
    SELECT v.*,
           CASE WHEN v.repeats >= 2 THEN 'repeats' WHEN v.seconds_n >= 2 THEN 'seconds' END AS ci_basis,
           CASE WHEN v.repeats >= 2 THEN v.tps_sd_repeats ELSE v.tps_sd_seconds END AS tps_sd,
           CASE WHEN v.repeats >= 2 THEN v.repeats ELSE v.seconds_n END AS tps_n,
           CASE WHEN v.repeats >= 2 THEN v.p99_sd_repeats ELSE v.p99_sd_seconds END AS p99_sd,
           CASE WHEN v.repeats >= 2 THEN v.repeats ELSE v.p99_seconds_n END AS p99_n
    FROM per_value v
), ci AS (
    SELECT s.*,
           walpressure._t975(s.tps_n - 1) * s.tps_sd / sqrt(s.tps_n) AS tps_half,
           walpressure._t975(s.p99_n - 1) * s.p99_sd / sqrt(s.p99_n) AS p99_half
    FROM stats s
)
SELECT s.sweep_id,
       s.label,
       s.setting,
       a.value,
       a.value_pos,
       coalesce(v.repeats, 0) AS repeats,
       round(v.tps::numeric, 1) AS tps,
       round(v.tps_sd::numeric, 1) AS tps_stddev,
       round((v.tps - v.tps_half)::numeric, 1) AS tps_ci_low,
       round((v.tps + v.tps_half)::numeric, 1) AS tps_ci_high,
       round(v.tps_sd_seconds::numeric, 1) AS tps_stddev_seconds,
       round(v.rows_per_s::numeric, 1) AS rows_per_s,
       round(v.latency_avg_ms::numeric, 3) AS latency_avg_ms,
       round(v.latency_stddev_ms::numeric, 3) AS latency_stddev_ms,
       round(v.latency_p50_ms::numeric, 3) AS latency_p50_ms,
       round(v.latency_p95_ms::numeric, 3) AS latency_p95_ms,
       round(v.latency_p99_ms::numeric, 3) AS latency_p99_ms,
       round(v.p99_sd::numeric, 3) AS latency_p99_stddev_ms,
       round((v.latency_p99_ms - v.p99_half)::numeric, 3) AS latency_p99_ci_low_ms,
       round((v.latency_p99_ms + v.p99_half)::numeric, 3) AS latency_p99_ci_high_ms,
       round(v.commits_per_fsync::numeric, 2) AS commits_per_fsync,
       round(v.wal_fsyncs_per_s::numeric, 1) AS wal_fsyncs_per_s,
       v.iops_cap::int AS iops_cap,
       round(v.write_iops::numeric) AS write_iops,
       round(v.read_iops::numeric) AS read_iops,
       round(v.fsync_avg_ms::numeric, 3) AS fsync_avg_ms,
       round(v.wal_mb::numeric, 1) AS wal_mb,
       round(v.fpi_pct::numeric, 1) AS fpi_pct,
       v.wal_buffers_full,
       v.checkpoints_timed,
       v.checkpoints_requested,
       round(v.checkpoint_write_s::numeric, 1) AS checkpoint_write_s,
       round(v.checkpoint_sync_s::numeric, 1) AS checkpoint_sync_s,
       v.retries,
       round((v.tps / nullif(b.tps, 0))::numeric, 2) AS speedup,
       round(((v.tps - v.tps_half) / nullif(b.tps + b.tps_half, 0))::numeric, 2) AS speedup_ci_low,
       round(((v.tps + v.tps_half) / nullif(b.tps - b.tps_half, 0))::numeric, 2) AS speedup_ci_high,
       CASE WHEN v.sweep_id IS NULL THEN 'discarded'
            WHEN a.value_pos = 1 THEN 'baseline'
            WHEN b.sweep_id IS NULL THEN 'no baseline'
            WHEN v.tps_half IS NULL OR b.tps_half IS NULL THEN 'no interval'
            WHEN v.tps - v.tps_half > b.tps + b.tps_half THEN 'faster'
            WHEN v.tps + v.tps_half < b.tps - b.tps_half THEN 'slower'
            ELSE 'within noise'
       END AS verdict,
       v.ci_basis,
       v.data_loss,
       coalesce(l.steps_discarded, 0) AS steps_discarded
FROM vals a
JOIN sweeps s USING (sweep_id)
LEFT JOIN ci v ON v.sweep_id = a.sweep_id AND v.value_pos = a.value_pos
-- the baseline is the first value, as the sweep was asked; when none of its
-- steps counts, there is none (no speedup against another value)
LEFT JOIN ci b ON b.sweep_id = a.sweep_id AND b.value_pos = 1
LEFT JOIN lost l ON l.sweep_id = a.sweep_id AND l.value_pos = a.value_pos
ORDER BY s.sweep_id, a.value_pos;

COMMENT ON VIEW results IS
'One row per sweep and value: means over the repeats with 95% confidence intervals, speedup against the first value and the verdict (faster / slower / within noise: non-overlapping 95% intervals); steps left out of the figures (steps.discarded) are counted in steps_discarded, and a value with no step that counts reads discarded; when the first value has none, the others read no baseline';
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

-- The settings a sweep can vary, or fix for all its steps.
CREATE FUNCTION sweepable_settings()
RETURNS text[]
AS 'MODULE_PATHNAME', 'wp_sweepable_settings'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- Those of sweepable_settings() applied to the whole server (ALTER SYSTEM and
-- a reload) and restored when the sweep ends.
CREATE FUNCTION sweepable_server_settings()
RETURNS text[]
AS 'MODULE_PATHNAME', 'wp_sweepable_server_settings'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- The pseudo-parameters a sweep can vary: the load itself.
-- round_trip_us: the emulated client round trip before each statement.
CREATE FUNCTION sweepable_load()
RETURNS text[]
AS 'MODULE_PATHNAME', 'wp_sweepable_load'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- What a crash with this value can lose: 'fsync=off', 'full_page_writes=off',
-- 'synchronous_commit=off', or NULL.
CREATE FUNCTION _data_loss(setting text, value text)
RETURNS text
AS 'MODULE_PATHNAME', 'wp_data_loss_sql'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

-- An integer setting's value as the GUC machinery reads it ('1.5', '1e1',
-- '0x5' are 2, 10, 5), NULL when it is not one: for the views.
CREATE FUNCTION _int_setting(value text)
RETURNS int
AS 'MODULE_PATHNAME', 'wp_int_setting_sql'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

-- Every argument is checked in C, as the caller, before anything starts;
-- the checked request goes to the coordinator as it is.
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
    wait bool DEFAULT true,
    accept_data_loss bool DEFAULT false,
    engine text DEFAULT 'pgbench',
    script text DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'wp_run_sweep'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION run_sweep(text, text[], int, interval, text, int, interval, int, jsonb, bool, text, bool, bool, text, text) IS
'Run the load once per value of a setting (x repeats, interleaved) and record every step';

CREATE FUNCTION cancel_sweep(sweep_id bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'wp_cancel_sweep'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION cancel_sweep(bigint) IS
'Stop a running sweep and wait until it has stopped; the steps it finished are kept';

CREATE FUNCTION progress_row(
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

CREATE VIEW progress AS
SELECT pid, job, sweep_id, database, run_by, step, steps_total, steps_done,
       setting, value, repeat, phase, round(phase_seconds::numeric, 1) AS phase_seconds,
       estimated_end
FROM progress_row();

COMMENT ON VIEW progress IS
'The sweep or init_pgbench that runs, in the manner of pg_stat_progress_*: step i of n, its value and repeat, its phase (checkpoint, warm-up, measured window, ...) and for how long, and the estimated end; no row when none runs';

REVOKE ALL ON FUNCTION init_pgbench(int) FROM PUBLIC;
REVOKE ALL ON FUNCTION prewarm(regclass[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION run_sweep(text, text[], int, interval, text, int, interval, int, jsonb, bool, text, bool, bool, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION cancel_sweep(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION progress_row() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION progress_row() TO pg_monitor;
GRANT SELECT ON sweeps, steps, step_samples, results, progress TO pg_monitor;
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
REVOKE ALL ON FUNCTION probe_fsync(interval, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION iops_cap_state() TO pg_monitor;
GRANT SELECT ON iops_cap TO pg_monitor;
--
-- Reading a sweep: the best value, a text chart, an SVG.
--

-- The best value of each sweep, how to apply it, and what explains the curve.
CREATE VIEW best AS
WITH pick AS (
    -- the fastest value beyond noise, else the first value
    SELECT DISTINCT ON (r.sweep_id) r.*
    FROM results r
    ORDER BY r.sweep_id,
             CASE r.verdict WHEN 'faster' THEN 0 WHEN 'baseline' THEN 1 ELSE 2 END,
             r.tps DESC NULLS LAST
), per_sweep AS (
    SELECT st.sweep_id,
           max(st.clients) AS max_clients,
           string_agg(DISTINCT st.value, ', ') FILTER (
               WHERE st.iops_cap IS NOT NULL AND st.write_iops < 0.9 * st.iops_cap) AS below_cap,
           string_agg(DISTINCT st.value, ', ') FILTER (
               WHERE st.iops_cap IS NOT NULL AND st.write_iops >= 0.95 * st.iops_cap) AS at_cap,
           sum(st.checkpoints_timed + st.checkpoints_requested) AS checkpoints,
           string_agg(DISTINCT st.value, ', ') FILTER (
               WHERE st.checkpoints_timed + st.checkpoints_requested > 0) AS checkpoint_values,
           sum(st.wal_buffers_full) AS wal_buffers_full,
           string_agg(DISTINCT st.value, ', ') FILTER (WHERE st.wal_buffers_full > 0) AS wal_buffers_values,
           sum(st.retries) AS retries,
           string_agg(DISTINCT st.value || ': ' || st.data_loss, '; ') FILTER (
               WHERE st.data_loss IS NOT NULL) AS data_loss,
           count(*) FILTER (WHERE st.discarded IS NOT NULL) AS steps_discarded,
           string_agg(DISTINCT st.value, ', ') FILTER (WHERE st.discarded IS NOT NULL) AS discarded_values
    FROM steps st
    GROUP BY st.sweep_id
), diag AS (
    SELECT s.sweep_id,
           array_remove(ARRAY[
               CASE WHEN s.status <> 'done' THEN
                   format('the sweep is %s after %s of %s steps%s', s.status, s.steps_done, s.steps_total,
                          coalesce(': ' || s.error, '')) END,
               CASE WHEN (s.setting = 'commit_delay' OR s.settings ? 'commit_delay')
                         AND p.max_clients - 1 < coalesce(walpressure._int_setting(s.settings->>'commit_siblings'),
                                                          walpressure._int_setting(s.server_settings->>'commit_siblings'), 5)
                   THEN format('commit_delay is inert: with %s clients at most %s other transactions are active, '
                               'fewer than commit_siblings = %s, so no commit ever waits (lower commit_siblings or add clients)',
                               p.max_clients, p.max_clients - 1,
                               coalesce(walpressure._int_setting(s.settings->>'commit_siblings'),
                                        walpressure._int_setting(s.server_settings->>'commit_siblings'), 5)) END,
               CASE WHEN p.at_cap IS NOT NULL THEN
                   format('the disk cap was saturated at %s: throughput there is bound by write IOPS', p.at_cap) END,
               CASE WHEN p.below_cap IS NOT NULL THEN
                   format('the disk stayed below the cap at %s: the load was bound by CPU or by commit grouping there, not by the disk', p.below_cap) END,
               CASE WHEN p.checkpoints > 0 THEN
                   format('%s checkpoint(s) ran inside measured windows (at %s): their writes and the full-page images after them weigh on those steps',
                          p.checkpoints, p.checkpoint_values) END,
               CASE WHEN p.wal_buffers_full > 0 THEN
                   format('wal_buffers filled %s times (at %s): backends wrote WAL themselves; raise wal_buffers',
                          p.wal_buffers_full, p.wal_buffers_values) END,
               CASE WHEN p.retries > 0 THEN
                   format('%s transactions failed with a serialization failure or deadlock and were not retried', p.retries) END,
               CASE WHEN p.steps_discarded > 0 THEN
                   format('%s step(s) are left out of the figures (at %s): pgbench lost clients or ended early, or the server''s statistics were reset; see steps.discarded',
                          p.steps_discarded, p.discarded_values) END,
               CASE WHEN p.data_loss IS NOT NULL THEN
                   format('a crash can lose data with %s', p.data_loss) END,
               CASE WHEN NOT EXISTS (SELECT 1 FROM results r WHERE r.sweep_id = s.sweep_id
                                                                AND r.verdict IN ('faster', 'slower'))
                         AND (SELECT count(*) FROM results r WHERE r.sweep_id = s.sweep_id) > 1 THEN
                   'no value differs from the first beyond noise (95% intervals overlap): add repeats or duration to tell smaller effects apart' END
           ], NULL) AS lines
    FROM sweeps s
    JOIN per_sweep p USING (sweep_id)
)
SELECT s.sweep_id,
       s.label,
       s.setting,
       k.value,
       k.tps,
       k.speedup AS gain,
       k.speedup_ci_low AS gain_ci_low,
       k.speedup_ci_high AS gain_ci_high,
       k.verdict,
       CASE WHEN k.tps IS NULL THEN
                '-- no value has a step that counts'
            WHEN s.setting = ANY (walpressure.sweepable_load()) THEN
                format('-- %s is the load, not a server setting', s.setting)
            ELSE format('ALTER SYSTEM SET %I = %L; SELECT pg_reload_conf();', s.setting, k.value)
       END AS apply,
       array_to_string(d.lines, E'\n') AS diagnoses
FROM pick k
JOIN sweeps s USING (sweep_id)
JOIN diag d USING (sweep_id)
ORDER BY s.sweep_id;

COMMENT ON VIEW best IS
'Per sweep: the fastest value beyond noise (else the first), its gain with a 95% interval, the ALTER SYSTEM line that applies it, and diagnoses of the curve';

-- A text chart of a sweep for psql: a bar per value.
CREATE FUNCTION report(sweep_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    s walpressure.sweeps;
    r record;
    top float8;
    width int := 40;
    vw int;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w WHERE w.sweep_id = report.sweep_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no sweep %', report.sweep_id USING ERRCODE = 'no_data_found';
    END IF;
    RETURN NEXT format('sweep %s%s: %s, %s, %s clients%s, %s x %s s, %s (%s/%s steps)',
                       s.sweep_id, coalesce(' "' || s.label || '"', ''), s.setting, s.workload, s.clients,
                       coalesce(', disk capped at ' || s.iops_cap || ' write IOPS', ''),
                       s.repeats, trim_scale(extract(epoch FROM s.duration)), s.status, s.steps_done, s.steps_total);
    SELECT max(x.tps), greatest(max(length(x.value)), length(s.setting))
        INTO top, vw
        FROM walpressure.results x WHERE x.sweep_id = report.sweep_id;
    IF top IS NULL THEN
        RETURN NEXT '(no step finished)';
        RETURN;
    END IF;
    RETURN NEXT format('%s | %-*s | %20s | %6s | %5s | %s', rpad(s.setting, vw), width, 'tps',
                       'tps (95% interval)', 'IOPS', 'c/f', 'against the first');
    FOR r IN SELECT * FROM walpressure.results x WHERE x.sweep_id = report.sweep_id ORDER BY x.value_pos LOOP
        RETURN NEXT format('%s | %-*s | %20s | %6s | %5s | %s',
            rpad(r.value, vw), width,
            repeat('#', greatest(round(width * r.tps / nullif(top, 0))::int, 0)),
            coalesce(r.tps || CASE WHEN r.tps_ci_low IS NULL THEN ''
                                   ELSE ' ±' || round((r.tps_ci_high - r.tps_ci_low) / 2) END, '-'),
            coalesce(r.write_iops::text, '-'),
            coalesce(r.commits_per_fsync::text, '-'),
            CASE WHEN r.verdict IN ('baseline', 'discarded', 'no baseline') THEN r.verdict
                 ELSE format('%sx %s', r.speedup, r.verdict) END
            || coalesce('  [' || r.data_loss || ']', ''));
    END LOOP;
    RETURN NEXT format('tps: mean over %s; ±: half the 95%% interval (%s); IOPS: write IOPS of the pg_wal disk; c/f: commits per WAL fsync',
                       CASE WHEN s.repeats > 1 THEN s.repeats || ' interleaved repeats' ELSE 'the window' END,
                       CASE WHEN s.repeats > 1 THEN 'across repeats' ELSE 'from the per-second samples' END);
END
$$;

COMMENT ON FUNCTION report(bigint) IS
'A text chart of a sweep for psql: a tps bar per value, its 95% interval, write IOPS, commits per fsync and the verdict';

-- Text safe inside SVG.
CREATE FUNCTION _xml_text(t text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN replace(replace(replace(replace(t, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;');

-- A round number at or above x for an axis: 1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6 or 8
-- times a power of ten.
CREATE FUNCTION _nice_ceiling(x float8)
RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN x <= 0 THEN 1
    ELSE (SELECT min(m * p) FROM (VALUES (1.0), (1.25), (1.5), (2.0), (2.5), (3.0), (4.0), (5.0), (6.0), (8.0), (10.0)) AS f(m),
                 LATERAL (SELECT power(10, floor(log(x)))::float8 AS p) q
          WHERE m * p >= x) END;

-- An SVG chart of a sweep: tps (with its 95% interval) and write IOPS against
-- the value.
CREATE FUNCTION plot(sweep_id bigint)
RETURNS text
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    s walpressure.sweeps;
    r record;
    w int := 720; h int := 400;
    l int := 70; rt int := 70; t int := 50; b int := 60;
    n int;
    tps_top float8;
    iops_top float8;
    x float8;
    svg text;
    tps_line text := '';
    iops_line text := '';
    marks text := '';
    has_iops bool;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w2 WHERE w2.sweep_id = plot.sweep_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no sweep %', plot.sweep_id USING ERRCODE = 'no_data_found';
    END IF;
    -- the axes fit the means (an interval from two repeats can be very wide:
    -- its bar is cut at the top)
    SELECT count(*), 1.15 * max(x2.tps), 1.15 * max(greatest(x2.write_iops, x2.iops_cap)),
           bool_or(x2.write_iops IS NOT NULL)
        INTO n, tps_top, iops_top, has_iops
        FROM walpressure.results x2 WHERE x2.sweep_id = plot.sweep_id;
    tps_top := walpressure._nice_ceiling(coalesce(tps_top, 1));
    iops_top := walpressure._nice_ceiling(coalesce(iops_top, 1));

    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || format('<rect width="%s" height="%s" fill="white"/>', w, h)
        || format('<text x="%s" y="22" text-anchor="middle" font-size="15">%s</text>', w / 2,
                  walpressure._xml_text(format('sweep %s: %s (%s, %s clients%s)', s.sweep_id, s.setting,
                                               s.workload, s.clients,
                                               coalesce(', cap ' || s.iops_cap || ' write IOPS', ''))))
        -- axes
        || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', l, h - b, w - rt, h - b)
        || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', l, t, l, h - b)
        || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', (l + w - rt) / 2, h - 15,
                  walpressure._xml_text(s.setting))
        || format('<text x="18" y="%s" text-anchor="middle" transform="rotate(-90 18 %s)" fill="#1f5fa8">transactions per second</text>',
                  (t + h - b) / 2, (t + h - b) / 2);
    -- tick labels: 0, half, top
    FOR i IN 0..4 LOOP
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#dddddd"/>',
                             l, h - b - i * (h - b - t) / 4.0, w - rt, h - b - i * (h - b - t) / 4.0)
                   || format('<text x="%s" y="%s" text-anchor="end" fill="#1f5fa8">%s</text>',
                             l - 6, h - b - i * (h - b - t) / 4.0 + 4, round(tps_top * i / 4));
    END LOOP;
    IF has_iops THEN
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', w - rt, t, w - rt, h - b)
                   || format('<text x="%s" y="%s" text-anchor="middle" transform="rotate(90 %s %s)" fill="#c45a00">write IOPS</text>',
                             w - 18, (t + h - b) / 2, w - 18, (t + h - b) / 2);
        FOR i IN 0..4 LOOP
            svg := svg || format('<text x="%s" y="%s" fill="#c45a00">%s</text>',
                                 w - rt + 6, h - b - i * (h - b - t) / 4.0 + 4, round(iops_top * i / 4));
        END LOOP;
    END IF;

    FOR r IN SELECT * FROM walpressure.results x3 WHERE x3.sweep_id = plot.sweep_id ORDER BY x3.value_pos LOOP
        x := l + (r.value_pos - 0.5) * (w - l - rt) / greatest(n, 1);
        svg := svg || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', round(x::numeric, 1), h - b + 18,
                             walpressure._xml_text(r.value));
        IF r.tps IS NULL THEN
            CONTINUE;           -- a value with no step that counts: its label only
        END IF;
        tps_line := tps_line || format('%s,%s ', round(x::numeric, 1),
                                       round((h - b - (h - b - t) * r.tps / tps_top)::numeric, 1));
        marks := marks || format('<circle cx="%s" cy="%s" r="4" fill="#1f5fa8"><title>%s</title></circle>',
                                 round(x::numeric, 1), round((h - b - (h - b - t) * r.tps / tps_top)::numeric, 1),
                                 walpressure._xml_text(format('%s = %s: %s tps', s.setting, r.value, r.tps)));
        IF r.tps_ci_low IS NOT NULL THEN
            marks := marks || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#1f5fa8"/>',
                                     round(x::numeric, 1), round((h - b - (h - b - t) * greatest(r.tps_ci_low, 0) / tps_top)::numeric, 1),
                                     round(x::numeric, 1), round((h - b - (h - b - t) * least(r.tps_ci_high, tps_top) / tps_top)::numeric, 1));
        END IF;
        IF r.write_iops IS NOT NULL THEN
            iops_line := iops_line || format('%s,%s ', round(x::numeric, 1),
                                             round((h - b - (h - b - t) * r.write_iops / iops_top)::numeric, 1));
        END IF;
    END LOOP;
    svg := svg || format('<polyline points="%s" fill="none" stroke="#1f5fa8" stroke-width="2"/>', trim(tps_line));
    IF iops_line <> '' THEN
        svg := svg || format('<polyline points="%s" fill="none" stroke="#c45a00" stroke-width="2" stroke-dasharray="6 4"/>',
                             trim(iops_line));
    END IF;
    IF s.iops_cap IS NOT NULL THEN
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#c45a00" stroke-width="1" stroke-dasharray="2 3"/>',
                             l, round((h - b - (h - b - t) * s.iops_cap / iops_top)::numeric, 1),
                             w - rt, round((h - b - (h - b - t) * s.iops_cap / iops_top)::numeric, 1));
    END IF;
    svg := svg || marks
        || format('<text x="%s" y="40" fill="#1f5fa8">&#8212; tps (bars: 95%% interval)</text>', l + 10)
        || CASE WHEN iops_line <> '' THEN format('<text x="%s" y="40" fill="#c45a00">- - write IOPS</text>', l + 260) ELSE '' END
        || '</svg>';
    RETURN svg;
END
$$;

COMMENT ON FUNCTION plot(bigint) IS
'An SVG chart of a sweep: tps with its 95% interval and write IOPS against the value';

GRANT SELECT ON best TO pg_monitor;
