-- The 97.5% quantile of Student's t with df degrees of freedom: the factor of
-- a 95% confidence interval of a mean.  Exact to three decimals up to 30,
-- then the Cornish-Fisher expansion (error under 0.001).
CREATE OR REPLACE FUNCTION _t975(df float8)
RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE
    WHEN df < 1 THEN NULL
    WHEN df <= 30 THEN (ARRAY[12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                              2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                              2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042])[floor(df)::int]
    ELSE 1.959964 + 2.37224 / df + 2.82217 / (df * df)
END;

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

COMMENT ON VIEW results IS
'One row per sweep and value: means over the repeats with 95% confidence intervals, speedup against the baseline and the verdict (faster / slower / within noise: non-overlapping 95% intervals).  The baseline is the server''s value when the sweep started (is_current) when it is among the values, else the first value; a current value that is not among them has its own row (value_pos 0, not measured).  Steps left out of the figures (steps.discarded) are counted in steps_discarded, and a value with no step that counts reads discarded; when the baseline has none, the others read no baseline';

-- Per sweep, value and statement of the load: pg_stat_statements' figures
-- over the steps' windows, against the baseline's for the same statement.
CREATE OR REPLACE VIEW statements AS
WITH per_value AS (
    SELECT q.sweep_id, st.value_pos, min(st.value) AS value, q.queryid,
           min(q.query) AS query,
           count(*) AS steps,
           sum(q.calls) AS calls,
           sum(q.calls) / nullif(sum(st.seconds), 0) AS calls_per_s,
           sum(q.total_ms) AS total_ms,
           sum(q.total_ms) / nullif(sum(q.calls), 0) AS mean_ms,
           stddev_samp(q.mean_ms) AS mean_sd_steps,
           -- every call's time squared, summed, for the stddev over all the calls
           sum(q.calls * (q.stddev_ms * q.stddev_ms + q.mean_ms * q.mean_ms)) AS sumsq,
           sum(q.rows)::float8 / nullif(sum(q.calls), 0) AS rows_per_call,
           sum(q.wal_bytes)::float8 / nullif(sum(q.calls), 0) AS wal_bytes_per_call
    FROM step_statements q
    JOIN steps st ON st.sweep_id = q.sweep_id AND st.step = q.step
    WHERE st.discarded IS NULL
    GROUP BY q.sweep_id, st.value_pos, q.queryid
), v AS (
    SELECT p.*,
           sqrt(greatest(p.sumsq / nullif(p.calls, 0) - p.mean_ms * p.mean_ms, 0)) AS stddev_ms,
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

-- repeats => 'auto': is the answer clear after the rounds so far?  Why, or
-- NULL to add a round (coordinator/decision.c asks after each round).
CREATE OR REPLACE FUNCTION _rounds_decided(sweep_id bigint)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH r AS (SELECT * FROM walpressure.results x WHERE x.sweep_id = $1 AND x.value_pos > 0),
    top AS (SELECT * FROM r ORDER BY tps DESC NULLS LAST LIMIT 1),
    rival AS (SELECT * FROM r WHERE verdict <> 'baseline' ORDER BY tps DESC NULLS LAST LIMIT 1)
    SELECT CASE
        WHEN (SELECT verdict FROM top) = 'faster' THEN
            format('decided: %s beats the baseline beyond its 95%% interval', (SELECT value FROM top))
        WHEN (SELECT verdict FROM top) = 'baseline' AND (SELECT verdict FROM rival) = 'slower' THEN
            format('decided: the baseline, %s, beats every other value beyond its 95%% interval', (SELECT value FROM top))
        WHEN (SELECT bool_and(tps_ci_high - tps_ci_low <= 0.04 * tps) FROM r) THEN
            'narrow: every 95% interval is within 2% of its mean, and no value differs beyond them'
    END
$$;

REVOKE ALL ON FUNCTION _rounds_decided(bigint) FROM PUBLIC;
