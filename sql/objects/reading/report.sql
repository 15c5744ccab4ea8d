--
-- A sweep as a text chart for psql (report).
--

-- The chart's table: a bar per value, its mean tps ± half its own
-- interval, write IOPS, commits per fsync, and the paired verdict against
-- the baseline; the legend under it.  Every line within 120 columns (a long
-- value cut, the legend wrapped).
CREATE OR REPLACE FUNCTION _report_table(sweep_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s walpressure.sweeps;
    r record;
    top float8;
    width int := 24;
    vw int; tw int; iw int; cw int;
    ran int; ran_min int;
    open bool;          -- an open loop at one rate: its tps is the rate kept, not a speed
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w WHERE w.sweep_id = _report_table.sweep_id;
    open := s.rate IS NOT NULL OR s.setting = 'rate';
    -- what ran: a cancelled or failed sweep has fewer repeats than it asked
    SELECT max(x.repeats), min(x.repeats) FILTER (WHERE x.value_pos > 0) INTO ran, ran_min
        FROM walpressure.results x WHERE x.sweep_id = s.sweep_id;
    RETURN QUERY SELECT walpressure._wrap(format('sweep %s%s: %s, %s, %s clients%s, %s x %s s, %s %s/%s steps',
                       s.sweep_id, coalesce(' "' || walpressure._fit(s.label, 40) || '"', ''), s.setting, s.workload, s.clients,
                       coalesce(', ' || walpressure._disk_words(s.sweep_id), ''),
                       CASE WHEN s.search IS NOT NULL THEN
                                format('a search over %s by %s (%s rounds)', s.search_range, s.search_resolution,
                                       (SELECT count(*) FROM walpressure.search_rounds q WHERE q.sweep_id = s.sweep_id))
                            WHEN s.auto_repeats THEN format('repeats auto (%s rounds)', coalesce(ran, 0))
                            ELSE s.repeats::text END,
                       trim_scale(extract(epoch FROM s.duration)), s.status, s.steps_done, s.steps_total));
    -- each column as wide as its widest value (a value at most 32 characters,
    -- a configuration as name=value)
    SELECT max(x.tps),
           greatest(max(length(walpressure._fit(walpressure._value_label(s.setting, x.value, ', '), 32))),
                    length(walpressure._fit(s.setting, 32))),
           greatest(max(length(x.tps || coalesce(' ±' || round((x.tps_ci_high - x.tps_ci_low) / 2), ''))), 18),
           greatest(max(length(x.write_iops::text)), 4),
           greatest(max(length(x.commits_per_fsync::text)), 3)
        INTO top, vw, tw, iw, cw
        FROM walpressure.results x WHERE x.sweep_id = s.sweep_id;
    IF top IS NULL THEN
        RETURN NEXT '(no step finished)';
        RETURN;
    END IF;
    RETURN NEXT format('%s | %-*s | %*s | %*s | %*s | %s', rpad(walpressure._fit(s.setting, 32), vw), width, 'tps',
                       tw, 'tps (95% interval)', iw, 'IOPS', cw, 'c/f',
                       CASE WHEN open THEN 'the rate' WHEN s.current_pos IS NOT NULL THEN 'vs the current'
                            ELSE 'vs the first' END);
    FOR r IN SELECT * FROM walpressure.results x WHERE x.sweep_id = s.sweep_id
             ORDER BY x.value_pos = 0, x.value_pos LOOP
        RETURN NEXT walpressure._fit(rtrim(format('%s | %-*s | %*s | %*s | %*s | %s',
            rpad(walpressure._fit(walpressure._value_label(s.setting, r.value, ', '), 32), vw), width,
            repeat('#', greatest(round(width * coalesce(r.tps, 0) / nullif(top, 0))::int, 0)),
            tw, coalesce(r.tps || CASE WHEN r.tps_ci_low IS NULL THEN ''
                                       ELSE ' ±' || round((r.tps_ci_high - r.tps_ci_low) / 2) END, '-'),
            iw, coalesce(r.write_iops::text, '-'),
            cw, coalesce(r.commits_per_fsync::text, '-'),
            CASE WHEN r.verdict IN ('discarded', 'not measured') THEN r.verdict
                 WHEN open THEN CASE WHEN coalesce(r.rate_sustained, true) THEN 'kept' ELSE 'NOT KEPT' END
                 WHEN r.verdict IN ('baseline', 'no baseline') THEN r.verdict
                 ELSE coalesce(walpressure._ratio_text(r.speedup) || 'x ', '') || r.verdict END
            || CASE WHEN r.is_current THEN ' (current)' ELSE '' END
            || coalesce('  [' || r.data_loss || ']', ''))));
    END LOOP;
    RETURN QUERY SELECT walpressure._wrap(format('tps: mean over %s; ±: half its 95%% interval%s; IOPS: pg_wal''s writes/s; c/f: commits/flush',
                       CASE WHEN ran > 1 AND ran_min = ran THEN ran || ' interleaved rounds'
                            WHEN ran > 1 THEN ran_min || ' to ' || ran || ' interleaved rounds'
                            ELSE 'the window' END,
                       CASE WHEN ran > 1 THEN '' ELSE ' (none from one round)' END));
    RETURN QUERY SELECT walpressure._wrap(CASE WHEN open THEN
                           'an open loop: tps is the rate a value kept, not a speed; each value''s latency is below'
                       ELSE format('ratio: geometric mean of the per-round ratios (paired); faster/slower: 95%% interval excludes 1; equivalent: within ±%s%%',
                                   walpressure._margin()) END);
END
$$;

-- An open loop's part: the latency a user arriving on the schedule saw
-- (the schedule lag included), the rate kept, and the p99's paired verdict.
CREATE OR REPLACE FUNCTION _report_open_loop(sweep_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s walpressure.sweeps;
    r record;
    vw int;
    base_kept bool;     -- the baseline kept the rate: else no ratio against it
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w WHERE w.sweep_id = _report_open_loop.sweep_id;
    SELECT coalesce(x.rate_sustained, true) INTO base_kept
        FROM walpressure.results x WHERE x.sweep_id = s.sweep_id AND x.value_pos = coalesce(s.current_pos, 1);
    IF NOT EXISTS (SELECT 1 FROM walpressure.results x WHERE x.sweep_id = s.sweep_id AND x.rate IS NOT NULL) THEN
        RETURN;
    END IF;
    SELECT greatest(max(length(walpressure._fit(x.value, 24))), length(walpressure._fit(s.setting, 24))) INTO vw
        FROM walpressure.results x WHERE x.sweep_id = s.sweep_id;
    RETURN NEXT '';
    RETURN QUERY SELECT walpressure._wrap(format('open loop%s: latency from each transaction''s scheduled start (schedule lag included), ms; p99 against the baseline',
                       coalesce(format(' at %s transactions/s (Poisson arrivals)', s.rate), ' (rates swept)')));
    RETURN NEXT format('%s | %9s | %9s | %9s | %9s | %9s | %s', rpad(walpressure._fit(s.setting, 24), vw), 'p50', 'p99',
                       'p99.9', 'lag p99', 'achieved', 'p99 verdict');
    FOR r IN SELECT * FROM walpressure.results x WHERE x.sweep_id = s.sweep_id AND x.value_pos > 0
             ORDER BY x.value_pos LOOP
        RETURN NEXT walpressure._fit(rtrim(format('%s | %9s | %9s | %9s | %9s | %9s | %s',
            rpad(walpressure._fit(r.value, 24), vw),
            coalesce(r.latency_p50_ms::text, '-'), coalesce(r.latency_p99_ms::text, '-'),
            coalesce(r.latency_p999_ms::text, '-'), coalesce(r.lag_p99_ms::text, '-'),
            coalesce(r.rate_achieved::text, '-'),
            CASE WHEN NOT r.rate_sustained THEN format('NOT KEPT (%s asked): a closed loop', r.rate)
                 WHEN r.verdict = 'baseline' THEN 'baseline'
                 WHEN NOT coalesce(base_kept, true) THEN 'kept; the baseline did not'
                 ELSE coalesce(walpressure._ratio_text(r.latency_p99_ratio) || 'x ' || r.latency_p99_verdict, '') END)));
    END LOOP;
END
$$;

-- A search's part: its rounds, what each ran and what came of it, and why
-- it stopped (each wrapped within 120 columns).
CREATE OR REPLACE FUNCTION _report_search(sweep_id bigint)
RETURNS SETOF text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT l FROM (
        SELECT 0 AS o, 0 AS n, '' AS l
        FROM walpressure.sweeps s WHERE s.sweep_id = $1 AND EXISTS (SELECT FROM walpressure.search_rounds q WHERE q.sweep_id = $1)
        UNION ALL
        SELECT 1, 0, w FROM walpressure.sweeps s,
               walpressure._wrap(format('the search (golden section over %s by %s), round by round: what it ran (the baseline first in a pair''s first round) and what it did',
                                        s.search_range, s.search_resolution)) w
        WHERE s.sweep_id = $1 AND EXISTS (SELECT FROM walpressure.search_rounds q WHERE q.sweep_id = $1)
        UNION ALL
        SELECT 2, q.round, w FROM walpressure.search_rounds q,
               walpressure._wrap(format('  round %s, pair %s, peak in [%s, %s]: %s: %s', q.round, q.pair, q.low, q.high,
                                        array_to_string(q.vals, ', '), coalesce(q.decision, '-')), 120, 4) w
        WHERE q.sweep_id = $1
        UNION ALL
        SELECT 3, 0, w FROM walpressure.sweeps s, walpressure._wrap('  it stopped: ' || s.search_stop, 120, 4) w
        WHERE s.sweep_id = $1 AND s.search_stop IS NOT NULL
    ) x
    ORDER BY o, n
$$;

-- A text chart of a sweep for psql: its table, then the parts its sweep
-- has (an open loop, a search, a grid, the load's statements, standbys).
CREATE OR REPLACE FUNCTION _report(sweep_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NOT EXISTS (SELECT FROM walpressure.sweeps w WHERE w.sweep_id = _report.sweep_id) THEN
        RAISE EXCEPTION 'no sweep %', _report.sweep_id USING ERRCODE = 'no_data_found',
            HINT = 'walpressure.sweeps lists the sweeps of this database.';
    END IF;
    RETURN QUERY SELECT * FROM walpressure._report_table(_report.sweep_id);
    IF NOT EXISTS (SELECT FROM walpressure.results x WHERE x.sweep_id = _report.sweep_id AND x.tps IS NOT NULL) THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT * FROM walpressure._report_open_loop(_report.sweep_id);
    RETURN QUERY SELECT * FROM walpressure._report_search(_report.sweep_id);
    RETURN QUERY SELECT * FROM walpressure._report_grid(_report.sweep_id);
    RETURN QUERY SELECT * FROM walpressure._report_statements(_report.sweep_id);
    RETURN QUERY SELECT * FROM walpressure._report_standbys(_report.sweep_id);
END
$$;

COMMENT ON FUNCTION _report(bigint) IS 'report() after its check: a text chart of a sweep for psql: a tps bar per value, its 95% interval, write IOPS, commits per fsync and the verdict against the current value (else the first); a grid''s tps as a table; the load''s statements (pg_stat_statements) value by value; with synchronous standbys, each value''s wait for them and their lags';

-- The entry points: the sweep ids checked in C (a plain "no sweep 99", no
-- PL/pgSQL CONTEXT), then the functions above.
CREATE OR REPLACE FUNCTION report(sweep_id bigint)
RETURNS SETOF text
AS 'MODULE_PATHNAME', 'wp_report'
LANGUAGE C STRICT STABLE;

COMMENT ON FUNCTION report(bigint) IS 'A text chart of a sweep for psql: a tps bar per value, its 95% interval, write IOPS, commits per fsync and the verdict against the baseline; a grid''s tps as a table; the load''s statements; with synchronous standbys, the wait for them and their lags.';
