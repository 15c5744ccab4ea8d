--
-- Watching and reading the fleet: what every server of every run is doing,
-- what each answered, and servers' sweeps compared.
--

CREATE OR REPLACE VIEW fleet_progress AS
SELECT m.run_id,
       m.server,
       CASE WHEN m.state IN ('connecting', 'running', 'collecting') AND NOT l.alive THEN 'orphaned'
            ELSE m.state END AS state,
       m.sweep_status,
       m.remote_sweep_id,
       m.sweep_id,
       m.step,
       m.steps_done,
       m.steps_total,
       m.value,
       m.phase,
       m.estimated_end,
       m.last_heard,
       CASE WHEN m.state IN ('connecting', 'running', 'collecting') AND l.alive THEN
                round(extract(epoch FROM clock_timestamp() - coalesce(m.last_heard, m.started_at))::numeric, 1)
       END AS silent_s,
       CASE WHEN m.state IN ('connecting', 'running', 'collecting') AND NOT l.alive THEN
                format('the session that ran fleet run %s (pid %s) ended while this server''s sweep ran: the server cancelled it when it saw that session''s connection close; fleet_collect() gathers what it did',
                       m.run_id, r.pid)
            ELSE m.detail END AS detail,
       m.system_identifier,
       m.started_at,
       m.ended_at,
       CASE WHEN NOT l.alive THEN 'orphaned' ELSE r.status END AS run_status,
       r.run_by
FROM fleet_members m
JOIN fleet_runs r USING (run_id)
CROSS JOIN LATERAL (
    SELECT r.status <> 'running'
           OR EXISTS (SELECT FROM pg_catalog.pg_stat_activity a
                      WHERE a.pid = r.pid AND (a.backend_start = r.backend_start OR a.backend_start IS NULL)) AS alive
) l
ORDER BY m.run_id DESC, m.server;

COMMENT ON VIEW fleet_progress IS 'Every server of every fleet run, in one view: where each is, as last heard, and how each ended.';

-- The fleet's answer: one row per server and question (the sweeps of one
-- fleet run; sweeps gathered otherwise, by setting and values), the latest
-- sweep of each.  What it answered (best), its gain with the 95% interval
-- (the one decision rule, through best), its fsync cost, commits per fsync
-- and sync-rep share at the baseline; servers grouped by what they
-- answered, and in a group of three or more, a server whose fsync cost or
-- gain lies far from the group's median (more than 1.5x, and more than 3
-- median absolute deviations of the logarithms) is named.
CREATE OR REPLACE VIEW fleet_reading AS
WITH gathered AS (
    SELECT DISTINCT ON (q.question, f.server)
           q.question, f.server, f.run_id, f.sweep_id, f.remote_sweep_id, f.system_identifier
    FROM fleet_sweeps f
    JOIN sweeps s USING (sweep_id)
    CROSS JOIN LATERAL (SELECT coalesce('fleet run ' || f.run_id,
                                        format('%s %s', s.setting, array_to_string(s.vals, ', '))) AS question) q
    ORDER BY q.question, f.server, s.started_at DESC, f.sweep_id DESC
), base AS (
    SELECT r.sweep_id, r.value, r.fsync_avg_ms, r.commits_per_fsync, r.syncrep_wait_pct
    FROM results r JOIN sweeps s USING (sweep_id)
    WHERE r.value_pos = coalesce(s.current_pos, 1)
), answered AS (
    SELECT g.*, s.status, s.setting, s.server_version, s.cpus, s.wal_disk,
           b.value AS best_value, b.gain, b.gain_ci_low, b.gain_ci_high, b.verdict, b.answer,
           ba.fsync_avg_ms, ba.commits_per_fsync, ba.syncrep_wait_pct,
           CASE WHEN b.sweep_id IS NULL OR ba.sweep_id IS NULL OR b.tps IS NULL THEN 'no answer'
                WHEN b.verdict = 'faster' THEN format('change %s to %s', s.setting, b.value)
                ELSE format('keep %s = %s', s.setting, ba.value) END AS answered
    FROM gathered g
    JOIN sweeps s USING (sweep_id)
    LEFT JOIN best b USING (sweep_id)
    LEFT JOIN base ba USING (sweep_id)
), centre AS (
    SELECT a.question, a.answered, count(*) AS n,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY ln(a.fsync_avg_ms)) FILTER (WHERE a.fsync_avg_ms > 0) AS fsync_med,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY ln(a.gain)) FILTER (WHERE a.gain > 0) AS gain_med
    FROM answered a
    GROUP BY a.question, a.answered
), spread AS (
    SELECT a.question, a.answered,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(ln(a.fsync_avg_ms) - c.fsync_med))
               FILTER (WHERE a.fsync_avg_ms > 0) AS fsync_mad,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(ln(a.gain) - c.gain_med))
               FILTER (WHERE a.gain > 0) AS gain_mad
    FROM answered a JOIN centre c USING (question, answered)
    GROUP BY a.question, a.answered
)
SELECT a.question,
       a.run_id,
       a.server,
       a.sweep_id,
       a.remote_sweep_id,
       a.status,
       a.setting,
       a.answered,
       a.best_value,
       a.gain,
       a.gain_ci_low,
       a.gain_ci_high,
       a.verdict,
       a.fsync_avg_ms AS fsync_ms,
       a.commits_per_fsync,
       a.syncrep_wait_pct,
       c.n AS group_servers,
       nullif(concat_ws('; ',
           CASE WHEN c.n >= 3 AND a.fsync_avg_ms > 0
                     AND abs(ln(a.fsync_avg_ms) - c.fsync_med) > ln(1.5)
                     AND abs(ln(a.fsync_avg_ms) - c.fsync_med) > 3 * 1.4826 * sp.fsync_mad THEN
                format('fsync %s ms, %sx the median of the %s servers that answered %s (%s ms)',
                       round(a.fsync_avg_ms::numeric, 3), walpressure._ratio_text(a.fsync_avg_ms / exp(c.fsync_med)),
                       c.n, a.answered, round(exp(c.fsync_med)::numeric, 3)) END,
           CASE WHEN c.n >= 3 AND a.gain > 0
                     AND abs(ln(a.gain) - c.gain_med) > ln(1.5)
                     AND abs(ln(a.gain) - c.gain_med) > 3 * 1.4826 * sp.gain_mad THEN
                format('gain %sx against the median %sx of the %s servers that answered %s',
                       walpressure._ratio_text(a.gain), walpressure._ratio_text(exp(c.gain_med)), c.n, a.answered) END
       ), '') AS outlier,
       a.answer,
       a.system_identifier,
       a.server_version,
       a.cpus,
       a.wal_disk
FROM answered a
JOIN centre c USING (question, answered)
JOIN spread sp USING (question, answered)
ORDER BY a.question, a.answered, a.server;

COMMENT ON VIEW fleet_reading IS 'The fleet''s answer: per server and question, what it answered, its gain with its interval, its fsync cost, commits per fsync and sync-rep share; servers grouped by what they answered, and the ones far from their group named.';

-- Every server's sweep of a fleet run against one server's (against; by
-- default the first, by name, with a sweep here), value by value, through
-- compare(): the same figures, intervals and verdicts.
CREATE OR REPLACE FUNCTION fleet_compare(run_id bigint, against text DEFAULT NULL)
RETURNS TABLE (server text, value text, tps_against numeric, tps numeric, ratio numeric,
               ratio_ci_low numeric, ratio_ci_high numeric, verdict text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ref text := against;
    ref_sweep bigint;
    m record;
BEGIN
    IF ref IS NULL THEN
        SELECT f.server INTO ref FROM walpressure.fleet_sweeps f
        WHERE f.run_id = fleet_compare.run_id ORDER BY f.server LIMIT 1;
    END IF;
    SELECT f.sweep_id INTO ref_sweep FROM walpressure.fleet_sweeps f
    WHERE f.run_id = fleet_compare.run_id AND f.server = ref;
    IF ref_sweep IS NULL THEN
        RAISE EXCEPTION 'fleet run % has no sweep gathered from server %', fleet_compare.run_id, coalesce(ref, '(any)')
            USING ERRCODE = 'no_data_found',
                  HINT = 'walpressure.fleet_sweeps lists the sweeps gathered for each run.';
    END IF;
    FOR m IN SELECT f.server, f.sweep_id FROM walpressure.fleet_sweeps f
             WHERE f.run_id = fleet_compare.run_id AND f.server <> ref ORDER BY f.server LOOP
        RETURN QUERY
        SELECT m.server::text, c.value, c.tps_a, c.tps_b, c.ratio, c.ratio_ci_low, c.ratio_ci_high, c.verdict
        FROM walpressure.compare(ref_sweep, m.sweep_id) c;
    END LOOP;
END
$$;

COMMENT ON FUNCTION fleet_compare(bigint, text) IS 'Every server''s sweep of a fleet run against one server''s, value by value, through compare.';

GRANT SELECT ON fleet_progress, fleet_reading TO pg_monitor;
