--
-- Hostile documents for import(): what one imported sweep could do to every
-- reader (overflow a reading, advise losing data, advise a value never run,
-- outlive delete_sweeps, cost minutes), refused or re-derived; and who may
-- import.
--
\set SHOW_CONTEXT never
\pset null '(null)'

-- a sweep of three rounds with known figures: 1000 is three times faster
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup,
                                repeats, prewarm, run_by, database, steps_total, steps_done,
                                status, label, finished_at, f0_ms)
VALUES (2101, 'commit_delay', '{0,1000}', 4, '10 s', 'simple-update', '0 s', 3, false,
        current_user, current_database(), 6, 6, 'done', 'hostile base', clock_timestamp(), 0.5);
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, commits, leaders,
                               server_seconds, fsync_avg_ms, latency_p99_ms)
SELECT 2101, 2 * r + p - 2, v, p, r, 4, 0, clock_timestamp(), 10, tps * 10, 0, tps + r, tps * 10, 500,
       10, 1.5, 40.0 / p
FROM (VALUES (1, '0', 100), (2, '1000', 300)) AS x(p, v, tps), generate_series(1, 3) AS r;
SELECT walpressure.export(2101) AS doc \gset
-- the document as exported anew (import() takes one export once)
CREATE FUNCTION pg_temp.fresh(d jsonb) RETURNS jsonb LANGUAGE sql
RETURN jsonb_set(d, '{exported_at}', to_jsonb(clock_timestamp()));

-- what has not export()'s shape is refused before any member is read (in C,
-- as the caller): not an object, another format or version (1, as ->> reads
-- it: 1.0 is not), the sweep not an object, its steps or samples not arrays
SELECT walpressure.import('null');
SELECT walpressure.import('"walpressure sweep"');
SELECT walpressure.import(:'doc'::jsonb - 'format');
SELECT walpressure.import(jsonb_set(:'doc', '{format}', '["walpressure sweep"]'));
SELECT walpressure.import(jsonb_set(:'doc', '{format_version}', '2'));
SELECT walpressure.import(jsonb_set(:'doc', '{format_version}', '1.0'));
SELECT walpressure.import(jsonb_set(:'doc', '{format_version}', '"1.0"'));
SELECT walpressure.import(jsonb_set(:'doc', '{sweep}', '[]'));
SELECT walpressure.import(jsonb_set(:'doc', '{steps}', '{}'));
SELECT walpressure.import(:'doc'::jsonb - 'step_samples');

-- figures so small that a ratio, a logarithm or an interval of them leaves
-- float8 (1e-300 broke best, plot and fleet_reading for every reader): a
-- figure is zero or at least 1e-9 in size
SELECT walpressure.import(jsonb_set(:'doc', '{steps,0,tps}', '1e-300'));
SELECT walpressure.import(jsonb_set(:'doc', '{steps,1,latency_p99_ms}', '-1e-300'));
SELECT walpressure.import(jsonb_set(:'doc', '{steps,2,fsync_avg_ms}', '5e-324'));
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,f0_ms}', '1e-300'));
-- a time is never negative (a closed loop's p99 of -5 reached ln())
SELECT walpressure.import(jsonb_set(:'doc', '{steps,1,latency_p99_ms}', '-5'));
SELECT walpressure.import(jsonb_set(:'doc', '{steps,1,round_trip_us}', '-1'));
-- a spread is the rounding error of equal times, far below 1e-9: zero or at
-- least 1e-100, whose square a reading takes
SELECT walpressure.import(jsonb_set(:'doc', '{steps,0,latency_stddev_ms}', '1e-300'));
-- the same figures written as JSON strings, which a column's input function
-- would take unchecked ('1e200', 'NaN', 'Infinity', '-5', a bigint's end):
-- a figure is a JSON number
SELECT walpressure.import(jsonb_set(:'doc', '{steps,0,tps}', '"1e200"'));
SELECT walpressure.import(jsonb_set(:'doc', '{steps,1,latency_p99_ms}', '"NaN"'));
SELECT walpressure.import(jsonb_set(:'doc', '{steps,2,fsync_avg_ms}', '"Infinity"'));
SELECT walpressure.import(jsonb_set(:'doc', '{steps,3,commits}', '"-5"'));
SELECT walpressure.import(jsonb_set(:'doc', '{steps,4,checkpoints_timed}', '"9223372036854775807"'));
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,f0_ms}', '"1e-300"'));
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,iops_cap}', '"0"'));
-- values beyond their setting's limits, as the GUC machinery reads them
SELECT walpressure.import(jsonb_set(jsonb_set(:'doc', '{sweep,setting}', '"checkpoint_completion_target"'),
                                    '{sweep,vals}', '["0.5", "1e308"]'));
SELECT walpressure.import(jsonb_set(jsonb_set(:'doc', '{sweep,setting}', '"checkpoint_completion_target"'),
                                    '{sweep,vals}', '["-1e308", "0.5"]'));
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,vals}', '["0", "99999999"]'));
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,current_value}', '"-1"'));
SELECT walpressure.import(jsonb_set(jsonb_set(:'doc', '{sweep,setting}', '"clients"'),
                                    '{sweep,vals}', '["4", "1e9"]'));
SELECT walpressure.import(jsonb_set(jsonb_set(:'doc', '{sweep,setting}', '"settings"'),
                                    '{sweep,vals}', '["{}", "{\"commit_delay\": \"1e308\"}"]'));
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,settings}', '{"commit_siblings": "-7"}'));

-- both bounds at once, in every round: every reading still answers
SELECT walpressure.import(pg_temp.fresh(jsonb_set(jsonb_set(jsonb_set(jsonb_set(jsonb_set(jsonb_set(jsonb_set(:'doc',
           '{steps,5,latency_stddev_ms}', '1e-100'), '{steps,0,tps}', '1e-9'), '{steps,1,tps}', '1e12'),
           '{steps,2,tps}', '1e12'), '{steps,3,tps}', '1e-9'),
           '{sweep,f0_ms}', '1e-9'), '{steps,4,latency_p99_ms}', '1e12'))) AS edges \gset
SELECT value, verdict, speedup_ci_low IS NOT NULL AS has_interval FROM walpressure.results
WHERE sweep_id = :edges ORDER BY value_pos;
SELECT answer IS NOT NULL AS answered, diagnoses IS NOT NULL AS diagnosed FROM walpressure.best WHERE sweep_id = :edges;
SELECT count(*) > 0 AS reported FROM walpressure.report(:edges);
SELECT walpressure.plot(:edges) LIKE '<svg%' AS plotted;
SELECT count(*) > 0 AS compared FROM walpressure.compare(2101, :edges);
SELECT count(*) >= 0 AS fleet_reads FROM walpressure.fleet_reading;
SELECT count(*) > 0 AS every_sweep_answers FROM walpressure.best;

-- a settings sweep whose step value is not JSON: the value is the sweep's
-- own at its position, whatever the step says
SELECT walpressure.import(pg_temp.fresh(jsonb_set(jsonb_set(jsonb_set(:'doc', '{sweep,setting}', '"settings"'),
           '{sweep,vals}', '["{}", "{\"commit_delay\": \"1000\"}"]'), '{steps,1,value}', '"not json {"'))) AS cfg \gset
SELECT step, value FROM walpressure.steps WHERE sweep_id = :cfg ORDER BY step LIMIT 2;
SELECT apply FROM walpressure.best WHERE sweep_id = :cfg;
-- a step that says it ran a value the sweep never ran: best advises only
-- the sweep's values
SELECT walpressure.import(pg_temp.fresh(jsonb_set(jsonb_set(:'doc', '{steps,1,value}', '"99999"'),
                                    '{steps,3,value}', '"99999"'))) AS forged \gset
SELECT DISTINCT value FROM walpressure.steps WHERE sweep_id = :forged ORDER BY 1;
SELECT value, apply FROM walpressure.best WHERE sweep_id = :forged;

-- a data-losing value whose label the document left out: what it can lose
-- is derived from the setting and the value, and best never applies it
-- server-wide (fsync, full_page_writes: not at all; synchronous_commit:
-- per transaction)
SELECT walpressure.import(pg_temp.fresh(jsonb_set(jsonb_set(:'doc', '{sweep,setting}', '"fsync"'),
                                    '{sweep,vals}', '["on", "off"]'))) AS fsync_off \gset
SELECT DISTINCT value, data_loss FROM walpressure.steps WHERE sweep_id = :fsync_off ORDER BY 1;
SELECT value, apply FROM walpressure.best WHERE sweep_id = :fsync_off;
SELECT walpressure.import(pg_temp.fresh(jsonb_set(jsonb_set(:'doc', '{sweep,setting}', '"full_page_writes"'),
                                    '{sweep,vals}', '["on", "off"]'))) AS fpw_off \gset
SELECT value, apply FROM walpressure.best WHERE sweep_id = :fpw_off;
SELECT walpressure.import(pg_temp.fresh(jsonb_set(jsonb_set(:'doc', '{sweep,setting}', '"synchronous_commit"'),
                                    '{sweep,vals}', '["on", "off"]'))) AS sc_off \gset
SELECT value, apply FROM walpressure.best WHERE sweep_id = :sc_off;
SELECT walpressure.import(pg_temp.fresh(jsonb_set(jsonb_set(:'doc', '{sweep,setting}', '"settings"'),
                                    '{sweep,vals}', '["{}", "{\"fsync\": \"off\", \"commit_delay\": \"10\"}"]'))) AS cfg_off \gset
SELECT DISTINCT value, data_loss FROM walpressure.steps WHERE sweep_id = :cfg_off ORDER BY 1;
SELECT value, apply FROM walpressure.best WHERE sweep_id = :cfg_off;
-- the fixed settings count too: a commit_delay sweep run with
-- synchronous_commit off in every step
SELECT walpressure.import(pg_temp.fresh(jsonb_set(:'doc', '{sweep,settings}', '{"synchronous_commit": "off"}'))) AS fixed_off \gset
SELECT DISTINCT data_loss FROM walpressure.steps WHERE sweep_id = :fixed_off;
-- a label the document states stays (the server's own settings there)
SELECT walpressure.import(pg_temp.fresh(jsonb_set(:'doc', '{steps,0,data_loss}', '"synchronous_commit=off"'))) AS stated \gset
SELECT step, data_loss FROM walpressure.steps WHERE sweep_id = :stated AND data_loss IS NOT NULL;

-- times a sweep cannot have: delete_sweeps goes by them
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,finished_at}', '"9999-12-31 00:00:00+00"'));
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,started_at}', '"1970-01-01 00:00:00+00"'));
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,finished_at}', '"infinity"'));
SELECT walpressure.import(jsonb_set(:'doc', '{steps,0,started_at}', '"3000-01-01 00:00:00+00"'));
SELECT walpressure.import(jsonb_set(:'doc', '{exported_at}', '"9999-01-01 00:00:00+00"'));

-- no more rows than the sweep makes: a reading costs what a real sweep's does
SELECT walpressure.import(jsonb_set(:'doc', '{step_samples}',
           (SELECT jsonb_agg(jsonb_build_object('step', 1, 'second', i, 'tps', 100, 'commits', 100))
            FROM generate_series(1, 100) i)));
SELECT walpressure.import(jsonb_set(:'doc', '{steps}',
           (SELECT jsonb_agg((:'doc'::jsonb)->'steps'->0 || jsonb_build_object('step', i))
            FROM generate_series(1, 10001) i)));
SELECT walpressure.import(jsonb_set(:'doc', '{steps,0,repeat}', '0'));
SELECT walpressure.import(jsonb_set(:'doc', '{step_statements}',
           (SELECT jsonb_agg(jsonb_build_object('step', 1, 'rank', i, 'query', 'SELECT 1', 'calls', 1))
            FROM generate_series(1, 61) i)));

-- who may import: the right to call import(), no right on the tables; and
-- with that right, nothing that skips its checks
CREATE ROLE regress_wp_importer;
GRANT USAGE ON SCHEMA walpressure TO regress_wp_importer;
GRANT EXECUTE ON FUNCTION walpressure.import(jsonb) TO regress_wp_importer;
SET ROLE regress_wp_importer;
SELECT walpressure.import(pg_temp.fresh(:'doc')) AS by_importer \gset
INSERT INTO walpressure.sweeps (setting, vals, clients, duration, workload, warmup, repeats, prewarm,
                                run_by, database, steps_total)
VALUES ('fsync', '{off}', 1, '1 s', 'simple-update', '0 s', 1, false, current_user, current_database(), 1);
SELECT walpressure._import(:'doc');
RESET ROLE;
SELECT origin->>'sweep_id' AS imported_from, (SELECT count(*) FROM walpressure.steps x WHERE x.sweep_id = s.sweep_id) AS steps
FROM walpressure.sweeps s WHERE s.sweep_id = :by_importer;
DROP OWNED BY regress_wp_importer;
DROP ROLE regress_wp_importer;

-- predict()'s model takes a step per client in each run of its loop, at
-- most 561 runs (the fit's bisection and the iteration): the largest call
-- (100000 clients, fitted and predicted; about 100 ms here) is bounded, and
-- a cancel (a 10 ms statement_timeout) ends it inside the call, within
-- 80 ms (without the model's interrupt checks it would run to its end)
DO $$
DECLARE
    t0 timestamptz := clock_timestamp();
BEGIN
    PERFORM walpressure._commit_model(100000, 1000, 0.004, 0.0001, 2, 0, 0.002, 100000, 0.001);
    RAISE NOTICE 'the largest call took under 5 s: %', clock_timestamp() - t0 < '5 s';
END
$$;
SET statement_timeout = '10ms';
DO $$
DECLARE
    t0 timestamptz := clock_timestamp();
BEGIN
    PERFORM walpressure._commit_model(100000, 1000, 0.004, 0.0001, 2, 0, 0.002, 100000, 0.001);
    RAISE NOTICE 'not cancelled';
EXCEPTION WHEN query_canceled THEN
    RAISE NOTICE 'cancelled within 80 ms: %', clock_timestamp() - t0 < '80 ms';
END
$$;
RESET statement_timeout;

-- predict()'s round (_predict_round, C) takes a sweep's and a step's rows,
-- which a caller can craft: a NULL or NaN figure gives a row of NULLs, one
-- no step measures (infinite, negative, above 1e12) an error, so do a
-- negative cap and a prediction that is not finite, a zero divisor SQL's
-- error, and every figure that reaches the model's loop
-- its check (finite, 0 or more, tps, a commit's time and the CPUs above 0,
-- at most 1e12, 1 to 100000 clients); nothing else, and never a crash
CREATE FUNCTION pg_temp.round_of(step jsonb, cap0 int, n0 int, c1 int, n1 int, cpus int,
                                 delay_s float8 DEFAULT 0, own float8 DEFAULT NULL)
RETURNS text LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    p record;
BEGIN
    SELECT * INTO p
    FROM walpressure._predict_round(jsonb_populate_record(NULL::walpressure.sweeps,
                                                          jsonb_build_object('cpus', cpus, 'disk', 'paced')),
                                    jsonb_populate_record(NULL::walpressure.steps,
                                                          '{"clients": 10, "tps": 2000, "commit_avg_ms": 3,
                                                            "server_cpu_s": 5, "client_cpu_s": 1,
                                                            "transactions": 20000, "commits": 20000,
                                                            "wal_fsyncs": 4000, "write_iops": 800,
                                                            "wal_fsyncs_per_s": 400, "fsync_avg_ms": 2}'::jsonb
                                                          || step),
                                    cap0, n0, c1, n1, delay_s, own);
    RETURN CASE WHEN p.tps IS NULL AND p.why IS NULL THEN 'a row of NULLs'
                WHEN p.why IS NOT NULL THEN 'not predicted: ' || p.why
                ELSE format('predicted, %s tps', round(p.tps::numeric)) END;
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
SELECT what, pg_temp.round_of(step, cap0, n0, c1, n1, cpus) AS answer
FROM (VALUES ('the step as measured', '{}'::jsonb, 1000, 10, 1000, 10, 2),
             ('at half the cap', '{}', 1000, 10, 500, 10, 2),
             ('tps NULL', '{"tps": null}', 1000, 10, 500, 10, 2),
             ('tps NaN', '{"tps": "NaN"}', 1000, 10, 500, 10, 2),
             ('fsync_avg_ms NaN', '{"fsync_avg_ms": "NaN"}', 1000, 10, 500, 10, 2),
             ('no transactions', '{"transactions": 0}', 1000, 10, 500, 10, 2),
             ('no WAL flushes', '{"wal_fsyncs": 0}', 1000, 10, 500, 10, 2),
             ('no WAL flushes a second', '{"wal_fsyncs_per_s": 0}', 1000, 10, 500, 10, 2),
             ('a new cap of 0', '{}', 1000, 10, 0, 10, 2),
             ('a measured cap of 0', '{}', 0, 10, 500, 10, 2),
             ('a negative new cap', '{}', 1000, 10, -500, 10, 2),
             ('a negative measured cap', '{}', -1000, 10, 500, 10, 2),
             ('negative WAL flushes a second', '{"wal_fsyncs_per_s": -400}', 1000, 10, 500, 10, 2),
             ('negative commits', '{"commits": -20000}', 1000, 10, 500, 10, 2),
             ('WAL flushes a second 1e-300', '{"wal_fsyncs_per_s": 1e-300}', 1000, 10, 500, 10, 2),
             ('tps of 1e300', '{"tps": 1e300}', 1000, 10, 500, 10, 2),
             ('tps Infinity', '{"tps": "Infinity"}', 1000, 10, 500, 10, 2),
             ('write IOPS Infinity', '{"write_iops": "Infinity"}', 1000, 10, 500, 10, 2),
             ('a commit time of Infinity', '{"commit_avg_ms": "Infinity"}', 1000, 10, 500, 10, 2),
             ('server CPU -Infinity', '{"server_cpu_s": "-Infinity"}', 1000, 10, 500, 10, 2),
             ('flushes a second Infinity', '{"wal_fsyncs_per_s": "Infinity"}', 1000, 10, 500, 10, 2),
             ('write IOPS 1e300', '{"write_iops": 1e300}', 1000, 10, 500, 10, 2),
             ('a negative flush time', '{"fsync_avg_ms": -2}', 1000, 10, 500, 10, 2),
             ('no CPUs', '{}', 1000, 10, 500, 10, 0),
             ('no clients', '{"clients": 0}', 1000, 10, 500, 10, 2),
             ('a million clients asked', '{}', 1000, 10, 500, 1000000, 2),
             ('no clients asked', '{}', 1000, 10, 500, 0, 2)) AS c(what, step, cap0, n0, c1, n1, cpus);
SELECT what, pg_temp.round_of('{}', 1000, 10, c1, 10, 2, delay_s, own) AS answer
FROM (VALUES ('commit_delay NaN', 500, 'NaN'::float8, NULL::float8),
             ('commit_delay Infinity', 500, 'Infinity', NULL),
             ('the disk''s own time Infinity', 2000, 0, 'Infinity'),
             ('the disk''s own time -1 s', 2000, 0, -1),
             ('a negative new cap, the disk''s own time known', -500, 0, 0.002)) AS c(what, c1, delay_s, own);
SELECT pg_temp.round_of('{"write_iops": 1e12, "wal_fsyncs_per_s": 1e-300}', 1000, 10, 2000, 10, 2, 0, 0.0001)
       AS "write IOs a flush beyond float8";

DELETE FROM walpressure.sweeps WHERE sweep_id >= 2101;
