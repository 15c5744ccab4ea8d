--
-- Every value's effect against the baseline, paired by round (effects()), and whether a sweep is an open loop.
--

-- Every value's effect against another of the same sweep (by default the
-- baseline: the server's value when the sweep started, when it is among the
-- values, else the first), paired by round: tps, latency_p50 and
-- latency_p99.  Steps left out of the figures (discarded) are left out.
CREATE OR REPLACE FUNCTION effects(sweep_id bigint, against int DEFAULT NULL)
RETURNS TABLE (value_pos int, value text, metric text, rounds int, ratio numeric,
               ratio_ci_low numeric, ratio_ci_high numeric, verdict text,
               rounds_needed int, detail text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH ref AS (
        SELECT coalesce($2, s.current_pos, 1) AS pos
        FROM walpressure.sweeps s WHERE s.sweep_id = $1
    ), st AS (
        -- each step with the reference's figures of its round beside it: one
        -- pass over the sweep's steps (a join of the steps with themselves
        -- went quadratic on a sweep of thousands of steps)
        SELECT x.value_pos, x.value, x.repeat, x.tps, x.latency_p50_ms, x.latency_p99_ms,
               x.latency_p999_ms,
               max(x.tps) FILTER (WHERE x.value_pos = ref.pos) OVER w AS r_tps,
               max(x.latency_p50_ms) FILTER (WHERE x.value_pos = ref.pos) OVER w AS r_p50,
               max(x.latency_p99_ms) FILTER (WHERE x.value_pos = ref.pos) OVER w AS r_p99,
               max(x.latency_p999_ms) FILTER (WHERE x.value_pos = ref.pos) OVER w AS r_p999,
               x.value_pos = ref.pos AS is_ref
        FROM walpressure.steps x, ref
        WHERE x.sweep_id = $1 AND x.discarded IS NULL AND x.value_pos > 0
        WINDOW w AS (PARTITION BY x.repeat)
    ), figures AS (
        SELECT v.value_pos, min(v.value) AS value, k.metric, k.higher_better,
               array_agg(k.x ORDER BY v.repeat) AS a, array_agg(k.y ORDER BY v.repeat) AS b
        FROM st v
        CROSS JOIN LATERAL (VALUES ('tps', v.tps, v.r_tps, true),
                                   ('latency_p50', v.latency_p50_ms, v.r_p50, false),
                                   ('latency_p99', v.latency_p99_ms, v.r_p99, false),
                                   ('latency_p999', v.latency_p999_ms, v.r_p999, false))
                           AS k(metric, x, y, higher_better)
        WHERE NOT v.is_ref AND k.x IS NOT NULL AND k.y IS NOT NULL
        GROUP BY v.value_pos, k.metric, k.higher_better
    )
    SELECT f.value_pos, f.value, f.metric, d.rounds,
           round(d.ratio::numeric, 3), round(d.ci_low::numeric, 3), round(d.ci_high::numeric, 3),
           d.verdict, d.rounds_needed, d.detail
    FROM figures f
    CROSS JOIN LATERAL walpressure._decide(f.a, f.b, true, f.higher_better, walpressure._margin()) AS d
    ORDER BY f.value_pos, f.metric
$$;

COMMENT ON FUNCTION effects(bigint, int) IS 'The one decision: each value''s effect against the baseline (or another value), paired by interleaved round, for tps and for latency p50 and p99. results, best, report, plot and repeats => ''auto'' all read it; compare applies the same rule to two sweeps, unpaired.';

-- Is a sweep open-loop (run_sweep's rate)?  Its answer is read by latency:
-- the rate is fixed, and what the values change is how long a user waits.
-- A rate sweep is not: its values are the load itself.
CREATE OR REPLACE FUNCTION _open_loop(sweep_id bigint)
RETURNS bool
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce((SELECT s.rate IS NOT NULL AND s.setting <> 'rate'
                     FROM walpressure.sweeps s WHERE s.sweep_id = $1), false)
$$;
