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

COMMENT ON VIEW findings IS 'What explains each sweep''s answer, one finding a row: its kind, the value(s) it is about, and a sentence of at most 120 characters. best''s diagnoses column holds the same findings, a line each.';

GRANT SELECT ON findings TO pg_monitor;
