--
-- A sweep's figures at another cap or load, from its closed loop's model (predict).
--

-- predict() after its checks (C: the sweep, the cap, the clients, the
-- figures it needs): one row per value.
CREATE OR REPLACE FUNCTION _predict(sweep_id bigint, iops_cap int, clients int)
RETURNS TABLE (value_pos int, value text, measured_cap int, measured_clients int, measured_tps numeric,
               rounds int, tps numeric, tps_ci_low numeric, tps_ci_high numeric,
               commits_per_fsync numeric, commits_per_fsync_ci_low numeric, commits_per_fsync_ci_high numeric,
               commit_ms numeric, commit_ms_ci_low numeric, commit_ms_ci_high numeric,
               latency_ms numeric, write_iops numeric, cpu_share numeric, bound text, basis text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s walpressure.sweeps;
    v record;
    r record;
    c1 float8 := _predict.iops_cap;
    why text;
    n1 int;
    x1 float8; p1 float8; w1 float8; g1 float8;
    xs float8[]; gs float8[]; ws float8[]; ls float8[]; ios float8[]; cpus float8[];
    delay_s float8; siblings int; sync_off bool;
    k float8; p0 float8; d float8; g0 float8; flush_tps float8; bound0 bool; unbound int; unfitted int;
    own float8 := walpressure._flush_floor(_predict.sweep_id);
    fit record;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w WHERE w.sweep_id = _predict.sweep_id;
    FOR v IN
        SELECT x.value_pos AS pos, min(x.value) AS val, min(x.iops_cap) AS cap0, min(x.clients) AS n0,
               avg(x.tps) AS tps0
        FROM walpressure.steps x
        WHERE x.sweep_id = _predict.sweep_id AND x.discarded IS NULL AND x.value_pos > 0
        GROUP BY x.value_pos ORDER BY x.value_pos
    LOOP
        value_pos := v.pos; value := v.val; measured_cap := v.cap0; measured_clients := v.n0;
        measured_tps := round(v.tps0::numeric, 1);
        n1 := coalesce(_predict.clients, v.n0);
        xs := '{}'; gs := '{}'; ws := '{}'; ls := '{}'; ios := '{}'; cpus := '{}';
        why := NULL;
        unbound := 0;
        unfitted := 0;
        -- the settings in effect (_in_effect): commit_delay, none when fewer
        -- other clients than commit_siblings run; synchronous_commit
        delay_s := coalesce(walpressure._int_setting(walpressure._in_effect(s, v.val, 'commit_delay')), 0) / 1e6;
        siblings := coalesce(walpressure._int_setting(walpressure._in_effect(s, v.val, 'commit_siblings')), 5);
        IF least(n1, v.n0) - 1 < siblings THEN
            delay_s := 0;
        END IF;
        sync_off := lower(coalesce(walpressure._in_effect(s, v.val, 'synchronous_commit'), 'on'))
                    IN ('off', 'false', 'no', '0');
        IF v.cap0 IS NULL THEN
            why := 'it ran without a disk cap: its flushes took the disk''s own time, which a cap does not scale';
        ELSIF c1 > 4 * v.cap0 OR c1 < v.cap0 / 4.0 THEN
            why := format('%s is more than 4 times away from the cap it ran at (%s): the commits a flush carries and the other delay, taken at one cap, are not known to hold that far',
                          c1, v.cap0);
        ELSIF n1 > 2 * v.n0 OR 2 * n1 < v.n0 THEN
            why := format('%s clients is more than twice away from the %s it ran: the commits a flush carries and the other delay, taken with one number of clients, are not known to hold that far',
                          n1, v.n0);
        END IF;
        FOR r IN
            SELECT x.tps, x.transactions, x.commits, x.leaders, x.wal_fsyncs, x.wal_fsyncs_per_s, x.write_iops,
                   x.commit_avg_ms, x.server_cpu_s, x.client_cpu_s, x.clients, x.fsync_avg_ms
            FROM walpressure.steps x
            WHERE x.sweep_id = _predict.sweep_id AND x.value_pos = v.pos AND x.discarded IS NULL
            ORDER BY x.repeat
        LOOP
            EXIT WHEN why IS NOT NULL;
            IF r.commit_avg_ms IS NULL OR r.server_cpu_s IS NULL OR r.write_iops IS NULL OR r.transactions = 0
               OR coalesce(r.commits, 0) <= 0 OR coalesce(r.tps, 0) <= 0 OR r.commit_avg_ms <= 0
               OR r.server_cpu_s < 0 OR coalesce(r.client_cpu_s, 0) < 0 OR r.write_iops < 0 THEN
                why := 'a round lacks a figure the model needs (its commits, their time, CPU seconds or write IOPS)';
            ELSIF r.wal_fsyncs IS NULL THEN
                why := 'a round lacks its count of WAL fsyncs (the server''s WAL statistics were reset during it)';
            ELSIF sync_off OR r.wal_fsyncs = 0 OR r.wal_fsyncs_per_s <= 0 OR r.leaders = 0 THEN
                -- with synchronous_commit off the WAL writer still fsyncs:
                -- no commit's own flush (leaders) is what tells
                why := 'no commit waited for a WAL flush (synchronous_commit off or fsync off): the cap bears on this value through data writes only, which the model does not cover';
            END IF;
            EXIT WHEN why IS NOT NULL;
            d := (r.server_cpu_s + coalesce(r.client_cpu_s, 0)) / r.transactions;
            p0 := 1 / r.wal_fsyncs_per_s;
            g0 := r.commits::float8 / r.wal_fsyncs;
            k := r.write_iops * p0;
            bound0 := r.write_iops >= 0.9 * v.cap0;
            -- the flush period at the new cap: where the disk bound, the
            -- measured one scaled by the caps (the disk as busy against its
            -- cap, as many commits a flush); where it did not, the cap's
            -- (k / cap) or the measured one, the longer; never below what
            -- commit_delay takes
            IF bound0 THEN
                p1 := p0 * v.cap0 / c1;
                -- never shorter than the delay, the disk's own flush and what
                -- else the step's period held beyond its flushes (the
                -- handoffs, the delay's real sleep)
                IF c1 > v.cap0 THEN
                    IF delay_s > 0 AND own IS NULL THEN
                        why := format('above the measured cap the flush period would fall toward commit_delay (%s us) and the disk''s own flush time, and every flush of the sweep waited for the cap: that time was not seen',
                                      round(delay_s * 1e6));
                        EXIT;
                    END IF;
                    p1 := greatest(p1, delay_s + coalesce(own, 0)
                                       + greatest(p0 - delay_s - coalesce(r.fsync_avg_ms / 1000, p0), 0));
                END IF;
                -- the disk bound: the flush never idled, a flush every period
                -- carrying g0 commits (never more than the clients), and so
                -- it stays at the new cap: the flush sets the throughput
                flush_tps := r.tps * p0 / p1 * least(1, n1 / g0);
            ELSE
                p1 := greatest(k / c1, p0);
                flush_tps := 0;
                unbound := unbound + 1;
            END IF;
            SELECT * INTO fit FROM walpressure._mva_predict(r.clients, r.tps, r.commit_avg_ms / 1000, d, s.cpus,
                                                              p1 / p0, n1, flush_tps,
                                                              (delay_s + coalesce(own, 0)) / least(g0, n1));
            IF flush_tps > 0 AND c1 > v.cap0 AND own IS NULL AND fit.tps < 0.999 * flush_tps THEN
                why := format('above the measured cap the disk would no longer bind (a flush that never idles would carry %s tps, more than the rest of the loop makes): the disk''s own flush time decides, and every flush of the sweep waited for the cap: that time was not seen',
                              round(flush_tps::numeric));
                EXIT;
            END IF;
            IF NOT fit.fitted THEN
                unfitted := unfitted + 1;
            END IF;
            x1 := fit.tps;
            w1 := fit.commit_s;
            -- commits per flush: where the disk bound, the measured ones (a
            -- flush that idles, when the rest of the loop is slower, carries
            -- as many less often); where it did not, the measured ones as busy
            -- as the flush would be
            g1 := greatest(1, CASE WHEN flush_tps > 0 THEN least(g0, n1)
                                   ELSE g0 * fit.new_flush_util / nullif(fit.flush_util, 0) END);
            ios := ios || k * x1 / g1;
            w1 := w1 * 1000;
            xs := xs || x1; gs := gs || g1; ws := ws || w1; ls := ls || n1 / x1 * 1000;
            cpus := cpus || x1 * d / s.cpus;
        END LOOP;
        rounds := cardinality(xs);
        IF why IS NOT NULL OR rounds = 0 THEN
            tps := NULL; tps_ci_low := NULL; tps_ci_high := NULL; commits_per_fsync := NULL;
            commits_per_fsync_ci_low := NULL; commits_per_fsync_ci_high := NULL; commit_ms := NULL;
            commit_ms_ci_low := NULL; commit_ms_ci_high := NULL; latency_ms := NULL; write_iops := NULL;
            cpu_share := NULL; bound := NULL;
            basis := 'not predicted: ' || coalesce(why, 'no round counts');
            RETURN NEXT;
            CONTINUE;
        END IF;
        SELECT round(exp(avg(ln(x)))::numeric, 1),
               round(exp(avg(ln(x)) - walpressure._t975(count(*) - 1) * stddev_samp(ln(x)) / sqrt(count(*)))::numeric, 1),
               round(exp(avg(ln(x)) + walpressure._t975(count(*) - 1) * stddev_samp(ln(x)) / sqrt(count(*)))::numeric, 1)
            INTO tps, tps_ci_low, tps_ci_high FROM unnest(xs) AS x;
        SELECT round(exp(avg(ln(x)))::numeric, 2),
               round(exp(avg(ln(x)) - walpressure._t975(count(*) - 1) * stddev_samp(ln(x)) / sqrt(count(*)))::numeric, 2),
               round(exp(avg(ln(x)) + walpressure._t975(count(*) - 1) * stddev_samp(ln(x)) / sqrt(count(*)))::numeric, 2)
            INTO commits_per_fsync, commits_per_fsync_ci_low, commits_per_fsync_ci_high FROM unnest(gs) AS x;
        SELECT round(exp(avg(ln(x)))::numeric, 3),
               round(exp(avg(ln(x)) - walpressure._t975(count(*) - 1) * stddev_samp(ln(x)) / sqrt(count(*)))::numeric, 3),
               round(exp(avg(ln(x)) + walpressure._t975(count(*) - 1) * stddev_samp(ln(x)) / sqrt(count(*)))::numeric, 3)
            INTO commit_ms, commit_ms_ci_low, commit_ms_ci_high FROM unnest(ws) AS x;
        SELECT round(exp(avg(ln(x)))::numeric, 3) INTO latency_ms FROM unnest(ls) AS x;
        SELECT round(avg(x)::numeric) INTO write_iops FROM unnest(ios) AS x;
        SELECT round(avg(x)::numeric, 2) INTO cpu_share FROM unnest(cpus) AS x;
        bound := CASE WHEN cpu_share >= 0.9 THEN 'the CPU'
                      WHEN write_iops >= 0.9 * c1 THEN 'the disk'
                      ELSE 'neither: the commits'' own pace' END;
        basis := format('from %s round%s at %s write IOPS and %s clients%s%s%s', rounds,
                        CASE WHEN rounds = 1 THEN ' (no interval)' ELSE 's' END, v.cap0, v.n0,
                        CASE WHEN unbound > 0 THEN
                                 format('; in %s of them the disk did not bind (write IOPS below 90%% of the cap): their flush period is kept where the new cap''s would be shorter',
                                        unbound)
                             ELSE '' END,
                        CASE WHEN unfitted > 0 THEN
                                 format('; in %s of them no flush demand gave both the measured tps and commit time (the nearest was taken)',
                                        unfitted)
                             ELSE '' END,
                        CASE WHEN cpu_share >= 0.9 THEN
                                 format('; the CPUs would be %s%% busy: the prediction rests on the CPU model more than on the cap',
                                        round(100 * cpu_share))
                             ELSE '' END);
        RETURN NEXT;
    END LOOP;
END
$$;

COMMENT ON FUNCTION _predict(bigint, int, int) IS
'predict() after its checks';

CREATE OR REPLACE FUNCTION predict(sweep_id bigint, iops_cap int, clients int DEFAULT NULL)
RETURNS TABLE (value_pos int, value text, measured_cap int, measured_clients int, measured_tps numeric,
               rounds int, tps numeric, tps_ci_low numeric, tps_ci_high numeric,
               commits_per_fsync numeric, commits_per_fsync_ci_low numeric, commits_per_fsync_ci_high numeric,
               commit_ms numeric, commit_ms_ci_low numeric, commit_ms_ci_high numeric,
               latency_ms numeric, write_iops numeric, cpu_share numeric, bound text, basis text)
AS 'MODULE_PATHNAME', 'wp_predict'
LANGUAGE C STABLE;

COMMENT ON FUNCTION predict(bigint, int, int) IS
'What a sweep predicts at another disk cap (iops_cap, write IOPS) and number of clients: per value, tps, commits per WAL fsync and a commit''s time, each with a 95% interval across the rounds it is predicted from, from a closed-loop model (MVA: the CPUs and the WAL flush as queues, the flush''s time per commit following the cap, the rest a delay, fitted to each step''s tps and commit time; docs/reference/predict.md); a value it cannot predict has its reason in basis; a sweep without the figures it needs is refused';
