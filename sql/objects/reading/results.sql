--
-- One row per sweep and value: its figures over the rounds and its effect
-- against the baseline (results), from three parts: the values a sweep has
-- (_results_values), each value's figures over its rounds and their own
-- interval (_results_figures), and its effects against the baseline
-- (_results_effects).
--

-- Every value a sweep has a step of, clean or not, with its discarded
-- steps; and the server's value when the sweep started when it is not among
-- them: a row that says so (value_pos 0).
CREATE OR REPLACE VIEW _results_values AS
WITH vals AS (
    SELECT sweep_id, value_pos, min(value) AS value
    FROM steps
    GROUP BY sweep_id, value_pos
    UNION ALL
    SELECT w.sweep_id, 0, w.current_value
    FROM sweeps w
    WHERE w.current_value IS NOT NULL AND w.current_pos IS NULL
      AND EXISTS (SELECT 1 FROM steps x WHERE x.sweep_id = w.sweep_id)
)
SELECT a.sweep_id, a.value_pos, a.value,
       (SELECT count(*) FROM steps d
        WHERE d.sweep_id = a.sweep_id AND d.value_pos = a.value_pos AND d.discarded IS NOT NULL) AS steps_discarded
FROM vals a;

-- A value's figures over its rounds (the steps that count), and its own
-- interval: from its rounds (the repeats' means), none from one round (the
-- seconds of one window leave out how runs differ).
CREATE OR REPLACE VIEW _results_figures AS
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
           -- over the WAL the images were read from (the window's LSNs: wal_bytes,
           -- the records' own bytes, leaves out the pages' headers and alignment)
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
           avg(st.syncrep_wait_ms) AS syncrep_wait_ms,
           avg(st.latency_p999_ms) AS latency_p999_ms,
           avg(st.rate) AS rate,
           avg(st.rate_achieved) AS rate_achieved,
           bool_and(st.rate_sustained) AS rate_sustained,
           avg(st.lag_avg_ms) AS lag_avg_ms,
           avg(st.lag_p99_ms) AS lag_p99_ms,
           sum(st.transactions_late) AS transactions_late,
           sum(st.transactions_skipped) AS transactions_skipped,
           string_agg(DISTINCT st.disk, ', ') AS disk
    FROM steps st
    LEFT JOIN seconds se ON se.sweep_id = st.sweep_id AND se.step = st.step
    WHERE st.discarded IS NULL      -- a step whose load was not clean is not averaged
    GROUP BY st.sweep_id, st.value_pos, st.value
), ci AS (
    -- a value's own interval: from its rounds (the repeats' means), none
    -- from one round (the seconds of one window leave out how runs differ)
    SELECT v.*,
           CASE WHEN v.repeats >= 2 THEN 'rounds' END AS ci_basis,
           v.tps_sd_repeats AS tps_sd,
           v.p99_sd_repeats AS p99_sd,
           walpressure._t975(v.repeats - 1) * v.tps_sd_repeats / sqrt(v.repeats) AS tps_half,
           walpressure._t975(v.repeats - 1) * v.p99_sd_repeats / sqrt(v.repeats) AS p99_half
    FROM per_value v
)
SELECT * FROM ci;

-- Each value against the baseline, paired by round (decision/effects.sql),
-- one row per value, tps and the latencies side by side (a filter on
-- sweep_id reaches into it).
CREATE OR REPLACE VIEW _results_effects AS
SELECT w.sweep_id, e.value_pos,
       max(e.ratio) FILTER (WHERE e.metric = 'tps') AS ratio,
       max(e.ratio_ci_low) FILTER (WHERE e.metric = 'tps') AS ratio_ci_low,
       max(e.ratio_ci_high) FILTER (WHERE e.metric = 'tps') AS ratio_ci_high,
       max(e.verdict) FILTER (WHERE e.metric = 'tps') AS verdict,
       max(e.detail) FILTER (WHERE e.metric = 'tps') AS detail,
       max(e.rounds) FILTER (WHERE e.metric = 'tps') AS rounds,
       max(e.rounds_needed) FILTER (WHERE e.metric = 'tps') AS rounds_needed,
       max(e.ratio) FILTER (WHERE e.metric = 'latency_p50') AS p50_ratio,
       max(e.verdict) FILTER (WHERE e.metric = 'latency_p50') AS p50_verdict,
       max(e.ratio) FILTER (WHERE e.metric = 'latency_p99') AS p99_ratio,
       max(e.ratio_ci_low) FILTER (WHERE e.metric = 'latency_p99') AS p99_ratio_ci_low,
       max(e.ratio_ci_high) FILTER (WHERE e.metric = 'latency_p99') AS p99_ratio_ci_high,
       max(e.verdict) FILTER (WHERE e.metric = 'latency_p99') AS p99_verdict,
       max(e.detail) FILTER (WHERE e.metric = 'latency_p99') AS p99_detail,
       max(e.rounds_needed) FILTER (WHERE e.metric = 'latency_p99') AS p99_rounds_needed,
       max(e.ratio) FILTER (WHERE e.metric = 'latency_p999') AS p999_ratio,
       max(e.verdict) FILTER (WHERE e.metric = 'latency_p999') AS p999_verdict
FROM (SELECT DISTINCT x.sweep_id FROM steps x) w
CROSS JOIN LATERAL walpressure.effects(w.sweep_id) e
GROUP BY w.sweep_id, e.value_pos;

CREATE OR REPLACE VIEW results AS
SELECT s.sweep_id,
       s.label,
       s.setting,
       a.value,
       a.value_pos,
       coalesce(v.repeats, 0) AS repeats,
       round(v.tps::numeric, 1) AS tps,
       round(v.tps_sd::numeric, 1) AS tps_stddev,
       -- a rate is never below 0 (greatest() alone would make a missing interval 0)
       round(CASE WHEN v.tps_half IS NOT NULL THEN greatest(v.tps - v.tps_half, 0) END::numeric, 1) AS tps_ci_low,
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
       CASE WHEN a.value_pos = coalesce(s.current_pos, 1) AND v.sweep_id IS NOT NULL THEN 1.000
            ELSE et.ratio END AS speedup,
       et.ratio_ci_low AS speedup_ci_low,
       et.ratio_ci_high AS speedup_ci_high,
       CASE WHEN a.value_pos = 0 THEN 'not measured'
            WHEN v.sweep_id IS NULL THEN 'discarded'
            WHEN a.value_pos = coalesce(s.current_pos, 1) THEN 'baseline'
            WHEN b.sweep_id IS NULL THEN 'no baseline'
            ELSE coalesce(et.verdict, 'undecided')
       END AS verdict,
       v.ci_basis,
       v.data_loss,
       coalesce(a.steps_discarded, 0) AS steps_discarded,
       coalesce(a.value_pos = 0 OR a.value_pos = s.current_pos, false) AS is_current,
       round(v.fpi_bytes_pct::numeric, 1) AS fpi_bytes_pct,
       round(v.syncrep_wait_pct::numeric, 1) AS syncrep_wait_pct,
       round(v.syncrep_wait_ms::numeric, 3) AS syncrep_wait_ms,
       CASE WHEN a.value_pos = 0 THEN 'the server''s value when the sweep started; not among the values'
            WHEN v.sweep_id IS NULL THEN 'no step of it counts (steps.discarded)'
            WHEN a.value_pos = coalesce(s.current_pos, 1) THEN
                CASE WHEN s.current_pos IS NOT NULL THEN 'the current value: every other is compared with it'
                     ELSE 'the first value: every other is compared with it' END
            WHEN b.sweep_id IS NULL THEN 'the baseline has no step that counts'
            ELSE coalesce(et.detail, 'no round measured both it and the baseline')
       END AS verdict_detail,
       et.rounds AS paired_rounds,
       et.rounds_needed,
       et.p50_ratio AS latency_p50_ratio,
       et.p50_verdict AS latency_p50_verdict,
       et.p99_ratio AS latency_p99_ratio,
       et.p99_ratio_ci_low AS latency_p99_ratio_ci_low,
       et.p99_ratio_ci_high AS latency_p99_ratio_ci_high,
       et.p99_verdict AS latency_p99_verdict,
       round(v.latency_p999_ms::numeric, 3) AS latency_p999_ms,
       round(v.rate::numeric, 1) AS rate,
       round(v.rate_achieved::numeric, 1) AS rate_achieved,
       v.rate_sustained,
       round(v.lag_avg_ms::numeric, 3) AS lag_avg_ms,
       round(v.lag_p99_ms::numeric, 3) AS lag_p99_ms,
       v.transactions_late,
       v.transactions_skipped,
       et.p99_detail AS latency_p99_detail,
       et.p99_rounds_needed AS latency_p99_rounds_needed,
       et.p999_ratio AS latency_p999_ratio,
       et.p999_verdict AS latency_p999_verdict,
       v.disk
FROM _results_values a
JOIN sweeps s USING (sweep_id)
LEFT JOIN _results_figures v ON v.sweep_id = a.sweep_id AND v.value_pos = a.value_pos
-- the baseline is the server's value when the sweep started, when it is
-- among the values; else the first value, as the sweep was asked; when none
-- of its steps counts, there is none (no speedup against another value)
LEFT JOIN _results_figures b ON b.sweep_id = a.sweep_id AND b.value_pos = coalesce(s.current_pos, 1)
LEFT JOIN _results_effects et ON et.sweep_id = a.sweep_id AND et.value_pos = a.value_pos
ORDER BY s.sweep_id, a.value_pos;

COMMENT ON VIEW results IS 'One row per sweep and value: the means over the rounds, each value''s own 95% interval, and its effect against the baseline from the one decision.';
