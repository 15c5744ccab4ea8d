--
-- The answer never contradicts its own figures, and reads at 120 columns:
-- a search's value not yet confirmed, an open loop whose baseline did not
-- keep the rate, the threshold confirmed or contradicted, a throttle gain
-- from its cliff, the same values on both disks; then every sweep of this
-- database checked for a contradiction or a line too wide.
--
\pset null '(null)'

-- one sweep's steps from (value, pos, round, tps, p99, c/f, write IOPS, rate kept)
CREATE FUNCTION pg_temp.sweep(id bigint, setting text, vals text[], extra jsonb DEFAULT '{}')
RETURNS void LANGUAGE sql AS $$
    INSERT INTO walpressure.sweeps (sweep_id, setting, vals, clients, duration, workload, warmup, repeats,
                                    prewarm, run_by, database, steps_total, steps_done, status, current_value,
                                    current_pos, cpus, iops_cap, disk, rate, f0_ms, f0_p50_ms, f0_p99_ms,
                                    search, search_found, started_at)
    SELECT id, setting, vals, 10, '10 s', 'simple-update', '0 s', 3, false, current_user, current_database(),
           0, 0, 'done', vals[1], 1, 2, (extra->>'cap')::int, extra->>'disk', (extra->>'rate')::float8,
           (extra->>'f0')::float8, (extra->>'f0_p50')::float8, (extra->>'f0_p99')::float8, extra->>'search',
           (extra->>'found')::int, now() - (id || ' s')::interval
$$;
CREATE FUNCTION pg_temp.steps(id bigint, rows jsonb)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO walpressure.steps (sweep_id, step, value, value_pos, repeat, clients, round_trip_us, started_at,
                                   seconds, transactions, retries, tps, latency_p99_ms, commits, leaders,
                                   wal_fsyncs, commits_per_fsync, server_seconds, iops_cap, write_iops, rate,
                                   rate_achieved, rate_sustained, disk)
    SELECT id, row_number() OVER (), r->>0, (r->>1)::int, (r->>2)::int, 10, 0, now(), 10,
           (r->>3)::float8 * 10, 0, (r->>3)::float8, (r->>4)::float8, (r->>3)::float8 * 10, 10,
           (r->>3)::float8 * 10 / (r->>5)::float8, (r->>5)::float8, 10,
           (SELECT s.iops_cap FROM walpressure.sweeps s WHERE s.sweep_id = id), (r->>6)::float8,
           (r->>8)::float8, (r->>9)::float8, (r->>7)::bool, r->>10
    FROM jsonb_array_elements(rows) r;
    UPDATE walpressure.sweeps s SET steps_total = (SELECT count(*) FROM walpressure.steps x WHERE x.sweep_id = id),
                                    steps_done = (SELECT count(*) FROM walpressure.steps x WHERE x.sweep_id = id)
    WHERE s.sweep_id = id;
$$;

-- 4001: a search whose found value shares one round with the baseline, and
-- nothing else beat it: found, not yet confirmed, and the run that would
SELECT pg_temp.sweep(4001, 'commit_delay', '{0,500,1000}', '{"search": "golden", "found": 2}');
SELECT pg_temp.steps(4001, '[["0",1,1,100,10,2,null,null,null,null,null], ["500",2,1,210,9,4,null,null,null,null,null],
                             ["1000",3,1,150,9,3,null,null,null,null,null], ["500",2,2,205,9,4,null,null,null,null,null],
                             ["1000",3,2,190,9,3,null,null,null,null,null], ["500",2,3,195,9,4,null,null,null,null,null],
                             ["1000",3,3,160,9,3,null,null,null,null,null]]');
SELECT value, verdict, paired_rounds FROM walpressure.results WHERE sweep_id = 4001 ORDER BY value_pos;
SELECT kind, value, verdict, answer, apply FROM walpressure.best WHERE sweep_id = 4001;
SELECT kind, value, finding FROM walpressure.findings WHERE sweep_id = 4001 ORDER BY ord;

-- 4002: an open loop at 2400/s whose baseline did not keep the rate (the
-- disk at its cap there): no ratio against it; the value that kept it
SELECT pg_temp.sweep(4002, 'commit_delay', '{0,500,1000}', '{"rate": 2400, "cap": 1000, "disk": "paced"}');
SELECT pg_temp.steps(4002, '[["0",1,1,1800,1400,2,1000,false,2400,1800,"paced"], ["500",2,1,2390,55,5,800,true,2400,2390,"paced"],
                             ["1000",3,1,2395,60,7,700,true,2400,2395,"paced"], ["0",1,2,1810,1390,2,1000,false,2400,1810,"paced"],
                             ["500",2,2,2385,53,5,800,true,2400,2385,"paced"], ["1000",3,2,2398,58,7,700,true,2400,2398,"paced"],
                             ["0",1,3,1790,1410,2,1000,false,2400,1790,"paced"], ["500",2,3,2392,54,5,800,true,2400,2392,"paced"],
                             ["1000",3,3,2391,61,7,700,true,2400,2391,"paced"]]');
SELECT kind, value, gain, verdict, answer FROM walpressure.best WHERE sweep_id = 4002;
SELECT kind, value, finding FROM walpressure.findings WHERE sweep_id = 4002 ORDER BY ord;
-- its report: the rate kept or not, no tps ratio; no p99 ratio against a
-- baseline that did not keep the rate
SELECT * FROM walpressure.report(4002);
-- predict() models a closed loop: an open loop's tps is the rate asked
SELECT * FROM walpressure.predict(4002, iops_cap => 2000);

-- 4003, 4004: the threshold.  F0 2 ms (median): lambda* = 1000/s; both
-- loads above it.  In 4003 commit_delay = 0 is best (confirmed); in 4004
-- 1000 reads 2.4x faster (contradicted, by 2.4x), on the throttle, where the
-- gain is grouping under its cliff (F0's p99 94 ms against its median)
SELECT pg_temp.sweep(4003, 'commit_delay', '{0,1000}', '{"cap": 1000, "disk": "paced", "f0": 2.1, "f0_p50": 2.0, "f0_p99": 2.4}');
SELECT pg_temp.steps(4003, '[["0",1,1,2200,20,4,1000,null,null,null,"paced"], ["1000",2,1,2000,22,5,1000,null,null,null,"paced"],
                             ["0",1,2,2210,20,4,1000,null,null,null,"paced"], ["1000",2,2,2010,22,5,1000,null,null,null,"paced"],
                             ["0",1,3,2190,20,4,1000,null,null,null,"paced"], ["1000",2,3,1990,22,5,1000,null,null,null,"paced"]]');
SELECT pg_temp.sweep(4004, 'commit_delay', '{0,1000}', '{"cap": 1000, "disk": "throttle", "f0": 2.3, "f0_p50": 0.14, "f0_p99": 94}');
SELECT pg_temp.steps(4004, '[["0",1,1,1000,90,2,1000,null,null,null,"throttle"], ["1000",2,1,2400,30,5,990,null,null,null,"throttle"],
                             ["0",1,2,1010,90,2,1000,null,null,null,"throttle"], ["1000",2,2,2420,30,5,990,null,null,null,"throttle"],
                             ["0",1,3,990,90,2,1000,null,null,null,"throttle"], ["1000",2,3,2380,30,5,990,null,null,null,"throttle"]]');
SELECT sweep_id, kind, answer FROM walpressure.best WHERE sweep_id IN (4003, 4004) ORDER BY sweep_id;
SELECT sweep_id, kind, finding FROM walpressure.findings
WHERE sweep_id IN (4003, 4004) AND kind IN ('f0', 'threshold', 'cliff', 'disks') ORDER BY sweep_id, ord;
-- the chart's subtitle names the disk too
SELECT sweep_id, substring(walpressure.plot(sweep_id) FROM 's, ([a-z ]+ at 1000 write IOPS);') AS disk
FROM walpressure.sweeps WHERE sweep_id IN (4003, 4004) ORDER BY sweep_id;

-- a sweep and its copy, compared: the same sweep, round by round: the same
SELECT walpressure.import(walpressure.export(4003)) AS copy \gset
SELECT value, ratio, verdict FROM walpressure.compare(4003, :copy);
DELETE FROM walpressure.sweeps WHERE sweep_id = :copy;

-- 4005: a sweep of the rate, 500, 1000 and 8000/s: 8000 not kept (a closed
-- loop at 2900 tps), p99 10, 25 and 1400 ms: the answer in one line, the
-- knee a finding of its own
SELECT pg_temp.sweep(4005, 'rate', '{500,1000,8000}');
SELECT pg_temp.steps(4005, '[["500",1,1,500,10,2,null,true,500,500,null], ["1000",2,1,1000,25,3,null,true,1000,1000,null],
                             ["8000",3,1,2900,1400,6,null,false,8000,2900,null], ["500",1,2,500,11,2,null,true,500,500,null],
                             ["1000",2,2,1000,24,3,null,true,1000,1000,null], ["8000",3,2,2910,1390,6,null,false,8000,2910,null]]');
SELECT kind, answer FROM walpressure.best WHERE sweep_id = 4005;
SELECT kind, value, finding FROM walpressure.findings WHERE sweep_id = 4005 AND kind IN ('rate', 'knee') ORDER BY ord;

-- 4006, 4007: a value that weakens what a commit waits for on standbys is
-- faster: never applied without saying that a failover can lose commits
-- (synchronous_commit local per transaction, as off is)
SELECT pg_temp.sweep(4006, 'synchronous_commit', '{on,local}');
SELECT pg_temp.steps(4006, '[["on",1,1,1000,20,2,null,null,null,null,null], ["local",2,1,3000,5,2,null,null,null,null,null],
                             ["on",1,2,1010,20,2,null,null,null,null,null], ["local",2,2,3010,5,2,null,null,null,null,null],
                             ["on",1,3,990,20,2,null,null,null,null,null], ["local",2,3,2990,5,2,null,null,null,null,null]]');
SELECT pg_temp.sweep(4007, 'synchronous_standby_names', '{"FIRST 1 (s1)",""}');
SELECT pg_temp.steps(4007, '[["FIRST 1 (s1)",1,1,1000,20,2,null,null,null,null,null], ["",2,1,3000,5,2,null,null,null,null,null],
                             ["FIRST 1 (s1)",1,2,1010,20,2,null,null,null,null,null], ["",2,2,3010,5,2,null,null,null,null,null],
                             ["FIRST 1 (s1)",1,3,990,20,2,null,null,null,null,null], ["",2,3,2990,5,2,null,null,null,null,null]]');
\x on
SELECT sweep_id, answer, apply FROM walpressure.best WHERE sweep_id IN (4006, 4007) ORDER BY sweep_id;
\x off

-- 4008: every value's tps rounds to 0.0 and its p99 is 0 (a result that
-- records next to nothing, an import): the chart still draws, with no
-- division by zero, and no logarithm of 0 breaks the findings of every sweep
SELECT pg_temp.sweep(4008, 'commit_delay', '{0,1000}');
SELECT pg_temp.steps(4008, '[["0",1,1,0.01,0,2,0,null,null,null,null], ["1000",2,1,0.02,0,2,0,null,null,null,null]]');
SELECT length(walpressure.plot(4008)) > 1000 AS drawn;

-- every sweep here: no answer keeps the baseline while results has a value
-- faster than it (a closed loop) or lower in p99 that kept the rate (an
-- open loop); no value both at the cap and below it; no line of best,
-- findings or report over 120 characters
SELECT b.sweep_id, b.answer FROM walpressure.best b
WHERE b.kind = 'keep' AND EXISTS (
    SELECT FROM walpressure.results r WHERE r.sweep_id = b.sweep_id
      AND CASE WHEN walpressure._open_loop(b.sweep_id)
               THEN r.latency_p99_verdict = 'lower' AND coalesce(r.rate_sustained, true)
               ELSE r.verdict = 'faster' END);
SELECT a.sweep_id, a.value FROM walpressure.findings a
JOIN walpressure.findings c ON c.sweep_id = a.sweep_id AND c.kind = 'below_cap' AND a.kind = 'at_cap'
WHERE string_to_array(a.value, ', ') && string_to_array(c.value, ', ');
SELECT sweep_id, length(answer) FROM walpressure.best WHERE length(answer) > 120;
SELECT sweep_id, kind, length(l) FROM walpressure.findings, regexp_split_to_table(finding, E'\n') l WHERE length(l) > 120;
SELECT s.sweep_id, length(l) FROM walpressure.sweeps s, walpressure.report(s.sweep_id) l WHERE length(l) > 120;

DELETE FROM walpressure.sweeps WHERE sweep_id BETWEEN 4001 AND 4008;
