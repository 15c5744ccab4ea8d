--
-- What explains a sweep's answer, one finding a row (findings): a kind, the
-- value(s) it is about, and a sentence of at most 120 characters.  best's
-- diagnoses are the same findings, a line each.
--

CREATE OR REPLACE FUNCTION _findings(sweep_id bigint)
RETURNS TABLE (ord int, kind text, value text, finding text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT row_number() OVER ()::int, f.kind, f.value, f.finding
    FROM (SELECT * FROM walpressure._findings_run($1)
          UNION ALL SELECT * FROM walpressure._findings_load($1)
          UNION ALL SELECT * FROM walpressure._findings_disk($1)
          UNION ALL SELECT 'threshold', NULL, walpressure._threshold_finding($1)
                    WHERE walpressure._threshold_finding($1) IS NOT NULL
          UNION ALL SELECT * FROM walpressure._findings_decision($1)) f
$$;

CREATE OR REPLACE VIEW findings AS
SELECT s.sweep_id, f.ord, f.kind, f.value, f.finding
FROM sweeps s CROSS JOIN LATERAL walpressure._findings(s.sweep_id) f
ORDER BY s.sweep_id, f.ord;

COMMENT ON VIEW findings IS 'What explains each sweep''s answer, one finding a row: kind (status, rounds, search, found and confirm: a search''s value not yet confirmed and the run that would, baseline, discarded, retries, data_loss; at_cap and below_cap: the values whose mean write IOPS were at least 95% of the cap or under 90% of it; cpu, rate: values that did not keep an open loop''s rate and what to do, skipped, checkpoints, wal_buffers, inert, delay; f0: one flush''s cost on the sweep''s disk; cliff: a gain from grouping under the throttle''s cliff; disks: the same values on the other disk; threshold: lambda* against the measured optimum, confirmed or contradicted; one_round, equivalent, undecided, ties, two_rounds), the value(s) it is about, and the finding in at most 120 characters';

GRANT SELECT ON findings TO pg_monitor;
