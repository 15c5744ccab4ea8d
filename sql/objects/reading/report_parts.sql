--
-- The parts of report() a sweep may have beside its table: a grid's tps as
-- a table, the load's statements (pg_stat_statements), synchronous
-- standbys.  Each within 120 columns.
--

-- A grid: the tps as a table, the setting that changes least often from
-- one value to the next down the side; + faster, - slower, = the baseline.
CREATE OR REPLACE FUNCTION _report_grid(sweep_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    g record;
    top float8;
    gw int;
    vw int;
    line text;
    cell text;
    grow record;
    gcol record;
BEGIN
    SELECT * INTO g FROM walpressure._grid(_report_grid.sweep_id);
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT max(x.tps) INTO top FROM walpressure.results x WHERE x.sweep_id = _report_grid.sweep_id;
    gw := greatest((SELECT max(length(c)) FROM unnest(g.across_vals) c), length(round(top)::text) + 4);
    vw := greatest((SELECT max(length(c)) FROM unnest(g.down_vals) c), length(g.down || ' \ ' || g.across));
    RETURN NEXT '';
    RETURN QUERY SELECT walpressure._wrap(format('tps by %s (down) and %s (across); + faster, - slower than the baseline (=): the paired ratio''s 95%% interval excludes 1',
                                                 g.down, g.across));
    RETURN NEXT walpressure._fit(rpad(g.down || ' \ ' || g.across, vw) || ' | '
                || (SELECT string_agg(lpad(c, gw), ' | ' ORDER BY i) FROM unnest(g.across_vals) WITH ORDINALITY t(c, i)));
    FOR grow IN SELECT v, i FROM unnest(g.down_vals) WITH ORDINALITY t(v, i) ORDER BY i LOOP
        line := rpad(grow.v, vw);
        FOR gcol IN SELECT c, i FROM unnest(g.across_vals) WITH ORDINALITY t(c, i) ORDER BY i LOOP
            SELECT coalesce(round(y.tps)::text || CASE y.verdict WHEN 'faster' THEN '+' WHEN 'slower' THEN '-'
                                                                  WHEN 'baseline' THEN '=' ELSE ' ' END, '-  ')
                INTO cell
                FROM walpressure.results y
                WHERE y.sweep_id = _report_grid.sweep_id AND y.value_pos > 0
                  AND y.value::jsonb->>g.down = grow.v AND y.value::jsonb->>g.across = gcol.c;
            line := line || ' | ' || lpad(coalesce(cell, '-  '), gw);
        END LOOP;
        RETURN NEXT walpressure._fit(rtrim(line));
    END LOOP;
END
$$;

-- The load's statements (pg_stat_statements): the baseline's three that
-- took the most time, each value's mean and stddev of a call; their texts
-- only for a reader pg_stat_statements would show them to.
CREATE OR REPLACE FUNCTION _report_statements(sweep_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    base int := (SELECT coalesce(w.current_pos, 1) FROM walpressure.sweeps w WHERE w.sweep_id = _report_statements.sweep_id);
    sq record;
    r record;
    shown bool := false;
    sw int;
BEGIN
    IF NOT has_table_privilege('walpressure.statements', 'SELECT') THEN
        RETURN;
    END IF;
    FOR sq IN SELECT q.queryid, q.query FROM walpressure.statements q
              WHERE q.sweep_id = _report_statements.sweep_id AND q.value_pos = base
              ORDER BY q.rank LIMIT 3 LOOP
        IF NOT shown THEN
            RETURN NEXT '';
            RETURN NEXT 'statements (pg_stat_statements, the 3 with the most time): a call''s mean ± half its 95% interval,';
            RETURN NEXT '  stddev, change against the baseline';
            shown := true;
            SELECT max(length(walpressure._fit(q.value, 24))) INTO sw
                FROM walpressure.statements q WHERE q.sweep_id = _report_statements.sweep_id;
        END IF;
        RETURN NEXT left(regexp_replace(sq.query, '[[:space:][:cntrl:]]+', ' ', 'g'), 100);
        FOR r IN SELECT * FROM walpressure.statements q
                 WHERE q.sweep_id = _report_statements.sweep_id AND q.queryid = sq.queryid ORDER BY q.value_pos LOOP
            RETURN NEXT walpressure._fit(rtrim(format('  %s | %10s calls/s | mean %s ms%s%s | stddev %s ms%s',
                rpad(walpressure._fit(r.value, 24), sw), r.calls_per_s, r.mean_ms,
                coalesce(' ±' || round((r.mean_ci_high_ms - r.mean_ci_low_ms) / 2, 4), ''),
                coalesce(' (' || to_char(r.mean_change_pct, 'FMSG990.0') || '%)', ''),
                r.stddev_ms,
                coalesce(' (' || to_char(r.stddev_change_pct, 'FMSG990.0') || '%)', ''))));
        END LOOP;
    END LOOP;
END
$$;

-- Synchronous standbys: each value's wait of a commit for them, and each
-- standby's lags (the means over the steps that count), a line each.
CREATE OR REPLACE FUNCTION _report_standbys(sweep_id bigint)
RETURNS SETOF text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH v AS (
        SELECT st.value_pos, min(st.value) AS value,
               round(avg(st.syncrep_wait_ms) FILTER (WHERE st.discarded IS NULL)::numeric, 3) AS wait_ms,
               round(avg(st.syncrep_wait_pct) FILTER (WHERE st.discarded IS NULL)::numeric, 1) AS wait_pct,
               count(*) FILTER (WHERE st.discarded LIKE 'standby lost%') AS lost
        FROM walpressure.steps st WHERE st.sweep_id = $1
        GROUP BY st.value_pos
        HAVING count(st.syncrep_wait_ms) > 0 OR count(*) FILTER (WHERE st.discarded LIKE 'standby lost%') > 0
    ), lags AS (
        SELECT s2.value_pos, rp.standby, min(rp.sync_state) AS sync_state,
               round(avg(rp.write_lag_ms_mean)::numeric, 2) AS w, round(avg(rp.flush_lag_ms_mean)::numeric, 2) AS f,
               round(avg(rp.replay_lag_ms_mean)::numeric, 2) AS a
        FROM walpressure.step_replication rp
        JOIN walpressure.steps s2 ON s2.sweep_id = rp.sweep_id AND s2.step = rp.step
        WHERE rp.sweep_id = $1 AND s2.discarded IS NULL
        GROUP BY s2.value_pos, rp.standby
    ), sw AS (SELECT max(length(walpressure._fit(v.value, 24))) AS n FROM v)
    SELECT l FROM (
        SELECT 0 AS o, 0 AS p, '' AS standby, '' AS l WHERE EXISTS (SELECT FROM v)
        UNION ALL
        SELECT 1, 0, '', 'standbys: a commit''s wait for them (IPC:SyncRep) and its share of commit time; their lags'
        WHERE EXISTS (SELECT FROM v)
        UNION ALL
        SELECT 2, v.value_pos, '', walpressure._fit(rtrim(format('  %s | wait %s ms (%s%%)%s', rpad(walpressure._fit(v.value, 24), sw.n),
                                       coalesce(v.wait_ms::text, '-'), coalesce(v.wait_pct::text, '-'),
                                       CASE WHEN v.lost > 0 THEN format(' | standby lost in %s step%s', v.lost,
                                                                      CASE WHEN v.lost > 1 THEN 's' ELSE '' END) ELSE '' END)))
        FROM v, sw
        UNION ALL
        SELECT 2, x.value_pos, x.standby,
               walpressure._fit(format('    %s %s: write %s, flush %s, replay %s ms', x.standby, x.sync_state,
                                       coalesce(x.w::text, '-'), coalesce(x.f::text, '-'), coalesce(x.a::text, '-')))
        FROM lags x WHERE x.value_pos IN (SELECT value_pos FROM v)
    ) q
    ORDER BY o, p, standby
$$;
