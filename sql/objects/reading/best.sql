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
       (SELECT string_agg(format('%s (%s tps, p99 %s ms)', t.value, r.tps, coalesce(r.latency_p99_ms::text, '-')),
                          ', ' ORDER BY r.tps DESC)
        FROM walpressure._ties(s.sweep_id) t
        JOIN results r ON r.sweep_id = s.sweep_id AND r.value_pos = t.value_pos) AS ties,
       CASE WHEN s.setting = 'disk' THEN 'paced, throttle' ELSE s.disk END AS disk,
       a.kind
FROM sweeps s
CROSS JOIN LATERAL walpressure._answer(s.sweep_id) a
WHERE EXISTS (SELECT FROM steps x WHERE x.sweep_id = s.sweep_id)
ORDER BY s.sweep_id;

COMMENT ON VIEW best IS 'Per sweep, the answer: kind change (a value faster than the baseline, the server''s current value or else the first; in an open loop a lower p99 at the rate asked, or one that kept the rate where the baseline did not), found (a search''s value not yet confirmed against the baseline: the run that would is in findings), keep (nothing beat the baseline) or none; value, its gain with the 95% interval (paired by round, effects(); in an open loop how many times lower the p99 is), verdict, apply (ALTER SYSTEM; a value that can lose data in a crash only per transaction with SET LOCAL, fsync and full_page_writes off never), answer in one line of at most 120 characters, the disk its cap stood for, ties (the values that cannot be told from the fastest), and diagnoses: the findings that explain it, a line each (walpressure.findings)';

GRANT SELECT ON best TO pg_monitor;
