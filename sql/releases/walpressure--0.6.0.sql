/* walpressure--0.6.0.sql, built by the Makefile from sql/install/ */

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
    OUT wal_buffers_full_per_s float8,
    OUT syncrep_wait_pct float8,
    OUT syncrep_wait_ms float8)
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
       round(wal_buffers_full_per_s::numeric, 2) AS wal_buffers_full_per_s,
       round(syncrep_wait_pct::numeric, 1) AS syncrep_wait_pct,
       round(syncrep_wait_ms::numeric, 3) AS syncrep_wait_ms
FROM live_figures();

COMMENT ON VIEW live IS
'How this server flushes its WAL: since reset() and over the last 60 s.  syncrep_wait_pct: the share of the commits'' time spent waiting for synchronous standbys (IPC:SyncRep, timed by the sampler every millisecond while synchronous_standby_names names standbys and walsenders run), syncrep_wait_ms: that wait per commit; NULL otherwise';

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
FROM sample_rows()
ORDER BY sample_time DESC;

COMMENT ON VIEW samples IS
'One row per walpressure.sample_interval, newest first: the activity of that interval and the waits at its end';

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
    finished_at timestamptz,
    current_value text,
    current_pos int,
    cpus int,
    wal_disk text,
    origin jsonb,
    auto_repeats bool NOT NULL DEFAULT false,
    budget interval,
    rounds_stop text,
    checkpoint bool NOT NULL DEFAULT true,
    on_standby_loss text NOT NULL DEFAULT 'stop' CHECK (on_standby_loss IN ('stop', 'skip')),
    standby_conninfo text
);

COMMENT ON TABLE sweeps IS
'One row per run_sweep call: its arguments, the server settings at its start, status and progress';
COMMENT ON COLUMN sweeps.engine IS
'what ran the load: pgbench (this server''s pgbench over its Unix socket, as the caller) or backend (in-server client workers)';
COMMENT ON COLUMN sweeps.script IS
'the pgbench script the sweep ran (run_sweep''s script argument), NULL for the others';
COMMENT ON COLUMN sweeps.server_originals IS
'the server-wide settings the sweep changed, as they were before its first change, and whether postgresql.auto.conf set them';
COMMENT ON COLUMN sweeps.current_value IS
'the swept setting''s value when the sweep started, as a new session of the role that ran it gets it (NULL: the load, not a setting): what best and results compare against';
COMMENT ON COLUMN sweeps.current_pos IS
'the position in vals of the value that means current_value (''200ms'' and ''200'' alike), NULL when none does';
COMMENT ON COLUMN sweeps.checkpoint IS
'whether each step started with a CHECKPOINT (run_sweep''s checkpoint): false, the checkpoints came as the server''s settings brought them, their writes through the cap';
COMMENT ON COLUMN sweeps.on_standby_loss IS
'what the sweep did when a step''s synchronous standby was lost: stop (the sweep failed after recording that step, marked) or skip (it went on; steps that needed the standby while it was not there were not run)';
COMMENT ON COLUMN sweeps.standby_conninfo IS
'run_sweep''s standby_conninfo without its password: the standby each step read its own WAL figures from';
COMMENT ON COLUMN sweeps.cpus IS
'CPUs online on the server when the sweep started';
COMMENT ON COLUMN sweeps.wal_disk IS
'the disk pg_wal was on when the sweep started: MAJ:MIN, its name, rotational or not';
COMMENT ON COLUMN sweeps.origin IS
'for a sweep brought in with import(): the server it ran on (system identifier, version, CPUs, disk, settings), its id there and when it was exported; NULL for a sweep that ran here';
COMMENT ON COLUMN sweeps.auto_repeats IS
'repeats => ''auto'' or a budget: rounds were added one at a time (repeats is then the fewest) until the answer was clear';
COMMENT ON COLUMN sweeps.budget IS
'the time the rounds of an auto-repeats sweep could take';
COMMENT ON COLUMN sweeps.rounds_stop IS
'why an auto-repeats sweep stopped adding rounds: decided (a value beats the baseline, or the baseline every other), narrow (every interval within 2%), the budget, or the most rounds';
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
    fpi_bytes bigint,
    buffers_checkpoint bigint,
    buffers_clean bigint,
    buffers_backend bigint,
    buffers_backend_fsync bigint,
    syncrep_wait_pct float8,
    syncrep_wait_ms float8,
    standby_wal_mb_per_s float8,
    standby_wal_writes_per_s float8,
    standby_wal_fsyncs_per_s float8,
    standby_write_iops float8,
    standby_source text,
    PRIMARY KEY (sweep_id, step)
);

COMMENT ON COLUMN steps.syncrep_wait_pct IS
'share of the window''s commit time spent waiting for synchronous standbys (IPC:SyncRep, timed by the sampler every millisecond, over the commit time the probe measured); NULL when the server had no walsender and nothing waited';
COMMENT ON COLUMN steps.syncrep_wait_ms IS
'time waiting for synchronous standbys per commit of the window';
COMMENT ON COLUMN steps.standby_wal_mb_per_s IS
'with standby_conninfo: WAL the standby received and flushed per second over the window (pg_last_wal_receive_lsn at its edges, the standby''s clock); NULL when it could not be read';
COMMENT ON COLUMN steps.standby_wal_fsyncs_per_s IS
'with standby_conninfo: the standby''s WAL fsyncs per second over the window (standby_wal_writes_per_s: its WAL writes), from its walpressure sampler when it preloads walpressure (standby_source = walpressure, with standby_write_iops from its disk: the cgroup''s counters when it is in walpressure.cgroup, /proc/diskstats otherwise), else from its pg_stat_wal (pg_stat_io from 18).  Both count what the standby''s statistics count, and the WAL receiver''s own writes and fsyncs are not among them (they read 0 on 15 and 18 in test/t/014_standby.pl): standby_write_iops and standby_wal_mb_per_s show its disk''s load';

COMMENT ON COLUMN steps.buffers_backend IS
'data-file buffers written over the window by processes other than the checkpointer and the background writer (backends, pgbench''s connections, autovacuum): pg_stat_bgwriter.buffers_backend before 17, pg_stat_io from 17; buffers_checkpoint and buffers_clean: by the checkpointer and the background writer; buffers_backend_fsync: fsyncs those processes did themselves; NULL when those statistics were reset in the window';
COMMENT ON COLUMN steps.fpi_bytes IS
'bytes of full-page images in the WAL records of the window (wal_lsn_start to wal_lsn_end), read from the server''s WAL as pg_walinspect''s pg_get_wal_stats counts them (after compression, without holes); NULL when that WAL was already removed';

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
    sample_time timestamptz,
    PRIMARY KEY (sweep_id, step, second),
    FOREIGN KEY (sweep_id, step) REFERENCES steps ON DELETE CASCADE
);

COMMENT ON TABLE step_samples IS
'Each second of each step''s measured window (WAL figures lag up to a second: pg_stat_wal is flushed once a second)';

COMMENT ON COLUMN step_samples.sample_time IS
'when the second ended (NULL for samples recorded before walpressure 0.3.0)';

-- The load's statements over each step's window, from pg_stat_statements.
CREATE TABLE step_statements (
    sweep_id bigint NOT NULL,
    step int NOT NULL,
    rank int NOT NULL,
    queryid bigint NOT NULL,
    query text NOT NULL,
    calls bigint NOT NULL,
    total_ms float8 NOT NULL,
    mean_ms float8 NOT NULL,
    stddev_ms float8 NOT NULL,
    rows bigint NOT NULL,
    wal_bytes bigint NOT NULL,
    PRIMARY KEY (sweep_id, step, rank),
    FOREIGN KEY (sweep_id, step) REFERENCES steps ON DELETE CASCADE
);

COMMENT ON TABLE step_statements IS
'The load''s statements over each step''s measured window, when pg_stat_statements is loaded and installed in the sweep''s database: the 10 with the most time, run by the sweep''s role at top level.  calls, total_ms, rows and wal_bytes are the window''s (differences of pg_stat_statements'' counters), mean_ms and stddev_ms those of the window''s calls; rank 1 took the most time';

-- Each standby over each step's window, from its walsender each second.
CREATE TABLE step_replication (
    sweep_id bigint NOT NULL,
    step int NOT NULL,
    standby text NOT NULL,
    pid int NOT NULL,
    sync_state text NOT NULL,
    samples int NOT NULL,
    write_lag_ms_mean float8,
    write_lag_ms_max float8,
    flush_lag_ms_mean float8,
    flush_lag_ms_max float8,
    replay_lag_ms_mean float8,
    replay_lag_ms_max float8,
    behind_bytes_mean float8,
    behind_bytes_max float8,
    PRIMARY KEY (sweep_id, step, pid),
    FOREIGN KEY (sweep_id, step) REFERENCES steps ON DELETE CASCADE
);

COMMENT ON TABLE step_replication IS
'Each standby (walsender) over each step''s measured window, read once a second as pg_stat_replication shows it: standby is its application_name, sync_state at the window''s end (sync, quorum, potential, async; gone when its walsender ended in the window); write, flush and replay lag mean and max over the seconds it reported one; behind_bytes: WAL sent but not yet replayed';

-- A running sweep's row stays: its coordinator writes to it until the end.
-- Rows of sweeps that ended, or whose coordinator is gone, may go.
CREATE FUNCTION _sweeps_keep_running()
RETURNS trigger
AS 'MODULE_PATHNAME', 'wp_sweeps_keep_running'
LANGUAGE C;

CREATE TRIGGER keep_running BEFORE DELETE ON sweeps
    FOR EACH ROW EXECUTE FUNCTION _sweeps_keep_running();
CREATE TRIGGER keep_running_truncate BEFORE TRUNCATE ON sweeps
    FOR EACH STATEMENT EXECUTE FUNCTION _sweeps_keep_running();

SELECT pg_catalog.pg_extension_config_dump('sweeps', '');
SELECT pg_catalog.pg_extension_config_dump('sweeps_sweep_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('steps', '');
SELECT pg_catalog.pg_extension_config_dump('step_samples', '');
SELECT pg_catalog.pg_extension_config_dump('step_statements', '');
SELECT pg_catalog.pg_extension_config_dump('step_replication', '');
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
           -- over the WAL the images were read from (the window's LSNs; wal_bytes
           -- from pg_stat_wal lags by up to a second)
           100.0 * sum(st.fpi_bytes) / nullif(sum(pg_catalog.pg_wal_lsn_diff(st.wal_lsn_end, st.wal_lsn_start))
                                                FILTER (WHERE st.fpi_bytes IS NOT NULL), 0) AS fpi_bytes_pct,
           sum(st.wal_buffers_full) AS wal_buffers_full,
           sum(st.checkpoints_timed) AS checkpoints_timed,
           sum(st.checkpoints_requested) AS checkpoints_requested,
           sum(st.checkpoint_write_ms) / 1000.0 AS checkpoint_write_s,
           sum(st.checkpoint_sync_ms) / 1000.0 AS checkpoint_sync_s,
           string_agg(DISTINCT st.data_loss, '; ') AS data_loss,
           sum(st.retries) AS retries,
           avg(st.iops_cap) AS iops_cap,
           avg(st.write_iops) AS write_iops,
           avg(st.read_iops) AS read_iops,
           avg(st.syncrep_wait_pct) AS syncrep_wait_pct,
           avg(st.syncrep_wait_ms) AS syncrep_wait_ms
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
    UNION ALL
    -- the server's value when the sweep started, when it is not among them:
    -- a row that says so (value_pos 0)
    SELECT w.sweep_id, 0, w.current_value
    FROM sweeps w
    WHERE w.current_value IS NOT NULL AND w.current_pos IS NULL
      AND EXISTS (SELECT 1 FROM steps x WHERE x.sweep_id = w.sweep_id)
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
       -- a bound below 0 is 0; a baseline interval reaching 0 leaves no upper bound (NULL)
       round((greatest(v.tps - v.tps_half, 0) / nullif(b.tps + b.tps_half, 0))::numeric, 2) AS speedup_ci_low,
       round(((v.tps + v.tps_half) / CASE WHEN b.tps - b.tps_half > 0 THEN b.tps - b.tps_half END)::numeric, 2)
           AS speedup_ci_high,
       CASE WHEN a.value_pos = 0 THEN 'not measured'
            WHEN v.sweep_id IS NULL THEN 'discarded'
            WHEN a.value_pos = coalesce(s.current_pos, 1) THEN 'baseline'
            WHEN b.sweep_id IS NULL THEN 'no baseline'
            WHEN v.tps_half IS NULL OR b.tps_half IS NULL THEN 'no interval'
            WHEN v.tps - v.tps_half > b.tps + b.tps_half THEN 'faster'
            WHEN v.tps + v.tps_half < b.tps - b.tps_half THEN 'slower'
            ELSE 'within noise'
       END AS verdict,
       v.ci_basis,
       v.data_loss,
       coalesce(l.steps_discarded, 0) AS steps_discarded,
       coalesce(a.value_pos = 0 OR a.value_pos = s.current_pos, false) AS is_current,
       round(v.fpi_bytes_pct::numeric, 1) AS fpi_bytes_pct,
       round(v.syncrep_wait_pct::numeric, 1) AS syncrep_wait_pct,
       round(v.syncrep_wait_ms::numeric, 3) AS syncrep_wait_ms
FROM vals a
JOIN sweeps s USING (sweep_id)
LEFT JOIN ci v ON v.sweep_id = a.sweep_id AND v.value_pos = a.value_pos
-- the baseline is the server's value when the sweep started, when it is
-- among the values; else the first value, as the sweep was asked; when none
-- of its steps counts, there is none (no speedup against another value)
LEFT JOIN ci b ON b.sweep_id = a.sweep_id AND b.value_pos = coalesce(s.current_pos, 1)
LEFT JOIN lost l ON l.sweep_id = a.sweep_id AND l.value_pos = a.value_pos
ORDER BY s.sweep_id, a.value_pos;

COMMENT ON VIEW results IS
'One row per sweep and value: means over the repeats with 95% confidence intervals, speedup against the baseline and the verdict (faster / slower / within noise: non-overlapping 95% intervals).  The baseline is the server''s value when the sweep started (is_current) when it is among the values, else the first value; a current value that is not among them has its own row (value_pos 0, not measured).  Steps left out of the figures (steps.discarded) are counted in steps_discarded, and a value with no step that counts reads discarded; when the baseline has none, the others read no baseline';

-- Per sweep, value and statement of the load: pg_stat_statements' figures
-- over the steps' windows, against the baseline's for the same statement.
CREATE VIEW statements AS
WITH per_value AS (
    SELECT q.sweep_id, st.value_pos, min(st.value) AS value, q.queryid,
           min(q.query) AS query,
           count(*) AS steps,
           sum(q.calls) AS calls,
           sum(q.calls) / sum(st.seconds) AS calls_per_s,
           sum(q.total_ms) AS total_ms,
           sum(q.total_ms) / sum(q.calls) AS mean_ms,
           stddev_samp(q.mean_ms) AS mean_sd_steps,
           -- every call's time squared, summed, for the stddev over all the calls
           sum(q.calls * (q.stddev_ms * q.stddev_ms + q.mean_ms * q.mean_ms)) AS sumsq,
           sum(q.rows)::float8 / sum(q.calls) AS rows_per_call,
           sum(q.wal_bytes)::float8 / sum(q.calls) AS wal_bytes_per_call
    FROM step_statements q
    JOIN steps st ON st.sweep_id = q.sweep_id AND st.step = q.step
    WHERE st.discarded IS NULL
    GROUP BY q.sweep_id, st.value_pos, q.queryid
), v AS (
    SELECT p.*,
           sqrt(greatest(p.sumsq / p.calls - p.mean_ms * p.mean_ms, 0)) AS stddev_ms,
           walpressure._t975(p.steps - 1) * p.mean_sd_steps / sqrt(p.steps) AS mean_half
    FROM per_value p
)
SELECT v.sweep_id,
       s.label,
       v.value,
       v.value_pos,
       rank() OVER (PARTITION BY v.sweep_id, v.value_pos ORDER BY v.total_ms DESC)::int AS rank,
       v.queryid,
       v.query,
       v.steps,
       round(v.calls_per_s::numeric, 1) AS calls_per_s,
       round(v.mean_ms::numeric, 4) AS mean_ms,
       round((v.mean_ms - v.mean_half)::numeric, 4) AS mean_ci_low_ms,
       round((v.mean_ms + v.mean_half)::numeric, 4) AS mean_ci_high_ms,
       round(v.stddev_ms::numeric, 4) AS stddev_ms,
       round((100 * (v.mean_ms / nullif(b.mean_ms, 0) - 1))::numeric, 1) AS mean_change_pct,
       round((100 * (v.stddev_ms / nullif(b.stddev_ms, 0) - 1))::numeric, 1) AS stddev_change_pct,
       round(v.rows_per_call::numeric, 2) AS rows_per_call,
       round(v.wal_bytes_per_call::numeric) AS wal_bytes_per_call,
       round((100 * v.total_ms / nullif(sum(v.total_ms) OVER (PARTITION BY v.sweep_id, v.value_pos), 0))::numeric, 1)
           AS time_pct
FROM v
JOIN sweeps s USING (sweep_id)
LEFT JOIN v b ON b.sweep_id = v.sweep_id AND b.queryid = v.queryid
             AND b.value_pos = coalesce(s.current_pos, 1)
ORDER BY v.sweep_id, v.value_pos, rank;

COMMENT ON VIEW statements IS
'Per sweep, value and statement of the load (pg_stat_statements, step_statements): calls per second, the mean time of a call with a 95% interval from the spread of the steps'' means, the stddev over all the value''s calls, their change in % against the same statement at the baseline (as results), rows and WAL bytes per call, and the statement''s share of the time of the recorded statements (time_pct).  Steps left out of results (discarded) are left out here too';
--
-- Preparing the data.
--

CREATE FUNCTION init_pgbench(scale int DEFAULT 10)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_init_pgbench'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION init_pgbench(int) IS
'The pgbench tables, built in the server as pgbench -i -I dtGvp -s scale does';

-- prewarm() after its check (the pgbench tables exist when no relation is
-- named): the relations and their indexes.
CREATE FUNCTION _prewarm(relations regclass[])
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

CREATE FUNCTION prewarm(relations regclass[] DEFAULT NULL)
RETURNS TABLE (relation regclass, blocks bigint)
AS 'MODULE_PATHNAME', 'wp_prewarm'
LANGUAGE C VOLATILE;

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
-- the checked request goes to the coordinator as it is.  vals takes what
-- people type: ARRAY['0', '1000'], ARRAY[0, 1000], '{0,1000}'; duration and
-- warmup an interval ('60 s') or a number of seconds (60); repeats a number
-- of rounds or 'auto', and budget (an interval or seconds) the time the
-- rounds of repeats => 'auto' may take.
CREATE FUNCTION run_sweep(
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
CREATE FUNCTION grant_sweeper(role regrole, engine text DEFAULT 'pgbench')
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
CREATE FUNCTION revoke_sweeper(role regrole)
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
CREATE FUNCTION delete_sweeps(older_than interval)
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

-- The answer of each sweep: keep the server's current value, or change it to
-- the value that beats it beyond its interval; how to apply it; and what
-- explains the curve.
CREATE VIEW best AS
WITH base AS (
    -- what every value is compared against: the current value when it was
    -- measured, else the first
    SELECT r.* FROM results r JOIN sweeps s USING (sweep_id)
    WHERE r.value_pos = coalesce(s.current_pos, 1)
), faster AS (
    -- the fastest value beyond noise
    SELECT DISTINCT ON (r.sweep_id) r.*
    FROM results r
    WHERE r.verdict = 'faster'
    ORDER BY r.sweep_id, r.tps DESC
), pick AS (
    -- the answer's row: the fastest value beyond noise, else the current
    -- value (measured or not), else the baseline
    SELECT DISTINCT ON (r.sweep_id) r.*
    FROM results r JOIN sweeps s USING (sweep_id)
    WHERE r.verdict = 'faster' OR r.is_current OR r.value_pos = coalesce(s.current_pos, 1)
    ORDER BY r.sweep_id, CASE WHEN r.verdict = 'faster' THEN 0 WHEN r.is_current THEN 1 ELSE 2 END,
             r.tps DESC NULLS LAST
), rival AS (
    -- the fastest value that is not the baseline: what the intervals would
    -- have to tell from it
    SELECT DISTINCT ON (r.sweep_id) r.*
    FROM results r JOIN sweeps s USING (sweep_id)
    WHERE r.value_pos > 0 AND r.value_pos <> coalesce(s.current_pos, 1) AND r.tps IS NOT NULL
    ORDER BY r.sweep_id, r.tps DESC
), decide AS (
    -- interleaved repeats that would separate the rival from the baseline
    -- with non-overlapping 95% intervals, at the spread the repeats showed
    SELECT v.sweep_id,
           (SELECT min(n) FROM generate_series(2, 1000) AS n
            WHERE abs(v.tps - b.tps) > walpressure._t975(n - 1) * (v.tps_stddev + b.tps_stddev) / sqrt(n)) AS repeats_needed
    FROM rival v JOIN base b USING (sweep_id)
    WHERE v.ci_basis = 'repeats' AND b.ci_basis = 'repeats'
), per_sweep AS (
    SELECT st.sweep_id,
           max(st.clients) AS max_clients,
           min(st.seconds) AS min_seconds,
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
           string_agg(DISTINCT st.value, ', ') FILTER (WHERE st.discarded IS NOT NULL) AS discarded_values,
           -- CPU: the server's processes and pgbench, against the CPUs online
           max((st.server_cpu_s + coalesce(st.client_cpu_s, 0)) / nullif(st.seconds, 0)) AS max_cpus_used,
           string_agg(DISTINCT st.value, ', ') FILTER (
               WHERE (st.server_cpu_s + coalesce(st.client_cpu_s, 0)) / nullif(st.seconds, 0)
                     >= 0.85 * (SELECT w.cpus FROM sweeps w WHERE w.sweep_id = st.sweep_id)) AS cpu_bound
    FROM steps st
    GROUP BY st.sweep_id
), slow_delay AS (
    -- commit_delay values that read slower and wait longer than a WAL fsync
    -- took at the baseline
    SELECT r.sweep_id, string_agg(r.value, ', ' ORDER BY r.value_pos) AS values, min(b.fsync_avg_ms) AS fsync_ms
    FROM results r JOIN base b USING (sweep_id) JOIN sweeps s USING (sweep_id)
    WHERE s.setting = 'commit_delay' AND r.verdict = 'slower'
      AND walpressure._int_setting(r.value) / 1000.0 > b.fsync_avg_ms
    GROUP BY r.sweep_id
), diag AS (
    SELECT s.sweep_id,
           array_remove(ARRAY[
               CASE WHEN s.status <> 'done' THEN
                   format('the sweep is %s after %s of %s steps%s', s.status, s.steps_done, s.steps_total,
                          coalesce(': ' || s.error, '')) END,
               CASE WHEN s.rounds_stop IS NOT NULL THEN
                   format('repeats => auto: %s', s.rounds_stop) END,
               CASE WHEN s.current_value IS NOT NULL AND s.current_pos IS NULL THEN
                   format('the server''s value when the sweep started, %s, is not among the values: the gains are against the first value, %s; add %s to the values to compare with what runs now',
                          s.current_value, s.vals[1], s.current_value) END,
               CASE WHEN (s.setting = 'commit_delay' OR s.settings ? 'commit_delay')
                         AND p.max_clients - 1 < coalesce(walpressure._int_setting(s.settings->>'commit_siblings'),
                                                          walpressure._int_setting(s.server_settings->>'commit_siblings'), 5)
                   THEN format('commit_delay is inert: with %s clients at most %s other transactions are active, '
                               'fewer than commit_siblings = %s, so no commit ever waits (lower commit_siblings or add clients)',
                               p.max_clients, p.max_clients - 1,
                               coalesce(walpressure._int_setting(s.settings->>'commit_siblings'),
                                        walpressure._int_setting(s.server_settings->>'commit_siblings'), 5)) END,
               CASE WHEN sd.values IS NOT NULL THEN
                   format('a WAL fsync took %s ms at %s = %s: commit_delay = %s (microseconds) waits longer than the flush it would share, so it only adds waiting (the disk is fast here, or not the bottleneck)',
                          round(sd.fsync_ms::numeric, 3), s.setting, b.value, sd.values) END,
               CASE WHEN p.at_cap IS NOT NULL THEN
                   format('the disk cap was saturated at %s: throughput there is bound by write IOPS', p.at_cap) END,
               CASE WHEN p.below_cap IS NOT NULL THEN
                   format('the disk stayed below the cap at %s: the load was bound by CPU or by commit grouping there, not by the disk', p.below_cap) END,
               CASE WHEN p.cpu_bound IS NOT NULL THEN
                   format('CPU-bound at %s: the server and its clients kept up to %s of the %s CPUs busy, so the WAL disk was not what limited tps there',
                          p.cpu_bound, round(p.max_cpus_used::numeric, 1), s.cpus) END,
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
                         AND v.sweep_id IS NOT NULL AND b.tps IS NOT NULL THEN
                   format('no value differs from %s = %s (%s) beyond noise: their 95%% intervals overlap',
                          s.setting, b.value, CASE WHEN b.is_current THEN 'the current value' ELSE 'the first value' END) END,
               CASE WHEN f.sweep_id IS NULL AND v.verdict = 'within noise' THEN
                   CASE WHEN v.ci_basis = 'seconds' THEN
                            'with one repeat each interval comes from the per-second samples of one window and leaves out how runs differ: run repeats => 3 or more to decide'
                        WHEN d.repeats_needed IS NULL THEN
                            format('%s (%s tps) and %s (%s tps) differ by less than their spread: no practical number of repeats would tell them apart, if they differ at all',
                                   v.value, v.tps, b.value, b.tps)
                        WHEN d.repeats_needed > least(v.repeats, b.repeats) THEN
                            format('the intervals are too wide to decide between %s (%s tps) and %s (%s tps): at the spread these %s repeats showed, about %s interleaved repeats would separate a difference of this size (repeats => %s), if it is real',
                                   v.value, v.tps, b.value, b.tps, least(v.repeats, b.repeats),
                                   d.repeats_needed, d.repeats_needed) END END,
               CASE WHEN least(v.repeats, b.repeats) = 2 THEN
                   'with 2 repeats a 95% interval is 12.7 standard errors wide on each side (Student''s t with 1 degree of freedom): 3 repeats make it 4.3'
                    END,
               CASE WHEN p.min_seconds < 10 AND s.repeats = 1 THEN
                   format('the measured windows are %s s: an interval from fewer than 10 per-second samples is wide or missing (no interval); use duration => ''30 s'' or more, or repeats',
                          round(p.min_seconds::numeric, 1)) END
           ], NULL) AS lines
    FROM sweeps s
    JOIN per_sweep p USING (sweep_id)
    LEFT JOIN base b USING (sweep_id)
    LEFT JOIN faster f USING (sweep_id)
    LEFT JOIN rival v USING (sweep_id)
    LEFT JOIN decide d USING (sweep_id)
    LEFT JOIN slow_delay sd USING (sweep_id)
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
       CASE WHEN f.sweep_id IS NULL THEN NULL
            WHEN s.setting = ANY (walpressure.sweepable_load()) THEN
                format('-- %s is the load, not a server setting', s.setting)
            WHEN s.setting = 'settings' THEN
                coalesce((SELECT string_agg(format('ALTER SYSTEM SET %I = %L;', c.key, c.value), ' ' ORDER BY c.key)
                          FROM jsonb_each_text(f.value::jsonb) c
                          WHERE c.key <> ALL (walpressure.sweepable_load()))
                         || ' SELECT pg_reload_conf();',
                         '-- the configuration differs only in its load')
                || CASE WHEN f.value::jsonb ? 'clients' THEN
                       format(' -- measured with %s clients (the load, not a setting: part of the gain may be theirs)',
                              f.value::jsonb->>'clients') ELSE '' END
            ELSE format('ALTER SYSTEM SET %I = %L; SELECT pg_reload_conf();', s.setting, f.value)
       END AS apply,
       array_to_string(d.lines, E'\n') AS diagnoses,
       CASE WHEN b.tps IS NULL THEN
                format('no answer: %s has no step that counts', coalesce(s.setting || ' = ' || b.value, 'the baseline'))
            WHEN f.sweep_id IS NOT NULL AND s.setting = ANY (walpressure.sweepable_load()) THEN
                format('%s = %s gives the most tps: %sx that of %s (95%% interval %s-%s)',
                       s.setting, f.value, f.speedup, b.value, f.speedup_ci_low, coalesce(f.speedup_ci_high::text, 'unbounded'))
            WHEN f.sweep_id IS NOT NULL AND s.setting = 'settings' THEN
                format('change to %s: %sx the tps of %s, %s (95%% interval %s-%s)',
                       f.value, f.speedup, b.value,
                       CASE WHEN b.is_current THEN 'the current configuration' ELSE 'the first configuration' END,
                       f.speedup_ci_low, coalesce(f.speedup_ci_high::text, 'unbounded'))
            WHEN f.sweep_id IS NOT NULL THEN
                format('change %s to %s: %sx the tps of %s = %s, %s (95%% interval %s-%s)',
                       s.setting, f.value, f.speedup, s.setting, b.value,
                       CASE WHEN b.is_current THEN 'the current value' ELSE 'the first value' END,
                       f.speedup_ci_low, coalesce(f.speedup_ci_high::text, 'unbounded'))
            WHEN s.setting = 'settings' THEN
                format('keep the current configuration: no configuration is faster than %s beyond its 95%% interval',
                       CASE WHEN b.is_current THEN 'it' ELSE 'the first one (' || b.value || ')' END)
            WHEN s.current_value IS NOT NULL THEN
                format('keep %s = %s: no value is faster than %s beyond its 95%% interval',
                       s.setting, s.current_value,
                       CASE WHEN b.is_current THEN 'it' ELSE 'the first value (' || b.value || ')' END)
            ELSE format('keep: no value is faster than %s = %s beyond its 95%% interval', s.setting, b.value)
       END
       || CASE WHEN f.sweep_id IS NOT NULL AND f.data_loss IS NOT NULL
               THEN format('; a crash can lose data with it (%s)', f.data_loss) ELSE '' END AS answer,
       s.current_value
FROM sweeps s
JOIN diag d USING (sweep_id)
JOIN pick k USING (sweep_id)
LEFT JOIN base b USING (sweep_id)
LEFT JOIN faster f USING (sweep_id)
ORDER BY s.sweep_id;

COMMENT ON VIEW best IS
'Per sweep, the answer: keep the server''s current value (apply NULL) unless a value is faster than it beyond its 95% interval (else than the first value, when the current one was not measured); then that value, its gain with a 95% interval and the ALTER SYSTEM line that applies it; and diagnoses of the curve (a fast fsync, the cap, CPU, checkpoints, intervals too wide to decide and the repeats that would)';

-- A grid sweep's two settings and their values: a settings sweep whose every
-- value sets the same two settings, each to two values or more.  down is the
-- one that changes least often from one value to the next (the rows), across
-- the other (the columns); each one's values in the order they first come.
-- No row for any other sweep.
CREATE FUNCTION _grid(sweep_id bigint,
                      OUT down text, OUT across text, OUT down_vals text[], OUT across_vals text[])
RETURNS SETOF record
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    vals text[];
    keys text[];
BEGIN
    SELECT w.vals INTO vals FROM walpressure.sweeps w
        WHERE w.sweep_id = _grid.sweep_id AND w.setting = 'settings';
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT array_agg(DISTINCT k.k ORDER BY k.k) INTO keys
        FROM unnest(vals) v, jsonb_object_keys(v::jsonb) k;
    IF cardinality(keys) <> 2 OR EXISTS (SELECT 1 FROM unnest(vals) v
                                        WHERE NOT (v::jsonb ? keys[1] AND v::jsonb ? keys[2])
                                           OR (SELECT count(*) FROM jsonb_object_keys(v::jsonb)) <> 2) THEN
        RETURN;
    END IF;
    SELECT CASE WHEN sum((a IS DISTINCT FROM pa)::int) <= sum((b IS DISTINCT FROM pb)::int)
                THEN keys[1] ELSE keys[2] END INTO down
        FROM (SELECT v::jsonb->>keys[1] a, lag(v::jsonb->>keys[1]) OVER (ORDER BY i) pa,
                     v::jsonb->>keys[2] b, lag(v::jsonb->>keys[2]) OVER (ORDER BY i) pb
              FROM unnest(vals) WITH ORDINALITY t(v, i)) q;
    across := CASE WHEN down = keys[1] THEN keys[2] ELSE keys[1] END;
    down_vals := ARRAY(SELECT q.v FROM (SELECT v::jsonb->>down AS v, min(i) AS m
                                        FROM unnest(vals) WITH ORDINALITY t(v, i) GROUP BY 1) q ORDER BY q.m);
    across_vals := ARRAY(SELECT q.v FROM (SELECT v::jsonb->>across AS v, min(i) AS m
                                          FROM unnest(vals) WITH ORDINALITY t(v, i) GROUP BY 1) q ORDER BY q.m);
    IF cardinality(down_vals) >= 2 AND cardinality(across_vals) >= 2 THEN
        RETURN NEXT;
    END IF;
END
$$;

-- A text chart of a sweep for psql: a bar per value.
CREATE FUNCTION _report(sweep_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    s walpressure.sweeps;
    r record;
    top float8;
    width int := 40;
    vw int; tw int; iw int; cw int;
    ran int; ran_min int;
    line text;
    g record; ka text; kb text; gr text[]; gc text[]; gw int; cell text; grow record; gcol record;
    sq record; shown bool := false; sw int;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w WHERE w.sweep_id = _report.sweep_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no sweep %', _report.sweep_id USING ERRCODE = 'no_data_found',
            HINT = 'walpressure.sweeps lists the sweeps of this database.';
    END IF;
    -- what ran: a cancelled or failed sweep has fewer repeats than it asked
    SELECT max(x.repeats), min(x.repeats) FILTER (WHERE x.value_pos > 0) INTO ran, ran_min
        FROM walpressure.results x WHERE x.sweep_id = _report.sweep_id;
    RETURN NEXT format('sweep %s%s: %s, %s, %s clients%s, %s x %s s, %s (%s/%s steps)',
                       s.sweep_id, coalesce(' "' || s.label || '"', ''), s.setting, s.workload, s.clients,
                       coalesce(', disk capped at ' || s.iops_cap || ' write IOPS', ''),
                       CASE WHEN s.auto_repeats THEN format('repeats auto (%s rounds)', coalesce(ran, 0))
                            ELSE s.repeats::text END,
                       trim_scale(extract(epoch FROM s.duration)), s.status, s.steps_done, s.steps_total);
    -- each column as wide as its widest value
    SELECT max(x.tps),
           greatest(max(length(x.value)), length(s.setting)),
           greatest(max(length(x.tps || coalesce(' ±' || round((x.tps_ci_high - x.tps_ci_low) / 2), ''))), 18),
           greatest(max(length(x.write_iops::text)), 4),
           greatest(max(length(x.commits_per_fsync::text)), 3)
        INTO top, vw, tw, iw, cw
        FROM walpressure.results x WHERE x.sweep_id = _report.sweep_id;
    IF top IS NULL THEN
        RETURN NEXT '(no step finished)';
        RETURN;
    END IF;
    RETURN NEXT format('%s | %-*s | %*s | %*s | %*s | %s', rpad(s.setting, vw), width, 'tps',
                       tw, 'tps (95% interval)', iw, 'IOPS', cw, 'c/f',
                       CASE WHEN s.current_pos IS NOT NULL THEN 'against the current value'
                            ELSE 'against the first value' END);
    FOR r IN SELECT * FROM walpressure.results x WHERE x.sweep_id = _report.sweep_id
             ORDER BY x.value_pos = 0, x.value_pos LOOP
        line := format('%s | %-*s | %*s | %*s | %*s | %s',
            rpad(r.value, vw), width,
            repeat('#', greatest(round(width * coalesce(r.tps, 0) / nullif(top, 0))::int, 0)),
            tw, coalesce(r.tps || CASE WHEN r.tps_ci_low IS NULL THEN ''
                                       ELSE ' ±' || round((r.tps_ci_high - r.tps_ci_low) / 2) END, '-'),
            iw, coalesce(r.write_iops::text, '-'),
            cw, coalesce(r.commits_per_fsync::text, '-'),
            CASE WHEN r.verdict IN ('baseline', 'discarded', 'no baseline', 'not measured') THEN r.verdict
                 ELSE format('%sx %s', r.speedup, r.verdict) END
            || CASE WHEN r.is_current THEN ' (current)' ELSE '' END
            || coalesce('  [' || r.data_loss || ']', ''));
        RETURN NEXT rtrim(line);
    END LOOP;
    RETURN NEXT format('tps: mean over %s; ±: half the 95%% interval (%s); IOPS: write IOPS of the pg_wal disk; c/f: commits per WAL fsync',
                       CASE WHEN ran > 1 AND ran_min = ran THEN ran || ' interleaved repeats'
                            WHEN ran > 1 THEN ran_min || ' to ' || ran || ' interleaved repeats'
                            ELSE 'the window' END,
                       CASE WHEN ran > 1 THEN 'across repeats' ELSE 'from the per-second samples' END);

    -- a grid: the tps as a table, the setting that changes least often
    -- from one value to the next down the side
    SELECT * INTO g FROM walpressure._grid(_report.sweep_id);
    IF FOUND THEN
        ka := g.down; kb := g.across; gr := g.down_vals; gc := g.across_vals;
        gw := greatest((SELECT max(length(c)) FROM unnest(gc) c), length(round(top)::text) + 4);
        vw := greatest((SELECT max(length(c)) FROM unnest(gr) c), length(ka || ' \ ' || kb));
        RETURN NEXT '';
        RETURN NEXT format('tps by %s (down) and %s (across); + faster, - slower than the baseline (=) beyond its 95%% interval',
                           ka, kb);
        RETURN NEXT rpad(ka || ' \ ' || kb, vw) || ' | '
                    || (SELECT string_agg(lpad(c, gw), ' | ' ORDER BY i) FROM unnest(gc) WITH ORDINALITY t(c, i));
        FOR grow IN SELECT v, i FROM unnest(gr) WITH ORDINALITY t(v, i) ORDER BY i LOOP
            line := rpad(grow.v, vw);
            FOR gcol IN SELECT c, i FROM unnest(gc) WITH ORDINALITY t(c, i) ORDER BY i LOOP
                SELECT coalesce(round(y.tps)::text || CASE y.verdict WHEN 'faster' THEN '+' WHEN 'slower' THEN '-'
                                                                      WHEN 'baseline' THEN '=' ELSE ' ' END, '-  ')
                    INTO cell
                    FROM walpressure.results y
                    WHERE y.sweep_id = _report.sweep_id AND y.value_pos > 0
                      AND y.value::jsonb->>ka = grow.v AND y.value::jsonb->>kb = gcol.c;
                line := line || ' | ' || lpad(coalesce(cell, '-  '), gw);
            END LOOP;
            RETURN NEXT rtrim(line);
        END LOOP;
    END IF;

    -- the load's statements (pg_stat_statements): the baseline's three that
    -- took the most time, each value's mean and stddev of a call
    FOR sq IN SELECT q.queryid, q.query FROM walpressure.statements q
              WHERE q.sweep_id = _report.sweep_id AND q.value_pos = coalesce(s.current_pos, 1)
              ORDER BY q.rank LIMIT 3 LOOP
        IF NOT shown THEN
            RETURN NEXT '';
            RETURN NEXT 'statements (pg_stat_statements, the 3 with the most time): a call''s mean ± half its 95% interval, stddev, change against the baseline';
            shown := true;
            SELECT max(length(q.value)) INTO sw FROM walpressure.statements q WHERE q.sweep_id = _report.sweep_id;
        END IF;
        RETURN NEXT left(regexp_replace(sq.query, '\s+', ' ', 'g'), 100);
        FOR r IN SELECT * FROM walpressure.statements q
                 WHERE q.sweep_id = _report.sweep_id AND q.queryid = sq.queryid ORDER BY q.value_pos LOOP
            RETURN NEXT rtrim(format('  %s | %10s calls/s | mean %s ms%s%s | stddev %s ms%s',
                rpad(r.value, sw), r.calls_per_s, r.mean_ms,
                coalesce(' ±' || round((r.mean_ci_high_ms - r.mean_ci_low_ms) / 2, 4), ''),
                coalesce(' (' || to_char(r.mean_change_pct, 'FMSG990.0') || '%)', ''),
                r.stddev_ms,
                coalesce(' (' || to_char(r.stddev_change_pct, 'FMSG990.0') || '%)', '')));
        END LOOP;
    END LOOP;

    -- synchronous standbys: each value's wait of a commit for them, and each
    -- standby's lags (the means over the steps that count)
    shown := false;
    FOR r IN SELECT st.value_pos, min(st.value) AS value,
                    round(avg(st.syncrep_wait_ms) FILTER (WHERE st.discarded IS NULL)::numeric, 3) AS wait_ms,
                    round(avg(st.syncrep_wait_pct) FILTER (WHERE st.discarded IS NULL)::numeric, 1) AS wait_pct,
                    count(*) FILTER (WHERE st.discarded LIKE 'standby lost%') AS lost,
                    (SELECT string_agg(format('%s %s: write %s, flush %s, replay %s ms', x.standby, x.sync_state,
                                              coalesce(x.w::text, '-'), coalesce(x.f::text, '-'), coalesce(x.a::text, '-')),
                                       '; ' ORDER BY x.standby)
                     FROM (SELECT rp.standby, min(rp.sync_state) AS sync_state,
                                  round(avg(rp.write_lag_ms_mean)::numeric, 2) AS w,
                                  round(avg(rp.flush_lag_ms_mean)::numeric, 2) AS f,
                                  round(avg(rp.replay_lag_ms_mean)::numeric, 2) AS a
                           FROM walpressure.step_replication rp
                           JOIN walpressure.steps s2 ON s2.sweep_id = rp.sweep_id AND s2.step = rp.step
                           WHERE rp.sweep_id = _report.sweep_id AND s2.value_pos = st.value_pos
                             AND s2.discarded IS NULL
                           GROUP BY rp.standby) x) AS standbys
             FROM walpressure.steps st
             WHERE st.sweep_id = _report.sweep_id
             GROUP BY st.value_pos
             HAVING count(st.syncrep_wait_ms) > 0 OR count(*) FILTER (WHERE st.discarded LIKE 'standby lost%') > 0
             ORDER BY st.value_pos LOOP
        IF NOT shown THEN
            RETURN NEXT '';
            RETURN NEXT 'standbys: a commit''s wait for them (IPC:SyncRep) and its share of commit time; each standby''s lags (pg_stat_replication)';
            shown := true;
            SELECT max(length(x.value)) INTO sw FROM walpressure.steps x WHERE x.sweep_id = _report.sweep_id;
        END IF;
        RETURN NEXT rtrim(format('  %s | wait %s ms (%s%%) | %s%s', rpad(r.value, sw),
            coalesce(r.wait_ms::text, '-'), coalesce(r.wait_pct::text, '-'), coalesce(r.standbys, 'no standby'),
            CASE WHEN r.lost > 0 THEN format(' | standby lost in %s step%s', r.lost, CASE WHEN r.lost > 1 THEN 's' ELSE '' END) ELSE '' END));
    END LOOP;
END
$$;

-- The values of a two-setting grid, for run_sweep('settings', ...): every
-- value of setting_a with every value of setting_b, setting_a's changing
-- least often (report() shows the tps as a table).
CREATE FUNCTION grid(setting_a text, vals_a text[], setting_b text, vals_b text[])
RETURNS jsonb[]
LANGUAGE sql IMMUTABLE STRICT
BEGIN ATOMIC
    SELECT array_agg(jsonb_build_object(setting_a, a.v, setting_b, b.v) ORDER BY a.i, b.i)
    FROM unnest(vals_a) WITH ORDINALITY a(v, i), unnest(vals_b) WITH ORDINALITY b(v, i);
END;

COMMENT ON FUNCTION grid(text, text[], text, text[]) IS
'The values of a two-setting grid for run_sweep(''settings'', ...): every value of setting_a with every value of setting_b (report() shows the tps as a table)';

COMMENT ON FUNCTION _report(bigint) IS
'report() after its check: a text chart of a sweep for psql: a tps bar per value, its 95% interval, write IOPS, commits per fsync and the verdict against the current value (else the first); a grid''s tps as a table; the load''s statements (pg_stat_statements) value by value; with synchronous standbys, each value''s wait for them and their lags';

-- Two sweeps side by side, value by value: the same sweep run twice, or this
-- server against another's (imported).  ratio is b's tps over a's, with the
-- 95% interval the two intervals allow; a NOTICE names what differs between
-- the two runs besides the values.
CREATE FUNCTION _compare(sweep_a bigint, sweep_b bigint)
RETURNS TABLE (value text, tps_a numeric, tps_b numeric, ratio numeric,
               ratio_ci_low numeric, ratio_ci_high numeric, verdict text)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    a walpressure.sweeps;
    b walpressure.sweeps;
    diffs text[];
BEGIN
    -- compare() checked that both exist and vary the same setting
    SELECT * INTO a FROM walpressure.sweeps w WHERE w.sweep_id = _compare.sweep_a;
    SELECT * INTO b FROM walpressure.sweeps w WHERE w.sweep_id = _compare.sweep_b;
    diffs := array_remove(ARRAY[
        CASE WHEN a.workload <> b.workload THEN format('workload %s / %s', a.workload, b.workload) END,
        CASE WHEN a.clients <> b.clients THEN format('clients %s / %s', a.clients, b.clients) END,
        CASE WHEN a.duration <> b.duration THEN
            format('duration %s s / %s s', trim_scale(extract(epoch FROM a.duration)), trim_scale(extract(epoch FROM b.duration))) END,
        CASE WHEN a.iops_cap IS DISTINCT FROM b.iops_cap THEN
            format('iops_cap %s / %s', coalesce(a.iops_cap::text, 'none'), coalesce(b.iops_cap::text, 'none')) END,
        CASE WHEN a.engine <> b.engine THEN format('engine %s / %s', a.engine, b.engine) END,
        CASE WHEN a.settings <> b.settings THEN format('settings %s / %s', a.settings, b.settings) END,
        CASE WHEN a.repeats <> b.repeats THEN format('repeats %s / %s', a.repeats, b.repeats) END,
        CASE WHEN a.server_version <> b.server_version THEN
            format('server_version %s / %s', a.server_version, b.server_version) END,
        CASE WHEN a.cpus IS DISTINCT FROM b.cpus THEN
            format('cpus %s / %s', coalesce(a.cpus::text, 'unknown'), coalesce(b.cpus::text, 'unknown')) END,
        CASE WHEN a.server_settings IS DISTINCT FROM b.server_settings THEN
            (SELECT 'server settings ' || string_agg(format('%s %s / %s', k, a.server_settings->>k, b.server_settings->>k), ', ' ORDER BY k)
             FROM jsonb_object_keys(coalesce(a.server_settings, '{}') || coalesce(b.server_settings, '{}')) AS k
             WHERE (a.server_settings->>k) IS DISTINCT FROM (b.server_settings->>k)) END
    ], NULL);
    IF cardinality(diffs) > 0 THEN
        RAISE NOTICE 'sweeps % and % differ in more than the values: %', a.sweep_id, b.sweep_id,
            array_to_string(diffs, '; ');
    END IF;
    RETURN QUERY
    SELECT coalesce(x.value, y.value),
           x.tps, y.tps,
           round(y.tps / nullif(x.tps, 0), 2),
           round(y.tps_ci_low / nullif(x.tps_ci_high, 0), 2),
           round(y.tps_ci_high / nullif(x.tps_ci_low, 0), 2),
           CASE WHEN x.value IS NULL THEN format('only in sweep %s', b.sweep_id)
                WHEN y.value IS NULL THEN format('only in sweep %s', a.sweep_id)
                WHEN x.tps IS NULL OR y.tps IS NULL THEN 'no step that counts'
                WHEN x.tps_ci_low IS NULL OR y.tps_ci_low IS NULL THEN 'no interval'
                WHEN y.tps_ci_low > x.tps_ci_high THEN format('faster in sweep %s', b.sweep_id)
                WHEN y.tps_ci_high < x.tps_ci_low THEN format('slower in sweep %s', b.sweep_id)
                ELSE 'the same within noise'
           END
    FROM (SELECT * FROM walpressure.results r WHERE r.sweep_id = a.sweep_id AND r.value_pos > 0) x
    FULL JOIN (SELECT * FROM walpressure.results r WHERE r.sweep_id = b.sweep_id AND r.value_pos > 0) y
        ON x.value = y.value
    ORDER BY coalesce(x.value_pos, 1000 + y.value_pos);
END
$$;

COMMENT ON FUNCTION _compare(bigint, bigint) IS
'compare() after its checks: two sweeps of the same setting value by value: tps of each, b over a with its 95% interval, and whether b is faster, slower or the same within noise; a NOTICE names what else differs between them';

-- A sweep as one JSON document, to read it on another server: its row, its
-- steps and samples, and the fingerprint of the server it ran on.
CREATE FUNCTION _export(sweep_id bigint)
RETURNS jsonb
LANGUAGE sql STABLE
RETURN (
    SELECT jsonb_build_object(
        'format', 'walpressure sweep',
        'format_version', 1,
        'exported_at', now(),
        'walpressure_version', (SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'walpressure'),
        'server', jsonb_build_object(
            'system_identifier', (SELECT system_identifier::text FROM pg_catalog.pg_control_system()),
            'server_version', s.server_version,
            'cpus', s.cpus,
            'wal_disk', s.wal_disk,
            'iops_cap', s.iops_cap,
            'settings', s.server_settings),
        'sweep', to_jsonb(s),
        'steps', coalesce((SELECT jsonb_agg(to_jsonb(st) - 'sweep_id' ORDER BY st.step)
                           FROM walpressure.steps st WHERE st.sweep_id = s.sweep_id), '[]'),
        'step_samples', coalesce((SELECT jsonb_agg(to_jsonb(x) - 'sweep_id' ORDER BY x.step, x.second)
                                  FROM walpressure.step_samples x WHERE x.sweep_id = s.sweep_id), '[]'),
        'step_statements', coalesce((SELECT jsonb_agg(to_jsonb(x) - 'sweep_id' ORDER BY x.step, x.rank)
                                     FROM walpressure.step_statements x WHERE x.sweep_id = s.sweep_id), '[]'),
        'step_replication', coalesce((SELECT jsonb_agg(to_jsonb(x) - 'sweep_id' ORDER BY x.step, x.pid)
                                      FROM walpressure.step_replication x WHERE x.sweep_id = s.sweep_id), '[]'))
    FROM walpressure.sweeps s
    WHERE s.sweep_id = _export.sweep_id);

COMMENT ON FUNCTION _export(bigint) IS
'export() after its check: a sweep as one JSON document';

-- Is this a document export() made?
CREATE FUNCTION _is_export(sweep jsonb)
RETURNS bool
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN coalesce(jsonb_typeof(sweep) = 'object' AND sweep->>'format' = 'walpressure sweep'
                AND sweep->>'format_version' = '1' AND jsonb_typeof(sweep->'sweep') = 'object'
                AND jsonb_typeof(sweep->'steps') = 'array'
                AND jsonb_typeof(sweep->'step_samples') = 'array', false);

-- import() after its check: the document as a new sweep here, its steps and
-- samples as they were, the server it ran on in origin.
CREATE FUNCTION _import(sweep jsonb)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    d jsonb := _import.sweep;
    s walpressure.sweeps;
BEGIN
    s := jsonb_populate_record(NULL::walpressure.sweeps, d->'sweep');
    s.origin := coalesce(d->'server', '{}') || jsonb_build_object(
        'sweep_id', d->'sweep'->'sweep_id', 'exported_at', d->'exported_at',
        'walpressure_version', d->'walpressure_version');
    s.sweep_id := nextval('walpressure.sweeps_sweep_id_seq');
    IF s.status = 'running' THEN
        s.status := 'aborted';      -- it ran on when it was exported: what came is all there is
    END IF;
    INSERT INTO walpressure.sweeps SELECT s.*;
    INSERT INTO walpressure.steps
    SELECT (jsonb_populate_record(NULL::walpressure.steps, e || jsonb_build_object('sweep_id', s.sweep_id))).*
    FROM jsonb_array_elements(d->'steps') AS e;
    INSERT INTO walpressure.step_samples
    SELECT (jsonb_populate_record(NULL::walpressure.step_samples, e || jsonb_build_object('sweep_id', s.sweep_id))).*
    FROM jsonb_array_elements(d->'step_samples') AS e;
    -- none in documents from before walpressure 0.5.0
    INSERT INTO walpressure.step_statements
    SELECT (jsonb_populate_record(NULL::walpressure.step_statements, e || jsonb_build_object('sweep_id', s.sweep_id))).*
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(d->'step_statements') = 'array'
                                   THEN d->'step_statements' ELSE '[]' END) AS e;
    -- none in documents from before walpressure 0.6.0
    INSERT INTO walpressure.step_replication
    SELECT (jsonb_populate_record(NULL::walpressure.step_replication, e || jsonb_build_object('sweep_id', s.sweep_id))).*
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(d->'step_replication') = 'array'
                                   THEN d->'step_replication' ELSE '[]' END) AS e;
    RETURN s.sweep_id;
END
$$;

COMMENT ON FUNCTION _import(jsonb) IS
'import() after its check: the document as a new sweep of this database';

REVOKE ALL ON FUNCTION _import(jsonb) FROM PUBLIC;

-- Text safe inside SVG.
CREATE FUNCTION _xml_text(t text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN replace(replace(replace(replace(t, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;');

-- A round step for an axis: 1, 2, 2.5 or 5 times a power of ten, at or
-- above x, so that its multiples read well as ticks.
CREATE FUNCTION _nice_step(x float8)
RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN x <= 0 THEN 1
    ELSE (SELECT min(m * p) FROM (VALUES (1.0), (2.0), (2.5), (5.0), (10.0)) AS f(m),
                 LATERAL (SELECT power(10, floor(log(x)))::float8 AS p) q
          WHERE m * p >= x * (1 - 1e-9)) END;

-- A tick label: whole numbers as such, others with the decimals they need.
CREATE FUNCTION _tick(x float8)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN x = round(x) THEN round(x)::bigint::text
            ELSE trim_scale(round(x::numeric, 3))::text END;

-- An SVG coordinate, to a tenth of a pixel.
CREATE FUNCTION _px(x float8)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN round(x::numeric, 1)::text;

-- A value of a number setting in the setting's unit ('1s' of wal_writer_delay
-- is 1000: ms), or of a load parameter; NULL for the others.
CREATE FUNCTION _setting_number(setting text, value text)
RETURNS float8
AS 'MODULE_PATHNAME', 'wp_setting_number_sql'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

-- The unit of a setting's bare number, for the chart's x axis.
CREATE FUNCTION _setting_unit(setting text)
RETURNS text
LANGUAGE sql STABLE STRICT PARALLEL SAFE
RETURN CASE setting
    WHEN 'commit_delay' THEN 'microseconds'
    WHEN 'round_trip_us' THEN 'microseconds'
    WHEN 'commit_siblings' THEN 'other open transactions'
    WHEN 'checkpoint_completion_target' THEN 'fraction of checkpoint_timeout'
    WHEN 'clients' THEN 'clients'
    WHEN 'batch_size' THEN 'rows per commit'
    WHEN 'iops_cap' THEN 'write IOPS'
    ELSE (SELECT p.unit FROM pg_catalog.pg_settings p WHERE p.name = _setting_unit.setting) END;

-- An SVG chart of a sweep: tps (with its 95% interval) and write IOPS against
-- the value, on a numeric axis (log when the values span 20x or more) for
-- number settings, with the cap, the current value, the answer and any
-- data-loss risk in the legend.
-- A value as a chart labels it: a configuration's settings as name=value,
-- joined by sep ('{}': as is); any other value as it is.
CREATE FUNCTION _value_label(setting text, value text, sep text)
RETURNS text
LANGUAGE sql IMMUTABLE
BEGIN ATOMIC
    SELECT CASE WHEN setting <> 'settings' THEN value
                WHEN value::jsonb = '{}' THEN 'as is'
                ELSE (SELECT string_agg(c.key || '=' || c.value, sep ORDER BY c.key)
                      FROM jsonb_each_text(value::jsonb) c) END;
END;

-- A grid sweep's SVG: a heat map, one cell per pair of values, its tps and
-- speedup, green when faster and red when slower than the baseline beyond
-- the 95% intervals (the deeper, the larger the speedup), grey within noise.
CREATE FUNCTION _plot_grid(sweep_id bigint)
RETURNS text
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    s walpressure.sweeps;
    g record;
    k walpressure.best;
    c record;
    cw int := 120; ch int := 48;
    l int; t int := 130; w int; h int;
    x float8; y float8; a float8;
    smax float8;
    fill text; tone int[];
    loss text;
    svg text;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w2 WHERE w2.sweep_id = _plot_grid.sweep_id;
    SELECT * INTO g FROM walpressure._grid(_plot_grid.sweep_id);
    SELECT * INTO k FROM walpressure.best bb WHERE bb.sweep_id = _plot_grid.sweep_id;
    SELECT max(abs(ln(x2.speedup))), string_agg(DISTINCT x2.data_loss, ', ') FILTER (WHERE x2.data_loss IS NOT NULL)
        INTO smax, loss
        FROM walpressure.results x2 WHERE x2.sweep_id = _plot_grid.sweep_id AND x2.value_pos > 0 AND x2.speedup > 0;
    l := 30 + 7 * greatest(length(g.down), (SELECT max(length(v)) FROM unnest(g.down_vals) v));
    w := greatest(l + cw * cardinality(g.across_vals) + 30, 620);
    h := t + ch * cardinality(g.down_vals) + 70;
    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || format('<rect width="%s" height="%s" fill="white"/>', w, h)
        || format('<text x="%s" y="24" text-anchor="middle" font-size="15">%s</text>', w / 2,
                  walpressure._xml_text(format('sweep %s%s: %s by %s', s.sweep_id,
                                               coalesce(' "' || s.label || '"', ''), g.down, g.across)))
        || format('<text x="%s" y="42" text-anchor="middle" font-size="11" fill="#555555">%s</text>', w / 2,
                  walpressure._xml_text(format('%s, %s clients, %s engine, %s x %s s%s; %s, %s',
                                               s.workload, s.clients, s.engine, s.repeats,
                                               trim_scale(extract(epoch FROM s.duration)),
                                               coalesce(', disk capped at ' || s.iops_cap || ' write IOPS', ''),
                                               to_char(s.started_at, 'YYYY-MM-DD HH24:MI'), s.status)))
        || format('<text x="%s" y="62">%s</text>', 20,
                  walpressure._xml_text('each cell: tps and speedup against the baseline (=); green faster, red slower beyond the 95% intervals, grey within noise'))
        || format('<text x="%s" y="%s" text-anchor="middle" font-weight="bold">%s</text>',
                  walpressure._px(l + cw * cardinality(g.across_vals) / 2.0), t - 30, walpressure._xml_text(g.across))
        || format('<text x="%s" y="%s" text-anchor="end" font-weight="bold">%s</text>', l - 8, t - 10,
                  walpressure._xml_text(g.down));
    FOR c IN SELECT av.v, av.i FROM unnest(g.across_vals) WITH ORDINALITY av(v, i) LOOP
        svg := svg || format('<text x="%s" y="%s" text-anchor="middle">%s</text>',
                             walpressure._px(l + cw * (c.i - 0.5)), t - 10, walpressure._xml_text(c.v));
    END LOOP;
    FOR c IN SELECT dv.v, dv.i FROM unnest(g.down_vals) WITH ORDINALITY dv(v, i) LOOP
        svg := svg || format('<text x="%s" y="%s" text-anchor="end">%s</text>',
                             l - 8, walpressure._px(t + ch * (c.i - 0.5) + 4), walpressure._xml_text(c.v));
    END LOOP;
    FOR c IN SELECT dv.i AS di, av.i AS ai, rr.tps, rr.speedup, rr.verdict, rr.is_current, rr.value,
                    rr.tps_ci_low, rr.tps_ci_high
             FROM unnest(g.down_vals) WITH ORDINALITY dv(v, i)
             CROSS JOIN unnest(g.across_vals) WITH ORDINALITY av(v, i)
             LEFT JOIN walpressure.results rr
                    ON rr.sweep_id = _plot_grid.sweep_id AND rr.value_pos > 0
                   AND rr.value::jsonb->>g.down = dv.v AND rr.value::jsonb->>g.across = av.v LOOP
        x := l + cw * (c.ai - 1);
        y := t + ch * (c.di - 1);
        a := CASE WHEN c.speedup > 0 AND smax > 0 THEN 0.25 + 0.75 * least(abs(ln(c.speedup)) / smax, 1) ELSE 0 END;
        tone := CASE c.verdict WHEN 'faster' THEN ARRAY[42, 157, 58] WHEN 'slower' THEN ARRAY[192, 57, 43] END;
        fill := CASE WHEN c.tps IS NULL THEN '#ffffff'
                     WHEN tone IS NULL THEN '#e8e8e8'
                     ELSE format('rgb(%s,%s,%s)', round(255 + (tone[1] - 255) * a), round(255 + (tone[2] - 255) * a),
                                 round(255 + (tone[3] - 255) * a)) END;
        svg := svg || format('<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="%s" stroke-width="%s"%s><title>%s</title></rect>',
                             walpressure._px(x), walpressure._px(y), cw, ch, fill,
                             CASE WHEN k.apply IS NOT NULL AND c.value = k.value THEN '#1b5e20' ELSE '#999999' END,
                             CASE WHEN k.apply IS NOT NULL AND c.value = k.value THEN 3 ELSE 1 END,
                             CASE WHEN c.is_current THEN ' stroke-dasharray="5 3"' ELSE '' END,
                             walpressure._xml_text(coalesce(walpressure._value_label(s.setting, c.value, ', ') || ': ' || c.tps || ' tps'
                                                            || coalesce(' (95% interval ' || c.tps_ci_low || '-' || c.tps_ci_high || ')', '')
                                                            || ', ' || c.verdict, 'not measured')))
                   || format('<text x="%s" y="%s" text-anchor="middle" font-size="13"%s>%s</text>',
                             walpressure._px(x + cw / 2.0), walpressure._px(y + 20),
                             CASE WHEN a > 0.6 AND tone IS NOT NULL THEN ' fill="white"' ELSE '' END,
                             coalesce(round(c.tps)::text, '-'))
                   || format('<text x="%s" y="%s" text-anchor="middle" font-size="11"%s>%s</text>',
                             walpressure._px(x + cw / 2.0), walpressure._px(y + 37),
                             CASE WHEN a > 0.6 AND tone IS NOT NULL THEN ' fill="white"' ELSE '' END,
                             walpressure._xml_text(CASE WHEN c.verdict = 'baseline' THEN '= baseline'
                                                        WHEN c.speedup IS NULL THEN coalesce(c.verdict, '')
                                                        ELSE c.speedup || 'x' || CASE c.verdict WHEN 'faster' THEN ' +'
                                                                                   WHEN 'slower' THEN ' -' ELSE '' END END));
    END LOOP;
    y := t + ch * cardinality(g.down_vals) + 24;
    svg := svg || format('<text x="%s" y="%s">%s</text>', 20, walpressure._px(y),
                         walpressure._xml_text(coalesce(
                             CASE WHEN k.apply IS NOT NULL THEN format('best (thick border): %s, %sx', 
                                                                      walpressure._value_label(s.setting, k.value, ', '), k.gain)
                                  WHEN k.answer LIKE 'keep%' THEN 'keep: nothing beats the baseline' END, '')
                             || CASE WHEN EXISTS (SELECT 1 FROM walpressure.results z WHERE z.sweep_id = _plot_grid.sweep_id AND z.is_current AND z.value_pos > 0)
                                     THEN '; dashed: the current configuration' ELSE '' END));
    IF loss IS NOT NULL THEN
        svg := svg || format('<text x="%s" y="%s" fill="#c0392b" font-weight="bold">%s</text>', 20, walpressure._px(y + 20),
                             walpressure._xml_text('a crash can lose data at ' || loss));
    END IF;
    RETURN svg || '</svg>';
END
$$;

COMMENT ON FUNCTION _plot_grid(bigint) IS
'plot() of a grid sweep (two settings, every pair of their values): a heat map of the tps and the speedup against the baseline';

CREATE FUNCTION _plot(sweep_id bigint)
RETURNS text
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    s walpressure.sweeps;
    k walpressure.best;
    r record;
    w int := 760; h int := 480;
    l int := 80; rt int := 80; t int := 108; b int := 66;
    pw float8; ph float8;
    n int;
    numeric_x bool; log_x bool;
    xmin float8; xmax float8;
    tps_max float8; iops_max float8;
    tps_step float8; iops_step float8; tps_top float8; iops_top float8;
    x_step float8; v float8;
    px float8; py float8;
    has_iops bool;
    loss text;
    unit text;
    svg text;
    tps_line text := '';
    iops_line text := '';
    marks text := '';
    legend text := '';
    lx float8;
    lines int;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w2 WHERE w2.sweep_id = _plot.sweep_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no sweep %', _plot.sweep_id USING ERRCODE = 'no_data_found';
    END IF;
    -- a grid: a heat map
    IF EXISTS (SELECT 1 FROM walpressure._grid(_plot.sweep_id)) THEN
        RETURN walpressure._plot_grid(_plot.sweep_id);
    END IF;
    -- a configuration's label has a line per setting: room below the axis
    IF s.setting = 'settings' THEN
        SELECT coalesce(max((SELECT count(*) FROM jsonb_object_keys(v2::jsonb))), 1) INTO lines
        FROM unnest(s.vals) AS v2;
        h := h + 15 * (greatest(lines, 1) - 1);
        b := b + 15 * (greatest(lines, 1) - 1);
    END IF;
    SELECT * INTO k FROM walpressure.best bb WHERE bb.sweep_id = _plot.sweep_id;
    pw := w - l - rt;
    ph := h - t - b;

    -- what is drawn: every value with a step (the current value's row when it
    -- was not measured is in the legend, not on the axis)
    SELECT count(*), bool_and(walpressure._setting_number(s.setting, x2.value) IS NOT NULL),
           min(walpressure._setting_number(s.setting, x2.value)),
           max(walpressure._setting_number(s.setting, x2.value)),
           max(x2.tps), max(greatest(x2.write_iops, x2.iops_cap)), bool_or(x2.write_iops IS NOT NULL),
           CASE WHEN s.setting = 'settings' THEN
               string_agg(DISTINCT x2.data_loss, ', ') FILTER (WHERE x2.data_loss IS NOT NULL)
           ELSE string_agg(DISTINCT x2.value || ' (' || x2.data_loss || ')', ', ') FILTER (WHERE x2.data_loss IS NOT NULL) END
        INTO n, numeric_x, xmin, xmax, tps_max, iops_max, has_iops, loss
        FROM walpressure.results x2 WHERE x2.sweep_id = _plot.sweep_id AND x2.value_pos > 0;
    numeric_x := coalesce(numeric_x, false) AND n >= 2 AND xmax > xmin;
    log_x := numeric_x AND xmin > 0 AND xmax / xmin >= 20;
    unit := walpressure._setting_unit(s.setting);

    -- round steps; the axes fit the means (a wide interval is cut at the top)
    tps_step := walpressure._nice_step(1.1 * coalesce(tps_max, 1) / 5);
    tps_top := tps_step * ceil(1.1 * coalesce(tps_max, 1) / tps_step);
    iops_step := walpressure._nice_step(1.1 * coalesce(iops_max, 1) / 5);
    iops_top := iops_step * ceil(1.1 * coalesce(iops_max, 1) / iops_step);

    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || format('<rect width="%s" height="%s" fill="white"/>', w, h)
        || format('<text x="%s" y="24" text-anchor="middle" font-size="15">%s</text>', w / 2,
                  walpressure._xml_text(format('sweep %s%s: %s', s.sweep_id,
                                               coalesce(' "' || s.label || '"', ''), s.setting)))
        || format('<text x="%s" y="42" text-anchor="middle" font-size="11" fill="#555555">%s</text>', w / 2,
                  walpressure._xml_text(format('%s, %s clients, %s engine, %s x %s s%s; %s, %s',
                                               s.workload, s.clients, s.engine, s.repeats,
                                               trim_scale(extract(epoch FROM s.duration)),
                                               coalesce(', disk capped at ' || s.iops_cap || ' write IOPS', ''),
                                               to_char(s.started_at, 'YYYY-MM-DD HH24:MI'), s.status)))
        -- axes and their titles, above them (nothing rotated, nothing overlaps)
        || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', l, h - b, w - rt, h - b)
        || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', l, t, l, h - b)
        || format('<text x="%s" y="%s" text-anchor="start" fill="#1f5fa8">transactions per second</text>', l - 40, t - 10)
        || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', l + pw / 2, h - 18,
                  walpressure._xml_text(s.setting || coalesce(' (' || unit || CASE WHEN log_x THEN ', log scale' ELSE '' END || ')',
                                                              CASE WHEN log_x THEN ' (log scale)' ELSE '' END)));
    FOR i IN 0..round(tps_top / tps_step)::int LOOP
        py := h - b - ph * i * tps_step / tps_top;
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#dddddd"/>', l, walpressure._px(py), w - rt, walpressure._px(py))
                   || format('<text x="%s" y="%s" text-anchor="end" fill="#1f5fa8">%s</text>',
                             l - 6, walpressure._px(py + 4), walpressure._tick(i * tps_step));
    END LOOP;
    IF has_iops THEN
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', w - rt, t, w - rt, h - b)
                   || format('<text x="%s" y="%s" text-anchor="end" fill="#c45a00">write IOPS</text>', w - rt + 40, t - 10);
        FOR i IN 0..round(iops_top / iops_step)::int LOOP
            py := h - b - ph * i * iops_step / iops_top;
            svg := svg || format('<text x="%s" y="%s" fill="#c45a00">%s</text>',
                                 w - rt + 6, walpressure._px(py + 4), walpressure._tick(i * iops_step));
        END LOOP;
    END IF;

    -- x ticks: round numbers on a numeric axis, else one per value
    IF numeric_x AND log_x THEN
        FOR e IN floor(log(xmin))::int..ceil(log(xmax))::int LOOP
            FOREACH v IN ARRAY ARRAY[1, 2, 5] LOOP
                CONTINUE WHEN v * power(10, e) < xmin * 0.999 OR v * power(10, e) > xmax * 1.001
                              OR (v <> 1 AND log(xmax / xmin) > 2.5);
                px := l + pw * (0.05 + 0.9 * (ln(v * power(10, e)) - ln(xmin)) / (ln(xmax) - ln(xmin)));
                svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', walpressure._px(px), h - b, walpressure._px(px), h - b + 5)
                           || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', walpressure._px(px), h - b + 19,
                                     walpressure._tick(v * power(10, e)));
            END LOOP;
        END LOOP;
    ELSIF numeric_x THEN
        x_step := walpressure._nice_step((xmax - xmin) / 5);
        v := ceil(xmin / x_step - 1e-9) * x_step;
        WHILE v <= xmax + x_step * 1e-9 LOOP
            px := l + pw * (0.05 + 0.9 * (v - xmin) / (xmax - xmin));
            svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', walpressure._px(px), h - b, walpressure._px(px), h - b + 5)
                       || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', walpressure._px(px), h - b + 19, walpressure._tick(v));
            v := v + x_step;
        END LOOP;
    END IF;

    FOR r IN SELECT x3.*, walpressure._setting_number(s.setting, x3.value) AS num
             FROM walpressure.results x3 WHERE x3.sweep_id = _plot.sweep_id AND x3.value_pos > 0
             ORDER BY CASE WHEN numeric_x THEN walpressure._setting_number(s.setting, x3.value) END, x3.value_pos LOOP
        px := l + pw * CASE WHEN log_x THEN 0.05 + 0.9 * (ln(r.num) - ln(xmin)) / (ln(xmax) - ln(xmin))
                            WHEN numeric_x THEN 0.05 + 0.9 * (r.num - xmin) / (xmax - xmin)
                            ELSE (r.value_pos - 0.5) / greatest(n, 1) END;
        IF NOT numeric_x THEN
            svg := svg || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', walpressure._px(px), h - b + 19,
                                 CASE WHEN s.setting = 'settings' THEN
                                     format('<tspan x="%s">', walpressure._px(px))
                                     || replace(walpressure._xml_text(walpressure._value_label(s.setting, r.value, E'\n')), E'\n',
                                                format('</tspan><tspan x="%s" dy="15">', walpressure._px(px)))
                                     || '</tspan>'
                                 ELSE walpressure._xml_text(r.value) END);
        END IF;
        IF r.tps IS NULL THEN
            CONTINUE;           -- a value with no step that counts: its label only
        END IF;
        py := h - b - ph * r.tps / tps_top;
        tps_line := tps_line || walpressure._px(px) || ',' || walpressure._px(py) || ' ';
        IF r.tps_ci_low IS NOT NULL THEN
            marks := marks || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#1f5fa8"/>',
                                     walpressure._px(px), walpressure._px(h - b - ph * greatest(r.tps_ci_low, 0) / tps_top),
                                     walpressure._px(px), walpressure._px(h - b - ph * least(r.tps_ci_high, tps_top) / tps_top));
        END IF;
        marks := marks || format('<circle cx="%s" cy="%s" r="4" fill="#1f5fa8"><title>%s</title></circle>',
                                 walpressure._px(px), walpressure._px(py),
                                 walpressure._xml_text(format('%s = %s: %s tps%s, %s', s.setting, r.value, r.tps,
                                                              coalesce(' (95% interval ' || r.tps_ci_low || '-' || r.tps_ci_high || ')', ''),
                                                              r.verdict)));
        IF r.is_current THEN
            marks := marks || format('<circle cx="%s" cy="%s" r="8" fill="none" stroke="black" stroke-width="1.5"/>',
                                     walpressure._px(px), walpressure._px(py));
        END IF;
        IF k.apply IS NOT NULL AND r.value = k.value THEN
            marks := marks || format('<circle cx="%s" cy="%s" r="11" fill="none" stroke="#2a9d3a" stroke-width="2.5"/>',
                                     walpressure._px(px), walpressure._px(py));
        END IF;
        IF r.write_iops IS NOT NULL THEN
            iops_line := iops_line || walpressure._px(px) || ',' || walpressure._px(h - b - ph * r.write_iops / iops_top) || ' ';
        END IF;
    END LOOP;
    svg := svg || format('<polyline points="%s" fill="none" stroke="#1f5fa8" stroke-width="2"/>', trim(tps_line));
    IF iops_line <> '' THEN
        svg := svg || format('<polyline points="%s" fill="none" stroke="#c45a00" stroke-width="2" stroke-dasharray="6 4"/>',
                             trim(iops_line));
    END IF;
    IF s.iops_cap IS NOT NULL AND has_iops THEN
        py := h - b - ph * s.iops_cap / iops_top;
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#c45a00" stroke-width="1" stroke-dasharray="2 3"/>',
                             l, walpressure._px(py), w - rt, walpressure._px(py));
    END IF;
    svg := svg || marks;

    -- the legend, one row under the title: each entry after the last
    lx := l;
    legend := format('<line x1="%s" y1="58" x2="%s" y2="58" stroke="#1f5fa8" stroke-width="2"/><text x="%s" y="62" fill="#1f5fa8">tps (bar: 95%% interval)</text>',
                     lx, lx + 18, lx + 22);
    lx := lx + 22 + 6.6 * length('tps (bar: 95% interval)') + 14;
    IF iops_line <> '' THEN
        legend := legend || format('<line x1="%s" y1="58" x2="%s" y2="58" stroke="#c45a00" stroke-width="2" stroke-dasharray="6 4"/><text x="%s" y="62" fill="#c45a00">write IOPS</text>',
                                   walpressure._px(lx), walpressure._px(lx + 18), walpressure._px(lx + 22));
        lx := lx + 22 + 6.6 * length('write IOPS') + 14;
    END IF;
    IF s.iops_cap IS NOT NULL AND has_iops THEN
        legend := legend || format('<line x1="%s" y1="58" x2="%s" y2="58" stroke="#c45a00" stroke-dasharray="2 3"/><text x="%s" y="62" fill="#c45a00">%s</text>',
                                   walpressure._px(lx), walpressure._px(lx + 18), walpressure._px(lx + 22),
                                   'cap ' || s.iops_cap);
        lx := lx + 22 + 6.6 * length('cap ' || s.iops_cap) + 14;
    END IF;
    IF s.current_value IS NOT NULL THEN
        legend := legend || CASE WHEN s.current_pos IS NOT NULL
            THEN format('<circle cx="%s" cy="58" r="6" fill="none" stroke="black" stroke-width="1.5"/><text x="%s" y="62">%s</text>',
                        walpressure._px(lx + 8), walpressure._px(lx + 18),
                        walpressure._xml_text('current ' || walpressure._value_label(s.setting, s.current_value, ', ')))
            ELSE format('<text x="%s" y="62">%s</text>', walpressure._px(lx),
                        walpressure._xml_text('current ' || walpressure._value_label(s.setting, s.current_value, ', ') || ': not measured')) END;
        lx := lx + 18 + 6.6 * length('current ' || walpressure._value_label(s.setting, s.current_value, ', ')
                                     || CASE WHEN s.current_pos IS NULL THEN ': not measured' ELSE '' END) + 14;
    END IF;
    legend := legend || CASE WHEN k.apply IS NOT NULL
        THEN format('<circle cx="%s" cy="58" r="7" fill="none" stroke="#2a9d3a" stroke-width="2.5"/><text x="%s" y="62" fill="#2a9d3a">%s</text>',
                    walpressure._px(lx + 8), walpressure._px(lx + 20),
                    walpressure._xml_text(CASE WHEN lx + 20 + 6.6 * length(format('best %s: %sx', walpressure._value_label(s.setting, k.value, ', '), k.gain)) <= w
                                               THEN format('best %s: %sx', walpressure._value_label(s.setting, k.value, ', '), k.gain)
                                               ELSE format('best (circled): %sx', k.gain) END))
        WHEN k.answer LIKE 'keep%' THEN format('<text x="%s" y="62" fill="#2a9d3a">keep: nothing beats it</text>', walpressure._px(lx))
        ELSE '' END;
    IF loss IS NOT NULL THEN
        legend := legend || format('<text x="%s" y="80" fill="#c0392b" font-weight="bold">%s</text>', l,
                                   walpressure._xml_text('a crash can lose data at ' || loss));
    END IF;
    RETURN svg || legend || '</svg>';
END
$$;

COMMENT ON FUNCTION _plot(bigint) IS
'plot() after its check: an SVG chart of a sweep: tps with its 95% interval and write IOPS against the value; a grid''s heat map (_plot_grid)';

-- The entry points: the sweep ids checked in C (a plain "no sweep 99", no
-- PL/pgSQL CONTEXT), then the functions above.
CREATE FUNCTION report(sweep_id bigint)
RETURNS SETOF text
AS 'MODULE_PATHNAME', 'wp_report'
LANGUAGE C STRICT STABLE;

COMMENT ON FUNCTION report(bigint) IS
'A text chart of a sweep for psql: a tps bar per value, its 95% interval, write IOPS, commits per fsync and the verdict against the current value (else the first)';

CREATE FUNCTION plot(sweep_id bigint)
RETURNS text
AS 'MODULE_PATHNAME', 'wp_plot'
LANGUAGE C STRICT STABLE;

COMMENT ON FUNCTION plot(bigint) IS
'An SVG chart of a sweep: tps with its 95% interval and write IOPS against the value';

CREATE FUNCTION compare(sweep_a bigint, sweep_b bigint)
RETURNS TABLE (value text, tps_a numeric, tps_b numeric, ratio numeric,
               ratio_ci_low numeric, ratio_ci_high numeric, verdict text)
AS 'MODULE_PATHNAME', 'wp_compare'
LANGUAGE C STRICT STABLE;

COMMENT ON FUNCTION compare(bigint, bigint) IS
'Two sweeps of the same setting value by value: tps of each, b over a with its 95% interval, and whether b is faster, slower or the same within noise; a NOTICE names what else differs between them';

CREATE FUNCTION export(sweep_id bigint)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'wp_export'
LANGUAGE C STRICT STABLE;

CREATE FUNCTION import(sweep jsonb)
RETURNS bigint
AS 'MODULE_PATHNAME', 'wp_import'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION import(jsonb) IS
'A sweep export() made (here or on another server) as a new sweep of this database, with its steps and samples; origin names the server it ran on; returns the new id';

REVOKE ALL ON FUNCTION import(jsonb) FROM PUBLIC;

COMMENT ON FUNCTION export(bigint) IS
'A sweep as one JSON document (its row, steps, samples and the fingerprint of this server: system identifier, version, CPUs, WAL disk, cap, WAL settings), for import() on another server';

GRANT SELECT ON best TO pg_monitor;
