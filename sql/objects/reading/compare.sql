--
-- Two sweeps' values side by side (compare).
--

-- Two sweeps side by side, value by value: the same sweep run twice, or this
-- server against another's (imported).  ratio is b's tps over a's with its
-- 95% interval and verdict from _decide (unpaired; paired by round when the
-- two are one sweep, an import of the other); a NOTICE names what differs
-- between the two runs besides the values.
CREATE OR REPLACE FUNCTION _compare(sweep_a bigint, sweep_b bigint)
RETURNS TABLE (value text, tps_a numeric, tps_b numeric, ratio numeric,
               ratio_ci_low numeric, ratio_ci_high numeric, verdict text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    a walpressure.sweeps;
    b walpressure.sweeps;
    diffs text[];
    here text := (SELECT c.system_identifier::text FROM pg_control_system() c);
    same bool;
BEGIN
    -- compare() checked that both exist and vary the same setting
    SELECT * INTO a FROM walpressure.sweeps w WHERE w.sweep_id = _compare.sweep_a;
    SELECT * INTO b FROM walpressure.sweeps w WHERE w.sweep_id = _compare.sweep_b;
    diffs := array_remove(ARRAY[
        -- where each ran: this server, or the one it was imported from (by
        -- its fleet name when the fleet gathered it)
        CASE WHEN coalesce(a.origin->>'system_identifier', here)
                  IS DISTINCT FROM coalesce(b.origin->>'system_identifier', here) THEN
            format('server %s / %s',
                   coalesce((SELECT f.server::text FROM walpressure.fleet_sweeps f WHERE f.sweep_id = a.sweep_id),
                            'system ' || (a.origin->>'system_identifier'), 'this one'),
                   coalesce((SELECT f.server::text FROM walpressure.fleet_sweeps f WHERE f.sweep_id = b.sweep_id),
                            'system ' || (b.origin->>'system_identifier'), 'this one')) END,
        CASE WHEN a.wal_disk IS DISTINCT FROM b.wal_disk THEN
            format('WAL disk %s / %s', coalesce(a.wal_disk, 'unknown'), coalesce(b.wal_disk, 'unknown')) END,
        CASE WHEN a.workload <> b.workload THEN format('workload %s / %s', a.workload, b.workload) END,
        CASE WHEN a.clients <> b.clients THEN format('clients %s / %s', a.clients, b.clients) END,
        CASE WHEN a.duration <> b.duration THEN
            format('duration %s s / %s s', trim_scale(extract(epoch FROM a.duration)), trim_scale(extract(epoch FROM b.duration))) END,
        CASE WHEN a.iops_cap IS DISTINCT FROM b.iops_cap THEN
            format('iops_cap %s / %s', coalesce(a.iops_cap::text, 'none'), coalesce(b.iops_cap::text, 'none')) END,
        CASE WHEN a.disk IS DISTINCT FROM b.disk THEN
            format('disk %s / %s', coalesce(a.disk, 'uncapped'), coalesce(b.disk, 'uncapped')) END,
        CASE WHEN a.engine <> b.engine THEN format('engine %s / %s', a.engine, b.engine) END,
        CASE WHEN a.settings <> b.settings THEN format('settings %s / %s', a.settings, b.settings) END,
        CASE WHEN a.repeats <> b.repeats THEN format('repeats %s / %s', a.repeats, b.repeats) END,
        CASE WHEN a.server_version <> b.server_version THEN
            format('server_version %s / %s', a.server_version, b.server_version) END,
        CASE WHEN a.cpus IS DISTINCT FROM b.cpus THEN
            format('cpus %s / %s', coalesce(a.cpus::text, 'unknown'), coalesce(b.cpus::text, 'unknown')) END,
        CASE WHEN a.server_settings IS DISTINCT FROM b.server_settings THEN
            (SELECT 'server settings ' || string_agg(format('%s %s / %s', k, a.server_settings->>k, b.server_settings->>k), ', ' ORDER BY k)
             FROM jsonb_object_keys(coalesce(a.server_settings, '{}') || coalesce(b.server_settings, '{}')) AS k
             WHERE (a.server_settings->>k) IS DISTINCT FROM (b.server_settings->>k)) END
    ], NULL);
    IF cardinality(diffs) > 0 THEN
        RAISE NOTICE 'sweeps % and % differ in more than the values: %', a.sweep_id, b.sweep_id,
            array_to_string(diffs, '; ');
    END IF;
    -- the same sweep twice (one an import of the other, or both of one
    -- sweep elsewhere): the same rounds, paired; else the two sweeps' rounds
    -- are not interleaved with each other: two independent samples of
    -- rounds per value (_decide, unpaired)
    same := coalesce(a.origin->>'system_identifier', here) = coalesce(b.origin->>'system_identifier', here)
            AND coalesce(a.origin->>'sweep_id', a.sweep_id::text) = coalesce(b.origin->>'sweep_id', b.sweep_id::text);
    IF same THEN
        RAISE NOTICE 'sweeps % and % are the same sweep (one imported from the other, or both from one): compared round by round',
            a.sweep_id, b.sweep_id;
    END IF;
    RETURN QUERY
    WITH x AS (SELECT * FROM walpressure.results r WHERE r.sweep_id = a.sweep_id AND r.value_pos > 0),
    y AS (SELECT * FROM walpressure.results r WHERE r.sweep_id = b.sweep_id AND r.value_pos > 0),
    rounds AS (
        -- paired (the same rounds): only the rounds both counted, in order
        SELECT st.sweep_id, st.value, array_agg(st.tps ORDER BY st.repeat) AS tps
        FROM walpressure.steps st
        WHERE st.sweep_id IN (a.sweep_id, b.sweep_id) AND st.discarded IS NULL AND st.value_pos > 0
          AND (NOT same OR EXISTS (SELECT FROM walpressure.steps o
                                   WHERE o.sweep_id = CASE WHEN st.sweep_id = a.sweep_id THEN b.sweep_id ELSE a.sweep_id END
                                     AND o.value = st.value AND o.repeat = st.repeat AND o.discarded IS NULL))
        GROUP BY st.sweep_id, st.value
    )
    SELECT coalesce(x.value, y.value),
           x.tps, y.tps,
           round(d.ratio::numeric, 3),
           round(d.ci_low::numeric, 3),
           round(d.ci_high::numeric, 3),
           CASE WHEN x.value IS NULL THEN format('only in sweep %s', b.sweep_id)
                WHEN y.value IS NULL THEN format('only in sweep %s', a.sweep_id)
                WHEN x.tps IS NULL OR y.tps IS NULL THEN 'no step that counts'
                WHEN d.verdict = 'faster' THEN format('faster in sweep %s: %s', b.sweep_id, d.detail)
                WHEN d.verdict = 'slower' THEN format('slower in sweep %s: %s', b.sweep_id, d.detail)
                WHEN d.verdict = 'equivalent' THEN d.detail
                WHEN d.detail LIKE 'undecided%' THEN d.detail
                ELSE 'undecided: ' || d.detail
           END
    FROM x
    FULL JOIN y ON x.value = y.value
    LEFT JOIN rounds ra ON ra.sweep_id = a.sweep_id AND ra.value = x.value
    LEFT JOIN rounds rb ON rb.sweep_id = b.sweep_id AND rb.value = y.value
    LEFT JOIN LATERAL walpressure._decide(rb.tps, ra.tps, same, true, walpressure._margin()) d
        ON ra.tps IS NOT NULL AND rb.tps IS NOT NULL
    ORDER BY coalesce(x.value_pos, 1000 + y.value_pos);
END
$$;

COMMENT ON FUNCTION _compare(bigint, bigint) IS 'compare() after its checks: two sweeps of the same setting value by value: tps of each, b over a (geometric means of their rounds) with its 95% interval (Welch''s t on the logs: the two sweeps'' rounds are independent), and whether b is faster, slower, the same within +-walpressure.equivalence_margin % or undecided; a NOTICE names what else differs between them';

CREATE OR REPLACE FUNCTION compare(sweep_a bigint, sweep_b bigint)
RETURNS TABLE (value text, tps_a numeric, tps_b numeric, ratio numeric,
               ratio_ci_low numeric, ratio_ci_high numeric, verdict text)
AS 'MODULE_PATHNAME', 'wp_compare'
LANGUAGE C STRICT STABLE;

COMMENT ON FUNCTION compare(bigint, bigint) IS 'Two sweeps of the same setting side by side, value by value: the same sweep run twice, or this server against another''s (import).';
