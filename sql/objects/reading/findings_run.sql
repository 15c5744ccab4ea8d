--
-- Findings about how a sweep ran: its status, why its rounds or its search
-- stopped, a search's value not yet confirmed (and the run that would), a
-- baseline that is not the server's value, steps left out, retries, data a
-- crash could lose.  One finding a row, at most 120 characters.
--

CREATE OR REPLACE FUNCTION _findings_run(sweep_id bigint)
RETURNS TABLE (kind text, value text, finding text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH s AS (
        SELECT w.*, coalesce(w.current_pos, 1) AS base_pos FROM walpressure.sweeps w WHERE w.sweep_id = $1
    ), st AS (
        SELECT x.* FROM walpressure.steps x WHERE x.sweep_id = $1
    ), c AS (
        SELECT * FROM walpressure._choice($1)
    ), b AS (
        SELECT r.* FROM walpressure.results r, s WHERE r.sweep_id = $1 AND r.value_pos = s.base_pos
    ), f AS (
        SELECT r.* FROM walpressure.results r, c WHERE r.sweep_id = $1 AND r.value_pos = c.value_pos
    )
    SELECT 'status', NULL,
           walpressure._fit(format('the sweep is %s after %s of %s steps%s', s.status, s.steps_done, s.steps_total,
                                   coalesce(': ' || regexp_replace(s.error, '\s+', ' ', 'g'), '')))
    FROM s WHERE s.status NOT IN ('done', 'running')
    UNION ALL
    SELECT 'rounds', NULL, walpressure._fit('repeats => auto: ' || s.rounds_stop) FROM s WHERE s.rounds_stop IS NOT NULL
    UNION ALL
    SELECT 'search', NULL, walpressure._fit(format('the search over %s by %s stopped: %s', s.search_range,
                                                   s.search_resolution, s.search_stop))
    FROM s WHERE s.search_stop IS NOT NULL
    UNION ALL
    SELECT 'found', sf.value,
           walpressure._fit(format('the search found %s: %s, undecided%s', sf.value,
                                   CASE WHEN coalesce(sf.paired_rounds, 0) = 0 OR sf.speedup IS NULL
                                        THEN format('no round measured it and %s', b.value)
                                        ELSE format('%sx against %s over %s paired round%s', walpressure._ratio_text(sf.speedup),
                                                    b.value, sf.paired_rounds,
                                                    CASE WHEN sf.paired_rounds = 1 THEN '' ELSE 's' END) END,
                                   CASE WHEN c.kind = 'change' THEN format('; %s beat %s in results, and is the answer',
                                                                           f.value, b.value)
                                        ELSE ' (the baseline runs in a pair''s first round only)' END))
    FROM s, c, f, b, walpressure.results sf
    WHERE sf.sweep_id = s.sweep_id AND sf.value_pos = s.search_found AND s.search_found <> s.base_pos
      AND sf.verdict NOT IN ('baseline', 'faster', 'slower', 'equivalent', 'discarded')
    UNION ALL
    -- the same load, cap and disk as the search, head to head: lines of at
    -- most 120 characters, to copy as they are
    SELECT 'confirm', f.value,
           walpressure._join_wrapped(
               array_remove(ARRAY[format('SELECT walpressure.run_sweep(%L', s.setting), format('ARRAY[%L, %L]', b.value, f.value),
                                  'repeats => ''auto''',
                                  'clients => ' || nullif(s.clients, 10),
                                  'workload => ' || quote_literal(nullif(s.workload, 'simple-update')),
                                  'engine => ' || quote_literal(nullif(s.engine, 'pgbench')),
                                  'duration => ' || quote_literal(trim_scale(extract(epoch FROM nullif(s.duration, '60 s'))) || ' s'),
                                  'warmup => ' || quote_literal(trim_scale(extract(epoch FROM nullif(s.warmup, '5 s'))) || ' s'),
                                  'iops_cap => ' || s.iops_cap,
                                  'disk => ' || quote_literal(s.disk),
                                  'flush_floor_ms => ' || nullif(s.flush_floor_ms, 0),
                                  'settings => ' || quote_literal(nullif(s.settings, '{}')::text),
                                  'checkpoint => ' || nullif(s.checkpoint, true)], NULL),
               ', ', 112, '       ') || ');'
    FROM s, c, f, b WHERE c.kind = 'found'
    UNION ALL
    SELECT 'baseline', s.current_value,
           walpressure._fit(format('the current value, %s, is not among the values: the gains are against the first, %s',
                                   s.current_value, s.vals[1]))
    FROM s WHERE s.current_value IS NOT NULL AND s.current_pos IS NULL AND s.setting <> 'settings'
    UNION ALL
    SELECT 'discarded', string_agg(DISTINCT st.value, ', '),
           walpressure._fit(format('%s step%s left out of the figures (steps.discarded says why)', count(*),
                                   CASE WHEN count(*) = 1 THEN '' ELSE 's' END))
    FROM st WHERE st.discarded IS NOT NULL HAVING count(*) > 0
    UNION ALL
    SELECT 'retries', NULL,
           format('%s transactions failed (serialization failure or deadlock) and were not retried', sum(st.retries))
    FROM st HAVING sum(st.retries) > 0
    UNION ALL
    SELECT 'data_loss', string_agg(DISTINCT st.value, ', '),
           walpressure._fit('a crash can lose data with ' || string_agg(DISTINCT st.data_loss, ', '))
    FROM st WHERE st.data_loss IS NOT NULL HAVING count(*) > 0
$$;
