--
-- Findings about the disk an answer holds on: what one flush cost (F0: its
-- median, the robust figure, with its mean and p99 beside it, on the disk
-- the cap stood for); a gain that comes from grouping commits under the
-- throttle's cliff, and how to check it; and whether the same values, run
-- on the other disk (another sweep of this database, or a sweep of disk
-- itself), gave the same answer.
--

CREATE OR REPLACE FUNCTION _findings_disk(sweep_id bigint)
RETURNS TABLE (kind text, value text, finding text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH s AS (
        SELECT w.*, coalesce(w.current_pos, 1) AS base_pos FROM walpressure.sweeps w WHERE w.sweep_id = $1
    ), a AS (
        SELECT * FROM walpressure._answer($1)
    ), b AS (
        SELECT r.* FROM walpressure.results r, s WHERE r.sweep_id = $1 AND r.value_pos = s.base_pos
    ), f AS (
        SELECT r.* FROM walpressure.results r, a WHERE r.sweep_id = $1 AND r.value_pos = a.value_pos
    ), other AS (
        -- the latest other sweep of this server (not imported) of the same
        -- values, load, settings and cap, on the other disk; its answer is
        -- read once, for it alone
        SELECT o.sweep_id, o.disk
        FROM s JOIN walpressure.sweeps o
             ON o.sweep_id <> s.sweep_id AND o.setting = s.setting AND o.vals = s.vals
            AND o.iops_cap = s.iops_cap AND o.disk <> s.disk AND o.workload = s.workload
            AND o.clients = s.clients AND o.rate IS NOT DISTINCT FROM s.rate AND o.status = 'done'
            AND o.settings = s.settings AND o.duration = s.duration AND o.origin IS NULL AND s.origin IS NULL
        ORDER BY o.started_at DESC LIMIT 1
    ), twin AS (
        SELECT o.sweep_id, o.disk, x.kind, x.value
        FROM other o CROSS JOIN LATERAL walpressure._answer(o.sweep_id) x
    )
    SELECT 'f0', NULL,
           walpressure._fit(format('F0: one WAL flush took %s ms (median; mean %s, p99 %s ms), %s',
                                   round(s.f0_p50_ms::numeric, 3), round(s.f0_ms::numeric, 3),
                                   round(s.f0_p99_ms::numeric, 3),
                                   coalesce(walpressure._disk_words(s.sweep_id), 'uncapped')))
    FROM s WHERE s.f0_ms > 0
    UNION ALL
    -- the throttle's cliff: the first IOs of a 100 ms slice pass at once
    -- and the rest wait to its end, so a flush that groups more commits
    -- avoids the wait that a volume would make every flush pay
    SELECT 'cliff', f.value,
           walpressure._fit(format('the gain is grouping under the throttle''s cliff (c/f %s -> %s%s): check it with disk => ''paced''',
                                   b.commits_per_fsync, f.commits_per_fsync,
                                   CASE WHEN s.f0_p50_ms > 0 THEN format(', F0 p99/p50 %s', round((s.f0_p99_ms / s.f0_p50_ms)::numeric))
                                        ELSE '' END))
    FROM s, a, f, b
    WHERE s.disk = 'throttle' AND s.setting <> 'disk' AND a.kind = 'change'
      AND f.commits_per_fsync > 1.2 * b.commits_per_fsync AND b.write_iops >= 0.9 * b.iops_cap
    UNION ALL
    SELECT 'disks', t.value,
           walpressure._fit(format('sweep %s ran the same values %s and answered %s: %s', t.sweep_id,
                                   CASE t.disk WHEN 'paced' THEN 'on the paced disk' ELSE 'under the throttle' END,
                                   CASE t.kind WHEN 'change' THEN 'change to ' || t.value WHEN 'keep' THEN 'keep ' || t.value
                                        ELSE t.kind END,
                                   CASE WHEN t.kind = a.kind AND t.value IS NOT DISTINCT FROM a.value
                                        THEN 'the answer holds on both disks' ELSE 'the disks give different answers' END))
    FROM twin t, a
$$;
