--
-- The value an answer starts from, the values that cannot be told from it, and when auto rounds stop.
--

-- The value a sweep's answer starts from: the one with the most tps against
-- the baseline in the same rounds (the geometric mean of its per-round
-- ratios, the point effects() gives; the baseline itself is 1).  In a sweep
-- whose every value ran every round that orders the values as their own tps
-- does; where values ran in different rounds (a search, steps left out) it
-- keeps what drifted from round to round out of the order.  A value that
-- shares no round with the baseline comes last; a sweep whose baseline has
-- no step that counts is ordered by tps.  In an open loop, the one with the
-- lowest p99 latency among the values that sustained the rate.  But a
-- search that found a value (sweeps.search_found: the better of its last
-- pair, coordinator/search.c; never in an open loop, which a search refuses)
-- answers with it, while a step of it counts.
CREATE OR REPLACE FUNCTION _top(sweep_id bigint)
RETURNS int
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce((SELECT s.search_found FROM walpressure.sweeps s
                     WHERE s.sweep_id = $1 AND EXISTS (
                         SELECT FROM walpressure.steps x
                         WHERE x.sweep_id = $1 AND x.value_pos = s.search_found
                           AND x.discarded IS NULL AND x.tps > 0)), (
    WITH st AS (
        SELECT x.value_pos, x.repeat, x.tps, x.latency_p99_ms, x.rate_sustained FROM walpressure.steps x
        WHERE x.sweep_id = $1 AND x.discarded IS NULL AND x.value_pos > 0 AND x.tps > 0
          AND (NOT walpressure._open_loop($1) OR x.latency_p99_ms > 0)
    ), b AS (
        SELECT st.repeat, st.tps FROM st
        WHERE st.value_pos = (SELECT coalesce(s.current_pos, 1) FROM walpressure.sweeps s WHERE s.sweep_id = $1)
    )
    SELECT v.value_pos FROM st v LEFT JOIN b ON b.repeat = v.repeat
    GROUP BY v.value_pos
    ORDER BY CASE WHEN walpressure._open_loop($1) THEN NOT coalesce(bool_and(v.rate_sustained), true) END,
             -- (an aggregate inside CASE is computed for every sweep: a closed loop's
             -- p99 of 0 must not reach ln)
             CASE WHEN walpressure._open_loop($1) THEN avg(ln(CASE WHEN v.latency_p99_ms > 0 THEN v.latency_p99_ms END)) END,
             CASE WHEN walpressure._open_loop($1) THEN NULL
                  WHEN EXISTS (SELECT FROM b) THEN avg(ln(v.tps) - ln(b.tps)) ELSE avg(ln(v.tps)) END DESC NULLS LAST,
             v.value_pos
    LIMIT 1))
$$;

-- The values that cannot be told from the top (its effect against them is
-- not decided either way: tps, or p99 latency in an open loop, where a
-- value that did not keep the rate is none), the top among them: what an
-- answer chooses from.
CREATE OR REPLACE FUNCTION _ties(sweep_id bigint)
RETURNS TABLE (value_pos int, value text, verdict_vs_top text, equivalent_to_top bool)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH t AS (SELECT walpressure._top($1) AS pos, walpressure._open_loop($1) AS open)
    SELECT t.pos, (SELECT min(x.value) FROM walpressure.steps x WHERE x.sweep_id = $1 AND x.value_pos = t.pos),
           'top', true
    FROM t WHERE t.pos IS NOT NULL
    UNION ALL
    SELECT e.value_pos, e.value, e.verdict, e.verdict = 'equivalent'
    FROM t CROSS JOIN LATERAL walpressure.effects($1, t.pos) AS e
    WHERE e.metric = CASE WHEN t.open THEN 'latency_p99' ELSE 'tps' END
      AND e.verdict NOT IN ('higher', 'slower', 'lower', 'faster')
      -- in an open loop, a value that did not keep the rate is no candidate
      AND (NOT t.open OR NOT EXISTS (SELECT FROM walpressure.steps x
                                     WHERE x.sweep_id = $1 AND x.value_pos = e.value_pos
                                       AND x.discarded IS NULL AND NOT coalesce(x.rate_sustained, true)))
$$;

-- repeats => 'auto': is the answer clear after the rounds so far?  Why, or
-- NULL to add a round (coordinator/decision.c asks after each round): the
-- top is decided against every other value, or every value that cannot be
-- told from it is the same within the margin.
CREATE OR REPLACE FUNCTION _rounds_decided(sweep_id bigint)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH t AS (SELECT * FROM walpressure._ties($1))
    SELECT CASE
        WHEN NOT EXISTS (SELECT FROM t) THEN NULL
        WHEN (SELECT count(*) FROM t) = 1 THEN
            format('decided: %s has the %s, beyond the 95%% interval of every other value',
                   (SELECT value FROM t),
                   CASE WHEN walpressure._open_loop($1) THEN 'lowest p99 latency' ELSE 'most tps' END)
        WHEN (SELECT bool_and(equivalent_to_top) FROM t) THEN
            format('equivalent: %s are the same within ±%s%% (95%% intervals)',
                   (SELECT string_agg(value, ', ' ORDER BY value_pos) FROM t), walpressure._margin())
    END
$$;

REVOKE ALL ON FUNCTION _rounds_decided(bigint) FROM PUBLIC;
