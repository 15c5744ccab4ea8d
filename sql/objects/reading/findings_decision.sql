--
-- Findings about what the rounds decided: when the answer keeps the
-- baseline, what the closest rival read and the rounds that would decide
-- (never in an open loop, whose tps is the rate asked: there the p99's);
-- the values that cannot be told from the top; two rounds' wide
-- intervals.
--

CREATE OR REPLACE FUNCTION _findings_decision(sweep_id bigint)
RETURNS TABLE (kind text, value text, finding text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH s AS (
        SELECT w.*, coalesce(w.current_pos, 1) AS base_pos, walpressure._open_loop(w.sweep_id) AS open
        FROM walpressure.sweeps w WHERE w.sweep_id = $1
    ), a AS (
        SELECT * FROM walpressure._answer($1)
    ), r AS (
        SELECT x.* FROM walpressure.results x WHERE x.sweep_id = $1 AND x.value_pos > 0 AND x.tps IS NOT NULL
    ), rounds AS (
        SELECT max(x.repeat) AS n FROM walpressure.steps x WHERE x.sweep_id = $1
    ), rival AS (
        -- the closest other value: the most tps, or in an open loop the lowest p99 of those that kept the rate
        SELECT r.* FROM r, s
        WHERE r.value_pos <> s.base_pos AND (NOT s.open OR coalesce(r.rate_sustained, true))
        ORDER BY CASE WHEN s.open THEN r.latency_p99_ms ELSE -r.tps END NULLS LAST LIMIT 1
    ), ties AS (
        SELECT string_agg(walpressure._value_label(s.setting, t.value, ' '), ', ' ORDER BY t.value_pos)
                   FILTER (WHERE t.verdict_vs_top <> 'top') AS vals,
               min(walpressure._value_label(s.setting, t.value, ' ')) FILTER (WHERE t.verdict_vs_top = 'top') AS top,
               min(t.value_pos) FILTER (WHERE t.verdict_vs_top = 'top') AS top_pos,
               count(*) AS n, bool_and(t.equivalent_to_top) AS same
        FROM walpressure._ties($1) t, s
    )
    SELECT 'one_round', NULL,
           'one round: the effects have no interval, so no value can be called faster, slower or the same; run repeats => 3 or more'
    FROM rounds, a WHERE rounds.n < 2 AND a.kind IN ('keep', 'change')
    UNION ALL
    SELECT 'equivalent', NULL,
           walpressure._fit(format('every value is the same as %s within ±%s%% (95%% intervals)',
                                   (SELECT CASE WHEN s.setting = 'settings' THEN '' ELSE s.setting || ' = ' END
                                           || walpressure._value_words(s.setting, value) FROM r WHERE r.value_pos = s.base_pos),
                                   walpressure._margin()))
    FROM s, a, rounds
    WHERE a.kind = 'keep' AND rounds.n >= 2 AND NOT s.open
      AND NOT EXISTS (SELECT FROM r WHERE r.value_pos <> s.base_pos AND r.verdict NOT IN ('equivalent', 'discarded'))
      AND EXISTS (SELECT FROM r WHERE r.value_pos <> s.base_pos AND r.verdict = 'equivalent')
    UNION ALL
    SELECT 'undecided', v.value,
           walpressure._fit(format('%s against the baseline: %s %sx (%s-%s, %s paired rounds), undecided%s',
                                   walpressure._value_label(s.setting, v.value, ' '),
                                   CASE WHEN s.open THEN 'p99' ELSE 'tps' END,
                                   walpressure._ratio_text(x.ratio), walpressure._ratio_text(x.lo),
                                   walpressure._ratio_text(x.hi), v.paired_rounds,
                                   CASE WHEN x.needed IS NOT NULL
                                        THEN format('; about %s more would decide', x.needed - v.paired_rounds)
                                        ELSE '; no practical number of rounds would decide' END))
    FROM s, a, rival v, rounds
    CROSS JOIN LATERAL (SELECT CASE WHEN s.open THEN v.latency_p99_ratio ELSE v.speedup END AS ratio,
                               CASE WHEN s.open THEN v.latency_p99_ratio_ci_low ELSE v.speedup_ci_low END AS lo,
                               CASE WHEN s.open THEN v.latency_p99_ratio_ci_high ELSE v.speedup_ci_high END AS hi,
                               CASE WHEN s.open THEN v.latency_p99_rounds_needed ELSE v.rounds_needed END AS needed,
                               CASE WHEN s.open THEN v.latency_p99_verdict ELSE v.verdict END AS verdict) x
    WHERE a.kind = 'keep' AND rounds.n >= 2 AND x.verdict = 'undecided' AND x.ratio IS NOT NULL
    UNION ALL
    SELECT 'ties', t.vals,
           walpressure._fit(format('%s cannot be told from %s, %s (95%% intervals)%s', t.vals, t.top,
                                   CASE WHEN s.open THEN 'the lowest p99'
                                        WHEN t.top_pos = s.search_found THEN 'the search''s value'
                                        ELSE 'the fastest' END,
                                   -- only a change chooses among them: keep holds the baseline
                                   CASE WHEN a.kind = 'keep' THEN '' ELSE ': the answer chose among them' END))
    FROM ties t, s, a, rounds WHERE t.n > 1 AND NOT t.same AND rounds.n >= 2
    UNION ALL
    SELECT 'two_rounds', NULL,
           'with 2 rounds a 95% interval is 12.7 standard errors wide on each side: 3 rounds make it 4.3'
    FROM rounds WHERE rounds.n = 2
$$;
