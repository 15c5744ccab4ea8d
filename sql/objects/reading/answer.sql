--
-- The answer of a sweep, as best gives it: the value it chooses and why, in
-- one line of at most 120 characters.  It never contradicts results: a
-- value results calls faster than the baseline is never answered with
-- "keep"; in an open loop a value that did not keep the rate is no baseline
-- and no answer; a search's value that no round decided against the
-- baseline is "found, not yet confirmed", with the run that would confirm
-- it among the findings.
--

-- The disk a sweep's cap stood for, in words: 'on the paced disk at 1000
-- write IOPS', 'under the throttle at 1000 write IOPS'; NULL without a cap.
CREATE OR REPLACE FUNCTION _disk_words(sweep_id bigint)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN s.setting = 'disk' THEN format('at %s write IOPS', s.iops_cap)
                WHEN s.disk IS NULL THEN 'capped at ' || s.iops_cap || ' write IOPS'
                ELSE concat(CASE s.disk WHEN 'paced' THEN 'on the paced disk' ELSE 'under the throttle' END,
                            ' at ' || s.iops_cap || ' write IOPS') END
    FROM walpressure.sweeps s WHERE s.sweep_id = $1
$$;

-- A value as an answer names it: a setting's as it is, a configuration's
-- settings as name=value (at most 40 characters).
CREATE OR REPLACE FUNCTION _value_words(setting text, value text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN walpressure._fit(coalesce(nullif(walpressure._value_label(setting, value, ', '), ''), ''''''), 40);

-- The value the answer takes, and what kind of answer it is:
--   change   a value faster than the baseline (in an open loop: a lower
--            p99, or one that kept the rate where the baseline did not);
--            among those, one that cannot be told from the fastest, the
--            lowest p99, then the one nearest the current value; else the
--            one with the most tps against the baseline
--   found    a search's value that no round decided against the baseline
--   keep     the baseline: nothing beat it
--   none     no value kept the rate (open loop), or no baseline counts
CREATE OR REPLACE FUNCTION _choice(sweep_id bigint, OUT value_pos int, OUT kind text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH s AS (
        SELECT w.*, coalesce(w.current_pos, 1) AS base_pos, walpressure._open_loop(w.sweep_id) AS open
        FROM walpressure.sweeps w WHERE w.sweep_id = $1
    ), r AS (
        SELECT x.*, coalesce(x.rate_sustained, true) AS kept
        FROM walpressure.results x WHERE x.sweep_id = $1 AND x.value_pos > 0 AND x.tps IS NOT NULL
    ), b AS (
        SELECT r.* FROM r, s WHERE r.value_pos = s.base_pos
    ), beat AS (
        -- what beat the baseline: faster; in an open loop, kept the rate
        -- with a lower p99, or kept it where the baseline did not
        SELECT r.* FROM r, s
        WHERE r.value_pos <> s.base_pos
          AND CASE WHEN NOT s.open THEN r.verdict = 'faster'
                   WHEN NOT r.kept THEN false
                   WHEN (SELECT kept FROM b) THEN r.latency_p99_verdict = 'lower'
                   ELSE true END
    ), pick AS (
        SELECT bt.value_pos FROM beat bt, s
        LEFT JOIN LATERAL (SELECT array_agg(t.value_pos) AS ties FROM walpressure._ties($1) t) t ON true
        ORDER BY bt.value_pos = s.search_found DESC NULLS LAST,
                 bt.value_pos = ANY (t.ties) DESC NULLS LAST,
                 CASE WHEN s.open THEN bt.latency_p99_ms END NULLS LAST,
                 CASE WHEN NOT s.open AND NOT bt.value_pos = ANY (coalesce(t.ties, '{}')) THEN -bt.speedup END,
                 bt.latency_p99_ms NULLS LAST,
                 abs(walpressure._setting_number(s.setting, bt.value)
                     - walpressure._setting_number(s.setting, coalesce(s.current_value, s.vals[1]))) NULLS LAST,
                 bt.value_pos
        LIMIT 1
    )
    SELECT CASE WHEN (SELECT count(*) FROM b) = 0 THEN coalesce(s.current_pos, 1)
                WHEN EXISTS (SELECT FROM pick) THEN (SELECT value_pos FROM pick)
                WHEN s.search_found IS NOT NULL AND s.search_found <> s.base_pos
                     AND (SELECT verdict FROM r WHERE r.value_pos = s.search_found)
                         NOT IN ('equivalent', 'slower', 'discarded') THEN s.search_found
                WHEN s.open AND NOT (SELECT kept FROM b) THEN NULL
                -- keep: the server's value, its own row (value_pos 0) when it was not among the values
                WHEN s.current_pos IS NULL AND s.current_value IS NOT NULL AND s.setting <> 'settings' THEN 0
                ELSE s.base_pos END,
           CASE WHEN (SELECT count(*) FROM b) = 0 THEN 'none'
                WHEN EXISTS (SELECT FROM pick) THEN 'change'
                WHEN s.search_found IS NOT NULL AND s.search_found <> s.base_pos
                     AND (SELECT verdict FROM r WHERE r.value_pos = s.search_found)
                         NOT IN ('equivalent', 'slower', 'discarded') THEN 'found'
                WHEN s.open AND NOT (SELECT kept FROM b) THEN 'none'
                ELSE 'keep' END
    FROM s
$$;

-- What a change to `value` risks, in the words of an answer, or NULL: a
-- crash that corrupts the cluster (fsync, full_page_writes off), one that
-- loses the last commits (synchronous_commit off, or what a step recorded),
-- a failover that loses commits (what a commit waits for on standbys made
-- weaker).
CREATE OR REPLACE FUNCTION _risk_words(setting text, value text, recorded text)
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE
    WHEN coalesce(recorded, walpressure._data_loss(setting, value)) ~ '(fsync|full_page_writes)=off'
        THEN 'a crash can corrupt the cluster: see apply'
    WHEN coalesce(recorded, walpressure._data_loss(setting, value)) IS NOT NULL
        THEN 'loses data in a crash: see apply'
    WHEN (setting = 'synchronous_commit' AND value IN ('local', 'remote_write')) OR setting = 'synchronous_standby_names'
        THEN 'a failover can lose commits: see apply'
END;

-- A closed loop's "keep", said as what was measured: with one round (no
-- interval), when the current value was not measured (nothing beat the
-- first), or nothing faster than the baseline beyond its interval.
CREATE OR REPLACE FUNCTION _keep_words(s walpressure.sweeps, b walpressure.results)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
RETURN CASE
    WHEN (SELECT max(x.repeat) FROM walpressure.steps x WHERE x.sweep_id = s.sweep_id) < 2
        THEN format('keep %s: one round, no interval: no value can be called faster; run repeats => 3',
                    CASE WHEN s.setting = 'settings' THEN 'the current configuration'
                         ELSE s.setting || ' = ' || walpressure._value_words(s.setting, coalesce(s.current_value, b.value)) END)
    WHEN s.setting = 'settings'
        THEN format('keep %s: nothing faster beyond its 95%% interval',
                    CASE WHEN b.is_current THEN 'the current configuration'
                         ELSE 'the first, ' || walpressure._value_words(s.setting, b.value) END)
    WHEN s.current_pos IS NULL AND s.current_value IS NOT NULL
        THEN format('keep %s = %s (not measured): nothing beat %s, the first, beyond its 95%% interval', s.setting,
                    walpressure._value_words(s.setting, s.current_value), walpressure._value_words(s.setting, b.value))
    ELSE format('keep %s = %s: nothing faster beyond its 95%% interval', s.setting,
                walpressure._value_words(s.setting, b.value))
END;

-- The answer's row: the value chosen, its gain against the baseline with
-- the 95% interval (tps; in an open loop how many times lower its p99 is,
-- none where the baseline did not keep the rate), the verdict, and the
-- answer in one line.
CREATE OR REPLACE FUNCTION _answer(sweep_id bigint,
                                   OUT value_pos int, OUT value text, OUT kind text, OUT tps numeric,
                                   OUT gain numeric, OUT gain_ci_low numeric, OUT gain_ci_high numeric,
                                   OUT verdict text, OUT answer text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s walpressure.sweeps;
    c record;
    r walpressure.results;
    b walpressure.results;
    open bool;
    head text;
    base text;
    disk text;
    load bool;          -- a sweep of the load (clients, iops_cap, disk, ...): no server setting to change
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w WHERE w.sweep_id = _answer.sweep_id;
    SELECT * INTO c FROM walpressure._choice(s.sweep_id);
    SELECT * INTO b FROM walpressure.results x WHERE x.sweep_id = s.sweep_id AND x.value_pos = coalesce(s.current_pos, 1);
    SELECT * INTO r FROM walpressure.results x WHERE x.sweep_id = s.sweep_id AND x.value_pos = c.value_pos;
    open := walpressure._open_loop(s.sweep_id);
    disk := walpressure._disk_words(s.sweep_id);
    value_pos := c.value_pos; value := r.value; kind := c.kind; tps := r.tps;
    IF s.setting = 'rate' THEN
        kind := 'rate';
        answer := walpressure._fit(walpressure._rate_answer(s.sweep_id));
        RETURN;
    END IF;
    head := CASE WHEN s.setting = 'settings' THEN '' ELSE s.setting || ' ' END;
    load := s.setting = ANY (walpressure.sweepable_load());
    -- what the gain is against, in words
    base := CASE WHEN s.setting = 'settings' AND b.is_current THEN 'the current settings'
                 WHEN s.setting = 'settings' THEN walpressure._value_words(s.setting, b.value)
                 ELSE walpressure._value_words(s.setting, b.value) END;
    IF kind = 'none' AND b.tps IS NULL THEN
        answer := format('no answer: the baseline, %s, has no step that counts', walpressure._value_words(s.setting, b.value));
    ELSIF kind = 'none' THEN
        answer := format('no answer: no value kept %s transactions/s (each ran as a closed loop): see findings', s.rate);
    ELSIF open AND NOT coalesce(b.rate_sustained, true) AND coalesce(r.repeats, 0) < 2 THEN
        -- one round decides nothing, a rate kept once among them
        kind := 'none';
        answer := format('no answer: one round; %s kept %s/s where %s did not: run repeats => 3 or more',
                         walpressure._value_words(s.setting, r.value), s.rate, walpressure._value_words(s.setting, b.value));
    ELSIF open AND NOT coalesce(b.rate_sustained, true) THEN
        verdict := 'kept the rate';
        answer := format('change %sto %s: it kept %s/s (p99 %s ms), the baseline %s did not (%s/s)', head,
                         walpressure._value_words(s.setting, r.value), s.rate, r.latency_p99_ms,
                         walpressure._value_words(s.setting, b.value), b.rate_achieved);
    ELSIF open THEN
        gain := CASE WHEN kind = 'keep' THEN 1.000 ELSE round(1 / r.latency_p99_ratio, 3) END;
        gain_ci_low := round(1 / r.latency_p99_ratio_ci_high, 3);
        gain_ci_high := round(1 / r.latency_p99_ratio_ci_low, 3);
        verdict := CASE WHEN kind = 'keep' THEN 'baseline' ELSE r.latency_p99_verdict END;
        answer := CASE WHEN kind = 'change' THEN
                           format('change %sto %s: p99 %sx lower (%s-%s) at %s/s', head,
                                  walpressure._value_words(s.setting, r.value), walpressure._ratio_text(gain),
                                  walpressure._ratio_text(gain_ci_low), walpressure._ratio_text(gain_ci_high), s.rate)
                       WHEN s.current_pos IS NULL AND s.current_value IS NOT NULL AND s.setting <> 'settings' THEN
                           format('keep %s= %s (not measured): no value kept %s/s with a lower p99 than %s (%s ms)', head,
                                  walpressure._value_words(s.setting, s.current_value), s.rate,
                                  walpressure._value_words(s.setting, b.value), b.latency_p99_ms)
                       ELSE format('keep %s: no value kept %s/s with a lower p99 (%s ms) beyond its interval',
                                   CASE WHEN s.setting = 'settings' THEN 'the current configuration'
                                        ELSE head || '= ' || walpressure._value_words(s.setting, b.value) END,
                                   s.rate, b.latency_p99_ms) END;
    ELSE
        gain := CASE WHEN kind = 'keep' AND value_pos > 0 THEN 1.000 ELSE r.speedup END;
        gain_ci_low := r.speedup_ci_low; gain_ci_high := r.speedup_ci_high;
        verdict := r.verdict;
        answer := CASE kind
            WHEN 'change' THEN
                format(CASE WHEN load THEN '%2$s = %3$s gives the most tps: %4$sx the tps of %5$s (%6$s-%7$s)'
                            ELSE 'change %1$sto %3$s: %4$sx the tps of %5$s (%6$s-%7$s)' END, head, s.setting,
                       walpressure._value_words(s.setting, r.value), walpressure._ratio_text(gain), base,
                       walpressure._ratio_text(gain_ci_low), walpressure._ratio_text(gain_ci_high))
            WHEN 'found' THEN
                format('found %s= %s, not yet confirmed against %s: the run that would is among the findings', head,
                       walpressure._value_words(s.setting, r.value), walpressure._value_words(s.setting, b.value))
            ELSE walpressure._keep_words(s, b) END;
    END IF;
    -- what the change risks, right after the value, where no cut can take
    -- it away; the disk the answer holds on, as the line has room
    IF kind = 'change' AND walpressure._risk_words(s.setting, r.value, r.data_loss) IS NOT NULL THEN
        answer := regexp_replace(answer, ': ', ' (' || walpressure._risk_words(s.setting, r.value, r.data_loss) || '): ');
    END IF;
    -- a long baseline (a standby list) gives way to the interval
    IF kind = 'change' AND length(answer) > 120 AND NOT open THEN
        answer := replace(answer, 'the tps of ' || base || ' (', 'the baseline''s tps (');
    END IF;
    IF disk IS NOT NULL AND length(answer) + length(disk) + 2 <= 120 THEN
        answer := answer || ', ' || disk;
    END IF;
    answer := walpressure._fit(answer);
END
$$;
