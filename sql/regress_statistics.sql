--
-- Statistics, verdicts, the best value, the text chart and the SVG, on step
-- rows with known figures.
--
\pset null '(null)'

-- the t quantiles behind the intervals
SELECT df, round(walpressure._t975(df)::numeric, 3) AS t975
FROM unnest(ARRAY[1, 2, 4, 30, 40, 120, 100000]) AS df;

-- sweep 1001: commit_delay 0 / 500 / 1000, three repeats, at a 1000 IOPS cap
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, iops_cap,
                                warmup, repeats, prewarm, run_by, database, steps_total,
                                steps_done, status, server_settings, label)
VALUES (1001, 'commit_delay', '{0,500,1000}', 10, '10 s', 'simple-update', 1000, '2 s', 3, true,
        current_user, current_database(), 9, 9, 'done', '{"commit_siblings": "5"}', 'known figures'),
       (1002, 'commit_delay', '{0,100}', 4, '4 s', 'simple-update', NULL, '2 s', 1, true,
        current_user, current_database(), 2, 2, 'done', '{"commit_siblings": "0x5"}', NULL);

INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, latency_p99_ms,
                               commits, leaders, wal_fsyncs, commits_per_fsync, wal_fsyncs_per_s,
                               wal_bytes, wal_records, wal_fpi, wal_buffers_full,
                               checkpoints_timed, checkpoints_requested, server_seconds,
                               iops_cap, write_iops, checkpoint_write_ms, checkpoint_sync_ms)
SELECT 1001, step, value, pos, rep, 10, 0, '2026-11-21', 10, tps * 10, 0, tps, p99,
       tps * 10, tps * 2, tps * 10 / cpf, cpf, tps / cpf, 1048576, 1000, 10, 0,
       0, CASE WHEN step = 6 THEN 1 ELSE 0 END, 10.1, 1000, iops, 0, 0
FROM (VALUES (1, '0', 1, 1, 100, 10, 2.5, 1000),
             (2, '500', 2, 1, 200, 8, 5.0, 990),
             (3, '1000', 3, 1, 101, 9, 2.6, 700),
             (4, '0', 1, 2, 110, 12, 2.5, 1000),
             (5, '500', 2, 2, 210, 9, 5.0, 990),
             (6, '1000', 3, 2, 111, 10, 2.6, 700),
             (7, '0', 1, 3, 90, 14, 2.5, 1000),
             (8, '500', 2, 3, 190, 7, 5.0, 990),
             (9, '1000', 3, 3, 91, 11, 2.6, 700)) AS v(step, value, pos, rep, tps, p99, cpf, iops);

-- sweep 1002: one repeat, so the intervals come from the per-second samples;
-- 4 clients with commit_siblings 5, recorded as typed ('0x5': the GUC
-- machinery took it, so must best)
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, latency_p99_ms, commits,
                               leaders, wal_fsyncs, wal_fsyncs_per_s, wal_bytes, wal_records, wal_fpi,
                               wal_buffers_full, checkpoints_timed, checkpoints_requested,
                               server_seconds, checkpoint_write_ms, checkpoint_sync_ms)
VALUES (1002, 1, '0', 1, 1, 4, 0, '2026-11-21', 4, 200, 0, 50, 1.5, 200, 100, 100, 25, 0, 0, 0, 3, 0, 0, 4.1, 0, 0),
       (1002, 2, '100', 2, 1, 4, 0, '2026-11-21', 4, 204, 2, 51, 1.51, 204, 100, 100, 25, 0, 0, 0, 0, 0, 0, 4.1, 0, 0);
INSERT INTO walpressure.step_samples (sweep_id, step, second, tps, latency_p99_ms, commits, wal_fsyncs, wal_bytes)
SELECT 1002, step, second, tps, 1.0 + tps / 100.0, tps, tps / 2, 0
FROM (VALUES (1, 1, 50), (1, 2, 52), (1, 3, 48), (1, 4, 50),
             (2, 1, 51), (2, 2, 53), (2, 3, 49), (2, 4, 51)) AS v(step, second, tps);

SELECT sweep_id, value, repeats, tps, tps_stddev, tps_ci_low, tps_ci_high, speedup,
       speedup_ci_low, speedup_ci_high, verdict, ci_basis
FROM walpressure.results WHERE sweep_id IN (1001, 1002);

SELECT sweep_id, value, latency_p99_ms, latency_p99_stddev_ms, latency_p99_ci_low_ms,
       latency_p99_ci_high_ms, write_iops, commits_per_fsync, checkpoints_requested
FROM walpressure.results WHERE sweep_id IN (1001, 1002);

\x on
SELECT * FROM walpressure.best WHERE sweep_id IN (1001, 1002);
\x off

SELECT * FROM walpressure.report(1001);
SELECT * FROM walpressure.report(1002);
SELECT walpressure.report(-1);

-- the SVG is a well-formed document with a point per value and both series
SELECT xml_is_well_formed_document(walpressure.plot(1001)) AS well_formed,
       (SELECT count(*) FROM regexp_matches(walpressure.plot(1001), '<circle [^>]* r="4"', 'g')) AS points,
       walpressure.plot(1001) LIKE '%write IOPS%' AS iops_axis,
       walpressure.plot(1001) LIKE '%>commit_delay (microseconds)</text>%' AS x_label,
       length(walpressure.plot(1001)) > 1000 AS drawn;
SELECT xml_is_well_formed_document(walpressure.plot(1002)) AS well_formed_without_iops,
       walpressure.plot(1002) LIKE '%write IOPS%' AS iops_axis;

-- sweep 1003: commit_delay on a fast disk, measured against the server's
-- current value (0): the delays only add waiting, and the CPUs are busy
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup, repeats,
                                prewarm, run_by, database, steps_total, steps_done, status,
                                server_settings, current_value, current_pos, cpus)
VALUES (1003, 'commit_delay', '{0,1000,2000}', 10, '30 s', 'simple-update', '2 s', 3, true,
        current_user, current_database(), 9, 9, 'done', '{"commit_siblings": "5"}', '0', 1, 2);
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, commits, leaders,
                               wal_fsyncs, fsync_avg_ms, server_seconds, server_cpu_s, client_cpu_s,
                               checkpoints_timed, checkpoints_requested, wal_buffers_full)
SELECT 1003, step, value, pos, rep, 10, 0, '2026-11-21', 30, tps * 30, 0, tps, tps * 30, tps * 30,
       tps * 30, 0.1, 30.1, cpu * 30, 0.2 * 30, 0, 0, 0
FROM (VALUES (1, '0', 1, 1, 9000, 1.6), (2, '1000', 2, 1, 4000, 0.8), (3, '2000', 3, 1, 2500, 0.6),
             (4, '0', 1, 2, 9100, 1.6), (5, '1000', 2, 2, 4100, 0.8), (6, '2000', 3, 2, 2400, 0.6),
             (7, '0', 1, 3, 8900, 1.6), (8, '1000', 2, 3, 3900, 0.8), (9, '2000', 3, 3, 2600, 0.6))
     AS v(step, value, pos, rep, tps, cpu);

-- sweep 1004: wal_writer_delay, whose current value (200ms) is not among the
-- values; cancelled after 2 of its 3 repeats, two values that differ less
-- than their spread
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup, repeats,
                                prewarm, run_by, database, steps_total, steps_done, status,
                                current_value, current_pos, cpus)
VALUES (1004, 'wal_writer_delay', '{10ms,1s}', 10, '30 s', 'simple-update', '2 s', 3, true,
        current_user, current_database(), 6, 4, 'cancelled', '200ms', NULL, 2);
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, commits, leaders,
                               server_seconds, checkpoints_timed, checkpoints_requested, wal_buffers_full)
SELECT 1004, step, value, pos, rep, 10, 0, '2026-11-21', 30, tps * 30, 0, tps, tps * 30, tps * 30,
       30.1, 0, 0, 0
FROM (VALUES (1, '10ms', 1, 1, 1000), (2, '1s', 2, 1, 1010), (3, '10ms', 1, 2, 1020), (4, '1s', 2, 2, 1022))
     AS v(step, value, pos, rep, tps);

SELECT sweep_id, value, value_pos, repeats, tps, speedup, verdict, is_current
FROM walpressure.results WHERE sweep_id IN (1003, 1004);
\x on
SELECT value, gain, verdict, apply, answer, current_value, diagnoses
FROM walpressure.best WHERE sweep_id IN (1003, 1004);
\x off
SELECT * FROM walpressure.report(1003);
SELECT * FROM walpressure.report(1004);
-- the same setting in two sweeps, value by value; what else differs is said
SELECT * FROM walpressure.compare(1001, 1003);
SELECT * FROM walpressure.compare(1001, 1004);
-- the plot leaves out the row of a current value that was not measured
SELECT (SELECT count(*) FROM regexp_matches(walpressure.plot(1004), '<circle [^>]* r="4"', 'g')) AS points,
       walpressure.plot(1004) LIKE '%current 200ms: not measured%' AS current_in_legend;
-- the chart of sweep 1001: a numeric axis with round ticks, the cap and the
-- answer in the legend, coordinates to a tenth of a pixel
SELECT (SELECT string_agg(m[1], ' ') FROM regexp_matches(walpressure.plot(1001),
            '<text x="[0-9.]+" y="[0-9.]+" text-anchor="middle">([0-9.]+)</text>', 'g') AS m) AS x_ticks,
       (SELECT string_agg(m[1], ' ') FROM regexp_matches(walpressure.plot(1001),
            '<text x="[0-9.]+" y="[0-9.]+" text-anchor="end" fill="#1f5fa8">([0-9.]+)</text>', 'g') AS m) AS tps_ticks,
       walpressure.plot(1001) LIKE '%>cap 1000</text>%' AS cap_in_legend,
       walpressure.plot(1001) LIKE '%best 500: 2.01x%' AS best_in_legend,
       walpressure.plot(1001) !~ '="-?[0-9]+\.[0-9]{2,}"' AS coordinates_rounded;

-- a sweep exported and imported again (as from another server): the same
-- figures, the same answer, and where it came from
SELECT walpressure.import(walpressure.export(1001)) AS copy \gset
SELECT value, tps_a, tps_b, ratio, verdict FROM walpressure.compare(1001, :copy);
SELECT origin->>'sweep_id' AS exported_as, origin ? 'system_identifier' AS fingerprinted,
       (SELECT count(*) FROM walpressure.steps WHERE sweep_id = :copy) AS steps,
       (SELECT answer FROM walpressure.best WHERE sweep_id = :copy) =
       (SELECT answer FROM walpressure.best WHERE sweep_id = 1001) AS same_answer
FROM walpressure.sweeps WHERE sweep_id = :copy;
SELECT walpressure.import('{"format": "something else"}');
SELECT walpressure.export(12345);

-- sweeps 1005, 1006: configurations ('settings'), the current one ('{}')
-- first.  In 1005 synchronous_commit = off wins; in 1006 a value that also
-- sets clients wins: the ALTER SYSTEM lines leave the load out.
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup, repeats,
                                prewarm, run_by, database, steps_total, steps_done, status,
                                current_value, current_pos, cpus, accept_data_loss)
VALUES (1005, 'settings', ARRAY['{}', '{"synchronous_commit": "off"}', '{"fsync": "off"}'], 10, '30 s',
        'simple-update', '2 s', 3, true, current_user, current_database(), 9, 9, 'done', '{}', 1, 2, true),
       (1006, 'settings', ARRAY['{}', '{"clients": 20, "commit_delay": 1000}'], 10, '30 s',
        'simple-update', '2 s', 3, true, current_user, current_database(), 6, 6, 'done', '{}', 1, 2, false);
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, commits, leaders,
                               server_seconds, checkpoints_timed, checkpoints_requested, wal_buffers_full,
                               data_loss)
SELECT sweep, step, value, pos, rep, clients, 0, '2026-11-21', 30, tps * 30, 0, tps, tps * 30, tps * 30,
       30.1, 0, 0, 0, CASE WHEN value LIKE '%"off"%' THEN replace(replace(replace(value, '{"', ''), '": "', '='), '"}', '') END
FROM (VALUES (1005, 1, '{}', 1, 1, 10, 1000), (1005, 2, '{"synchronous_commit": "off"}', 2, 1, 10, 3000),
             (1005, 3, '{"fsync": "off"}', 3, 1, 10, 2000),
             (1005, 4, '{}', 1, 2, 10, 1010), (1005, 5, '{"synchronous_commit": "off"}', 2, 2, 10, 3050),
             (1005, 6, '{"fsync": "off"}', 3, 2, 10, 2020),
             (1005, 7, '{}', 1, 3, 10, 990), (1005, 8, '{"synchronous_commit": "off"}', 2, 3, 10, 2950),
             (1005, 9, '{"fsync": "off"}', 3, 3, 10, 1980),
             (1006, 1, '{}', 1, 1, 10, 1000), (1006, 2, '{"clients": 20, "commit_delay": 1000}', 2, 1, 20, 1500),
             (1006, 3, '{}', 1, 2, 10, 1010), (1006, 4, '{"clients": 20, "commit_delay": 1000}', 2, 2, 20, 1510),
             (1006, 5, '{}', 1, 3, 10, 990), (1006, 6, '{"clients": 20, "commit_delay": 1000}', 2, 3, 20, 1490))
     AS v(sweep, step, value, pos, rep, clients, tps);
SELECT sweep_id, value, value_pos, tps, verdict, is_current
FROM walpressure.results WHERE sweep_id IN (1005, 1006);
\x on
SELECT sweep_id, value, verdict, apply, answer, current_value
FROM walpressure.best WHERE sweep_id IN (1005, 1006);
\x off

-- sweep 1007: a grid of commit_delay x clients (grid() gives its values);
-- report() adds the tps as a table, commit_delay down, clients across
SELECT walpressure.grid('commit_delay', '{0,1000}', 'clients', '{4,16}');
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup, repeats,
                                prewarm, run_by, database, steps_total, steps_done, status,
                                current_value, current_pos, cpus)
SELECT 1007, 'settings', walpressure.grid('commit_delay', '{0,1000}', 'clients', '{4,16}')::text[], 10, '30 s',
       'simple-update', '2 s', 2, true, current_user, current_database(), 8, 8, 'done', '{}', NULL, 2;
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, commits, leaders,
                               server_seconds, checkpoints_timed, checkpoints_requested, wal_buffers_full)
SELECT 1007, (rep - 1) * 4 + pos, v.value, pos, rep, v.clients, 0, '2026-11-21', 30, tps * 30, 0, tps, tps * 30,
       tps * 30, 30.1, 0, 0, 0
FROM (VALUES ('{"clients": "4", "commit_delay": "0"}', 1, 4, 1000), ('{"clients": "16", "commit_delay": "0"}', 2, 16, 2000),
             ('{"clients": "4", "commit_delay": "1000"}', 3, 4, 900), ('{"clients": "16", "commit_delay": "1000"}', 4, 16, 3000))
     AS v(value, pos, clients, base), generate_series(1, 2) AS rep,
     LATERAL (SELECT base + 10 * rep AS tps) t;
SELECT * FROM walpressure.report(1007);

-- its plot: a heat map, a cell per pair; green faster, red slower than the
-- baseline (the first value: the current one was not measured), the best
-- with a thick border
SELECT m[1] AS fill, m[2] AS stroke_width, m[3] AS title
FROM regexp_matches(walpressure.plot(1007),
                    '<rect x="[^"]*" y="[^"]*" width="120" height="48" fill="([^"]*)" stroke="[^"]*" stroke-width="([0-9])"[^>]*><title>([^<]*)</title>',
                    'g') AS m;
SELECT (regexp_match(walpressure.plot(1007), '<text[^>]*>(sweep 1007[^<]*)</text>'))[1] AS title,
       walpressure.plot(1007) LIKE '%best (thick border): clients=16, commit_delay=1000, 2.97x%' AS names_best,
       walpressure.plot(1001) NOT LIKE '%heat%' AND walpressure.plot(1001) LIKE '%<polyline%' AS others_as_before;

-- per-statement figures (pg_stat_statements over each window): the UPDATE's
-- mean over all the calls of a value, its 95% interval from the steps' means,
-- the stddev over all its calls (from each step's mean and stddev), and the
-- changes against the baseline; the SELECT is absent from one step
INSERT INTO walpressure.step_statements (sweep_id, step, rank, queryid, query, calls, total_ms, mean_ms,
                                         stddev_ms, rows, wal_bytes)
SELECT 1001, step, 1, 42, 'UPDATE pgbench_accounts SET abalance = abalance + $1
       WHERE aid = $2', 1000, 1000 * m, m, sd, 1000, 120000
FROM (VALUES (1, 1.0, 0.5), (4, 1.2, 0.5), (7, 0.8, 0.5),
             (2, 0.5, 0.25), (5, 0.6, 0.25), (8, 0.4, 0.25),
             (3, 1.0, 0.0), (6, 1.0, 0.0), (9, 1.0, 0.0)) AS v(step, m, sd)
UNION ALL
SELECT 1001, step, 2, -5404936574263592151, 'SELECT abalance FROM pgbench_accounts WHERE aid = $1', 1000, 100, 0.1, 0.01, 1000, 0
FROM generate_series(1, 8) AS step;
SELECT value, rank, queryid, steps, calls_per_s, mean_ms, mean_ci_low_ms, mean_ci_high_ms, stddev_ms,
       mean_change_pct, stddev_change_pct, rows_per_call, wal_bytes_per_call, time_pct
FROM walpressure.statements WHERE sweep_id = 1001;
SELECT * FROM walpressure.report(1001) r WHERE r ~ '^(statements|UPDATE|SELECT|  )';
-- export() and import() carry them, query ids of all 64 bits too
SELECT walpressure.import(walpressure.export(1001)) AS imported \gset
SELECT count(*) AS imported_statements FROM walpressure.step_statements WHERE sweep_id = :imported;

-- sweep 1008: fpi_bytes_pct is the images' share of the WAL they were read
-- from (wal_lsn_start to wal_lsn_end: 45%), not of pg_stat_wal's bytes,
-- which lag (30%); a baseline whose rounds vary twentyfold: the paired
-- ratio's interval is wide and decides nothing
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup, repeats,
                                prewarm, run_by, database, steps_total, steps_done, status)
VALUES (1008, 'max_wal_size', '{64MB,1GB}', 4, '10 s', 'tpcb-like', '2 s', 3, false,
        current_user, current_database(), 6, 6, 'done');
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, commits, leaders,
                               server_seconds, wal_bytes, fpi_bytes, wal_lsn_start, wal_lsn_end)
SELECT 1008, (rep - 1) * 2 + pos, value, pos, rep, 4, 0, '2026-11-21', 10, tps * 10, 0, tps, tps * 10,
       tps * 10, 10.1, 3000000, 900000, '0/1000000'::pg_lsn, '0/1000000'::pg_lsn + 2000000
FROM (VALUES ('64MB', 1, 1, 10), ('1GB', 2, 1, 200), ('64MB', 1, 2, 100), ('1GB', 2, 2, 210),
             ('64MB', 1, 3, 5), ('1GB', 2, 3, 190)) AS v(value, pos, rep, tps);
SELECT value, tps, tps_ci_low, speedup, speedup_ci_low, speedup_ci_high, verdict, fpi_bytes_pct
FROM walpressure.results WHERE sweep_id = 1008;
SELECT answer FROM walpressure.best WHERE sweep_id = 1008;

-- The decision (sql/objects/decision/): paired by round, tested as it says.
-- sweep 1101: the value is a steady 1.05x the baseline in every round while
-- the rounds drift 2x: paired, 1.05x with a narrow interval, faster; the
-- same figures unpaired (as two intervals would see them) decide nothing
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup, repeats,
                                prewarm, run_by, database, steps_total, steps_done, status,
                                current_value, current_pos, cpus)
VALUES (1101, 'commit_delay', '{0,1000}', 10, '30 s', 'simple-update', '2 s', 8, true,
        current_user, current_database(), 16, 16, 'done', '0', 1, 2);
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, latency_p99_ms, commits,
                               leaders, server_seconds)
SELECT 1101, (rep - 1) * 2 + pos, value, pos, rep, 10, 0, '2026-11-21', 30, tps * 30, 0, tps, 10, tps * 30,
       tps * 30, 30.1
FROM (VALUES (1, 1000), (2, 2000), (3, 1500), (4, 800), (5, 1900), (6, 1100), (7, 1600), (8, 1000)) AS d(rep, drift),
     LATERAL (VALUES ('0', 1, drift), ('1000', 2, drift * 1.05 * (1 + 0.002 * ((rep % 3) - 1)))) AS v(value, pos, tps);
SELECT value, speedup, speedup_ci_low, speedup_ci_high, verdict, paired_rounds, verdict_detail
FROM walpressure.results WHERE sweep_id = 1101;
SELECT verdict, round(ci_low::numeric, 2) AS unpaired_low, round(ci_high::numeric, 2) AS unpaired_high
FROM walpressure._decide((SELECT array_agg(tps ORDER BY repeat) FROM walpressure.steps WHERE sweep_id = 1101 AND value_pos = 2),
                         (SELECT array_agg(tps ORDER BY repeat) FROM walpressure.steps WHERE sweep_id = 1101 AND value_pos = 1),
                         false, true, 2);

-- sweep 1102: two values that cannot differ (A/A), within 0.3% in every
-- round: the same within the margin, and repeats => 'auto' would stop; a
-- margin of 0.1% leaves it undecided
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup, repeats,
                                prewarm, run_by, database, steps_total, steps_done, status,
                                current_value, current_pos, cpus)
VALUES (1102, 'commit_siblings', '{5,6}', 10, '30 s', 'simple-update', '2 s', 6, true,
        current_user, current_database(), 12, 12, 'done', '5', 1, 2);
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, latency_p99_ms, commits,
                               leaders, server_seconds)
SELECT 1102, (rep - 1) * 2 + pos, value, pos, rep, 10, 0, '2026-11-21', 30, tps * 30, 0, tps, 10, tps * 30,
       tps * 30, 30.1
FROM generate_series(1, 6) AS rep,
     LATERAL (VALUES ('5', 1, 1000 + 50 * rep), ('6', 2, (1000 + 50 * rep) * (1 + 0.003 * ((rep % 3) - 1)))) AS v(value, pos, tps);
SELECT value, speedup, speedup_ci_low, speedup_ci_high, verdict, verdict_detail
FROM walpressure.results WHERE sweep_id = 1102;
SELECT walpressure._rounds_decided(1102);
SET walpressure.equivalence_margin = 0.1;
SELECT value, verdict, rounds_needed FROM walpressure.results WHERE sweep_id = 1102 AND value_pos = 2;
RESET walpressure.equivalence_margin;
\x on
SELECT value, verdict, apply, answer, diagnoses, ties FROM walpressure.best WHERE sweep_id = 1102;
\x off

-- sweep 1103: 1000 and 2000 both beat 0, and cannot be told from each
-- other; 2000 has the lower p99: the answer names both and takes 2000;
-- repeats => 'auto' would go on (the top is not decided)
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup, repeats,
                                prewarm, run_by, database, steps_total, steps_done, status,
                                current_value, current_pos, cpus)
VALUES (1103, 'commit_delay', '{0,1000,2000}', 10, '30 s', 'simple-update', '2 s', 4, true,
        current_user, current_database(), 12, 12, 'done', '0', 1, 2);
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, latency_p99_ms, commits,
                               leaders, server_seconds)
SELECT 1103, (rep - 1) * 3 + pos, value, pos, rep, 10, 0, '2026-11-21', 30, tps * 30, 0, tps, p99, tps * 30,
       tps * 30, 30.1
FROM (VALUES (1, 1000, 2580, 2300), (2, 1010, 2620, 2900), (3, 990, 2540, 2500), (4, 1000, 2600, 2700))
         AS d(rep, t0, t1, t2),
     LATERAL (VALUES ('0', 1, t0, 30.0), ('1000', 2, t1, 30.0), ('2000', 3, t2, 8.1)) AS v(value, pos, tps, p99);
SELECT value, tps, speedup, verdict, latency_p99_ms, latency_p99_ratio, latency_p99_verdict
FROM walpressure.results WHERE sweep_id = 1103;
SELECT * FROM walpressure._ties(1103) ORDER BY value_pos;
SELECT walpressure._rounds_decided(1103) AS goes_on, walpressure._rounds_decided(1001) AS stops;
\x on
SELECT value, gain, verdict, apply, answer, ties FROM walpressure.best WHERE sweep_id = 1103;
\x off

-- sweeps 1104, 1105: values that can lose data are never applied
-- server-wide: synchronous_commit = off per transaction, fsync = off not at
-- all
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup, repeats,
                                prewarm, run_by, database, steps_total, steps_done, status,
                                current_value, current_pos, cpus, accept_data_loss)
VALUES (1104, 'synchronous_commit', '{on,off}', 10, '30 s', 'simple-update', '2 s', 3, true,
        current_user, current_database(), 6, 6, 'done', 'on', 1, 2, true),
       (1105, 'fsync', '{on,off}', 10, '30 s', 'simple-update', '2 s', 3, true,
        current_user, current_database(), 6, 6, 'done', 'on', 1, 2, true);
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, commits, leaders,
                               server_seconds, data_loss)
SELECT sweep, (rep - 1) * 2 + pos, value, pos, rep, 10, 0, '2026-11-21', 30, tps * 30, 0, tps, tps * 30,
       tps * 30, 30.1, CASE WHEN value = 'off' THEN setting || '=off' END
FROM (VALUES (1104, 'synchronous_commit'), (1105, 'fsync')) AS w(sweep, setting),
     generate_series(1, 3) AS rep,
     LATERAL (VALUES ('on', 1, 1000 + rep), ('off', 2, 8000 + 10 * rep)) AS v(value, pos, tps);
\x on
SELECT sweep_id, value, verdict, apply, answer FROM walpressure.best WHERE sweep_id IN (1104, 1105);
\x off

-- sweep 1106: one round has no interval: undecided, and best says why
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup, repeats,
                                prewarm, run_by, database, steps_total, steps_done, status,
                                current_value, current_pos, cpus)
VALUES (1106, 'commit_delay', '{0,1000}', 10, '30 s', 'simple-update', '2 s', 1, true,
        current_user, current_database(), 2, 2, 'done', '0', 1, 2);
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, commits, leaders, server_seconds)
VALUES (1106, 1, '0', 1, 1, 10, 0, '2026-11-21', 30, 30000, 0, 1000, 30000, 30000, 30.1),
       (1106, 2, '1000', 2, 1, 10, 0, '2026-11-21', 30, 60000, 0, 2000, 60000, 60000, 30.1);
SELECT value, speedup, verdict, verdict_detail FROM walpressure.results WHERE sweep_id = 1106;
SELECT answer, diagnoses FROM walpressure.best WHERE sweep_id = 1106;

-- the rule itself: latency reads lower / higher; no common round; the
-- rounds that would decide
SELECT verdict, detail FROM walpressure._decide('{10,11,10.5}', '{20,21,20.5}', true, false, 2);
SELECT verdict, detail FROM walpressure._decide('{10,11}', '{NULL,NULL}', true, true, 2);
SELECT verdict, rounds_needed, detail FROM walpressure._decide('{103,98,104}', '{100,100,100}', true, true, 2);

-- cleaning up: delete_sweeps takes the ended sweeps older than its interval
SELECT walpressure.delete_sweeps('1000 years');
SELECT walpressure.delete_sweeps('1 microsecond') >= 8 AS deleted;
-- an age that is not positive would mean every sweep: refused
SELECT walpressure.delete_sweeps('-1 day');
SELECT walpressure.delete_sweeps('0 s');
SELECT count(*) FROM walpressure.sweeps WHERE sweep_id BETWEEN 1001 AND 1106;
