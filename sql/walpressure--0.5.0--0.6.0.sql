/* walpressure 0.5.0 -> 0.6.0 */
\echo Use "ALTER EXTENSION walpressure UPDATE TO '0.6.0'" to load this file. \quit

-- live: the time commits wait for synchronous standbys (new columns of
-- live_figures: the function and its view are made again)
DROP VIEW live;
DROP FUNCTION live_figures();

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

REVOKE ALL ON FUNCTION live_figures() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION live_figures() TO pg_monitor;
GRANT SELECT ON live TO pg_monitor;

-- sweeps: what to do when the standby is lost, and the standby read
ALTER TABLE sweeps
    ADD COLUMN on_standby_loss text NOT NULL DEFAULT 'stop' CHECK (on_standby_loss IN ('stop', 'skip')),
    ADD COLUMN standby_conninfo text;
COMMENT ON COLUMN sweeps.on_standby_loss IS
'what the sweep did when a step''s synchronous standby was lost: stop (the sweep failed after recording that step, marked) or skip (it went on; steps that needed the standby while it was not there were not run)';
COMMENT ON COLUMN sweeps.standby_conninfo IS
'run_sweep''s standby_conninfo without its password: the standby each step read its own WAL figures from';

-- steps: the sync-rep wait and the standby's own figures
ALTER TABLE steps
    ADD COLUMN syncrep_wait_pct float8,
    ADD COLUMN syncrep_wait_ms float8,
    ADD COLUMN standby_wal_mb_per_s float8,
    ADD COLUMN standby_wal_writes_per_s float8,
    ADD COLUMN standby_wal_fsyncs_per_s float8,
    ADD COLUMN standby_write_iops float8,
    ADD COLUMN standby_source text;

COMMENT ON COLUMN steps.syncrep_wait_pct IS
'share of the window''s commit time spent waiting for synchronous standbys (IPC:SyncRep, timed by the sampler every millisecond, over the commit time the probe measured); NULL when the server had no walsender and nothing waited';
COMMENT ON COLUMN steps.syncrep_wait_ms IS
'time waiting for synchronous standbys per commit of the window';
COMMENT ON COLUMN steps.standby_wal_mb_per_s IS
'with standby_conninfo: WAL the standby received and flushed per second over the window (pg_last_wal_receive_lsn at its edges, the standby''s clock); NULL when it could not be read';
COMMENT ON COLUMN steps.standby_wal_fsyncs_per_s IS
'with standby_conninfo: the standby''s WAL fsyncs per second over the window (standby_wal_writes_per_s: its WAL writes), from its walpressure sampler when it preloads walpressure (standby_source = walpressure, with standby_write_iops from its disk: the cgroup''s counters when it is in walpressure.cgroup, /proc/diskstats otherwise), else from its pg_stat_wal (pg_stat_io from 18).  Both count what the standby''s statistics count, and the WAL receiver''s own writes and fsyncs are not among them (they read 0 on 15 and 18 in test/t/014_standby.pl): standby_write_iops and standby_wal_mb_per_s show its disk''s load';

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

SELECT pg_catalog.pg_extension_config_dump('step_replication', '');

-- who could read the steps may read the standbys' figures
DO $$
DECLARE
    r text;
BEGIN
    FOR r IN SELECT DISTINCT a.grantee::regrole::text
             FROM pg_catalog.pg_class c, LATERAL pg_catalog.aclexplode(c.relacl) a
             WHERE c.oid = 'walpressure.steps'::regclass AND a.privilege_type = 'SELECT'
               AND a.grantee <> c.relowner AND a.grantee <> 0 LOOP
        EXECUTE format('GRANT SELECT ON walpressure.step_replication TO %s', r);
    END LOOP;
END
$$;

-- results: the sync-rep wait, mean over the repeats
CREATE OR REPLACE VIEW results AS
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

-- best reads results: made again over its new columns
CREATE OR REPLACE VIEW best AS
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

-- run_sweep gains on_standby_loss and standby_conninfo: a new signature.
-- The roles granted the old one get the new one.
CREATE FUNCTION _grantees_0_6_0() RETURNS text[] LANGUAGE sql AS $$
    SELECT coalesce(array_agg(DISTINCT a.grantee::regrole::text), '{}')
    FROM pg_catalog.pg_proc p, pg_catalog.aclexplode(p.proacl) a
    WHERE p.oid = 'walpressure.run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool)'::regprocedure
      AND a.privilege_type = 'EXECUTE' AND a.grantee <> 0 AND a.grantee <> p.proowner
$$;
CREATE TABLE _grantees_0_6_0 AS SELECT unnest(_grantees_0_6_0()) AS grantee;
DROP FUNCTION _grantees_0_6_0();
DROP FUNCTION run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool);

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

REVOKE ALL ON FUNCTION run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool, text, text) FROM PUBLIC;
DO $$
DECLARE
    r text;
BEGIN
    FOR r IN SELECT grantee FROM walpressure._grantees_0_6_0 LOOP
        EXECUTE format('GRANT EXECUTE ON FUNCTION walpressure.run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool, text, text) TO %s', r);
    END LOOP;
END
$$;
DROP TABLE _grantees_0_6_0;

-- grant_sweeper and revoke_sweeper: the new signature, the standbys' table
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

-- report(): each value's wait for the standbys and their lags
CREATE OR REPLACE FUNCTION _report(sweep_id bigint)
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

COMMENT ON FUNCTION _report(bigint) IS
'report() after its check: a text chart of a sweep for psql: a tps bar per value, its 95% interval, write IOPS, commits per fsync and the verdict against the current value (else the first); a grid''s tps as a table; the load''s statements (pg_stat_statements) value by value; with synchronous standbys, each value''s wait for them and their lags';

-- export() and import(): the standbys' figures too
CREATE OR REPLACE FUNCTION _export(sweep_id bigint)
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

CREATE OR REPLACE FUNCTION _import(sweep jsonb)
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
