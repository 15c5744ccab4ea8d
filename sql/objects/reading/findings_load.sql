--
-- Findings about what bound the load, each from one statistic, the mean
-- over a value's rounds (as results gives it), so that no two contradict:
-- a value is at the cap (its write IOPS 95% of it or more), below it (under
-- 90%), or neither; CPU-bound when its server and clients kept 85% of the
-- CPUs busy; an open loop's values that did not keep the rate, and what to
-- do about it (add clients only where the disk was not the bound);
-- checkpoints and full WAL buffers inside the windows; a commit_delay that
-- cannot act, or that waits longer than the flush it would share.
--

CREATE OR REPLACE FUNCTION _findings_load(sweep_id bigint)
RETURNS TABLE (kind text, value text, finding text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH s AS (
        SELECT w.*, coalesce(w.current_pos, 1) AS base_pos FROM walpressure.sweeps w WHERE w.sweep_id = $1
    ), r AS (
        SELECT x.*, walpressure._value_label(x.setting, x.value, ' ') AS vlabel,
               -- at the cap: write IOPS 95% of it or more, or on the paced
               -- disk a WAL flush in progress 90% of the time or more (as
               -- predict reads a bound disk); below: neither, under 90%
               CASE WHEN x.iops_cap IS NULL OR x.write_iops IS NULL THEN NULL
                    WHEN x.write_iops >= 0.95 * x.iops_cap
                         OR (x.disk = 'paced' AND x.wal_fsyncs_per_s * x.fsync_avg_ms / 1000 >= 0.9) THEN 'at'
                    WHEN x.write_iops < 0.9 * x.iops_cap THEN 'below' END AS cap_side,
               (SELECT avg((st.server_cpu_s + coalesce(st.client_cpu_s, 0)) / nullif(st.seconds, 0))
                FROM walpressure.steps st
                WHERE st.sweep_id = x.sweep_id AND st.value_pos = x.value_pos AND st.discarded IS NULL) AS cpus_used
        FROM walpressure.results x WHERE x.sweep_id = $1 AND x.value_pos > 0 AND x.tps IS NOT NULL
    ), st AS (
        SELECT x.* FROM walpressure.steps x WHERE x.sweep_id = $1 AND x.discarded IS NULL
    ), siblings AS (
        SELECT coalesce(walpressure._int_setting(s.settings->>'commit_siblings'),
                        walpressure._int_setting(s.server_settings->>'commit_siblings'), 5) AS n,
               (SELECT max(x.clients) FROM walpressure.steps x WHERE x.sweep_id = $1) AS clients
        FROM s WHERE s.setting = 'commit_delay' OR s.settings ? 'commit_delay'
    )
    SELECT 'at_cap', string_agg(r.value, ', ' ORDER BY r.value_pos),
           walpressure._fit(format('the disk was at its cap (%s write IOPS) at %s: it bound tps there',
                                   string_agg(DISTINCT r.iops_cap::text, ', '), string_agg(r.vlabel, ', ' ORDER BY r.value_pos)))
    FROM r WHERE r.cap_side = 'at' HAVING count(*) > 0
    UNION ALL
    SELECT 'below_cap', string_agg(r.value, ', ' ORDER BY r.value_pos),
           walpressure._fit(format('the disk stayed below its cap at %s (%s write IOPS): %s',
                                   string_agg(r.vlabel, ', ' ORDER BY r.value_pos),
                                   string_agg(r.write_iops::text, ', ' ORDER BY r.value_pos),
                                   CASE WHEN bool_and(coalesce(r.rate_sustained, false)) THEN 'the rate asked set tps there'
                                        ELSE 'something else bound tps there' END))
    FROM r WHERE r.cap_side = 'below' HAVING count(*) > 0
    UNION ALL
    SELECT 'cpu', string_agg(r.value, ', ' ORDER BY r.value_pos),
           walpressure._fit(format('CPUs busy at %s: up to %s of the %s in use by the server and its clients',
                                   string_agg(r.vlabel, ', ' ORDER BY r.value_pos), round(max(r.cpus_used)::numeric, 1),
                                   min(s.cpus)))
    FROM r, s WHERE s.cpus > 0 AND r.cpus_used >= 0.85 * s.cpus HAVING count(*) > 0
    UNION ALL
    SELECT 'rate', string_agg(r.value, ', ' ORDER BY r.value_pos),
           walpressure._fit(format('the rate was not kept at %s (%s/s): those steps ran a closed loop; %s',
                                   string_agg(r.vlabel, ', ' ORDER BY r.value_pos),
                                   string_agg(r.rate_achieved || ' of ' || r.rate, ', ' ORDER BY r.value_pos),
                                   CASE WHEN bool_or(r.cap_side = 'at') THEN 'the disk was at its cap: a lower rate'
                                        WHEN bool_or(r.cpus_used >= 0.85 * s.cpus) THEN 'the CPUs were busy: a lower rate'
                                        WHEN bool_and(r.cap_side = 'below') THEN 'add clients, or a lower rate'
                                        ELSE 'a lower rate, or more clients' END))
    FROM r, s WHERE NOT coalesce(r.rate_sustained, true) HAVING count(*) > 0
    UNION ALL
    SELECT 'knee', NULL, walpressure._fit(walpressure._rate_knee($1))
    FROM s WHERE s.setting = 'rate' AND walpressure._rate_knee($1) IS NOT NULL
    UNION ALL
    SELECT 'skipped', NULL,
           walpressure._fit(format('%s transactions were skipped (they would have started after latency_limit = %s ms), %s ended above it',
                                   sum(st.transactions_skipped), min(s.latency_limit_ms), coalesce(sum(st.transactions_late), 0)))
    FROM st, s HAVING sum(st.transactions_skipped) > 0
    UNION ALL
    SELECT 'checkpoints', string_agg(DISTINCT st.value, ', '),
           walpressure._fit(format('%s checkpoint(s) ran inside measured windows (at %s): their writes weigh on those steps',
                                   sum(st.checkpoints_timed + st.checkpoints_requested),
                                   string_agg(DISTINCT walpressure._value_label(s.setting, st.value, ' '), ', ')))
    FROM st, s WHERE st.checkpoints_timed + st.checkpoints_requested > 0 HAVING count(*) > 0
    UNION ALL
    SELECT 'wal_buffers', string_agg(DISTINCT st.value, ', '),
           walpressure._fit(format('wal_buffers filled %s times (at %s): backends wrote WAL themselves; raise wal_buffers',
                                   sum(st.wal_buffers_full), string_agg(DISTINCT walpressure._value_label(s.setting, st.value, ' '), ', ')))
    FROM st, s WHERE st.wal_buffers_full > 0 HAVING count(*) > 0
    UNION ALL
    SELECT 'inert', NULL,
           format('commit_delay is inert: %s clients leave at most %s others active, fewer than commit_siblings = %s',
                  g.clients, g.clients - 1, g.n)
    FROM siblings g WHERE g.clients - 1 < g.n
    UNION ALL
    SELECT 'delay', string_agg(r.value, ', ' ORDER BY r.value_pos),
           walpressure._fit(format('a WAL flush took %s ms at %s = %s: commit_delay = %s us waits longer, and only adds waiting',
                                   min(b.fsync_avg_ms), s.setting, min(b.value), string_agg(r.vlabel, ', ' ORDER BY r.value_pos)))
    FROM r, s, r b
    WHERE s.setting = 'commit_delay' AND b.value_pos = s.base_pos AND r.verdict = 'slower'
      AND walpressure._int_setting(r.value) / 1000.0 > b.fsync_avg_ms
    GROUP BY s.setting HAVING count(*) > 0
$$;
