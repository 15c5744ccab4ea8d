--
-- The load's statements per value, from pg_stat_statements.
--

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

COMMENT ON VIEW statements IS 'Per sweep, value and statement of the load: pg_stat_statements'' figures over the steps'' windows (step_statements), against the same statement at the baseline.';

-- as pg_stat_statements shows another role's statements
GRANT SELECT ON step_statements, statements TO pg_read_all_stats;
