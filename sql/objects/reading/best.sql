--
-- The answer of each sweep (best).
--

-- The answer of each sweep.  The values that cannot be told from the one
-- with the most tps (_ties: its paired tps effect against them is not
-- decided) are the candidates; when the baseline is one of them, keep it.
-- Else change to one of those that beat the baseline (faster), chosen by
-- the lowest p99 latency, then the value nearest the current one, then the
-- first.  A value that can lose data in a crash is never applied
-- server-wide: synchronous_commit = off is given per transaction (SET LOCAL),
-- fsync and full_page_writes off not at all.  And what explains the curve.
CREATE OR REPLACE VIEW best AS
WITH base AS (
    -- what every value is compared against: the current value when it was
    -- measured, else the first
    SELECT r.* FROM results r JOIN sweeps s USING (sweep_id)
    WHERE r.value_pos = coalesce(s.current_pos, 1)
), ties AS (
    SELECT s.sweep_id, t.value_pos, t.value, t.equivalent_to_top
    FROM sweeps s CROSS JOIN LATERAL walpressure._ties(s.sweep_id) t
), tie_list AS (
    SELECT t.sweep_id, count(*) AS n,
           bool_or(t.value_pos = coalesce(s.current_pos, 1)) AS baseline_tied,
           bool_and(t.equivalent_to_top) AS all_equivalent,
           string_agg(format('%s (%s tps, p99 %s ms)', t.value, r.tps, coalesce(r.latency_p99_ms::text, '-')),
                      ', ' ORDER BY r.tps DESC) AS values
    FROM ties t JOIN sweeps s USING (sweep_id)
    JOIN results r ON r.sweep_id = t.sweep_id AND r.value_pos = t.value_pos
    GROUP BY t.sweep_id
), faster AS (
    -- the change: among the candidates that beat the baseline, the lowest
    -- p99, then the value nearest the current one
    SELECT DISTINCT ON (r.sweep_id) r.*
    FROM ties t
    JOIN tie_list l USING (sweep_id)
    JOIN sweeps s USING (sweep_id)
    JOIN results r ON r.sweep_id = t.sweep_id AND r.value_pos = t.value_pos
    WHERE NOT l.baseline_tied
      AND CASE WHEN walpressure._open_loop(r.sweep_id) THEN r.latency_p99_verdict = 'lower'
               ELSE r.verdict = 'faster' END
    ORDER BY r.sweep_id, r.latency_p99_ms NULLS LAST,
             abs(walpressure._setting_number(s.setting, r.value)
                 - walpressure._setting_number(s.setting, coalesce(s.current_value, s.vals[1]))) NULLS LAST,
             r.value_pos
), pick AS (
    -- the answer's row: the change, else the current value (measured or
    -- not), else the baseline
    SELECT DISTINCT ON (r.sweep_id) r.*
    FROM results r JOIN sweeps s USING (sweep_id)
    LEFT JOIN faster f USING (sweep_id)
    WHERE r.value_pos = f.value_pos OR (f.sweep_id IS NULL AND (r.is_current OR r.value_pos = coalesce(s.current_pos, 1)))
    ORDER BY r.sweep_id, CASE WHEN r.value_pos = f.value_pos THEN 0 WHEN r.is_current THEN 1 ELSE 2 END
), rival AS (
    -- the fastest value that is not the baseline: what more rounds would
    -- have to tell from it
    SELECT DISTINCT ON (r.sweep_id) r.*
    FROM results r JOIN sweeps s USING (sweep_id)
    WHERE r.value_pos > 0 AND r.value_pos <> coalesce(s.current_pos, 1) AND r.tps IS NOT NULL
    ORDER BY r.sweep_id, r.tps DESC
), per_sweep AS (
    SELECT st.sweep_id,
           max(st.clients) AS max_clients,
           max(st.repeat) AS rounds,
           string_agg(DISTINCT st.value, ', ') FILTER (
               WHERE st.iops_cap IS NOT NULL AND st.write_iops < 0.9 * st.iops_cap) AS below_cap,
           string_agg(DISTINCT st.value, ', ') FILTER (
               WHERE st.iops_cap IS NOT NULL AND st.write_iops >= 0.95 * st.iops_cap) AS at_cap,
           sum(st.checkpoints_timed + st.checkpoints_requested) AS checkpoints,
           string_agg(DISTINCT st.value, ', ') FILTER (
               WHERE st.checkpoints_timed + st.checkpoints_requested > 0) AS checkpoint_values,
           sum(st.wal_buffers_full) AS wal_buffers_full,
           string_agg(DISTINCT st.value, ', ') FILTER (WHERE st.wal_buffers_full > 0) AS wal_buffers_values,
           sum(st.retries) AS retries,
           string_agg(DISTINCT st.value || ': ' || st.data_loss, '; ') FILTER (
               WHERE st.data_loss IS NOT NULL) AS data_loss,
           count(*) FILTER (WHERE st.discarded IS NOT NULL) AS steps_discarded,
           string_agg(DISTINCT st.value, ', ') FILTER (WHERE st.discarded IS NOT NULL) AS discarded_values,
           -- open loop: the steps that fell short of their rate
           string_agg(DISTINCT format('%s (%s of %s tps)', st.value, round(st.rate_achieved::numeric, 1), st.rate), ', ')
               FILTER (WHERE NOT st.rate_sustained AND st.discarded IS NULL) AS not_sustained,
           sum(st.transactions_skipped) AS skipped,
           sum(st.transactions_late) AS late,
           -- CPU: the server's processes and pgbench, against the CPUs online
           max((st.server_cpu_s + coalesce(st.client_cpu_s, 0)) / nullif(st.seconds, 0)) AS max_cpus_used,
           string_agg(DISTINCT st.value, ', ') FILTER (
               WHERE (st.server_cpu_s + coalesce(st.client_cpu_s, 0)) / nullif(st.seconds, 0)
                     >= 0.85 * (SELECT w.cpus FROM sweeps w WHERE w.sweep_id = st.sweep_id)) AS cpu_bound
    FROM steps st
    GROUP BY st.sweep_id
), slow_delay AS (
    -- commit_delay values that read slower and wait longer than a WAL fsync
    -- took at the baseline
    SELECT r.sweep_id, string_agg(r.value, ', ' ORDER BY r.value_pos) AS values, min(b.fsync_avg_ms) AS fsync_ms
    FROM results r JOIN base b USING (sweep_id) JOIN sweeps s USING (sweep_id)
    WHERE s.setting = 'commit_delay' AND r.verdict = 'slower'
      AND walpressure._int_setting(r.value) / 1000.0 > b.fsync_avg_ms
    GROUP BY r.sweep_id
), inert AS (
    -- commit_delay that no commit can wait for: fewer other clients than
    -- commit_siblings
    SELECT s.sweep_id, p.max_clients,
           coalesce(walpressure._int_setting(s.settings->>'commit_siblings'),
                    walpressure._int_setting(s.server_settings->>'commit_siblings'), 5) AS siblings
    FROM sweeps s JOIN per_sweep p USING (sweep_id)
    WHERE (s.setting = 'commit_delay' OR s.settings ? 'commit_delay')
      AND p.max_clients - 1 < coalesce(walpressure._int_setting(s.settings->>'commit_siblings'),
                                       walpressure._int_setting(s.server_settings->>'commit_siblings'), 5)
), diag AS (
    SELECT s.sweep_id,
           array_remove(ARRAY[
               CASE WHEN s.status <> 'done' THEN
                   format('the sweep is %s after %s of %s steps%s', s.status, s.steps_done, s.steps_total,
                          coalesce(': ' || s.error, '')) END,
               CASE WHEN s.rounds_stop IS NOT NULL THEN
                   format('repeats => auto: %s', s.rounds_stop) END,
               CASE WHEN s.search_stop IS NOT NULL THEN
                   format('the search over %s by %s stopped: %s (search_rounds has each round and why)',
                          s.search_range, s.search_resolution, s.search_stop) END,
               -- a search's value against the baseline rests on the first
               -- rounds of the pairs it was in
               CASE WHEN sf.verdict NOT IN ('baseline', 'faster', 'slower', 'equivalent', 'discarded') THEN
                   format('the search found %s: %s, not decided against it (a search runs the baseline in each pair''s first round only); confirm it before you change the server: SELECT walpressure.run_sweep(%L, ARRAY[%L, %L], repeats => ''auto'')',
                          sf.value,
                          CASE WHEN coalesce(sf.paired_rounds, 0) = 0 OR sf.speedup IS NULL
                               THEN format('no round measured it and %s = %s', s.setting, b.value)
                               ELSE format('%sx %s = %s over %s paired round(s)', round(sf.speedup::numeric, 2),
                                           s.setting, b.value, sf.paired_rounds) END,
                          s.setting, b.value, sf.value) END,
               CASE WHEN s.current_value IS NOT NULL AND s.current_pos IS NULL THEN
                   format('the server''s value when the sweep started, %s, is not among the values: the gains are against the first value, %s; add %s to the values to compare with what runs now',
                          s.current_value, s.vals[1], s.current_value) END,
               CASE WHEN i.sweep_id IS NOT NULL THEN
                   format('commit_delay is inert: with %s clients at most %s other transactions are active, '
                          'fewer than commit_siblings = %s, so no commit ever waits (lower commit_siblings or add clients)',
                          i.max_clients, i.max_clients - 1, i.siblings) END,
               CASE WHEN sd.values IS NOT NULL THEN
                   format('a WAL fsync took %s ms at %s = %s: commit_delay = %s (microseconds) waits longer than the flush it would share, so it only adds waiting (the disk is fast here, or not the bottleneck)',
                          round(sd.fsync_ms::numeric, 3), s.setting, b.value, sd.values) END,
               CASE WHEN p.at_cap IS NOT NULL THEN
                   format('the disk cap was saturated at %s: throughput there is bound by write IOPS', p.at_cap) END,
               CASE WHEN p.below_cap IS NOT NULL THEN
                   format('the disk stayed below the cap at %s: the load was bound by CPU or by commit grouping there, not by the disk', p.below_cap) END,
               CASE WHEN p.cpu_bound IS NOT NULL THEN
                   format('CPU-bound at %s: the server and its clients kept up to %s of the %s CPUs busy, so the WAL disk was not what limited tps there',
                          p.cpu_bound, round(p.max_cpus_used::numeric, 1), s.cpus) END,
               CASE WHEN p.checkpoints > 0 THEN
                   format('%s checkpoint(s) ran inside measured windows (at %s): their writes and the full-page images after them weigh on those steps',
                          p.checkpoints, p.checkpoint_values) END,
               CASE WHEN p.wal_buffers_full > 0 THEN
                   format('wal_buffers filled %s times (at %s): backends wrote WAL themselves; raise wal_buffers',
                          p.wal_buffers_full, p.wal_buffers_values) END,
               CASE WHEN p.retries > 0 THEN
                   format('%s transactions failed with a serialization failure or deadlock and were not retried', p.retries) END,
               CASE WHEN p.steps_discarded > 0 THEN
                   format('%s step(s) are left out of the figures (at %s): pgbench lost clients or ended early, or the server''s statistics were reset; see steps.discarded',
                          p.steps_discarded, p.discarded_values) END,
               CASE WHEN p.data_loss IS NOT NULL THEN
                   format('a crash can lose data with %s', p.data_loss) END,
               CASE WHEN p.not_sustained IS NOT NULL THEN
                   format('the rate was not sustained at %s: the clients were busy all the time, so those steps measured a closed loop in disguise (their latency is mostly schedule lag); add clients, or read them as closed-loop figures',
                          p.not_sustained) END,
               CASE WHEN p.skipped > 0 THEN
                   format('%s transactions were skipped (they would have started later than latency_limit = %s ms) and %s ended above it',
                          p.skipped, s.latency_limit_ms, coalesce(p.late, 0)) END,
               walpressure._threshold_reading(s.sweep_id),
               -- what the rounds decided, when nothing beats the baseline
               CASE WHEN f.sweep_id IS NOT NULL OR b.tps IS NULL OR v.sweep_id IS NULL THEN NULL
                    WHEN p.rounds < 2 THEN
                        'one round: the effects have no interval, so no value can be called faster, slower or the same; run repeats => 3 or more (or ''auto'')'
                    WHEN NOT EXISTS (SELECT 1 FROM results r WHERE r.sweep_id = s.sweep_id AND r.value_pos > 0
                                                                AND r.verdict NOT IN ('baseline', 'equivalent', 'discarded')) THEN
                        format('every value is the same as %s = %s within ±%s%% (95%% intervals of the paired ratios)',
                               s.setting, b.value, walpressure._margin())
                    WHEN v.verdict = 'undecided' AND i.sweep_id IS NULL THEN
                        format('the fastest other value, %s, against %s: %s%s', v.value, b.value, v.verdict_detail,
                               CASE WHEN v.rounds_needed IS NOT NULL THEN
                                        format(' (repeats => %s, or ''auto'')', v.rounds_needed) ELSE '' END)
               END,
               CASE WHEN l.n > 1 AND NOT l.baseline_tied THEN
                   format('%s values cannot be told from the fastest: %s; chosen by the lowest p99, then the value nearest the current one',
                          l.n, l.values) END,
               CASE WHEN l.n > 1 AND l.baseline_tied AND f.sweep_id IS NULL AND p.rounds >= 2
                         AND NOT l.all_equivalent THEN
                   format('the baseline cannot be told from the fastest: %s', l.values) END,
               CASE WHEN p.rounds = 2 THEN
                   'with 2 rounds a 95% interval is 12.7 standard errors wide on each side (Student''s t with 1 degree of freedom): 3 rounds make it 4.3'
                    END
           ], NULL) AS lines
    FROM sweeps s
    JOIN per_sweep p USING (sweep_id)
    LEFT JOIN base b USING (sweep_id)
    LEFT JOIN faster f USING (sweep_id)
    LEFT JOIN rival v USING (sweep_id)
    LEFT JOIN tie_list l USING (sweep_id)
    LEFT JOIN inert i USING (sweep_id)
    LEFT JOIN slow_delay sd USING (sweep_id)
    LEFT JOIN results sf ON sf.sweep_id = s.sweep_id AND sf.value_pos = s.search_found
), apply AS (
    -- how to put the change in place: ALTER SYSTEM for what cannot lose
    -- data; synchronous_commit = off per transaction; fsync or
    -- full_page_writes off never
    SELECT f.sweep_id,
           CASE WHEN s.setting = ANY (walpressure.sweepable_load()) THEN
                    format('-- %s is the load, not a server setting', s.setting)
                WHEN dl.labels LIKE '%fsync=off%' OR dl.labels LIKE '%full_page_writes=off%' THEN
                    format('-- not applied: with %s a crash can corrupt the cluster; no session or transaction can take it alone',
                           dl.labels)
                WHEN s.setting = 'settings' THEN
                    coalesce((SELECT string_agg(format('ALTER SYSTEM SET %I = %L;', c.key, c.value), ' ' ORDER BY c.key)
                              FROM jsonb_each_text(f.value::jsonb) c
                              WHERE c.key <> ALL (walpressure.sweepable_load())
                                AND c.key = ANY (walpressure.sweepable_settings() || walpressure.sweepable_server_settings())
                                AND walpressure._data_loss(c.key, c.value) IS NULL)
                             || ' SELECT pg_reload_conf();', '')
                    || coalesce((SELECT string_agg(format(' SET LOCAL %I = %L; -- in each transaction that may lose its commit in a crash, never server-wide',
                                                          c.key, c.value), '' ORDER BY c.key)
                                 FROM jsonb_each_text(f.value::jsonb) c
                                 WHERE walpressure._data_loss(c.key, c.value) IS NOT NULL), '')
                    || CASE WHEN f.value::jsonb ? 'clients' THEN
                           format(' -- measured with %s clients (the load, not a setting: part of the gain may be theirs)',
                                  f.value::jsonb->>'clients') ELSE '' END
                WHEN dl.labels IS NOT NULL THEN
                    format('SET LOCAL %I = %L; -- in each transaction that may lose its commit in a crash, never server-wide',
                           s.setting, f.value)
                WHEN s.setting = ANY (walpressure.sweepable_settings() || walpressure.sweepable_server_settings()) THEN
                    format('ALTER SYSTEM SET %I = %L; SELECT pg_reload_conf();', s.setting, f.value)
                ELSE format('-- %s is not a setting a sweep varies', s.setting)
           END AS sql
    FROM faster f JOIN sweeps s USING (sweep_id)
    -- what the value can lose in a crash, from the value itself as well as
    -- from what its steps recorded: no stored row can hide it
    CROSS JOIN LATERAL (SELECT string_agg(DISTINCT l, ', ' ORDER BY l) AS labels
                        FROM regexp_split_to_table(concat_ws(', ', f.data_loss,
                                                             CASE WHEN s.setting <> 'settings' THEN
                                                                 walpressure._data_loss(s.setting, f.value) END), ',\s*') AS l
                        WHERE l <> '') dl
)
SELECT s.sweep_id,
       s.label,
       s.setting,
       k.value,
       k.tps,
       CASE WHEN NOT walpressure._open_loop(s.sweep_id) THEN k.speedup
            WHEN k.verdict = 'baseline' THEN 1.000
            ELSE round(1 / k.latency_p99_ratio, 3) END AS gain,
       CASE WHEN walpressure._open_loop(s.sweep_id) THEN round(1 / k.latency_p99_ratio_ci_high, 3)
            ELSE k.speedup_ci_low END AS gain_ci_low,
       CASE WHEN walpressure._open_loop(s.sweep_id) THEN round(1 / k.latency_p99_ratio_ci_low, 3)
            ELSE k.speedup_ci_high END AS gain_ci_high,
       CASE WHEN walpressure._open_loop(s.sweep_id) AND k.verdict <> 'baseline' THEN k.latency_p99_verdict
            ELSE k.verdict END AS verdict,
       nullif(btrim(ap.sql), '') AS apply,
       array_to_string(d.lines, E'\n') AS diagnoses,
       CASE WHEN b.tps IS NULL THEN
                format('no answer: %s has no step that counts', coalesce(s.setting || ' = ' || b.value, 'the baseline'))
            WHEN s.setting = 'rate' THEN walpressure._rate_answer(s.sweep_id)
            WHEN walpressure._open_loop(s.sweep_id) AND f.sweep_id IS NOT NULL THEN
                format('change %s to %s: p99 latency %s ms against %s ms at %s = %s, %s, at %s transactions/s (open loop): %sx lower (95%% interval %s-%s)',
                       s.setting, f.value, f.latency_p99_ms, b.latency_p99_ms, s.setting, b.value,
                       CASE WHEN b.is_current THEN 'the current value' ELSE 'the first value' END, s.rate,
                       walpressure._ratio_text(1 / f.latency_p99_ratio),
                       walpressure._ratio_text(1 / f.latency_p99_ratio_ci_high), walpressure._ratio_text(1 / f.latency_p99_ratio_ci_low))
            WHEN walpressure._open_loop(s.sweep_id) THEN
                format('keep %s = %s: at %s transactions/s (open loop) no value gives a lower p99 latency (%s ms) beyond its 95%% interval',
                       s.setting, coalesce(s.current_value, b.value), s.rate, b.latency_p99_ms)
            WHEN f.sweep_id IS NOT NULL AND s.setting = ANY (walpressure.sweepable_load()) THEN
                format('%s = %s gives the most tps: %sx that of %s (95%% interval %s-%s)',
                       s.setting, f.value, walpressure._ratio_text(f.speedup), b.value,
                       walpressure._ratio_text(f.speedup_ci_low), walpressure._ratio_text(f.speedup_ci_high))
            WHEN f.sweep_id IS NOT NULL AND s.setting = 'settings' THEN
                format('change to %s: %sx the tps of %s, %s (95%% interval %s-%s)',
                       f.value, walpressure._ratio_text(f.speedup), b.value,
                       CASE WHEN b.is_current THEN 'the current configuration' ELSE 'the first configuration' END,
                       walpressure._ratio_text(f.speedup_ci_low), walpressure._ratio_text(f.speedup_ci_high))
            WHEN f.sweep_id IS NOT NULL THEN
                format('change %s to %s: %sx the tps of %s = %s, %s (95%% interval %s-%s)',
                       s.setting, f.value, walpressure._ratio_text(f.speedup), s.setting, b.value,
                       CASE WHEN b.is_current THEN 'the current value' ELSE 'the first value' END,
                       walpressure._ratio_text(f.speedup_ci_low), walpressure._ratio_text(f.speedup_ci_high))
            WHEN s.setting = 'settings' THEN
                format('keep the current configuration: no configuration is faster than %s beyond its 95%% interval',
                       CASE WHEN b.is_current THEN 'it' ELSE 'the first one (' || b.value || ')' END)
            WHEN s.current_value IS NOT NULL THEN
                format('keep %s = %s: no value is faster than %s beyond its 95%% interval',
                       s.setting, s.current_value,
                       CASE WHEN b.is_current THEN 'it' ELSE 'the first value (' || b.value || ')' END)
            ELSE format('keep: no value is faster than %s = %s beyond its 95%% interval', s.setting, b.value)
       END
       || CASE WHEN f.sweep_id IS NULL AND b.tps IS NOT NULL AND p.rounds < 2
               THEN ' (one round: nothing can be shown faster; repeats => 3 or more decides)' ELSE '' END
       || CASE WHEN f.sweep_id IS NOT NULL AND f.data_loss IS NOT NULL
               THEN format('; a crash can lose data with it (%s): %s', f.data_loss,
                           CASE WHEN f.data_loss LIKE '%fsync=off%' OR f.data_loss LIKE '%full_page_writes=off%'
                                THEN 'not for a server whose data matters'
                                ELSE 'only per transaction (SET LOCAL), for the transactions that may lose their commit: those of the last three wal_writer_delay before a crash' END)
               ELSE '' END AS answer,
       s.current_value,
       l.values AS ties
FROM sweeps s
JOIN diag d USING (sweep_id)
JOIN per_sweep p USING (sweep_id)
JOIN pick k USING (sweep_id)
LEFT JOIN base b USING (sweep_id)
LEFT JOIN faster f USING (sweep_id)
LEFT JOIN apply ap USING (sweep_id)
LEFT JOIN tie_list l USING (sweep_id)
ORDER BY s.sweep_id;

COMMENT ON VIEW best IS
'Per sweep, the answer: the values that cannot be told from the one with the most tps (in an open loop, run_sweep''s rate: the lowest p99 latency among the values that sustained the rate; gain is then how many times lower the p99 is than the baseline''s, and verdict the p99''s) (paired 95% intervals, effects()) are listed in ties; a rate sweep''s answer is its knee, the highest rate sustained; when the baseline (the server''s current value, else the first) is among them, keep it (apply NULL); else change to one of them that is faster than the baseline, the lowest p99 first, then the value nearest the current one: its gain with a 95% interval and how to apply it (ALTER SYSTEM; a value that can lose data in a crash only per transaction with SET LOCAL, or not at all for fsync and full_page_writes off); and diagnoses of the curve (a fast fsync, the cap, CPU, checkpoints, what the rounds decided and the rounds that would)';

GRANT SELECT ON best TO pg_monitor;
