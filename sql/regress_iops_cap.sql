--
-- The disk cap and the fsync probe: bad input is refused before anything
-- changes.  (What depends on the machine's cgroups is in the TAP suite.)
--
\set SHOW_CONTEXT never

SELECT walpressure.set_iops_cap(0);
SELECT walpressure.set_iops_cap(-5);
SELECT walpressure.set_iops_cap(NULL);
SELECT walpressure.set_iops_cap(100, 0);
SELECT walpressure.set_iops_cap(100, device => 'sda');
SELECT walpressure.set_iops_cap(100, device => '8:0:1');
SELECT walpressure.set_iops_cap(100, device => '0:45');
SELECT walpressure.clear_iops_cap(device => 'vda');

-- the disk a cap stands for: the paced disk needs the server started with
-- walpressure_pacer.so (this one was not: the HINT, terse here, says how);
-- its floor and burst are its own; what the throttle alone takes
SELECT walpressure.set_iops_cap(100, disk => 'ssd');
\set VERBOSITY terse
SELECT walpressure.set_iops_cap(100, disk => 'paced');
SELECT walpressure.run_sweep('commit_delay', ARRAY[0, 10], iops_cap => 100, disk => 'paced');
SELECT walpressure.run_sweep('disk', ARRAY['paced', 'throttle'], iops_cap => 100);
\set VERBOSITY default
SELECT walpressure.set_iops_cap(100, disk => 'throttle', flush_floor_ms => 1);
SELECT walpressure.set_iops_cap(100, disk => 'throttle', burst => 1);
SELECT walpressure.run_sweep('commit_delay', ARRAY[0, 10], disk => 'throttle');
SELECT walpressure.run_sweep('commit_delay', ARRAY[0, 10], flush_floor_ms => 0.5);
SELECT walpressure.run_sweep('disk', ARRAY['paced', 'throttle']);
SELECT walpressure.run_sweep('disk', ARRAY['paced', 'throttle'], iops_cap => 100, disk => 'paced');
SELECT walpressure.run_sweep('disk', ARRAY['paced', 'ssd'], iops_cap => 100);
SELECT walpressure.run_sweep('disk', range => '[0, 1]', iops_cap => 100);
SELECT walpressure.run_sweep('commit_delay', ARRAY[0, 10], iops_cap => 100, disk => 'throttle',
                             flush_floor_ms => 0.5);

-- the view: one row, never an error
\d walpressure.iops_cap
SELECT count(*), bool_and(mode IN ('v1', 'v2', 'hybrid (v1 blkio)', 'none')) AS known_mode,
       bool_and(pacer LIKE 'not loaded: Start the server with LD_PRELOAD=%') AS says_how
FROM walpressure.iops_cap;

-- the fsync probe
SELECT * FROM walpressure.probe_fsync('0 s');
SELECT * FROM walpressure.probe_fsync('2 h');
SELECT * FROM walpressure.probe_fsync('1 s', 100);
SELECT * FROM walpressure.probe_fsync('1 s', 2000000);
SELECT ops > 0 AS ran, seconds >= 0.5 AS timed, latency_avg_ms > 0 AS latency,
       latency_p50_ms <= latency_p99_ms AS ordered,
       abs(commit_budget_per_s / (1000 / latency_avg_ms) - 1) < 0.01 AS budget, disk
FROM walpressure.probe_fsync('0.5 s');
-- its figures are the doubles nearest their rounded decimals, so that they
-- print as such whatever extra_float_digits (12077.3, not 12077.300000000001)
SELECT bool_and(ops_per_s = round(ops_per_s::numeric, 1)::float8
                AND commit_budget_per_s = round(commit_budget_per_s::numeric, 1)::float8
                AND latency_avg_ms = round(latency_avg_ms::numeric, 3)::float8
                AND seconds = round(seconds::numeric, 3)::float8) AS rounded
FROM generate_series(1, 5), LATERAL walpressure.probe_fsync('0.1 s');
-- and it leaves nothing behind in pg_wal
SELECT count(*) AS leftovers FROM pg_ls_waldir() WHERE name LIKE 'walpressure%';
