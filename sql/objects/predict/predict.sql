--
-- A sweep's figures at another cap or load, from its closed loop's model (predict).
--

-- Why the model does not predict value `v` (its cap cap0, its clients n0)
-- at cap c1 with n1 clients, or NULL: no cap (a flush took the disk's own
-- time, which a cap does not scale), a cap more than 4 times away, clients
-- more than twice away.
CREATE OR REPLACE FUNCTION _predict_refusal(cap0 int, n0 int, c1 int, n1 int)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE
    WHEN cap0 IS NULL THEN
        'it ran without a disk cap: its flushes took the disk''s own time, which a cap does not scale'
    WHEN cap0 <= 0 OR n0 <= 0 OR n0 > 100000 THEN
        format('it ran at %s write IOPS with %s clients: no cap and load the model takes (1 or more IOPS, 1 to 100000 clients)',
               cap0, n0)
    WHEN c1 > 4.0 * cap0 OR c1 < cap0 / 4.0 THEN
        format('%s is more than 4 times away from the cap it ran at (%s): the commits a flush carries and the other delay, taken at one cap, are not known to hold that far',
               c1, cap0)
    WHEN n1 > 2.0 * n0 OR 2.0 * n1 < n0 THEN
        format('%s clients is more than twice away from the %s it ran: the commits a flush carries and the other delay, taken with one number of clients, are not known to hold that far',
               n1, n0)
END;

-- Why a round (a step) cannot be predicted from, or NULL: a figure the
-- model needs is missing, or no commit waited for a WAL flush.
CREATE OR REPLACE FUNCTION _predict_step_refusal(r walpressure.steps, sync_commit text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE
    WHEN r.commit_avg_ms IS NULL OR r.server_cpu_s IS NULL OR r.write_iops IS NULL OR r.transactions = 0
         OR coalesce(r.commits, 0) <= 0 OR coalesce(r.tps, 0) <= 0 OR r.commit_avg_ms <= 0
         OR r.server_cpu_s < 0 OR coalesce(r.client_cpu_s, 0) < 0 OR r.write_iops < 0
         OR coalesce(r.fsync_avg_ms, 0) <= 0 THEN
        'a round lacks a figure the model needs (its commits, their time, CPU seconds, write IOPS or a flush''s time)'
    WHEN r.wal_fsyncs IS NULL OR r.wal_fsyncs_per_s IS NULL THEN
        'a round lacks its count of WAL fsyncs (the server''s WAL statistics were reset during it)'
    -- with synchronous_commit off the WAL writer still fsyncs: no commit's
    -- own flush (leaders) is what tells
    WHEN lower(coalesce(sync_commit, 'on')) IN ('off', 'false', 'no', '0') OR r.wal_fsyncs = 0
         OR r.wal_fsyncs_per_s <= 0 OR r.leaders = 0 THEN
        'no commit waited for a WAL flush (synchronous_commit off or fsync off): the cap bears on this value through data writes only, which the model does not cover'
END;

-- What a prediction rests on, in words: the rounds, the cap and clients it
-- ran at, the disk, and what of it the model stretches.
CREATE OR REPLACE FUNCTION _predict_basis(s walpressure.sweeps, rounds int, cap0 int, n0 int, c1 int, n1 int,
                                          unfitted int, cpu_share numeric, spans bool, model_error float8)
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN format('from %s round%s at %s write IOPS (%s) and %s clients; the tps interval widened by the model''s error (%s%%)%s%s%s',
              rounds,
              CASE WHEN rounds = 1 THEN ' (no spread: the interval is the model''s error alone)' ELSE 's' END, cap0,
              CASE s.disk WHEN 'paced' THEN 'the paced disk'
                          WHEN 'throttle' THEN 'the throttle: a flush costs its share only on average, the model''s premise holds loosely'
                          ELSE 'capped' END, n0, trim_scale(round(100 * model_error::numeric, 1)),
              CASE WHEN spans AND n1 > n0 THEN
                       format('; %s clients, more than measured: the model grows the commits a flush carries with them, and the interval reaches down to the tps with them held as measured',
                              n1)
                   WHEN spans THEN
                       format('; %s: the model lowers the commits a flush carries, and the interval reaches up to the tps with them held as measured',
                              CASE WHEN n1 < n0 AND c1 > cap0 THEN format('%s clients, fewer than measured, at a cap higher than measured', n1)
                                   WHEN n1 < n0 THEN format('%s clients, fewer than measured', n1)
                                   ELSE 'a cap higher than measured' END)
                   ELSE '' END,
              CASE WHEN unfitted > 0 THEN
                       format('; in %s of them the model did not fit (the CPUs alone slower than measured, a commit''s wait longer than the loop leaves or more than twice or under half the model''s, or no settled answer): the nearest was taken',
                              unfitted)
                   ELSE '' END,
              CASE WHEN cpu_share >= 0.9 THEN
                       format('; the CPUs would be %s%% busy: the prediction rests on the CPU model more than on the cap',
                              round(100 * cpu_share))
                   ELSE '' END);

-- One round's prediction for value `v` of sweep `s` at cap c1 with n1
-- clients (C: api/predict.c over sweep/predict_round.c; docs/reference/predict.md):
-- tps, commits a flush carries, a commit's ms, latency ms, write IOPS, CPU
-- share, the share of the time the disk flushes; tps_alt, the tps with the
-- commits a flush carries held as measured, where the model moves them
-- (with more clients the interval reaches down to it, with fewer or a higher
-- cap up); or why the round cannot be predicted.
CREATE OR REPLACE FUNCTION _predict_round(s walpressure.sweeps, r walpressure.steps, cap0 int, n0 int, c1 int, n1 int,
                                          delay_s float8, own float8,
                                          OUT tps float8, OUT tps_alt float8, OUT g float8, OUT commit_ms float8,
                                          OUT latency_ms float8, OUT write_iops float8, OUT cpu_share float8,
                                          OUT flush_busy float8, OUT fitted bool, OUT why text)
AS 'MODULE_PATHNAME', 'wp_predict_round'
LANGUAGE C STABLE;

-- A prediction's figure over the rounds: the geometric mean and its 95%
-- interval across them (t on the logarithms), the interval widened by the
-- model's own error: the rounds' spread alone is narrower than what the
-- model misses (docs/reference/predict.md says how far it is widened and
-- how often bench/predict's cases fall inside).
CREATE OR REPLACE FUNCTION _predict_interval(xs float8[], model_error float8,
                                             OUT mid float8, OUT lo float8, OUT hi float8)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    -- the logarithms held where exp() neither overflows nor underflows
    -- (rounds of imported figures can lie 1e24 apart)
    SELECT exp(least(greatest(m, -700), 700)), exp(least(greatest(m - h, -700), 700)),
           exp(least(greatest(m + h, -700), 700))
    FROM (SELECT avg(ln(x)) AS m,
                 coalesce(walpressure._t975(count(*) - 1) * stddev_samp(ln(x)) / sqrt(count(*)), 0)
                 + ln(1 + model_error) AS h
          FROM unnest(xs) AS x WHERE x > 0) AS l
$$;

-- predict() after its checks (C: the sweep, the cap, the clients, the
-- figures it needs, no open loop): one row per value.
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
    s walpressure.sweeps; r walpressure.steps; v record; p record;
    why text; n1 int; delay_s float8;
    xs float8[]; xa float8[]; gs float8[]; ws float8[]; ls float8[]; ios float8[]; cpus float8[]; busy float8[];
    unfitted int;
    err float8 := 0.10;     -- the model's own error: see _predict_interval
    own float8;
    t record; ta record; g record; w record;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps x WHERE x.sweep_id = _predict.sweep_id;
    -- the disk's own flush time: seen in the sweep (a flush that did not
    -- wait for the cap), else on the paced disk its floor (0 without one:
    -- a paced flush costs its share of the cap, which the cost scales)
    own := coalesce(walpressure._flush_floor(s.sweep_id),
                    CASE WHEN s.disk = 'paced' THEN greatest(coalesce(s.flush_floor_ms, 0), 0) / 1000 END);
    FOR v IN
        SELECT x.value_pos AS pos, min(x.value) AS val, min(x.iops_cap) AS cap0, min(x.clients) AS n0, avg(x.tps) AS tps0
        FROM walpressure.steps x
        WHERE x.sweep_id = s.sweep_id AND x.discarded IS NULL AND x.value_pos > 0
        GROUP BY x.value_pos ORDER BY x.value_pos
    LOOP
        value_pos := v.pos; value := v.val; measured_cap := v.cap0; measured_clients := v.n0;
        measured_tps := round(v.tps0::numeric, 1);
        n1 := coalesce(_predict.clients, v.n0);
        xs := '{}'; xa := '{}'; gs := '{}'; ws := '{}'; ls := '{}'; ios := '{}'; cpus := '{}'; busy := '{}';
        unfitted := 0;
        -- the settings in effect: commit_delay (none when fewer other
        -- clients than commit_siblings run), synchronous_commit
        -- (commit_delay's own range, 0 to 100000 us: an imported sweep's settings are not checked)
        delay_s := least(greatest(coalesce(walpressure._int_setting(walpressure._in_effect(s, v.val, 'commit_delay')), 0), 0),
                         100000) / 1e6;
        IF least(n1, v.n0) - 1 < coalesce(walpressure._int_setting(walpressure._in_effect(s, v.val, 'commit_siblings')), 5) THEN
            delay_s := 0;
        END IF;
        why := walpressure._predict_refusal(v.cap0, v.n0, _predict.iops_cap, n1);
        FOR r IN SELECT * FROM walpressure.steps x
                 WHERE x.sweep_id = s.sweep_id AND x.value_pos = v.pos AND x.discarded IS NULL ORDER BY x.repeat LOOP
            EXIT WHEN why IS NOT NULL;
            why := walpressure._predict_step_refusal(r, walpressure._in_effect(s, v.val, 'synchronous_commit'));
            EXIT WHEN why IS NOT NULL;
            SELECT * INTO p FROM walpressure._predict_round(s, r, v.cap0, v.n0, _predict.iops_cap, n1, delay_s, own);
            why := p.why;
            EXIT WHEN why IS NOT NULL;
            unfitted := unfitted + CASE WHEN p.fitted THEN 0 ELSE 1 END;
            xs := xs || p.tps; xa := xa || coalesce(p.tps_alt, p.tps); gs := gs || p.g; ws := ws || p.commit_ms;
            ls := ls || p.latency_ms; ios := ios || p.write_iops; cpus := cpus || p.cpu_share; busy := busy || p.flush_busy;
        END LOOP;
        rounds := cardinality(xs);
        IF why IS NOT NULL OR rounds = 0 THEN
            tps := NULL; tps_ci_low := NULL; tps_ci_high := NULL; commits_per_fsync := NULL; commit_ms := NULL;
            commits_per_fsync_ci_low := NULL; commits_per_fsync_ci_high := NULL; commit_ms_ci_low := NULL;
            commit_ms_ci_high := NULL; latency_ms := NULL; write_iops := NULL; cpu_share := NULL; bound := NULL;
            basis := 'not predicted: ' || coalesce(why, 'no round counts');
            RETURN NEXT;
            CONTINUE;
        END IF;
        SELECT * INTO t FROM walpressure._predict_interval(xs, err);
        SELECT * INTO ta FROM walpressure._predict_interval(xa, err);
        SELECT * INTO g FROM walpressure._predict_interval(gs, 0);
        SELECT * INTO w FROM walpressure._predict_interval(ws, 0);
        -- the interval reaches to the commits a flush carries held as measured (tps_alt)
        tps := round(t.mid::numeric, 1);
        tps_ci_low := round(least(t.lo, ta.lo)::numeric, 1);
        tps_ci_high := round(greatest(t.hi, ta.hi)::numeric, 1);
        commits_per_fsync := round(g.mid::numeric, 2); commits_per_fsync_ci_low := round(g.lo::numeric, 2);
        commits_per_fsync_ci_high := round(g.hi::numeric, 2);
        commit_ms := round(w.mid::numeric, 3); commit_ms_ci_low := round(w.lo::numeric, 3);
        commit_ms_ci_high := round(w.hi::numeric, 3);
        SELECT round(exp(avg(ln(x)))::numeric, 3) INTO latency_ms FROM unnest(ls) AS x;
        SELECT round(avg(x)::numeric) INTO write_iops FROM unnest(ios) AS x;
        SELECT round(avg(x)::numeric, 2) INTO cpu_share FROM unnest(cpus) AS x;
        bound := CASE WHEN cpu_share >= 0.9 THEN 'the CPU'
                      WHEN write_iops >= 0.9 * _predict.iops_cap
                           OR (SELECT avg(x) FROM unnest(busy) AS x) >= 0.9 THEN 'the disk'
                      ELSE 'neither: the commits'' own pace' END;
        basis := walpressure._predict_basis(s, rounds, v.cap0, v.n0, _predict.iops_cap, n1, unfitted, cpu_share,
                                            xs IS DISTINCT FROM xa, err);
        RETURN NEXT;
    END LOOP;
END
$$;

COMMENT ON FUNCTION _predict(bigint, int, int) IS 'predict() after its checks';

CREATE OR REPLACE FUNCTION predict(sweep_id bigint, iops_cap int, clients int DEFAULT NULL)
RETURNS TABLE (value_pos int, value text, measured_cap int, measured_clients int, measured_tps numeric,
               rounds int, tps numeric, tps_ci_low numeric, tps_ci_high numeric,
               commits_per_fsync numeric, commits_per_fsync_ci_low numeric, commits_per_fsync_ci_high numeric,
               commit_ms numeric, commit_ms_ci_low numeric, commit_ms_ci_high numeric,
               latency_ms numeric, write_iops numeric, cpu_share numeric, bound text, basis text)
AS 'MODULE_PATHNAME', 'wp_predict'
LANGUAGE C STABLE;

COMMENT ON FUNCTION predict(bigint, int, int) IS 'What a sweep would measure at another disk cap (and another number of clients): tps, commits per WAL fsync and a commit''s time, per value, with an interval, from a model of the sweep''s closed loop fitted to each of its steps.';
