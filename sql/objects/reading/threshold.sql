--
-- The group-commit threshold: lambda* = 2 / F0 ("Group Commit Self-Clocks",
-- arXiv 2606.18187), F0 the time one WAL flush takes (sweeps.f0_ms, measured
-- by the coordinator before step 1 as probe_fsync does, at the sweep's cap).
-- Above lambda* the paper argues that flushing as soon as the device is
-- free (commit_delay = 0) is within 0.1% of the best timer; below it, in
-- open loop, that the square-root rule's timer T* = sqrt(2 F0 / lambda)
-- applies.  The coordinator prints _threshold_text in the plan NOTICE;
-- best's diagnoses print it with the measured optimum (_threshold_reading).
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

-- Which side of lambda* a load of `lambda` commits per second is, in words,
-- and below it the timer the square-root rule predicts.
CREATE OR REPLACE FUNCTION _threshold_side(f0_ms float8, lambda float8)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE
    WHEN lambda >= walpressure._lambda_star(f0_ms) THEN
        format('above lambda* (%s/s): the paper predicts commit_delay = 0 within 0.1%% of the best timer',
               round(walpressure._lambda_star(f0_ms)::numeric))
    ELSE format('below lambda* (%s/s): the square-root rule predicts a timer T* = sqrt(2 F0 / lambda) = %s us',
                round(walpressure._lambda_star(f0_ms)::numeric),
                round(walpressure._sqrt_rule_us(f0_ms, lambda)::numeric))
END;

-- The plan NOTICE's words: F0, lambda*, and the load against it (the rate
-- asked; for a rate sweep, each of its values; for a closed loop, the
-- server's commit rate over the last minute, when there was one).
CREATE OR REPLACE FUNCTION _threshold_text(f0_ms float8, rate float8, live_rate float8, setting text)
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN format('one WAL flush takes F0 = %s ms here, so lambda* = 2/F0 = %s commits/s; %s',
              round(f0_ms::numeric, 3), round(walpressure._lambda_star(f0_ms)::numeric),
              CASE WHEN rate > 0 THEN
                       format('the rate asked, %s/s, is %s', rate, walpressure._threshold_side(f0_ms, rate))
                   WHEN setting = 'rate' THEN
                       'each rate swept is read against it in walpressure.best'
                   WHEN live_rate > 0 THEN
                       format('this closed loop''s clients set their own rate; the server committed %s/s over the last minute, %s',
                              round(live_rate::numeric, 1), walpressure._threshold_side(f0_ms, live_rate))
                   ELSE 'this closed loop''s clients set their own rate: walpressure.best reads each step''s commit rate against it'
              END);

-- After the sweep: the load of each value against lambda*, and the measured
-- optimum next to the prediction (a commit_delay sweep: the value the
-- answer starts from, by p99 latency in an open loop, by tps in a closed
-- one, against commit_delay = 0 when it was among the values).  NULL when
-- the sweep measured no F0.
CREATE OR REPLACE FUNCTION _threshold_reading(sweep_id bigint)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH s AS (
        SELECT w.* FROM walpressure.sweeps w WHERE w.sweep_id = $1 AND w.f0_ms > 0
    ), load AS (
        -- the commit rate each value ran at: asked in an open loop, measured in a closed one
        SELECT x.value_pos, min(x.value) AS value,
               coalesce(avg(x.rate), avg(x.commits / nullif(x.server_seconds, 0))) AS lambda
        FROM walpressure.steps x, s
        WHERE x.sweep_id = s.sweep_id AND x.discarded IS NULL
        GROUP BY x.value_pos
    ), top AS (
        SELECT r.* FROM walpressure.results r, s
        WHERE r.sweep_id = s.sweep_id AND r.value_pos = walpressure._top(s.sweep_id)
    ), zero AS (
        SELECT r.value_pos FROM walpressure.results r, s
        WHERE r.sweep_id = s.sweep_id AND r.value_pos > 0 AND walpressure._int_setting(r.value) = 0
        LIMIT 1
    ), vs_zero AS (
        SELECT e.* FROM s, zero, top
        CROSS JOIN LATERAL walpressure.effects(s.sweep_id, zero.value_pos) e
        WHERE e.value_pos = top.value_pos
          AND e.metric = CASE WHEN walpressure._open_loop(s.sweep_id) THEN 'latency_p99' ELSE 'tps' END
    )
    SELECT format('F0 = %s ms (%s; median %s ms, p99 %s ms), lambda* = 2/F0 = %s commits/s; %s%s',
                  round(s.f0_ms::numeric, 3), s.f0_source, round(s.f0_p50_ms::numeric, 3),
                  round(s.f0_p99_ms::numeric, 3), round(walpressure._lambda_star(s.f0_ms)::numeric),
                  CASE WHEN s.rate > 0 THEN
                           format('the rate asked, %s/s, is %s', s.rate, walpressure._threshold_side(s.f0_ms, s.rate))
                       ELSE (SELECT string_agg(format('%s = %s at %s commits/s: %s', s.setting, l.value,
                                                      round(l.lambda::numeric), walpressure._threshold_side(s.f0_ms, l.lambda)),
                                               '; ' ORDER BY l.value_pos)
                             FROM load l WHERE l.lambda > 0) END,
                  CASE WHEN s.setting = 'commit_delay' AND (SELECT count(*) FROM top) = 1 THEN
                      format('. Measured optimum: commit_delay = %s us (%s)%s',
                             (SELECT value FROM top),
                             CASE WHEN walpressure._open_loop(s.sweep_id) THEN 'the lowest p99 latency at this rate'
                                  ELSE 'the most tps' END,
                             coalesce((SELECT format(', against commit_delay = 0: %s %s (%s)',
                                                     CASE WHEN v.metric = 'tps' THEN 'tps' ELSE 'p99 latency' END,
                                                     walpressure._ratio_text(v.ratio::float8) || 'x', v.detail)
                                       FROM vs_zero v), ''))
                  END)
    FROM s
$$;

COMMENT ON FUNCTION _threshold_reading(bigint) IS
'best''s diagnosis of a sweep''s group-commit threshold: F0 (sweeps.f0_ms and its distribution), lambda* = 2/F0, each value''s commit rate (asked in an open loop, measured in a closed one) against it with the square-root rule''s timer below it, and for a commit_delay sweep the measured optimum next to the prediction';
