--
-- The answer of each sweep (best): the value it chooses, its gain against
-- the baseline with the 95% interval, the verdict, how to apply it, the
-- answer in one line (reading/answer.sql), and the findings that explain
-- it (reading/findings.sql), a line each.
--

CREATE OR REPLACE VIEW best AS
SELECT s.sweep_id,
       s.label,
       s.setting,
       a.value,
       a.tps,
       a.gain,
       a.gain_ci_low,
       a.gain_ci_high,
       a.verdict,
       CASE WHEN a.kind = 'change' THEN walpressure._apply(s.sweep_id, a.value_pos) END AS apply,
       (SELECT string_agg(f.finding, E'\n' ORDER BY f.ord) FROM walpressure._findings(s.sweep_id) f) AS diagnoses,
       a.answer,
       s.current_value,
       (SELECT walpressure._fit(string_agg(format('%s (%s tps, p99 %s ms)', t.value, r.tps,
                                                  coalesce(r.latency_p99_ms::text, '-')),
                                           ', ' ORDER BY t.verdict_vs_top <> 'top',
                                                         CASE WHEN walpressure._open_loop(s.sweep_id) THEN r.latency_p99_ms END,
                                                         r.speedup DESC NULLS LAST, t.value_pos))
        FROM walpressure._ties(s.sweep_id) t
        JOIN results r ON r.sweep_id = s.sweep_id AND r.value_pos = t.value_pos) AS ties,
       CASE WHEN s.setting = 'disk' THEN 'paced, throttle' ELSE s.disk END AS disk,
       a.kind
FROM sweeps s
CROSS JOIN LATERAL walpressure._answer(s.sweep_id) a
WHERE EXISTS (SELECT FROM steps x WHERE x.sweep_id = s.sweep_id)
ORDER BY s.sweep_id;

COMMENT ON VIEW best IS 'Per sweep, the answer: change to a value faster than the baseline, a search''s value found but not yet confirmed, or keep the current value; with the gain''s 95% interval, the values that cannot be told apart from the fastest, how to apply the change, the disk the answer holds on, and the findings that explain it.';

GRANT SELECT ON best TO pg_monitor;
