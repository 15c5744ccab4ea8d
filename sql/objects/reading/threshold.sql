--
-- The group-commit threshold: lambda* = 2 / F0 ("Group Commit Self-Clocks",
-- arXiv 2606.18187), F0 the time one WAL flush takes, measured by the
-- coordinator before step 1 as probe_fsync does, at the sweep's cap on its
-- disk (sweeps.f0_ms, f0_p50_ms, f0_p99_ms).  F0 here is the median: under
-- the throttle most flushes cost what an uncapped one does and a few wait
-- out a 100 ms slice, and the mean is neither.  Above lambda* the paper
-- argues that flushing as soon as the device is free (commit_delay = 0) is
-- within 0.1% of the best timer; below it, in an open loop, that the
-- square-root rule's timer T* = sqrt(2 F0 / lambda) is best.  The plan
-- NOTICE says lambda* (_threshold_text); after the sweep one finding says
-- whether the measurement confirmed the prediction or not, by how much
-- (_threshold_finding), the load read from the sweep's own steps.
--

-- lambda* in commits per second, from F0 in milliseconds.
CREATE OR REPLACE FUNCTION _lambda_star(f0_ms float8)
RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN f0_ms > 0 THEN 2000.0 / f0_ms END;

-- The square-root rule's timer in microseconds: sqrt(2 F0 / lambda), F0 in
-- ms, lambda in commits per second.
CREATE OR REPLACE FUNCTION _sqrt_rule_us(f0_ms float8, lambda float8)
RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN f0_ms > 0 AND lambda > 0 THEN 1e6 * sqrt(2 * (f0_ms / 1000.0) / lambda) END;

-- The plan NOTICE's words: F0 (median), lambda*, and the load against it
-- where it is known before the sweep (the rate asked); a closed loop's
-- commit rate is the steps' own, read after them.  (live_rate is kept for
-- the C caller of an older library; it is not read.)
CREATE OR REPLACE FUNCTION _threshold_text(f0_ms float8, rate float8, live_rate float8, setting text)
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN format('one WAL flush takes F0 = %s ms here (median), so lambda* = 2/F0 = %s commits/s; %s',
              round(f0_ms::numeric, 3), round(walpressure._lambda_star(f0_ms)::numeric),
              CASE WHEN rate > 0 AND rate >= walpressure._lambda_star(f0_ms) THEN
                       format('the rate asked, %s/s, is above it: the paper predicts commit_delay = 0 best', rate)
                   WHEN rate > 0 THEN
                       format('the rate asked, %s/s, is below it: the paper predicts a timer of %s us best',
                              rate, round(walpressure._sqrt_rule_us(f0_ms, rate)::numeric))
                   WHEN setting = 'rate' THEN 'at the rates swept above it the paper predicts commit_delay = 0 best'
                   ELSE 'best reads each step''s own commit rate against it' END);

-- After a commit_delay sweep, one finding: lambda* (from F0's median), the
-- load of the steps against it (asked in an open loop, their commits per
-- second in a closed one), what the paper predicts there, and whether the
-- measured optimum confirmed it: above lambda*, commit_delay = 0 the best
-- or within its interval of the best; below, the optimum the value nearest
-- T* or within its interval.  NULL when no F0 was measured.
CREATE OR REPLACE FUNCTION _threshold_finding(sweep_id bigint)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH s AS (
        SELECT w.*, walpressure._lambda_star(w.f0_p50_ms) AS star, walpressure._open_loop(w.sweep_id) AS open
        FROM walpressure.sweeps w WHERE w.sweep_id = $1 AND w.f0_p50_ms > 0 AND w.setting = 'commit_delay'
    ), load AS (
        SELECT min(l) AS lo, max(l) AS hi
        FROM (SELECT coalesce(avg(x.rate), avg(x.commits / nullif(x.server_seconds, 0))) AS l
              FROM walpressure.steps x, s WHERE x.sweep_id = s.sweep_id AND x.discarded IS NULL
              GROUP BY x.value_pos) v
    ), a AS (
        SELECT * FROM walpressure._answer($1)
    ), zero AS (
        SELECT r.value_pos FROM walpressure.results r, s
        WHERE r.sweep_id = s.sweep_id AND r.value_pos > 0 AND walpressure._int_setting(r.value) = 0 LIMIT 1
    ), vs0 AS (
        -- the answer's value against commit_delay = 0
        SELECT e.ratio, e.ratio_ci_low, e.ratio_ci_high, e.verdict FROM s, zero, a
        CROSS JOIN LATERAL walpressure.effects(s.sweep_id, zero.value_pos) e
        WHERE e.value_pos = a.value_pos AND e.metric = CASE WHEN s.open THEN 'latency_p99' ELSE 'tps' END
    ), t AS (
        SELECT round(walpressure._sqrt_rule_us(s.f0_p50_ms, load.lo)::numeric) AS tstar FROM s, load
    ), kept0 AS (
        -- in an open loop, whether commit_delay = 0 kept the rate (else no ratio against it)
        SELECT bool_and(coalesce(x.rate_sustained, true)) AS kept
        FROM walpressure.steps x, zero, s
        WHERE x.sweep_id = s.sweep_id AND x.value_pos = zero.value_pos AND x.discarded IS NULL
    ), j AS (
        SELECT s.*, load.lo, load.hi, a.kind, a.value, t.tstar,
               (SELECT count(*) FROM zero) > 0 AS has0, coalesce((SELECT kept FROM kept0), true) AS kept0,
               v.ratio, v.ratio_ci_low, v.ratio_ci_high, v.verdict,
               s.open AND load.lo < s.star AND load.hi >= s.star AS crossed,
               s.open AND load.hi < s.star AS below
        FROM s, load, a, t LEFT JOIN vs0 v ON true
    )
    -- the verdict first, where no cut can take it away
    SELECT walpressure._fit(format('%s: lambda* %s/s, load %s-%s/s (%s); predicted %s, measured %s',
        CASE WHEN j.kind NOT IN ('change', 'keep') OR j.value IS NULL THEN 'not tested (no answer)'
             WHEN NOT j.has0 THEN 'not tested (0 was not measured)'
             WHEN NOT j.kept0 THEN 'not tested (0 did not keep the rate)'
             WHEN j.crossed THEN 'not tested (the load crossed lambda*)'
             WHEN NOT j.below AND walpressure._int_setting(j.value) = 0 THEN 'confirmed'
             WHEN j.below AND abs(walpressure._int_setting(j.value) - j.tstar)
                              = (SELECT min(abs(walpressure._int_setting(r.value) - j.tstar)) FROM walpressure.results r
                                 WHERE r.sweep_id = j.sweep_id AND r.value_pos > 0) THEN 'confirmed'
             WHEN j.verdict = 'equivalent' THEN 'confirmed (the same within its margin)'
             WHEN j.verdict = 'undecided' OR j.verdict IS NULL THEN 'not contradicted (undecided)'
             ELSE 'contradicted' END,
        round(j.star::numeric), round(j.lo::numeric), round(j.hi::numeric),
        CASE WHEN j.crossed THEN 'across it' WHEN j.lo >= j.star THEN 'above' WHEN j.hi < j.star THEN 'below'
             ELSE 'across it' END,
        CASE WHEN j.below THEN format('a timer of %s us', j.tstar) ELSE '0 best' END,
        CASE WHEN j.kind NOT IN ('change', 'keep') OR j.value IS NULL THEN 'no optimum'
             WHEN walpressure._int_setting(j.value) = 0 THEN '0 best'
             WHEN j.ratio IS NULL OR NOT j.kept0 THEN format('%s best', j.value)
             ELSE format('%s: %s %sx 0''s (%s-%s)', j.value, CASE WHEN j.open THEN 'p99' ELSE 'tps' END,
                         walpressure._ratio_text(j.ratio), walpressure._ratio_text(j.ratio_ci_low),
                         walpressure._ratio_text(j.ratio_ci_high)) END))
    FROM j
$$;
