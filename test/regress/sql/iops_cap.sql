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

-- the view: one row, never an error
\d walpressure.iops_cap
SELECT count(*), bool_and(mode IN ('v1', 'v2', 'hybrid (v1 blkio)', 'none')) AS known_mode
FROM walpressure.iops_cap;

-- the fsync probe
SELECT * FROM walpressure.probe_fsync('0 s');
SELECT * FROM walpressure.probe_fsync('2 h');
SELECT * FROM walpressure.probe_fsync('1 s', 100);
SELECT * FROM walpressure.probe_fsync('1 s', 2000000);
SELECT ops > 0 AS ran, seconds >= 0.5 AS timed, latency_avg_ms > 0 AS latency,
       latency_p50_ms <= latency_p99_ms AS ordered,
       abs(commit_budget_per_s / (1000 / latency_avg_ms) - 1) < 0.01 AS budget
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
