--
-- A rate sweep's answer: the knee of its latency curve.
--

-- A rate sweep's answer: its latency curve's knee.  The highest rate every
-- step of which was sustained, the first that was not (then the clients
-- were busy all the time: a closed loop in disguise), and the first rate
-- whose p99 latency is more than twice that of the lowest rate.
CREATE OR REPLACE FUNCTION _rate_answer(sweep_id bigint)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH r AS (
        SELECT x.*, walpressure._setting_number('rate', x.value) AS lambda
        FROM walpressure.results x WHERE x.sweep_id = $1 AND x.value_pos > 0 AND x.tps IS NOT NULL
    ), kept AS (
        SELECT * FROM r WHERE coalesce(r.rate_sustained, true) ORDER BY r.lambda DESC LIMIT 1
    ), lost AS (
        SELECT * FROM r WHERE NOT coalesce(r.rate_sustained, true) ORDER BY r.lambda LIMIT 1
    ), low AS (
        SELECT * FROM r ORDER BY r.lambda LIMIT 1
    ), knee AS (
        SELECT r.* FROM r, low WHERE r.latency_p99_ms > 2 * low.latency_p99_ms ORDER BY r.lambda LIMIT 1
    )
    SELECT concat_ws('; ',
        CASE WHEN (SELECT count(*) FROM lost) = 0 THEN
                 (SELECT format('every rate was sustained, up to %s/s (p99 %s ms, schedule lag p99 %s ms)',
                                k.value, k.latency_p99_ms, k.lag_p99_ms) FROM kept k)
             ELSE coalesce((SELECT format('the load sustains up to rate = %s/s (p99 %s ms, schedule lag p99 %s ms)',
                                         k.value, k.latency_p99_ms, k.lag_p99_ms) FROM kept k WHERE k.lambda < (SELECT lambda FROM lost)),
                           'no rate was sustained')
                  || (SELECT format('; at %s/s it is not: %s tps achieved, the clients busy all the time (a closed loop in disguise)',
                                    l.value, l.tps) FROM lost l) END,
        (SELECT format('p99 latency is more than twice that at %s/s (%s ms) from %s/s on (%s ms): the knee of the curve',
                       low.value, low.latency_p99_ms, k.value, k.latency_p99_ms) FROM knee k, low))
$$;
