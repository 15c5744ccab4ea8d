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
RETURN walpressure._fit(walpressure._value_label(setting, value, ', '), 40);

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
    -- what the gain is against, in words
    base := CASE WHEN s.setting = 'settings' AND b.is_current THEN 'the current configuration'
                 WHEN s.setting = 'settings' THEN walpressure._value_words(s.setting, b.value)
                 ELSE walpressure._value_words(s.setting, b.value) END;
    IF kind = 'none' AND b.tps IS NULL THEN
        answer := format('no answer: %s= %s has no step that counts', head, b.value);
    ELSIF kind = 'none' THEN
        answer := format('no answer: no value kept %s transactions/s (each ran as a closed loop): see findings', s.rate);
    ELSIF open AND NOT coalesce(b.rate_sustained, true) THEN
        verdict := 'kept the rate';
        answer := format('change %sto %s: it kept %s/s (p99 %s ms), %s= %s did not (%s/s)', head,
                         walpressure._value_words(s.setting, r.value), s.rate, r.latency_p99_ms, head,
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
                       ELSE format('keep %s= %s: no value kept %s/s with a lower p99 (%s ms) beyond its interval', head,
                                   walpressure._value_words(s.setting, coalesce(s.current_value, b.value)), s.rate,
                                   b.latency_p99_ms) END;
    ELSE
        gain := CASE WHEN kind = 'keep' AND value_pos > 0 THEN 1.000 ELSE r.speedup END;
        gain_ci_low := r.speedup_ci_low; gain_ci_high := r.speedup_ci_high;
        verdict := r.verdict;
        answer := CASE kind
            WHEN 'change' THEN
                format('change %sto %s: %sx the tps of %s (%s-%s)', head,
                       walpressure._value_words(s.setting, r.value), walpressure._ratio_text(gain), base,
                       walpressure._ratio_text(gain_ci_low), walpressure._ratio_text(gain_ci_high))
            WHEN 'found' THEN
                format('found %s= %s, not yet confirmed against %s: the run that would is among the findings', head,
                       walpressure._value_words(s.setting, r.value), walpressure._value_words(s.setting, b.value))
            ELSE CASE WHEN s.setting = 'settings'
                      THEN format('keep %s: nothing faster beyond its 95%% interval',
                                  CASE WHEN b.is_current THEN 'the current configuration' ELSE 'the first, ' || base END)
                      ELSE format('keep %s= %s: nothing faster beyond its 95%% interval', head,
                                  walpressure._value_words(s.setting, coalesce(s.current_value, b.value))) END END;
    END IF;
    -- that it can lose data (first), and the disk the answer holds on, as
    -- the line has room
    IF kind = 'change' AND (r.data_loss IS NOT NULL
                            OR walpressure._data_loss(s.setting, r.value) IS NOT NULL) THEN
        answer := answer || '; loses data in a crash: see apply';
    END IF;
    IF disk IS NOT NULL AND length(answer) + length(disk) + 2 <= 120 THEN
        answer := answer || ', ' || disk;
    END IF;
    answer := walpressure._fit(answer);
END
$$;
