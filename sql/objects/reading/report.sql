--
-- A sweep as a text chart for psql (report).
--

-- A text chart of a sweep for psql: a bar per value.
CREATE OR REPLACE FUNCTION _report(sweep_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s walpressure.sweeps;
    r record;
    top float8;
    width int := 40;
    vw int; tw int; iw int; cw int;
    ran int; ran_min int;
    line text;
    g record; ka text; kb text; gr text[]; gc text[]; gw int; cell text; grow record; gcol record;
    sq record; shown bool := false; sw int;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w WHERE w.sweep_id = _report.sweep_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no sweep %', _report.sweep_id USING ERRCODE = 'no_data_found',
            HINT = 'walpressure.sweeps lists the sweeps of this database.';
    END IF;
    -- what ran: a cancelled or failed sweep has fewer repeats than it asked
    SELECT max(x.repeats), min(x.repeats) FILTER (WHERE x.value_pos > 0) INTO ran, ran_min
        FROM walpressure.results x WHERE x.sweep_id = _report.sweep_id;
    RETURN NEXT format('sweep %s%s: %s, %s, %s clients%s, %s x %s s, %s (%s/%s steps)',
                       s.sweep_id, coalesce(' "' || s.label || '"', ''), s.setting, s.workload, s.clients,
                       coalesce(', disk capped at ' || s.iops_cap || ' write IOPS', ''),
                       CASE WHEN s.search IS NOT NULL THEN
                                format('a search over %s by %s (%s rounds)', s.search_range, s.search_resolution,
                                       (SELECT count(*) FROM walpressure.search_rounds q WHERE q.sweep_id = s.sweep_id))
                            WHEN s.auto_repeats THEN format('repeats auto (%s rounds)', coalesce(ran, 0))
                            ELSE s.repeats::text END,
                       trim_scale(extract(epoch FROM s.duration)), s.status, s.steps_done, s.steps_total);
    -- each column as wide as its widest value
    SELECT max(x.tps),
           greatest(max(length(x.value)), length(s.setting)),
           greatest(max(length(x.tps || coalesce(' ±' || round((x.tps_ci_high - x.tps_ci_low) / 2), ''))), 18),
           greatest(max(length(x.write_iops::text)), 4),
           greatest(max(length(x.commits_per_fsync::text)), 3)
        INTO top, vw, tw, iw, cw
        FROM walpressure.results x WHERE x.sweep_id = _report.sweep_id;
    IF top IS NULL THEN
        RETURN NEXT '(no step finished)';
        RETURN;
    END IF;
    RETURN NEXT format('%s | %-*s | %*s | %*s | %*s | %s', rpad(s.setting, vw), width, 'tps',
                       tw, 'tps (95% interval)', iw, 'IOPS', cw, 'c/f',
                       CASE WHEN s.current_pos IS NOT NULL THEN 'against the current value'
                            ELSE 'against the first value' END);
    FOR r IN SELECT * FROM walpressure.results x WHERE x.sweep_id = _report.sweep_id
             ORDER BY x.value_pos = 0, x.value_pos LOOP
        line := format('%s | %-*s | %*s | %*s | %*s | %s',
            rpad(r.value, vw), width,
            repeat('#', greatest(round(width * coalesce(r.tps, 0) / nullif(top, 0))::int, 0)),
            tw, coalesce(r.tps || CASE WHEN r.tps_ci_low IS NULL THEN ''
                                       ELSE ' ±' || round((r.tps_ci_high - r.tps_ci_low) / 2) END, '-'),
            iw, coalesce(r.write_iops::text, '-'),
            cw, coalesce(r.commits_per_fsync::text, '-'),
            CASE WHEN r.verdict IN ('baseline', 'discarded', 'no baseline', 'not measured') THEN r.verdict
                 ELSE coalesce(walpressure._ratio_text(r.speedup) || 'x ', '') || r.verdict END
            || CASE WHEN r.is_current THEN ' (current)' ELSE '' END
            || coalesce('  [' || r.data_loss || ']', ''));
        RETURN NEXT rtrim(line);
    END LOOP;
    RETURN NEXT format('tps: mean over %s; ±: half its 95%% interval%s; IOPS: write IOPS of the pg_wal disk; c/f: commits per WAL fsync',
                       CASE WHEN ran > 1 AND ran_min = ran THEN ran || ' interleaved rounds'
                            WHEN ran > 1 THEN ran_min || ' to ' || ran || ' interleaved rounds'
                            ELSE 'the window' END,
                       CASE WHEN ran > 1 THEN ' across rounds' ELSE ' (none from one round)' END);
    RETURN NEXT format('the ratio against the baseline: the geometric mean of the per-round ratios, paired by round; faster / slower: its 95%% interval excludes 1; equivalent: it lies within ±%s%%',
                       walpressure._margin());

    -- an open loop: the latency a user arriving on the schedule saw (the
    -- schedule lag included), the rate kept, and the p99's paired verdict
    IF EXISTS (SELECT 1 FROM walpressure.results x WHERE x.sweep_id = _report.sweep_id AND x.rate IS NOT NULL) THEN
        RETURN NEXT '';
        RETURN NEXT format('open loop%s: latency from each transaction''s scheduled start (schedule lag included), ms; p99 against the baseline',
                           coalesce(format(' at %s transactions/s (Poisson arrivals)', s.rate), ' (rates swept)'));
        RETURN NEXT format('%s | %9s | %9s | %9s | %9s | %9s | %s', rpad(s.setting, vw), 'p50', 'p99', 'p99.9', 'lag p99', 'achieved', 'p99 verdict');
        FOR r IN SELECT * FROM walpressure.results x WHERE x.sweep_id = _report.sweep_id AND x.value_pos > 0
                 ORDER BY x.value_pos LOOP
            RETURN NEXT rtrim(format('%s | %9s | %9s | %9s | %9s | %9s | %s', rpad(r.value, vw),
                coalesce(r.latency_p50_ms::text, '-'), coalesce(r.latency_p99_ms::text, '-'),
                coalesce(r.latency_p999_ms::text, '-'), coalesce(r.lag_p99_ms::text, '-'),
                coalesce(r.rate_achieved::text, '-'),
                CASE WHEN NOT r.rate_sustained THEN format('NOT SUSTAINED (%s asked): a closed loop in disguise', r.rate)
                     WHEN r.verdict = 'baseline' THEN 'baseline'
                     ELSE coalesce(walpressure._ratio_text(r.latency_p99_ratio) || 'x ' || r.latency_p99_verdict, '') END));
        END LOOP;
    END IF;

    -- a search: its rounds, what each ran and what came of it, and why it
    -- stopped
    shown := false;
    FOR r IN SELECT * FROM walpressure.search_rounds q WHERE q.sweep_id = _report.sweep_id ORDER BY q.round LOOP
        IF NOT shown THEN
            RETURN NEXT '';
            RETURN NEXT format('the search (golden section over %s by %s), round by round: what it ran (the baseline first in a pair''s first round) and what it did',
                               s.search_range, s.search_resolution);
            shown := true;
        END IF;
        RETURN NEXT format('  round %s, pair %s, peak in [%s, %s]: %s: %s', r.round, r.pair, r.low, r.high,
                           array_to_string(r.vals, ', '), coalesce(r.decision, '-'));
    END LOOP;
    IF s.search_stop IS NOT NULL THEN
        RETURN NEXT format('  it stopped: %s', s.search_stop);
    END IF;

    -- a grid: the tps as a table, the setting that changes least often
    -- from one value to the next down the side
    SELECT * INTO g FROM walpressure._grid(_report.sweep_id);
    IF FOUND THEN
        ka := g.down; kb := g.across; gr := g.down_vals; gc := g.across_vals;
        gw := greatest((SELECT max(length(c)) FROM unnest(gc) c), length(round(top)::text) + 4);
        vw := greatest((SELECT max(length(c)) FROM unnest(gr) c), length(ka || ' \ ' || kb));
        RETURN NEXT '';
        RETURN NEXT format('tps by %s (down) and %s (across); + faster, - slower than the baseline (=): the paired ratio''s 95%% interval excludes 1',
                           ka, kb);
        RETURN NEXT rpad(ka || ' \ ' || kb, vw) || ' | '
                    || (SELECT string_agg(lpad(c, gw), ' | ' ORDER BY i) FROM unnest(gc) WITH ORDINALITY t(c, i));
        FOR grow IN SELECT v, i FROM unnest(gr) WITH ORDINALITY t(v, i) ORDER BY i LOOP
            line := rpad(grow.v, vw);
            FOR gcol IN SELECT c, i FROM unnest(gc) WITH ORDINALITY t(c, i) ORDER BY i LOOP
                SELECT coalesce(round(y.tps)::text || CASE y.verdict WHEN 'faster' THEN '+' WHEN 'slower' THEN '-'
                                                                      WHEN 'baseline' THEN '=' ELSE ' ' END, '-  ')
                    INTO cell
                    FROM walpressure.results y
                    WHERE y.sweep_id = _report.sweep_id AND y.value_pos > 0
                      AND y.value::jsonb->>ka = grow.v AND y.value::jsonb->>kb = gcol.c;
                line := line || ' | ' || lpad(coalesce(cell, '-  '), gw);
            END LOOP;
            RETURN NEXT rtrim(line);
        END LOOP;
    END IF;

    -- the load's statements (pg_stat_statements): the baseline's three that
    -- took the most time, each value's mean and stddev of a call; their
    -- texts only for a reader pg_stat_statements would show them to
    IF has_table_privilege('walpressure.statements', 'SELECT') THEN
        FOR sq IN SELECT q.queryid, q.query FROM walpressure.statements q
                  WHERE q.sweep_id = _report.sweep_id AND q.value_pos = coalesce(s.current_pos, 1)
                  ORDER BY q.rank LIMIT 3 LOOP
            IF NOT shown THEN
                RETURN NEXT '';
                RETURN NEXT 'statements (pg_stat_statements, the 3 with the most time): a call''s mean ± half its 95% interval, stddev, change against the baseline';
                shown := true;
                SELECT max(length(q.value)) INTO sw FROM walpressure.statements q WHERE q.sweep_id = _report.sweep_id;
            END IF;
            RETURN NEXT left(regexp_replace(sq.query, '[[:space:][:cntrl:]]+', ' ', 'g'), 100);
            FOR r IN SELECT * FROM walpressure.statements q
                     WHERE q.sweep_id = _report.sweep_id AND q.queryid = sq.queryid ORDER BY q.value_pos LOOP
                RETURN NEXT rtrim(format('  %s | %10s calls/s | mean %s ms%s%s | stddev %s ms%s',
                    rpad(r.value, sw), r.calls_per_s, r.mean_ms,
                    coalesce(' ±' || round((r.mean_ci_high_ms - r.mean_ci_low_ms) / 2, 4), ''),
                    coalesce(' (' || to_char(r.mean_change_pct, 'FMSG990.0') || '%)', ''),
                    r.stddev_ms,
                    coalesce(' (' || to_char(r.stddev_change_pct, 'FMSG990.0') || '%)', '')));
            END LOOP;
        END LOOP;
    END IF;

    -- synchronous standbys: each value's wait of a commit for them, and each
    -- standby's lags (the means over the steps that count)
    shown := false;
    FOR r IN SELECT st.value_pos, min(st.value) AS value,
                    round(avg(st.syncrep_wait_ms) FILTER (WHERE st.discarded IS NULL)::numeric, 3) AS wait_ms,
                    round(avg(st.syncrep_wait_pct) FILTER (WHERE st.discarded IS NULL)::numeric, 1) AS wait_pct,
                    count(*) FILTER (WHERE st.discarded LIKE 'standby lost%') AS lost,
                    (SELECT string_agg(format('%s %s: write %s, flush %s, replay %s ms', x.standby, x.sync_state,
                                              coalesce(x.w::text, '-'), coalesce(x.f::text, '-'), coalesce(x.a::text, '-')),
                                       '; ' ORDER BY x.standby)
                     FROM (SELECT rp.standby, min(rp.sync_state) AS sync_state,
                                  round(avg(rp.write_lag_ms_mean)::numeric, 2) AS w,
                                  round(avg(rp.flush_lag_ms_mean)::numeric, 2) AS f,
                                  round(avg(rp.replay_lag_ms_mean)::numeric, 2) AS a
                           FROM walpressure.step_replication rp
                           JOIN walpressure.steps s2 ON s2.sweep_id = rp.sweep_id AND s2.step = rp.step
                           WHERE rp.sweep_id = _report.sweep_id AND s2.value_pos = st.value_pos
                             AND s2.discarded IS NULL
                           GROUP BY rp.standby) x) AS standbys
             FROM walpressure.steps st
             WHERE st.sweep_id = _report.sweep_id
             GROUP BY st.value_pos
             HAVING count(st.syncrep_wait_ms) > 0 OR count(*) FILTER (WHERE st.discarded LIKE 'standby lost%') > 0
             ORDER BY st.value_pos LOOP
        IF NOT shown THEN
            RETURN NEXT '';
            RETURN NEXT 'standbys: a commit''s wait for them (IPC:SyncRep) and its share of commit time; each standby''s lags (pg_stat_replication)';
            shown := true;
            SELECT max(length(x.value)) INTO sw FROM walpressure.steps x WHERE x.sweep_id = _report.sweep_id;
        END IF;
        RETURN NEXT rtrim(format('  %s | wait %s ms (%s%%) | %s%s', rpad(r.value, sw),
            coalesce(r.wait_ms::text, '-'), coalesce(r.wait_pct::text, '-'), coalesce(r.standbys, 'no standby'),
            CASE WHEN r.lost > 0 THEN format(' | standby lost in %s step%s', r.lost, CASE WHEN r.lost > 1 THEN 's' ELSE '' END) ELSE '' END));
    END LOOP;
END
$$;

COMMENT ON FUNCTION _report(bigint) IS
'report() after its check: a text chart of a sweep for psql: a tps bar per value, its 95% interval, write IOPS, commits per fsync and the verdict against the current value (else the first); a grid''s tps as a table; the load''s statements (pg_stat_statements) value by value; with synchronous standbys, each value''s wait for them and their lags';

-- The entry points: the sweep ids checked in C (a plain "no sweep 99", no
-- PL/pgSQL CONTEXT), then the functions above.
CREATE OR REPLACE FUNCTION report(sweep_id bigint)
RETURNS SETOF text
AS 'MODULE_PATHNAME', 'wp_report'
LANGUAGE C STRICT STABLE;

COMMENT ON FUNCTION report(bigint) IS
'A text chart of a sweep for psql: a tps bar per value, its 95% interval, write IOPS, commits per fsync and the verdict against the current value (else the first)';
