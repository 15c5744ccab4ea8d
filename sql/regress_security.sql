--
-- Hostile input: what a crafted document, a label, a huge array or a
-- grantee can do with walpressure's functions, and what they cannot.
--
\set SHOW_CONTEXT never
\pset null '(null)'

-- a sweep with known figures to export and tamper with
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup,
                                repeats, prewarm, run_by, database, steps_total, steps_done,
                                status, label)
VALUES (2001, 'commit_delay', '{0,1000}', 4, '10 s', 'simple-update', '0 s', 1, false,
        current_user, current_database(), 2, 2, 'done', 'to export');
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, commits, leaders,
                               server_seconds)
VALUES (2001, 1, '0', 1, 1, 4, 0, '2026-11-21', 10, 1000, 0, 100, 1000, 500, 10),
       (2001, 2, '1000', 2, 1, 4, 0, '2026-11-21', 10, 2000, 0, 200, 2000, 500, 10);
INSERT INTO walpressure.step_statements (sweep_id, step, rank, queryid, query, calls, total_ms,
                                         mean_ms, stddev_ms, rows, wal_bytes)
VALUES (2001, 1, 1, 42, 'UPDATE t SET x = $1', 1000, 500, 0.5, 0.1, 1000, 100000);
SELECT walpressure.export(2001) AS doc \gset

-- import() takes only what export() writes: a setting a sweep cannot vary
-- (its ALTER SYSTEM line would run a shell on the next archive), as the
-- swept setting or as a key of a configuration or of the fixed settings
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,setting}', '"archive_command"'));
SELECT walpressure.import(jsonb_set(jsonb_set(:'doc', '{sweep,setting}', '"settings"'),
                                    '{sweep,vals}', '["{}", "{\"archive_command\": \"sh -c id\"}"]'));
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,settings}', '{"archive_command": "sh -c id"}'));
-- a value or a label that is not one line, a control character anywhere
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,vals}', '["0", "1000\nSELECT 1"]'));
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,label}', '"\u001b[31mred"'));
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,label}', '"\u009b31mred"'));
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,label}', '"gnp.\u202eexe"'));
SELECT walpressure.import(jsonb_set(:'doc', '{step_statements,0,query}', '"UPDATE t\u2066 SET x = 1"'));
-- figures no step measures: 1e200 tps, a negative count, a statement of 0 calls
SELECT walpressure.import(jsonb_set(:'doc', '{steps,0,tps}', '1e200'));
SELECT walpressure.import(jsonb_set(:'doc', '{steps,0,commits}', '-5'));
SELECT walpressure.import(jsonb_set(:'doc', '{step_statements,0,calls}', '0'));
-- a step of a value the sweep does not have, more values than a sweep takes
SELECT walpressure.import(jsonb_set(:'doc', '{steps,1,value_pos}', '7'));
SELECT walpressure.import(jsonb_set(:'doc', '{sweep,vals}',
                                    (SELECT jsonb_agg(i::text) FROM generate_series(1, 65) i)));
-- what comes in is read by every view without failing: figures at the bound
SELECT walpressure.export(2001) AS doc2 \gset
SELECT walpressure.import(jsonb_set(:'doc2', '{steps,0,tps}', '1e12')) AS big \gset
SELECT count(*) AS rows, bool_and(tps IS NOT NULL) AS read FROM walpressure.results WHERE sweep_id = :big;
SELECT answer IS NOT NULL AS answered FROM walpressure.best WHERE sweep_id = :big;
SELECT count(*) > 0 AS reported FROM walpressure.report(:big);
SELECT walpressure.plot(:big) LIKE '<svg%' AS plotted;
SELECT count(*) AS statements FROM walpressure.statements WHERE sweep_id = :big;
-- the same document twice is refused, not a silent duplicate
SELECT walpressure.import(:'doc') IS NOT NULL AS imported;
SELECT walpressure.import(:'doc');
SELECT count(*) AS copies FROM walpressure.sweeps WHERE origin->>'sweep_id' = '2001'
   AND origin->>'exported_at' = (:'doc'::jsonb)->>'exported_at';

-- best's ALTER SYSTEM line never names a setting a sweep cannot vary, even
-- for a row that did not come through import()
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup,
                                repeats, prewarm, run_by, database, steps_total, steps_done, status)
VALUES (2002, 'archive_command', '{true,sh}', 4, '10 s', 'simple-update', '0 s', 3, false,
        current_user, current_database(), 6, 6, 'done');
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, commits, leaders,
                               server_seconds)
SELECT 2002, 2 * r + p - 2, v, p, r, 4, 0, '2026-11-21', 10, tps * 10, 0, tps + r, tps * 10, 500, 10
FROM (VALUES (1, 'true', 100), (2, 'sh', 900)) AS x(p, v, tps), generate_series(1, 3) AS r;
SELECT value, verdict, apply FROM walpressure.best WHERE sweep_id = 2002;

-- plot() of two values one float step apart returns (its x axis is one
-- tick per value), and quickly
INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup,
                                repeats, prewarm, run_by, database, steps_total, steps_done, status)
VALUES (2003, 'checkpoint_completion_target', '{5.1,5.1000000000000005}', 4, '10 s', 'simple-update',
        '0 s', 1, false, current_user, current_database(), 2, 2, 'done');
INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us,
                               started_at, seconds, transactions, retries, tps, commits, leaders,
                               server_seconds)
VALUES (2003, 1, '5.1', 1, 1, 4, 0, '2026-11-21', 10, 1000, 0, 100, 1000, 500, 10),
       (2003, 2, '5.1000000000000005', 2, 1, 4, 0, '2026-11-21', 10, 1000, 0, 100, 1000, 500, 10);
SET statement_timeout = '20s';
SELECT walpressure.plot(2003) LIKE '<svg%</svg>' AS plotted;
RESET statement_timeout;

-- run_sweep: a label is one line (report() prints it, plot() draws it)
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], label => E'ok\x1b[2Jcleared');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], label => E'two\nlines');
-- ... and no character that changes how the rest of a line reads: a C1
-- control (U+009B is a terminal's CSI), the right-to-left override, a line
-- separator, a zero-width space; in a value, the custom SQL, a script too
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], label => 'ok' || convert_from('\xc29b'::bytea, 'UTF8') || '2J');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], label => 'abc' || convert_from('\xe280ae'::bytea, 'UTF8') || 'fed');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '1000' || convert_from('\xe280a8'::bytea, 'UTF8')]);
SELECT walpressure.run_sweep('synchronous_commit', ARRAY['o' || convert_from('\xe2808b'::bytea, 'UTF8') || 'n']);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], workload => 'custom',
                             settings => jsonb_build_object('sql', 'SELECT 1; -- ' || convert_from('\xe281a6'::bytea, 'UTF8')));
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], engine => 'pgbench',
                             script => E'SELECT 1;\n-- ' || convert_from('\xc285'::bytea, 'UTF8'));
-- text from a server of the fleet is shown cleaned, not refused: each run of
-- them one space, at most 1000 characters
SELECT walpressure._clean_line(E'db\x1b]0;x\x07' || convert_from('\xc29b'::bytea, 'UTF8') || '31m'
                               || convert_from('\xe280aee280ad'::bytea, 'UTF8') || E'end\n') AS cleaned,
       length(walpressure._clean_line(repeat('é', 2000))) AS clipped;
-- vals' size is checked before its values are turned into text
SELECT walpressure.run_sweep('commit_delay', array_fill(0, ARRAY[4000000]));
SELECT walpressure.run_sweep('commit_delay', repeat('0,', 2000000) || '0');

-- delete_sweeps: an age that is not positive would mean every sweep
SELECT walpressure.delete_sweeps('-1 day');
SELECT walpressure.delete_sweeps('0');

-- grant_sweeper: the right to run programs on the server (pg_execute_server_
-- program, which equals superuser) only when asked for, with what it is;
-- revoke_sweeper takes back what it gave, and nothing the role held before
CREATE ROLE regress_wp_sweeper LOGIN IN ROLE pg_checkpoint;
SELECT * FROM walpressure.grant_sweeper('regress_wp_sweeper');
SELECT * FROM walpressure.grant_sweeper('regress_wp_sweeper');
SELECT * FROM walpressure.grant_sweeper('regress_wp_sweeper', engine => 'pgbench');
SELECT * FROM walpressure.grant_sweeper('regress_wp_sweeper', engine => 'rocket');
SELECT role, granted FROM walpressure.sweeper_grants ORDER BY grant_id;
-- a grantee reads results, not the load's statement texts (pg_stat_statements
-- shows another role's only to pg_read_all_stats, and so does walpressure)
SET ROLE regress_wp_sweeper;
SELECT count(*) >= 0 AS reads_results FROM walpressure.results;
SELECT count(*) FROM walpressure.step_statements;
SELECT count(*) FROM walpressure.statements;
SELECT count(*) > 0 AS reports_without_statements FROM walpressure.report(2001);
SELECT walpressure.export(2001)->'step_statements' AS exported_statements;
RESET ROLE;
CREATE ROLE regress_wp_stats IN ROLE pg_read_all_stats;
SET ROLE regress_wp_stats;
SELECT count(*) AS statements FROM walpressure.step_statements WHERE sweep_id = 2001;
RESET ROLE;
SELECT * FROM walpressure.revoke_sweeper('regress_wp_sweeper');
SELECT pg_has_role('regress_wp_sweeper', 'pg_checkpoint', 'MEMBER') AS keeps_pg_checkpoint,
       pg_has_role('regress_wp_sweeper', 'pg_execute_server_program', 'MEMBER') AS runs_programs,
       has_schema_privilege('regress_wp_sweeper', 'walpressure', 'USAGE') AS uses_schema,
       (SELECT count(*) FROM walpressure.sweeper_grants) AS recorded;
SELECT * FROM walpressure.revoke_sweeper('regress_wp_sweeper');
DROP ROLE regress_wp_sweeper;
DROP ROLE regress_wp_stats;
DELETE FROM walpressure.sweeps WHERE sweep_id >= 2001;
