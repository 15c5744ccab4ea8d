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
-- and it leaves nothing behind in pg_wal
SELECT count(*) AS leftovers FROM pg_ls_waldir() WHERE name LIKE 'walpressure%';
