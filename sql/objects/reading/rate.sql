--
-- A rate sweep's answer and the knee of its latency curve.
--

-- A rate sweep's answer, in one line: the highest rate kept (its p99 and
-- schedule lag p99) and the first that was not (its tps: the clients were
-- busy all the time, a closed loop in disguise).  The knee of the latency
-- curve is a finding of its own (_rate_knee).
CREATE OR REPLACE FUNCTION _rate_answer(sweep_id bigint)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH r AS (
        SELECT x.*, walpressure._setting_number('rate', x.value) AS lambda
        FROM walpressure.results x WHERE x.sweep_id = $1 AND x.value_pos > 0 AND x.tps IS NOT NULL
    ), lost AS (
        SELECT * FROM r WHERE NOT coalesce(r.rate_sustained, true) ORDER BY r.lambda LIMIT 1
    ), kept AS (
        SELECT * FROM r WHERE coalesce(r.rate_sustained, true)
          AND r.lambda < coalesce((SELECT lambda FROM lost), 'infinity') ORDER BY r.lambda DESC LIMIT 1
    )
    SELECT concat_ws('; ',
        coalesce((SELECT format('%s up to %s/s (p99 %s ms, schedule lag p99 %s ms)',
                                CASE WHEN (SELECT count(*) FROM lost) = 0 THEN 'every rate kept' ELSE 'kept' END,
                                k.value, coalesce(k.latency_p99_ms::text, '-'), coalesce(k.lag_p99_ms::text, '-')) FROM kept k),
                 'no rate was kept'),
        (SELECT format('not %s/s: %s tps, a closed loop', l.value, l.tps) FROM lost l))
$$;

-- A rate sweep's knee: the first rate whose p99 latency is more than twice
-- that of the lowest rate, or NULL.
CREATE OR REPLACE FUNCTION _rate_knee(sweep_id bigint)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH r AS (
        SELECT x.*, walpressure._setting_number('rate', x.value) AS lambda
        FROM walpressure.results x WHERE x.sweep_id = $1 AND x.value_pos > 0 AND x.tps IS NOT NULL
    ), low AS (
        SELECT * FROM r ORDER BY r.lambda LIMIT 1
    ), knee AS (
        SELECT r.* FROM r, low WHERE r.latency_p99_ms > 2 * low.latency_p99_ms ORDER BY r.lambda LIMIT 1
    )
    SELECT format('p99 more than doubles from %s/s on (%s ms; %s ms at %s/s): the knee of the latency curve',
                  k.value, k.latency_p99_ms, low.latency_p99_ms, low.value)
    FROM knee k, low
$$;
