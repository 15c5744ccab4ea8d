--
-- Reading a sweep: the best value, a text chart, an SVG.
--

-- A value of a number setting in the setting's unit ('1s' of wal_writer_delay
-- is 1000: ms), or of a load parameter; NULL for the others.
CREATE OR REPLACE FUNCTION _setting_number(setting text, value text)
RETURNS float8
AS 'MODULE_PATHNAME', 'wp_setting_number_sql'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

-- A rate sweep's answer: its latency curve's knee.  The highest rate every
-- step of which was sustained, the first that was not (then the clients
-- were busy all the time: a closed loop in disguise), and the first rate
-- whose p99 latency is more than twice that of the lowest rate.
CREATE OR REPLACE FUNCTION _rate_answer(sweep_id bigint)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH r AS (
        SELECT x.*, walpressure._setting_number('rate', x.value) AS lambda
        FROM walpressure.results x WHERE x.sweep_id = $1 AND x.value_pos > 0 AND x.tps IS NOT NULL
    ), kept AS (
        SELECT * FROM r WHERE coalesce(r.rate_sustained, true) ORDER BY r.lambda DESC LIMIT 1
    ), lost AS (
        SELECT * FROM r WHERE NOT coalesce(r.rate_sustained, true) ORDER BY r.lambda LIMIT 1
    ), low AS (
        SELECT * FROM r ORDER BY r.lambda LIMIT 1
    ), knee AS (
        SELECT r.* FROM r, low WHERE r.latency_p99_ms > 2 * low.latency_p99_ms ORDER BY r.lambda LIMIT 1
    )
    SELECT concat_ws('; ',
        CASE WHEN (SELECT count(*) FROM lost) = 0 THEN
                 (SELECT format('every rate was sustained, up to %s/s (p99 %s ms, schedule lag p99 %s ms)',
                                k.value, k.latency_p99_ms, k.lag_p99_ms) FROM kept k)
             ELSE coalesce((SELECT format('the load sustains up to rate = %s/s (p99 %s ms, schedule lag p99 %s ms)',
                                         k.value, k.latency_p99_ms, k.lag_p99_ms) FROM kept k WHERE k.lambda < (SELECT lambda FROM lost)),
                           'no rate was sustained')
                  || (SELECT format('; at %s/s it is not: %s tps achieved, the clients busy all the time (a closed loop in disguise)',
                                    l.value, l.tps) FROM lost l) END,
        (SELECT format('p99 latency is more than twice that at %s/s (%s ms) from %s/s on (%s ms): the knee of the curve',
                       low.value, low.latency_p99_ms, k.value, k.latency_p99_ms) FROM knee k, low))
$$;

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

-- A grid sweep's two settings and their values: a settings sweep whose every
-- value sets the same two settings, each to two values or more.  down is the
-- one that changes least often from one value to the next (the rows), across
-- the other (the columns); each one's values in the order they first come.
-- No row for any other sweep.
CREATE OR REPLACE FUNCTION _grid(sweep_id bigint,
                      OUT down text, OUT across text, OUT down_vals text[], OUT across_vals text[])
RETURNS SETOF record
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    vals text[];
    keys text[];
BEGIN
    SELECT w.vals INTO vals FROM walpressure.sweeps w
        WHERE w.sweep_id = _grid.sweep_id AND w.setting = 'settings';
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT array_agg(DISTINCT k.k ORDER BY k.k) INTO keys
        FROM unnest(vals) v, jsonb_object_keys(v::jsonb) k;
    IF cardinality(keys) <> 2 OR EXISTS (SELECT 1 FROM unnest(vals) v
                                        WHERE NOT (v::jsonb ? keys[1] AND v::jsonb ? keys[2])
                                           OR (SELECT count(*) FROM jsonb_object_keys(v::jsonb)) <> 2) THEN
        RETURN;
    END IF;
    SELECT CASE WHEN sum((a IS DISTINCT FROM pa)::int) <= sum((b IS DISTINCT FROM pb)::int)
                THEN keys[1] ELSE keys[2] END INTO down
        FROM (SELECT v::jsonb->>keys[1] a, lag(v::jsonb->>keys[1]) OVER (ORDER BY i) pa,
                     v::jsonb->>keys[2] b, lag(v::jsonb->>keys[2]) OVER (ORDER BY i) pb
              FROM unnest(vals) WITH ORDINALITY t(v, i)) q;
    across := CASE WHEN down = keys[1] THEN keys[2] ELSE keys[1] END;
    down_vals := ARRAY(SELECT q.v FROM (SELECT v::jsonb->>down AS v, min(i) AS m
                                        FROM unnest(vals) WITH ORDINALITY t(v, i) GROUP BY 1) q ORDER BY q.m);
    across_vals := ARRAY(SELECT q.v FROM (SELECT v::jsonb->>across AS v, min(i) AS m
                                          FROM unnest(vals) WITH ORDINALITY t(v, i) GROUP BY 1) q ORDER BY q.m);
    IF cardinality(down_vals) >= 2 AND cardinality(across_vals) >= 2 THEN
        RETURN NEXT;
    END IF;
END
$$;

-- A text chart of a sweep for psql: a bar per value.
CREATE OR REPLACE FUNCTION _report(sweep_id bigint)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s walpressure.sweeps;
    r record;
    top float8;
    width int := 40;
    vw int; tw int; iw int; cw int;
    ran int; ran_min int;
    line text;
    g record; ka text; kb text; gr text[]; gc text[]; gw int; cell text; grow record; gcol record;
    sq record; shown bool := false; sw int;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w WHERE w.sweep_id = _report.sweep_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no sweep %', _report.sweep_id USING ERRCODE = 'no_data_found',
            HINT = 'walpressure.sweeps lists the sweeps of this database.';
    END IF;
    -- what ran: a cancelled or failed sweep has fewer repeats than it asked
    SELECT max(x.repeats), min(x.repeats) FILTER (WHERE x.value_pos > 0) INTO ran, ran_min
        FROM walpressure.results x WHERE x.sweep_id = _report.sweep_id;
    RETURN NEXT format('sweep %s%s: %s, %s, %s clients%s, %s x %s s, %s (%s/%s steps)',
                       s.sweep_id, coalesce(' "' || s.label || '"', ''), s.setting, s.workload, s.clients,
                       coalesce(', disk capped at ' || s.iops_cap || ' write IOPS', ''),
                       CASE WHEN s.search IS NOT NULL THEN
                                format('a search over %s by %s (%s rounds)', s.search_range, s.search_resolution,
                                       (SELECT count(*) FROM walpressure.search_rounds q WHERE q.sweep_id = s.sweep_id))
                            WHEN s.auto_repeats THEN format('repeats auto (%s rounds)', coalesce(ran, 0))
                            ELSE s.repeats::text END,
                       trim_scale(extract(epoch FROM s.duration)), s.status, s.steps_done, s.steps_total);
    -- each column as wide as its widest value
    SELECT max(x.tps),
           greatest(max(length(x.value)), length(s.setting)),
           greatest(max(length(x.tps || coalesce(' ±' || round((x.tps_ci_high - x.tps_ci_low) / 2), ''))), 18),
           greatest(max(length(x.write_iops::text)), 4),
           greatest(max(length(x.commits_per_fsync::text)), 3)
        INTO top, vw, tw, iw, cw
        FROM walpressure.results x WHERE x.sweep_id = _report.sweep_id;
    IF top IS NULL THEN
        RETURN NEXT '(no step finished)';
        RETURN;
    END IF;
    RETURN NEXT format('%s | %-*s | %*s | %*s | %*s | %s', rpad(s.setting, vw), width, 'tps',
                       tw, 'tps (95% interval)', iw, 'IOPS', cw, 'c/f',
                       CASE WHEN s.current_pos IS NOT NULL THEN 'against the current value'
                            ELSE 'against the first value' END);
    FOR r IN SELECT * FROM walpressure.results x WHERE x.sweep_id = _report.sweep_id
             ORDER BY x.value_pos = 0, x.value_pos LOOP
        line := format('%s | %-*s | %*s | %*s | %*s | %s',
            rpad(r.value, vw), width,
            repeat('#', greatest(round(width * coalesce(r.tps, 0) / nullif(top, 0))::int, 0)),
            tw, coalesce(r.tps || CASE WHEN r.tps_ci_low IS NULL THEN ''
                                       ELSE ' ±' || round((r.tps_ci_high - r.tps_ci_low) / 2) END, '-'),
            iw, coalesce(r.write_iops::text, '-'),
            cw, coalesce(r.commits_per_fsync::text, '-'),
            CASE WHEN r.verdict IN ('baseline', 'discarded', 'no baseline', 'not measured') THEN r.verdict
                 ELSE coalesce(walpressure._ratio_text(r.speedup) || 'x ', '') || r.verdict END
            || CASE WHEN r.is_current THEN ' (current)' ELSE '' END
            || coalesce('  [' || r.data_loss || ']', ''));
        RETURN NEXT rtrim(line);
    END LOOP;
    RETURN NEXT format('tps: mean over %s; ±: half its 95%% interval%s; IOPS: write IOPS of the pg_wal disk; c/f: commits per WAL fsync',
                       CASE WHEN ran > 1 AND ran_min = ran THEN ran || ' interleaved rounds'
                            WHEN ran > 1 THEN ran_min || ' to ' || ran || ' interleaved rounds'
                            ELSE 'the window' END,
                       CASE WHEN ran > 1 THEN ' across rounds' ELSE ' (none from one round)' END);
    RETURN NEXT format('the ratio against the baseline: the geometric mean of the per-round ratios, paired by round; faster / slower: its 95%% interval excludes 1; equivalent: it lies within ±%s%%',
                       walpressure._margin());

    -- an open loop: the latency a user arriving on the schedule saw (the
    -- schedule lag included), the rate kept, and the p99's paired verdict
    IF EXISTS (SELECT 1 FROM walpressure.results x WHERE x.sweep_id = _report.sweep_id AND x.rate IS NOT NULL) THEN
        RETURN NEXT '';
        RETURN NEXT format('open loop%s: latency from each transaction''s scheduled start (schedule lag included), ms; p99 against the baseline',
                           coalesce(format(' at %s transactions/s (Poisson arrivals)', s.rate), ' (rates swept)'));
        RETURN NEXT format('%s | %9s | %9s | %9s | %9s | %9s | %s', rpad(s.setting, vw), 'p50', 'p99', 'p99.9', 'lag p99', 'achieved', 'p99 verdict');
        FOR r IN SELECT * FROM walpressure.results x WHERE x.sweep_id = _report.sweep_id AND x.value_pos > 0
                 ORDER BY x.value_pos LOOP
            RETURN NEXT rtrim(format('%s | %9s | %9s | %9s | %9s | %9s | %s', rpad(r.value, vw),
                coalesce(r.latency_p50_ms::text, '-'), coalesce(r.latency_p99_ms::text, '-'),
                coalesce(r.latency_p999_ms::text, '-'), coalesce(r.lag_p99_ms::text, '-'),
                coalesce(r.rate_achieved::text, '-'),
                CASE WHEN NOT r.rate_sustained THEN format('NOT SUSTAINED (%s asked): a closed loop in disguise', r.rate)
                     WHEN r.verdict = 'baseline' THEN 'baseline'
                     ELSE coalesce(walpressure._ratio_text(r.latency_p99_ratio) || 'x ' || r.latency_p99_verdict, '') END));
        END LOOP;
    END IF;

    -- a search: its rounds, what each ran and what came of it, and why it
    -- stopped
    shown := false;
    FOR r IN SELECT * FROM walpressure.search_rounds q WHERE q.sweep_id = _report.sweep_id ORDER BY q.round LOOP
        IF NOT shown THEN
            RETURN NEXT '';
            RETURN NEXT format('the search (golden section over %s by %s), round by round: what it ran (the baseline first in a pair''s first round) and what it did',
                               s.search_range, s.search_resolution);
            shown := true;
        END IF;
        RETURN NEXT format('  round %s, pair %s, peak in [%s, %s]: %s: %s', r.round, r.pair, r.low, r.high,
                           array_to_string(r.vals, ', '), coalesce(r.decision, '-'));
    END LOOP;
    IF s.search_stop IS NOT NULL THEN
        RETURN NEXT format('  it stopped: %s', s.search_stop);
    END IF;

    -- a grid: the tps as a table, the setting that changes least often
    -- from one value to the next down the side
    SELECT * INTO g FROM walpressure._grid(_report.sweep_id);
    IF FOUND THEN
        ka := g.down; kb := g.across; gr := g.down_vals; gc := g.across_vals;
        gw := greatest((SELECT max(length(c)) FROM unnest(gc) c), length(round(top)::text) + 4);
        vw := greatest((SELECT max(length(c)) FROM unnest(gr) c), length(ka || ' \ ' || kb));
        RETURN NEXT '';
        RETURN NEXT format('tps by %s (down) and %s (across); + faster, - slower than the baseline (=): the paired ratio''s 95%% interval excludes 1',
                           ka, kb);
        RETURN NEXT rpad(ka || ' \ ' || kb, vw) || ' | '
                    || (SELECT string_agg(lpad(c, gw), ' | ' ORDER BY i) FROM unnest(gc) WITH ORDINALITY t(c, i));
        FOR grow IN SELECT v, i FROM unnest(gr) WITH ORDINALITY t(v, i) ORDER BY i LOOP
            line := rpad(grow.v, vw);
            FOR gcol IN SELECT c, i FROM unnest(gc) WITH ORDINALITY t(c, i) ORDER BY i LOOP
                SELECT coalesce(round(y.tps)::text || CASE y.verdict WHEN 'faster' THEN '+' WHEN 'slower' THEN '-'
                                                                      WHEN 'baseline' THEN '=' ELSE ' ' END, '-  ')
                    INTO cell
                    FROM walpressure.results y
                    WHERE y.sweep_id = _report.sweep_id AND y.value_pos > 0
                      AND y.value::jsonb->>ka = grow.v AND y.value::jsonb->>kb = gcol.c;
                line := line || ' | ' || lpad(coalesce(cell, '-  '), gw);
            END LOOP;
            RETURN NEXT rtrim(line);
        END LOOP;
    END IF;

    -- the load's statements (pg_stat_statements): the baseline's three that
    -- took the most time, each value's mean and stddev of a call; their
    -- texts only for a reader pg_stat_statements would show them to
    IF has_table_privilege('walpressure.statements', 'SELECT') THEN
        FOR sq IN SELECT q.queryid, q.query FROM walpressure.statements q
                  WHERE q.sweep_id = _report.sweep_id AND q.value_pos = coalesce(s.current_pos, 1)
                  ORDER BY q.rank LIMIT 3 LOOP
            IF NOT shown THEN
                RETURN NEXT '';
                RETURN NEXT 'statements (pg_stat_statements, the 3 with the most time): a call''s mean ± half its 95% interval, stddev, change against the baseline';
                shown := true;
                SELECT max(length(q.value)) INTO sw FROM walpressure.statements q WHERE q.sweep_id = _report.sweep_id;
            END IF;
            RETURN NEXT left(regexp_replace(sq.query, '[[:space:][:cntrl:]]+', ' ', 'g'), 100);
            FOR r IN SELECT * FROM walpressure.statements q
                     WHERE q.sweep_id = _report.sweep_id AND q.queryid = sq.queryid ORDER BY q.value_pos LOOP
                RETURN NEXT rtrim(format('  %s | %10s calls/s | mean %s ms%s%s | stddev %s ms%s',
                    rpad(r.value, sw), r.calls_per_s, r.mean_ms,
                    coalesce(' ±' || round((r.mean_ci_high_ms - r.mean_ci_low_ms) / 2, 4), ''),
                    coalesce(' (' || to_char(r.mean_change_pct, 'FMSG990.0') || '%)', ''),
                    r.stddev_ms,
                    coalesce(' (' || to_char(r.stddev_change_pct, 'FMSG990.0') || '%)', '')));
            END LOOP;
        END LOOP;
    END IF;

    -- synchronous standbys: each value's wait of a commit for them, and each
    -- standby's lags (the means over the steps that count)
    shown := false;
    FOR r IN SELECT st.value_pos, min(st.value) AS value,
                    round(avg(st.syncrep_wait_ms) FILTER (WHERE st.discarded IS NULL)::numeric, 3) AS wait_ms,
                    round(avg(st.syncrep_wait_pct) FILTER (WHERE st.discarded IS NULL)::numeric, 1) AS wait_pct,
                    count(*) FILTER (WHERE st.discarded LIKE 'standby lost%') AS lost,
                    (SELECT string_agg(format('%s %s: write %s, flush %s, replay %s ms', x.standby, x.sync_state,
                                              coalesce(x.w::text, '-'), coalesce(x.f::text, '-'), coalesce(x.a::text, '-')),
                                       '; ' ORDER BY x.standby)
                     FROM (SELECT rp.standby, min(rp.sync_state) AS sync_state,
                                  round(avg(rp.write_lag_ms_mean)::numeric, 2) AS w,
                                  round(avg(rp.flush_lag_ms_mean)::numeric, 2) AS f,
                                  round(avg(rp.replay_lag_ms_mean)::numeric, 2) AS a
                           FROM walpressure.step_replication rp
                           JOIN walpressure.steps s2 ON s2.sweep_id = rp.sweep_id AND s2.step = rp.step
                           WHERE rp.sweep_id = _report.sweep_id AND s2.value_pos = st.value_pos
                             AND s2.discarded IS NULL
                           GROUP BY rp.standby) x) AS standbys
             FROM walpressure.steps st
             WHERE st.sweep_id = _report.sweep_id
             GROUP BY st.value_pos
             HAVING count(st.syncrep_wait_ms) > 0 OR count(*) FILTER (WHERE st.discarded LIKE 'standby lost%') > 0
             ORDER BY st.value_pos LOOP
        IF NOT shown THEN
            RETURN NEXT '';
            RETURN NEXT 'standbys: a commit''s wait for them (IPC:SyncRep) and its share of commit time; each standby''s lags (pg_stat_replication)';
            shown := true;
            SELECT max(length(x.value)) INTO sw FROM walpressure.steps x WHERE x.sweep_id = _report.sweep_id;
        END IF;
        RETURN NEXT rtrim(format('  %s | wait %s ms (%s%%) | %s%s', rpad(r.value, sw),
            coalesce(r.wait_ms::text, '-'), coalesce(r.wait_pct::text, '-'), coalesce(r.standbys, 'no standby'),
            CASE WHEN r.lost > 0 THEN format(' | standby lost in %s step%s', r.lost, CASE WHEN r.lost > 1 THEN 's' ELSE '' END) ELSE '' END));
    END LOOP;
END
$$;

-- The values of a two-setting grid, for run_sweep('settings', ...): every
-- value of setting_a with every value of setting_b, setting_a's changing
-- least often (report() shows the tps as a table).
CREATE OR REPLACE FUNCTION grid(setting_a text, vals_a text[], setting_b text, vals_b text[])
RETURNS jsonb[]
LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT array_agg(jsonb_build_object(setting_a, a.v, setting_b, b.v) ORDER BY a.i, b.i)
    FROM unnest(vals_a) WITH ORDINALITY a(v, i), unnest(vals_b) WITH ORDINALITY b(v, i);
END;

COMMENT ON FUNCTION grid(text, text[], text, text[]) IS
'The values of a two-setting grid for run_sweep(''settings'', ...): every value of setting_a with every value of setting_b (report() shows the tps as a table)';

COMMENT ON FUNCTION _report(bigint) IS
'report() after its check: a text chart of a sweep for psql: a tps bar per value, its 95% interval, write IOPS, commits per fsync and the verdict against the current value (else the first); a grid''s tps as a table; the load''s statements (pg_stat_statements) value by value; with synchronous standbys, each value''s wait for them and their lags';

-- Two sweeps side by side, value by value: the same sweep run twice, or this
-- server against another's (imported).  ratio is b's tps over a's with its
-- 95% interval and verdict from _decide (unpaired); a NOTICE names what
-- differs between the two runs besides the values.
CREATE OR REPLACE FUNCTION _compare(sweep_a bigint, sweep_b bigint)
RETURNS TABLE (value text, tps_a numeric, tps_b numeric, ratio numeric,
               ratio_ci_low numeric, ratio_ci_high numeric, verdict text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    a walpressure.sweeps;
    b walpressure.sweeps;
    diffs text[];
    here text := (SELECT c.system_identifier::text FROM pg_control_system() c);
BEGIN
    -- compare() checked that both exist and vary the same setting
    SELECT * INTO a FROM walpressure.sweeps w WHERE w.sweep_id = _compare.sweep_a;
    SELECT * INTO b FROM walpressure.sweeps w WHERE w.sweep_id = _compare.sweep_b;
    diffs := array_remove(ARRAY[
        -- where each ran: this server, or the one it was imported from (by
        -- its fleet name when the fleet gathered it)
        CASE WHEN coalesce(a.origin->>'system_identifier', here)
                  IS DISTINCT FROM coalesce(b.origin->>'system_identifier', here) THEN
            format('server %s / %s',
                   coalesce((SELECT f.server::text FROM walpressure.fleet_sweeps f WHERE f.sweep_id = a.sweep_id),
                            'system ' || (a.origin->>'system_identifier'), 'this one'),
                   coalesce((SELECT f.server::text FROM walpressure.fleet_sweeps f WHERE f.sweep_id = b.sweep_id),
                            'system ' || (b.origin->>'system_identifier'), 'this one')) END,
        CASE WHEN a.wal_disk IS DISTINCT FROM b.wal_disk THEN
            format('WAL disk %s / %s', coalesce(a.wal_disk, 'unknown'), coalesce(b.wal_disk, 'unknown')) END,
        CASE WHEN a.workload <> b.workload THEN format('workload %s / %s', a.workload, b.workload) END,
        CASE WHEN a.clients <> b.clients THEN format('clients %s / %s', a.clients, b.clients) END,
        CASE WHEN a.duration <> b.duration THEN
            format('duration %s s / %s s', trim_scale(extract(epoch FROM a.duration)), trim_scale(extract(epoch FROM b.duration))) END,
        CASE WHEN a.iops_cap IS DISTINCT FROM b.iops_cap THEN
            format('iops_cap %s / %s', coalesce(a.iops_cap::text, 'none'), coalesce(b.iops_cap::text, 'none')) END,
        CASE WHEN a.engine <> b.engine THEN format('engine %s / %s', a.engine, b.engine) END,
        CASE WHEN a.settings <> b.settings THEN format('settings %s / %s', a.settings, b.settings) END,
        CASE WHEN a.repeats <> b.repeats THEN format('repeats %s / %s', a.repeats, b.repeats) END,
        CASE WHEN a.server_version <> b.server_version THEN
            format('server_version %s / %s', a.server_version, b.server_version) END,
        CASE WHEN a.cpus IS DISTINCT FROM b.cpus THEN
            format('cpus %s / %s', coalesce(a.cpus::text, 'unknown'), coalesce(b.cpus::text, 'unknown')) END,
        CASE WHEN a.server_settings IS DISTINCT FROM b.server_settings THEN
            (SELECT 'server settings ' || string_agg(format('%s %s / %s', k, a.server_settings->>k, b.server_settings->>k), ', ' ORDER BY k)
             FROM jsonb_object_keys(coalesce(a.server_settings, '{}') || coalesce(b.server_settings, '{}')) AS k
             WHERE (a.server_settings->>k) IS DISTINCT FROM (b.server_settings->>k)) END
    ], NULL);
    IF cardinality(diffs) > 0 THEN
        RAISE NOTICE 'sweeps % and % differ in more than the values: %', a.sweep_id, b.sweep_id,
            array_to_string(diffs, '; ');
    END IF;
    -- the two sweeps' rounds are not interleaved with each other: two
    -- independent samples of rounds per value (_decide, unpaired)
    RETURN QUERY
    WITH x AS (SELECT * FROM walpressure.results r WHERE r.sweep_id = a.sweep_id AND r.value_pos > 0),
    y AS (SELECT * FROM walpressure.results r WHERE r.sweep_id = b.sweep_id AND r.value_pos > 0),
    rounds AS (
        SELECT st.sweep_id, st.value, array_agg(st.tps ORDER BY st.repeat) AS tps
        FROM walpressure.steps st
        WHERE st.sweep_id IN (a.sweep_id, b.sweep_id) AND st.discarded IS NULL AND st.value_pos > 0
        GROUP BY st.sweep_id, st.value
    )
    SELECT coalesce(x.value, y.value),
           x.tps, y.tps,
           round(d.ratio::numeric, 3),
           round(d.ci_low::numeric, 3),
           round(d.ci_high::numeric, 3),
           CASE WHEN x.value IS NULL THEN format('only in sweep %s', b.sweep_id)
                WHEN y.value IS NULL THEN format('only in sweep %s', a.sweep_id)
                WHEN x.tps IS NULL OR y.tps IS NULL THEN 'no step that counts'
                WHEN d.verdict = 'faster' THEN format('faster in sweep %s: %s', b.sweep_id, d.detail)
                WHEN d.verdict = 'slower' THEN format('slower in sweep %s: %s', b.sweep_id, d.detail)
                WHEN d.verdict = 'equivalent' THEN d.detail
                WHEN d.detail LIKE 'undecided%' THEN d.detail
                ELSE 'undecided: ' || d.detail
           END
    FROM x
    FULL JOIN y ON x.value = y.value
    LEFT JOIN rounds ra ON ra.sweep_id = a.sweep_id AND ra.value = x.value
    LEFT JOIN rounds rb ON rb.sweep_id = b.sweep_id AND rb.value = y.value
    LEFT JOIN LATERAL walpressure._decide(rb.tps, ra.tps, false, true, walpressure._margin()) d
        ON ra.tps IS NOT NULL AND rb.tps IS NOT NULL
    ORDER BY coalesce(x.value_pos, 1000 + y.value_pos);
END
$$;

COMMENT ON FUNCTION _compare(bigint, bigint) IS
'compare() after its checks: two sweeps of the same setting value by value: tps of each, b over a (geometric means of their rounds) with its 95% interval (Welch''s t on the logs: the two sweeps'' rounds are independent), and whether b is faster, slower, the same within +-walpressure.equivalence_margin % or undecided; a NOTICE names what else differs between them';

-- A sweep as one JSON document, to read it on another server: its row, its
-- steps and samples, and the fingerprint of the server it ran on.
CREATE OR REPLACE FUNCTION _export(sweep_id bigint)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    doc jsonb;
    stmts jsonb := '[]';
BEGIN
    SELECT jsonb_build_object(
        'format', 'walpressure sweep',
        'format_version', 1,
        'exported_at', now(),
        'walpressure_version', (SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'walpressure'),
        'server', jsonb_build_object(
            'system_identifier', (SELECT system_identifier::text FROM pg_catalog.pg_control_system()),
            'server_version', s.server_version,
            'cpus', s.cpus,
            'wal_disk', s.wal_disk,
            'iops_cap', s.iops_cap,
            'settings', s.server_settings),
        'sweep', to_jsonb(s),
        'steps', coalesce((SELECT jsonb_agg(to_jsonb(st) - 'sweep_id' ORDER BY st.step)
                           FROM walpressure.steps st WHERE st.sweep_id = s.sweep_id), '[]'),
        'step_samples', coalesce((SELECT jsonb_agg(to_jsonb(x) - 'sweep_id' ORDER BY x.step, x.second)
                                  FROM walpressure.step_samples x WHERE x.sweep_id = s.sweep_id), '[]'),
        'step_replication', coalesce((SELECT jsonb_agg(to_jsonb(x) - 'sweep_id' ORDER BY x.step, x.pid)
                                      FROM walpressure.step_replication x WHERE x.sweep_id = s.sweep_id), '[]'),
        'search_rounds', coalesce((SELECT jsonb_agg(to_jsonb(x) - 'sweep_id' ORDER BY x.round)
                                   FROM walpressure.search_rounds x WHERE x.sweep_id = s.sweep_id), '[]'))
    INTO doc
    FROM walpressure.sweeps s
    WHERE s.sweep_id = _export.sweep_id;
    -- the statement texts, for a reader pg_stat_statements would show them to
    IF has_table_privilege('walpressure.step_statements', 'SELECT') THEN
        EXECUTE 'SELECT coalesce(jsonb_agg(to_jsonb(x) - ''sweep_id'' ORDER BY x.step, x.rank), ''[]'')
                 FROM walpressure.step_statements x WHERE x.sweep_id = $1'
            INTO stmts USING _export.sweep_id;
    END IF;
    RETURN doc || jsonb_build_object('step_statements', stmts);
END
$$;

COMMENT ON FUNCTION _export(bigint) IS
'export() after its check: a sweep as one JSON document';

-- Is this a document export() made?
CREATE OR REPLACE FUNCTION _is_export(sweep jsonb)
RETURNS bool
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN coalesce(jsonb_typeof(sweep) = 'object' AND sweep->>'format' = 'walpressure sweep'
                AND sweep->>'format_version' = '1' AND jsonb_typeof(sweep->'sweep') = 'object'
                AND jsonb_typeof(sweep->'steps') = 'array'
                AND jsonb_typeof(sweep->'step_samples') = 'array', false);

-- The labels of the data a step can lose, as import() records them: those
-- its value and the sweep's fixed settings give (sweep/policy.c), and those
-- the document stated (the server's own settings there, which only it
-- knew), of the three there are: a document can add a label, never drop one.
CREATE OR REPLACE FUNCTION _step_data_loss(setting text, value text, settings jsonb, stated text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN (SELECT string_agg(DISTINCT l, ', ' ORDER BY l)
        FROM (SELECT walpressure._data_loss(setting, value) AS l
              WHERE setting <> 'settings'
              UNION ALL
              SELECT walpressure._data_loss(c.key, c.value)
              FROM jsonb_each_text(CASE WHEN setting = 'settings' THEN value::jsonb ELSE '{}' END
                                   || coalesce(settings, '{}')) AS c
              UNION ALL
              SELECT x FROM regexp_split_to_table(coalesce(stated, ''), ',\s*') AS x
              WHERE x IN ('fsync=off', 'full_page_writes=off', 'synchronous_commit=off')) a
        WHERE l IS NOT NULL);

-- import() after its check: the document as a new sweep here, its steps and
-- samples as they were, the server it ran on in origin; what can be derived
-- is derived, not taken: each step's value is the sweep's value at its
-- position, and what it can lose in a crash is what its settings give.
CREATE OR REPLACE FUNCTION _import(sweep jsonb)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    d jsonb := _import.sweep;
    s walpressure.sweeps;
BEGIN
    s := jsonb_populate_record(NULL::walpressure.sweeps, d->'sweep');
    s.origin := coalesce(d->'server', '{}') || jsonb_build_object(
        'sweep_id', d->'sweep'->'sweep_id', 'exported_at', d->'exported_at',
        'walpressure_version', d->'walpressure_version');
    s.sweep_id := nextval('walpressure.sweeps_sweep_id_seq');
    IF s.status = 'running' THEN
        s.status := 'aborted';      -- it ran on when it was exported: what came is all there is
    END IF;
    INSERT INTO walpressure.sweeps SELECT s.*;
    INSERT INTO walpressure.steps
    SELECT (jsonb_populate_record(NULL::walpressure.steps, e || jsonb_build_object(
                'sweep_id', s.sweep_id, 'value', v.value,
                'data_loss', walpressure._step_data_loss(s.setting, v.value, s.settings, e->>'data_loss')))).*
    FROM jsonb_array_elements(d->'steps') AS e
    CROSS JOIN LATERAL (SELECT s.vals[(e->>'value_pos')::int] AS value) v;
    INSERT INTO walpressure.step_samples
    SELECT (jsonb_populate_record(NULL::walpressure.step_samples, e || jsonb_build_object('sweep_id', s.sweep_id))).*
    FROM jsonb_array_elements(d->'step_samples') AS e;
    -- none in documents from before walpressure 0.5.0
    INSERT INTO walpressure.step_statements
    SELECT (jsonb_populate_record(NULL::walpressure.step_statements, e || jsonb_build_object('sweep_id', s.sweep_id))).*
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(d->'step_statements') = 'array'
                                   THEN d->'step_statements' ELSE '[]' END) AS e;
    -- none in documents from before walpressure 0.6.0
    INSERT INTO walpressure.step_replication
    SELECT (jsonb_populate_record(NULL::walpressure.step_replication, e || jsonb_build_object('sweep_id', s.sweep_id))).*
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(d->'step_replication') = 'array'
                                   THEN d->'step_replication' ELSE '[]' END) AS e;
    -- none in documents from before walpressure 0.7.0
    INSERT INTO walpressure.search_rounds
    SELECT (jsonb_populate_record(NULL::walpressure.search_rounds, e || jsonb_build_object('sweep_id', s.sweep_id))).*
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(d->'search_rounds') = 'array'
                                   THEN d->'search_rounds' ELSE '[]' END) AS e;
    RETURN s.sweep_id;
END
$$;

COMMENT ON FUNCTION _import(jsonb) IS
'import() after its check: the document as a new sweep of this database';

REVOKE ALL ON FUNCTION _import(jsonb) FROM PUBLIC;

-- Text safe inside SVG.
CREATE OR REPLACE FUNCTION _xml_text(t text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN replace(replace(replace(replace(t, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;');

-- A round step for an axis: 1, 2, 2.5 or 5 times a power of ten, at or
-- above x, so that its multiples read well as ticks.
CREATE OR REPLACE FUNCTION _nice_step(x float8)
RETURNS float8
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN x <= 0 THEN 1
    ELSE (SELECT min(m * p) FROM (VALUES (1.0), (2.0), (2.5), (5.0), (10.0)) AS f(m),
                 LATERAL (SELECT power(10, floor(log(x)))::float8 AS p) q
          WHERE m * p >= x * (1 - 1e-9)) END;

-- A tick label: whole numbers as such, others with the decimals they need.
CREATE OR REPLACE FUNCTION _tick(x float8)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN x = round(x) THEN round(x)::bigint::text
            ELSE trim_scale(round(x::numeric, 3))::text END;

-- An SVG coordinate, to a tenth of a pixel.
CREATE OR REPLACE FUNCTION _px(x float8)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN round(x::numeric, 1)::text;

-- The unit of a setting's bare number, for the chart's x axis.
CREATE OR REPLACE FUNCTION _setting_unit(setting text)
RETURNS text
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE setting
    WHEN 'commit_delay' THEN 'microseconds'
    WHEN 'round_trip_us' THEN 'microseconds'
    WHEN 'commit_siblings' THEN 'other open transactions'
    WHEN 'checkpoint_completion_target' THEN 'fraction of checkpoint_timeout'
    WHEN 'clients' THEN 'clients'
    WHEN 'batch_size' THEN 'rows per commit'
    WHEN 'iops_cap' THEN 'write IOPS'
    ELSE (SELECT p.unit FROM pg_catalog.pg_settings p WHERE p.name = _setting_unit.setting) END;

-- An SVG chart of a sweep: tps (with its 95% interval) and write IOPS against
-- the value, on a numeric axis (log when the values span 20x or more) for
-- number settings, with the cap, the current value, the answer and any
-- data-loss risk in the legend.
-- A value as a chart labels it: a configuration's settings as name=value,
-- joined by sep ('{}': as is); any other value as it is.
CREATE OR REPLACE FUNCTION _value_label(setting text, value text, sep text)
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT CASE WHEN setting <> 'settings' THEN value
                WHEN value::jsonb = '{}' THEN 'as is'
                ELSE (SELECT string_agg(c.key || '=' || c.value, sep ORDER BY c.key)
                      FROM jsonb_each_text(value::jsonb) c) END;
END;

-- A grid sweep's SVG: a heat map, one cell per pair of values, its tps and
-- speedup, green when faster and red when slower than the baseline (the
-- paired ratio's 95% interval excludes 1; the deeper, the larger the
-- speedup), grey otherwise.
CREATE OR REPLACE FUNCTION _plot_grid(sweep_id bigint)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s walpressure.sweeps;
    g record;
    k walpressure.best;
    c record;
    cw int := 120; ch int := 48;
    l int; t int := 130; w int; h int;
    x float8; y float8; a float8;
    smax float8;
    fill text; tone int[];
    loss text;
    svg text;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w2 WHERE w2.sweep_id = _plot_grid.sweep_id;
    SELECT * INTO g FROM walpressure._grid(_plot_grid.sweep_id);
    SELECT * INTO k FROM walpressure.best bb WHERE bb.sweep_id = _plot_grid.sweep_id;
    SELECT max(abs(ln(x2.speedup))), string_agg(DISTINCT x2.data_loss, ', ') FILTER (WHERE x2.data_loss IS NOT NULL)
        INTO smax, loss
        FROM walpressure.results x2 WHERE x2.sweep_id = _plot_grid.sweep_id AND x2.value_pos > 0 AND x2.speedup > 0;
    l := 30 + 7 * greatest(length(g.down), (SELECT max(length(v)) FROM unnest(g.down_vals) v));
    w := greatest(l + cw * cardinality(g.across_vals) + 30, 620);
    h := t + ch * cardinality(g.down_vals) + 70;
    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || format('<rect width="%s" height="%s" fill="white"/>', w, h)
        || format('<text x="%s" y="24" text-anchor="middle" font-size="15">%s</text>', w / 2,
                  walpressure._xml_text(format('sweep %s%s: %s by %s', s.sweep_id,
                                               coalesce(' "' || s.label || '"', ''), g.down, g.across)))
        || format('<text x="%s" y="42" text-anchor="middle" font-size="11" fill="#555555">%s</text>', w / 2,
                  walpressure._xml_text(format('%s, %s clients, %s engine, %s x %s s%s; %s, %s',
                                               s.workload, s.clients, s.engine, s.repeats,
                                               trim_scale(extract(epoch FROM s.duration)),
                                               coalesce(', disk capped at ' || s.iops_cap || ' write IOPS', ''),
                                               to_char(s.started_at, 'YYYY-MM-DD HH24:MI'), s.status)))
        || format('<text x="%s" y="62">%s</text>', 20,
                  walpressure._xml_text('each cell: tps and speedup against the baseline (=); green faster, red slower (95% interval of the paired ratio), grey undecided or equivalent'))
        || format('<text x="%s" y="%s" text-anchor="middle" font-weight="bold">%s</text>',
                  walpressure._px(l + cw * cardinality(g.across_vals) / 2.0), t - 30, walpressure._xml_text(g.across))
        || format('<text x="%s" y="%s" text-anchor="end" font-weight="bold">%s</text>', l - 8, t - 10,
                  walpressure._xml_text(g.down));
    FOR c IN SELECT av.v, av.i FROM unnest(g.across_vals) WITH ORDINALITY av(v, i) LOOP
        svg := svg || format('<text x="%s" y="%s" text-anchor="middle">%s</text>',
                             walpressure._px(l + cw * (c.i - 0.5)), t - 10, walpressure._xml_text(c.v));
    END LOOP;
    FOR c IN SELECT dv.v, dv.i FROM unnest(g.down_vals) WITH ORDINALITY dv(v, i) LOOP
        svg := svg || format('<text x="%s" y="%s" text-anchor="end">%s</text>',
                             l - 8, walpressure._px(t + ch * (c.i - 0.5) + 4), walpressure._xml_text(c.v));
    END LOOP;
    FOR c IN SELECT dv.i AS di, av.i AS ai, rr.tps, rr.speedup, rr.verdict, rr.is_current, rr.value,
                    rr.tps_ci_low, rr.tps_ci_high
             FROM unnest(g.down_vals) WITH ORDINALITY dv(v, i)
             CROSS JOIN unnest(g.across_vals) WITH ORDINALITY av(v, i)
             LEFT JOIN walpressure.results rr
                    ON rr.sweep_id = _plot_grid.sweep_id AND rr.value_pos > 0
                   AND rr.value::jsonb->>g.down = dv.v AND rr.value::jsonb->>g.across = av.v LOOP
        x := l + cw * (c.ai - 1);
        y := t + ch * (c.di - 1);
        a := CASE WHEN c.speedup > 0 AND smax > 0 THEN 0.25 + 0.75 * least(abs(ln(c.speedup)) / smax, 1) ELSE 0 END;
        tone := CASE c.verdict WHEN 'faster' THEN ARRAY[42, 157, 58] WHEN 'slower' THEN ARRAY[192, 57, 43] END;
        fill := CASE WHEN c.tps IS NULL THEN '#ffffff'
                     WHEN tone IS NULL THEN '#e8e8e8'
                     ELSE format('rgb(%s,%s,%s)', round(255 + (tone[1] - 255) * a), round(255 + (tone[2] - 255) * a),
                                 round(255 + (tone[3] - 255) * a)) END;
        svg := svg || format('<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="%s" stroke-width="%s"%s><title>%s</title></rect>',
                             walpressure._px(x), walpressure._px(y), cw, ch, fill,
                             CASE WHEN k.apply IS NOT NULL AND c.value = k.value THEN '#1b5e20' ELSE '#999999' END,
                             CASE WHEN k.apply IS NOT NULL AND c.value = k.value THEN 3 ELSE 1 END,
                             CASE WHEN c.is_current THEN ' stroke-dasharray="5 3"' ELSE '' END,
                             walpressure._xml_text(coalesce(walpressure._value_label(s.setting, c.value, ', ') || ': ' || c.tps || ' tps'
                                                            || coalesce(' (95% interval ' || c.tps_ci_low || '-' || c.tps_ci_high || ')', '')
                                                            || ', ' || c.verdict, 'not measured')))
                   || format('<text x="%s" y="%s" text-anchor="middle" font-size="13"%s>%s</text>',
                             walpressure._px(x + cw / 2.0), walpressure._px(y + 20),
                             CASE WHEN a > 0.6 AND tone IS NOT NULL THEN ' fill="white"' ELSE '' END,
                             coalesce(round(c.tps)::text, '-'))
                   || format('<text x="%s" y="%s" text-anchor="middle" font-size="11"%s>%s</text>',
                             walpressure._px(x + cw / 2.0), walpressure._px(y + 37),
                             CASE WHEN a > 0.6 AND tone IS NOT NULL THEN ' fill="white"' ELSE '' END,
                             walpressure._xml_text(CASE WHEN c.verdict = 'baseline' THEN '= baseline'
                                                        WHEN c.speedup IS NULL THEN coalesce(c.verdict, '')
                                                        ELSE walpressure._ratio_text(c.speedup) || 'x' || CASE c.verdict WHEN 'faster' THEN ' +'
                                                                                   WHEN 'slower' THEN ' -' ELSE '' END END));
    END LOOP;
    y := t + ch * cardinality(g.down_vals) + 24;
    svg := svg || format('<text x="%s" y="%s">%s</text>', 20, walpressure._px(y),
                         walpressure._xml_text(coalesce(
                             CASE WHEN k.apply IS NOT NULL THEN format('best (thick border): %s, %sx', 
                                                                      walpressure._value_label(s.setting, k.value, ', '), walpressure._ratio_text(k.gain))
                                  WHEN k.answer LIKE 'keep%' THEN 'keep: nothing beats the baseline' END, '')
                             || CASE WHEN EXISTS (SELECT 1 FROM walpressure.results z WHERE z.sweep_id = _plot_grid.sweep_id AND z.is_current AND z.value_pos > 0)
                                     THEN '; dashed: the current configuration' ELSE '' END));
    IF loss IS NOT NULL THEN
        svg := svg || format('<text x="%s" y="%s" fill="#c0392b" font-weight="bold">%s</text>', 20, walpressure._px(y + 20),
                             walpressure._xml_text('a crash can lose data at ' || loss));
    END IF;
    RETURN svg || '</svg>';
END
$$;

COMMENT ON FUNCTION _plot_grid(bigint) IS
'plot() of a grid sweep (two settings, every pair of their values): a heat map of the tps and the speedup against the baseline';

CREATE OR REPLACE FUNCTION _plot(sweep_id bigint)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    s walpressure.sweeps;
    k walpressure.best;
    r record;
    w int := 760; h int := 480;
    l int := 80; rt int := 80; t int := 108; b int := 66;
    pw float8; ph float8;
    n int;
    numeric_x bool; log_x bool;
    xmin float8; xmax float8;
    tps_max float8; iops_max float8;
    tps_step float8; iops_step float8; tps_top float8; iops_top float8;
    x_step float8; v float8;
    px float8; py float8;
    has_iops bool;
    loss text;
    unit text;
    svg text;
    tps_line text := '';
    iops_line text := '';
    marks text := '';
    legend text := '';
    lx float8;
    lines int;
    open bool;          -- an open loop: the right axis is p99 latency, not write IOPS
    right_label text;
BEGIN
    SELECT * INTO s FROM walpressure.sweeps w2 WHERE w2.sweep_id = _plot.sweep_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no sweep %', _plot.sweep_id USING ERRCODE = 'no_data_found';
    END IF;
    -- a grid: a heat map
    IF EXISTS (SELECT 1 FROM walpressure._grid(_plot.sweep_id)) THEN
        RETURN walpressure._plot_grid(_plot.sweep_id);
    END IF;
    -- a configuration's label has a line per setting: room below the axis
    IF s.setting = 'settings' THEN
        SELECT coalesce(max((SELECT count(*) FROM jsonb_object_keys(v2::jsonb))), 1) INTO lines
        FROM unnest(s.vals) AS v2;
        h := h + 15 * (greatest(lines, 1) - 1);
        b := b + 15 * (greatest(lines, 1) - 1);
    END IF;
    SELECT * INTO k FROM walpressure.best bb WHERE bb.sweep_id = _plot.sweep_id;
    pw := w - l - rt;
    ph := h - t - b;

    -- what is drawn: every value with a step (the current value's row when it
    -- was not measured is in the legend, not on the axis)
    SELECT count(*), bool_and(walpressure._setting_number(s.setting, x2.value) IS NOT NULL),
           min(walpressure._setting_number(s.setting, x2.value)),
           max(walpressure._setting_number(s.setting, x2.value)),
           max(x2.tps),
           CASE WHEN bool_or(x2.rate IS NOT NULL) THEN max(x2.latency_p99_ms) ELSE max(greatest(x2.write_iops, x2.iops_cap)) END,
           CASE WHEN bool_or(x2.rate IS NOT NULL) THEN bool_or(x2.latency_p99_ms IS NOT NULL) ELSE bool_or(x2.write_iops IS NOT NULL) END,
           bool_or(x2.rate IS NOT NULL),
           CASE WHEN s.setting = 'settings' THEN
               string_agg(DISTINCT x2.data_loss, ', ') FILTER (WHERE x2.data_loss IS NOT NULL)
           ELSE string_agg(DISTINCT x2.value || ' (' || x2.data_loss || ')', ', ') FILTER (WHERE x2.data_loss IS NOT NULL) END
        INTO n, numeric_x, xmin, xmax, tps_max, iops_max, has_iops, open, loss
        FROM walpressure.results x2 WHERE x2.sweep_id = _plot.sweep_id AND x2.value_pos > 0;
    open := coalesce(open, false);
    right_label := CASE WHEN open THEN 'p99 latency, ms' ELSE 'write IOPS' END;
    -- a numeric axis needs values a tick apart: two that differ in the last
    -- digits of a float8 are drawn one per value
    numeric_x := coalesce(numeric_x, false) AND n >= 2
                 AND xmax - xmin > 1e-9 * greatest(abs(xmin), abs(xmax));
    log_x := numeric_x AND xmin > 0 AND xmax / xmin >= 20;
    unit := walpressure._setting_unit(s.setting);

    -- round steps; the axes fit the means (a wide interval is cut at the top)
    tps_step := walpressure._nice_step(1.1 * coalesce(tps_max, 1) / 5);
    tps_top := tps_step * ceil(1.1 * coalesce(tps_max, 1) / tps_step);
    iops_step := walpressure._nice_step(1.1 * coalesce(iops_max, 1) / 5);
    iops_top := iops_step * ceil(1.1 * coalesce(iops_max, 1) / iops_step);

    svg := format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">',
                  w, h, w, h)
        || format('<rect width="%s" height="%s" fill="white"/>', w, h)
        || format('<text x="%s" y="24" text-anchor="middle" font-size="15">%s</text>', w / 2,
                  walpressure._xml_text(format('sweep %s%s: %s', s.sweep_id,
                                               coalesce(' "' || s.label || '"', ''), s.setting)))
        || format('<text x="%s" y="42" text-anchor="middle" font-size="11" fill="#555555">%s</text>', w / 2,
                  walpressure._xml_text(format('%s, %s clients, %s engine, %s x %s s%s; %s, %s',
                                               s.workload, s.clients, s.engine, s.repeats,
                                               trim_scale(extract(epoch FROM s.duration)),
                                               coalesce(', disk capped at ' || s.iops_cap || ' write IOPS', ''),
                                               to_char(s.started_at, 'YYYY-MM-DD HH24:MI'), s.status)))
        -- axes and their titles, above them (nothing rotated, nothing overlaps)
        || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', l, h - b, w - rt, h - b)
        || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', l, t, l, h - b)
        || format('<text x="%s" y="%s" text-anchor="start" fill="#1f5fa8">transactions per second</text>', l - 40, t - 10)
        || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', l + pw / 2, h - 18,
                  walpressure._xml_text(s.setting || coalesce(' (' || unit || CASE WHEN log_x THEN ', log scale' ELSE '' END || ')',
                                                              CASE WHEN log_x THEN ' (log scale)' ELSE '' END)));
    FOR i IN 0..least(round(tps_top / tps_step), 20)::int LOOP
        py := h - b - ph * i * tps_step / tps_top;
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#dddddd"/>', l, walpressure._px(py), w - rt, walpressure._px(py))
                   || format('<text x="%s" y="%s" text-anchor="end" fill="#1f5fa8">%s</text>',
                             l - 6, walpressure._px(py + 4), walpressure._tick(i * tps_step));
    END LOOP;
    IF has_iops THEN
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', w - rt, t, w - rt, h - b)
                   || format('<text x="%s" y="%s" text-anchor="end" fill="#c45a00">%s</text>', w - rt + 40, t - 10, right_label);
        FOR i IN 0..least(round(iops_top / iops_step), 20)::int LOOP
            py := h - b - ph * i * iops_step / iops_top;
            svg := svg || format('<text x="%s" y="%s" fill="#c45a00">%s</text>',
                                 w - rt + 6, walpressure._px(py + 4), walpressure._tick(i * iops_step));
        END LOOP;
    END IF;

    -- x ticks: round numbers on a numeric axis, else one per value
    IF numeric_x AND log_x THEN
        FOR e IN floor(log(xmin))::int..least(ceil(log(xmax))::int, floor(log(xmin))::int + 40) LOOP
            FOREACH v IN ARRAY ARRAY[1, 2, 5] LOOP
                CONTINUE WHEN v * power(10, e) < xmin * 0.999 OR v * power(10, e) > xmax * 1.001
                              OR (v <> 1 AND log(xmax / xmin) > 2.5);
                px := l + pw * (0.05 + 0.9 * (ln(v * power(10, e)) - ln(xmin)) / (ln(xmax) - ln(xmin)));
                svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', walpressure._px(px), h - b, walpressure._px(px), h - b + 5)
                           || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', walpressure._px(px), h - b + 19,
                                     walpressure._tick(v * power(10, e)));
            END LOOP;
        END LOOP;
    ELSIF numeric_x THEN
        x_step := walpressure._nice_step((xmax - xmin) / 5);
        -- ticks by count (a float step added to a large value can add nothing)
        FOR i IN 0..least(floor(xmax / x_step + 1e-9) - ceil(xmin / x_step - 1e-9), 20)::int LOOP
            v := (ceil(xmin / x_step - 1e-9) + i) * x_step;
            px := l + pw * (0.05 + 0.9 * (v - xmin) / (xmax - xmin));
            svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>', walpressure._px(px), h - b, walpressure._px(px), h - b + 5)
                       || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', walpressure._px(px), h - b + 19, walpressure._tick(v));
        END LOOP;
    END IF;

    FOR r IN SELECT x3.*, walpressure._setting_number(s.setting, x3.value) AS num
             FROM walpressure.results x3 WHERE x3.sweep_id = _plot.sweep_id AND x3.value_pos > 0
             ORDER BY CASE WHEN numeric_x THEN walpressure._setting_number(s.setting, x3.value) END, x3.value_pos LOOP
        px := l + pw * CASE WHEN log_x THEN 0.05 + 0.9 * (ln(r.num) - ln(xmin)) / (ln(xmax) - ln(xmin))
                            WHEN numeric_x THEN 0.05 + 0.9 * (r.num - xmin) / (xmax - xmin)
                            ELSE (r.value_pos - 0.5) / greatest(n, 1) END;
        IF NOT numeric_x THEN
            svg := svg || format('<text x="%s" y="%s" text-anchor="middle">%s</text>', walpressure._px(px), h - b + 19,
                                 CASE WHEN s.setting = 'settings' THEN
                                     format('<tspan x="%s">', walpressure._px(px))
                                     || replace(walpressure._xml_text(walpressure._value_label(s.setting, r.value, E'\n')), E'\n',
                                                format('</tspan><tspan x="%s" dy="15">', walpressure._px(px)))
                                     || '</tspan>'
                                 ELSE walpressure._xml_text(r.value) END);
        END IF;
        IF r.tps IS NULL THEN
            CONTINUE;           -- a value with no step that counts: its label only
        END IF;
        py := h - b - ph * r.tps / tps_top;
        tps_line := tps_line || walpressure._px(px) || ',' || walpressure._px(py) || ' ';
        IF r.tps_ci_low IS NOT NULL THEN
            marks := marks || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#1f5fa8"/>',
                                     walpressure._px(px), walpressure._px(h - b - ph * greatest(r.tps_ci_low, 0) / tps_top),
                                     walpressure._px(px), walpressure._px(h - b - ph * least(r.tps_ci_high, tps_top) / tps_top));
        END IF;
        marks := marks || format('<circle cx="%s" cy="%s" r="4" fill="#1f5fa8"><title>%s</title></circle>',
                                 walpressure._px(px), walpressure._px(py),
                                 walpressure._xml_text(format('%s = %s: %s tps%s, %s', s.setting, r.value, r.tps,
                                                              coalesce(' (95% interval ' || r.tps_ci_low || '-' || r.tps_ci_high || ')', ''),
                                                              r.verdict)));
        IF r.is_current THEN
            marks := marks || format('<circle cx="%s" cy="%s" r="8" fill="none" stroke="black" stroke-width="1.5"/>',
                                     walpressure._px(px), walpressure._px(py));
        END IF;
        IF k.apply IS NOT NULL AND r.value = k.value THEN
            marks := marks || format('<circle cx="%s" cy="%s" r="11" fill="none" stroke="#2a9d3a" stroke-width="2.5"/>',
                                     walpressure._px(px), walpressure._px(py));
        END IF;
        IF open AND r.latency_p99_ms IS NOT NULL THEN
            iops_line := iops_line || walpressure._px(px) || ',' || walpressure._px(h - b - ph * r.latency_p99_ms / iops_top) || ' ';
            -- a rate not sustained: a closed loop in disguise, marked red
            marks := marks || format('<rect x="%s" y="%s" width="8" height="8" fill="%s"><title>%s</title></rect>',
                                     walpressure._px(px - 4), walpressure._px(h - b - ph * r.latency_p99_ms / iops_top - 4),
                                     CASE WHEN r.rate_sustained THEN '#c45a00' ELSE '#c0392b' END,
                                     walpressure._xml_text(format('%s = %s: p99 %s ms, %s of %s transactions/s%s', s.setting, r.value,
                                                                  r.latency_p99_ms, r.rate_achieved, r.rate,
                                                                  CASE WHEN r.rate_sustained THEN '' ELSE ': NOT SUSTAINED, a closed loop in disguise' END)));
        ELSIF NOT open AND r.write_iops IS NOT NULL THEN
            iops_line := iops_line || walpressure._px(px) || ',' || walpressure._px(h - b - ph * r.write_iops / iops_top) || ' ';
        END IF;
    END LOOP;
    svg := svg || format('<polyline points="%s" fill="none" stroke="#1f5fa8" stroke-width="2"/>', trim(tps_line));
    IF iops_line <> '' THEN
        svg := svg || format('<polyline points="%s" fill="none" stroke="#c45a00" stroke-width="2" stroke-dasharray="6 4"/>',
                             trim(iops_line));
    END IF;
    IF s.iops_cap IS NOT NULL AND has_iops AND NOT open THEN
        py := h - b - ph * s.iops_cap / iops_top;
        svg := svg || format('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#c45a00" stroke-width="1" stroke-dasharray="2 3"/>',
                             l, walpressure._px(py), w - rt, walpressure._px(py));
    END IF;
    svg := svg || marks;

    -- the legend, one row under the title: each entry after the last
    lx := l;
    legend := format('<line x1="%s" y1="58" x2="%s" y2="58" stroke="#1f5fa8" stroke-width="2"/><text x="%s" y="62" fill="#1f5fa8">tps (bar: 95%% interval)</text>',
                     lx, lx + 18, lx + 22);
    lx := lx + 22 + 6.6 * length('tps (bar: 95% interval)') + 14;
    IF iops_line <> '' THEN
        legend := legend || format('<line x1="%s" y1="58" x2="%s" y2="58" stroke="#c45a00" stroke-width="2" stroke-dasharray="6 4"/><text x="%s" y="62" fill="#c45a00">%s</text>',
                                   walpressure._px(lx), walpressure._px(lx + 18), walpressure._px(lx + 22), right_label);
        lx := lx + 22 + 6.6 * length(right_label) + 14;
    END IF;
    IF s.iops_cap IS NOT NULL AND has_iops AND NOT open THEN
        legend := legend || format('<line x1="%s" y1="58" x2="%s" y2="58" stroke="#c45a00" stroke-dasharray="2 3"/><text x="%s" y="62" fill="#c45a00">%s</text>',
                                   walpressure._px(lx), walpressure._px(lx + 18), walpressure._px(lx + 22),
                                   'cap ' || s.iops_cap);
        lx := lx + 22 + 6.6 * length('cap ' || s.iops_cap) + 14;
    END IF;
    IF s.current_value IS NOT NULL THEN
        legend := legend || CASE WHEN s.current_pos IS NOT NULL
            THEN format('<circle cx="%s" cy="58" r="6" fill="none" stroke="black" stroke-width="1.5"/><text x="%s" y="62">%s</text>',
                        walpressure._px(lx + 8), walpressure._px(lx + 18),
                        walpressure._xml_text('current ' || walpressure._value_label(s.setting, s.current_value, ', ')))
            ELSE format('<text x="%s" y="62">%s</text>', walpressure._px(lx),
                        walpressure._xml_text('current ' || walpressure._value_label(s.setting, s.current_value, ', ') || ': not measured')) END;
        lx := lx + 18 + 6.6 * length('current ' || walpressure._value_label(s.setting, s.current_value, ', ')
                                     || CASE WHEN s.current_pos IS NULL THEN ': not measured' ELSE '' END) + 14;
    END IF;
    legend := legend || CASE WHEN k.apply IS NOT NULL
        THEN format('<circle cx="%s" cy="58" r="7" fill="none" stroke="#2a9d3a" stroke-width="2.5"/><text x="%s" y="62" fill="#2a9d3a">%s</text>',
                    walpressure._px(lx + 8), walpressure._px(lx + 20),
                    walpressure._xml_text(CASE WHEN lx + 20 + 6.6 * length(format('best %s: %sx', walpressure._value_label(s.setting, k.value, ', '), walpressure._ratio_text(k.gain))) <= w
                                               THEN format('best %s: %sx', walpressure._value_label(s.setting, k.value, ', '), walpressure._ratio_text(k.gain))
                                               ELSE format('best (circled): %sx', walpressure._ratio_text(k.gain)) END))
        WHEN k.answer LIKE 'keep%' THEN format('<text x="%s" y="62" fill="#2a9d3a">keep: nothing beats it</text>', walpressure._px(lx))
        ELSE '' END;
    IF loss IS NOT NULL THEN
        legend := legend || format('<text x="%s" y="80" fill="#c0392b" font-weight="bold">%s</text>', l,
                                   walpressure._xml_text('a crash can lose data at ' || loss));
    END IF;
    RETURN svg || legend || '</svg>';
END
$$;

COMMENT ON FUNCTION _plot(bigint) IS
'plot() after its check: an SVG chart of a sweep: tps with its 95% interval and write IOPS against the value (an open loop: p99 latency, schedule lag included, instead of IOPS, a rate not sustained in red); a grid''s heat map (_plot_grid)';

-- The entry points: the sweep ids checked in C (a plain "no sweep 99", no
-- PL/pgSQL CONTEXT), then the functions above.
CREATE OR REPLACE FUNCTION report(sweep_id bigint)
RETURNS SETOF text
AS 'MODULE_PATHNAME', 'wp_report'
LANGUAGE C STRICT STABLE;

COMMENT ON FUNCTION report(bigint) IS
'A text chart of a sweep for psql: a tps bar per value, its 95% interval, write IOPS, commits per fsync and the verdict against the current value (else the first)';

CREATE OR REPLACE FUNCTION plot(sweep_id bigint)
RETURNS text
AS 'MODULE_PATHNAME', 'wp_plot'
LANGUAGE C STRICT STABLE;

COMMENT ON FUNCTION plot(bigint) IS
'An SVG chart of a sweep: tps with its 95% interval and write IOPS against the value';

CREATE OR REPLACE FUNCTION compare(sweep_a bigint, sweep_b bigint)
RETURNS TABLE (value text, tps_a numeric, tps_b numeric, ratio numeric,
               ratio_ci_low numeric, ratio_ci_high numeric, verdict text)
AS 'MODULE_PATHNAME', 'wp_compare'
LANGUAGE C STRICT STABLE;

COMMENT ON FUNCTION compare(bigint, bigint) IS
'Two sweeps of the same setting value by value: tps of each, b over a (geometric means of their rounds) with its 95% interval (Welch''s t on the logs), and whether b is faster, slower, the same within +-walpressure.equivalence_margin % or undecided (with the rounds that would decide); a NOTICE names what else differs between them';

CREATE OR REPLACE FUNCTION export(sweep_id bigint)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'wp_export'
LANGUAGE C STRICT STABLE;

CREATE OR REPLACE FUNCTION import(sweep jsonb)
RETURNS bigint
AS 'MODULE_PATHNAME', 'wp_import'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION import(jsonb) IS
'A sweep export() made (here or on another server) as a new sweep of this database, with its steps and samples; origin names the server it ran on; returns the new id';

REVOKE ALL ON FUNCTION import(jsonb) FROM PUBLIC;

COMMENT ON FUNCTION export(bigint) IS
'A sweep as one JSON document (its row, steps, samples and the fingerprint of this server: system identifier, version, CPUs, WAL disk, cap, WAL settings), for import() on another server';

GRANT SELECT ON best TO pg_monitor;
