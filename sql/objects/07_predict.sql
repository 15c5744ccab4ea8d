--
-- What a sweep predicts at another disk cap (and another number of
-- clients): tps, commits per WAL fsync and a commit's time, from a model of
-- the closed loop of a sweep's clients.  docs/reference/predict.md derives
-- it; in short:
--
--   Each of the N clients runs a transaction, commits, waits for the WAL
--   flush that covers its commit, and starts the next one.  Its cycle is
--   its CPU time (a queue: the server's CPUs), the commit's wait W, and
--   everything else, Z (a delay).  The throughput follows by mean-value
--   analysis of that closed network (MVA; the CPUs by Seidmann's
--   approximation of a multi-server queue).
--
--   The WAL flushes follow one another with a period P.  Under the cap a
--   flush costs k write IOs (its data and the cache flush: about 2 under
--   cgroup v1 blkio, measured per step as write IOPS over WAL fsyncs per
--   second), so while the disk binds P = k / cap (the measured period
--   scaled by the caps' ratio).  A commit waits m periods
--   (measured: its commit time over the period), whatever the period:
--   W = m P.  Group commit follows: commits per fsync = X P.
--
-- From each round of a value: D (CPU seconds per transaction), W and P at
-- the measured cap, hence m and k; Z is what makes the network give the
-- measured tps.  At the new cap the period is k / cap (or, where the disk
-- did not bind at the measured cap, the measured period when that is
-- longer), the wait m P, and MVA gives tps.  The prediction of each round,
-- then their geometric mean and a 95% interval across rounds (t on the
-- logarithms): the interval is the measurements' spread, not the model's
-- error.
--

-- The throughput of n clients whose cycle is a CPU demand d (seconds) on c
-- CPUs and a delay z (seconds): exact MVA for the single-server queue of
-- demand d / c that Seidmann's approximation puts in place of c CPUs, plus
-- the delay d (c - 1) / c.
CREATE OR REPLACE FUNCTION _mva(n int, d float8, c float8, z float8)
RETURNS float8
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    q float8 := 0;
    rq float8;
    x float8 := 0;
BEGIN
    FOR i IN 1..n LOOP
        rq := d / c * (1 + q);
        x := i / (rq + d * (c - 1) / c + z);
        q := x * rq;
    END LOOP;
    RETURN x;
END
$$;

-- The delay z (seconds) that makes _mva(n, d, c, w + z) give x0: what is
-- neither the CPU nor the commit's wait.  0 when even no delay gives less
-- than x0 (the CPU model then holds more contention than there was).
CREATE OR REPLACE FUNCTION _mva_delay(n int, d float8, c float8, w float8, x0 float8)
RETURNS float8
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    lo float8 := 0;
    hi float8 := n / x0;
    mid float8;
BEGIN
    IF walpressure._mva(n, d, c, w) <= x0 THEN
        RETURN 0;
    END IF;
    FOR i IN 1..60 LOOP
        mid := (lo + hi) / 2;
        IF walpressure._mva(n, d, c, w + mid) > x0 THEN lo := mid; ELSE hi := mid; END IF;
    END LOOP;
    RETURN (lo + hi) / 2;
END
$$;

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
    delay_s float8; siblings int;
    k float8; m float8; z float8; p0 float8; d float8; bound0 bool; unbound int;
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
        -- commit_delay in effect: the value's, the fixed one, or the server's;
        -- none when fewer other clients than commit_siblings run
        delay_s := coalesce(CASE WHEN s.setting = 'commit_delay' THEN walpressure._int_setting(v.val) END,
                            walpressure._int_setting(s.settings->>'commit_delay'),
                            walpressure._int_setting(s.server_settings->>'commit_delay'), 0) / 1e6;
        siblings := coalesce(CASE WHEN s.setting = 'commit_siblings' THEN walpressure._int_setting(v.val) END,
                             walpressure._int_setting(s.settings->>'commit_siblings'),
                             walpressure._int_setting(s.server_settings->>'commit_siblings'), 5);
        IF least(n1, v.n0) - 1 < siblings THEN
            delay_s := 0;
        END IF;
        IF v.cap0 IS NULL THEN
            why := 'it ran without a disk cap: its flushes took the disk''s own time, which a cap does not scale';
        ELSIF c1 > 4 * v.cap0 OR c1 < v.cap0 / 4.0 THEN
            why := format('%s is more than 4 times away from the cap it ran at (%s): m and the other delay, taken at one cap, are not known to hold that far',
                          c1, v.cap0);
        ELSIF n1 > 2 * v.n0 OR 2 * n1 < v.n0 THEN
            why := format('%s clients is more than twice away from the %s it ran: how many periods a commit waits and the other delay are not known to hold that far',
                          n1, v.n0);
        END IF;
        FOR r IN
            SELECT x.tps, x.transactions, x.commits, x.wal_fsyncs, x.wal_fsyncs_per_s, x.write_iops,
                   x.commit_avg_ms, x.server_cpu_s, x.client_cpu_s, x.clients
            FROM walpressure.steps x
            WHERE x.sweep_id = _predict.sweep_id AND x.value_pos = v.pos AND x.discarded IS NULL
            ORDER BY x.repeat
        LOOP
            EXIT WHEN why IS NOT NULL;
            IF r.commit_avg_ms IS NULL OR r.server_cpu_s IS NULL OR r.write_iops IS NULL OR r.transactions = 0 THEN
                why := 'a round lacks a figure the model needs (the commits'' time, CPU seconds or write IOPS)';
            ELSIF coalesce(r.wal_fsyncs, 0) = 0 OR r.wal_fsyncs_per_s <= 0 THEN
                why := 'no commit waited for a WAL flush (synchronous_commit off or fsync off): the cap bears on this value through data writes only, which the model does not cover';
            END IF;
            EXIT WHEN why IS NOT NULL;
            d := (r.server_cpu_s + coalesce(r.client_cpu_s, 0)) / r.transactions;
            p0 := 1 / r.wal_fsyncs_per_s;
            k := r.write_iops / r.wal_fsyncs_per_s;
            m := r.commit_avg_ms / 1000 / p0;
            bound0 := r.write_iops >= 0.9 * v.cap0;
            z := walpressure._mva_delay(r.clients, d, s.cpus, r.commit_avg_ms / 1000, r.tps);
            -- the period at the new cap: where the disk bound, the measured one
            -- scaled by the caps (the disk as busy against its cap); where it
            -- did not, the cap's (k / cap) or the measured one, the longer
            IF bound0 THEN
                p1 := p0 * v.cap0 / c1;
            ELSE
                p1 := greatest(k / c1, p0);
                unbound := unbound + 1;
            END IF;
            IF bound0 AND p1 < delay_s THEN
                why := format('a flush would take %s ms of the cap, less than commit_delay (%s ms): the period would be set by the delay and the disk''s own fsync time, which a capped sweep does not measure',
                              round((p1 * 1000)::numeric, 3), round((delay_s * 1000)::numeric, 3));
                EXIT;
            END IF;
            w1 := m * p1;
            x1 := walpressure._mva(n1, d, s.cpus, w1 + z);
            g1 := r.commits::float8 / r.transactions * x1 * p1;
            IF bound0 AND c1 > v.cap0 AND g1 < 1 THEN
                why := format('fewer than one commit per flush (%s): the disk would no longer bind, and what would (each commit''s own flush) was not measured',
                              round(g1::numeric, 2));
                EXIT;
            END IF;
            xs := xs || x1; gs := gs || g1; ws := ws || w1 * 1000; ls := ls || n1 / x1 * 1000;
            ios := ios || k / p1; cpus := cpus || x1 * d / s.cpus;
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
                      ELSE 'neither: the commits'' pace' END;
        basis := format('from %s round%s at %s write IOPS and %s clients%s%s', rounds,
                        CASE WHEN rounds = 1 THEN ' (no interval)' ELSE 's' END, v.cap0, v.n0,
                        CASE WHEN unbound > 0 THEN
                                 format('; in %s of them the disk did not bind (write IOPS below 90%% of the cap): their flush period is kept where the new cap''s would be shorter',
                                        unbound)
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
'What a sweep predicts at another disk cap (iops_cap, write IOPS) and number of clients: per value, tps, commits per WAL fsync and a commit''s time, each with a 95% interval across the rounds it is predicted from, from a closed-loop model (MVA: the CPUs as a queue, the commit''s wait m flush periods of k write IOs each at the cap, the rest a delay; docs/reference/predict.md); a value it cannot predict has its reason in basis; a sweep without the figures it needs is refused';
