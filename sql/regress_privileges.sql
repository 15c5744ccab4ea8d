--
-- Who may read and who may change: the views are for pg_monitor, reset()
-- for superusers only.
--
\set SHOW_CONTEXT never
CREATE ROLE regress_wp_nobody;
CREATE ROLE regress_wp_monitor IN ROLE pg_monitor;

-- a role without grants can neither read nor reset
SET ROLE regress_wp_nobody;
SELECT walpressure.reset();
SELECT count(*) FROM walpressure.live;
RESET ROLE;

-- pg_monitor reads the views and tables but changes nothing
SET ROLE regress_wp_monitor;
SELECT count(*) FROM walpressure.live;
SELECT count(*) >= 0 AS readable FROM walpressure.samples;
SELECT count(*) >= 0 AS readable FROM walpressure.results;
SELECT count(*) >= 0 AS readable FROM walpressure.sweeps;
SELECT walpressure.reset();
SELECT walpressure.run_sweep('commit_delay', ARRAY['0']);
SELECT walpressure.cancel_sweep(1);
SELECT walpressure.init_pgbench(1);
SELECT walpressure.prewarm();
SELECT walpressure.set_iops_cap(1000);
SELECT walpressure.clear_iops_cap();
SELECT * FROM walpressure.probe_fsync();
SELECT count(*) AS readable FROM walpressure.iops_cap;
DELETE FROM walpressure.sweeps;
-- the fleet: its views read, nothing started, gathered or cancelled
SELECT count(*) >= 0 AS readable FROM walpressure.fleet_progress;
SELECT count(*) >= 0 AS readable FROM walpressure.fleet_reading;
CALL walpressure.fleet_run('{"setting": "commit_delay", "vals": [0]}');
SELECT * FROM walpressure.fleet_collect();
SELECT walpressure.fleet_register('x');
SELECT walpressure.fleet_cancel(1);
INSERT INTO walpressure.fleet_servers (server) VALUES ('x');
RESET ROLE;

-- the functions behind the views are not for PUBLIC either
SELECT p.proname, p.proacl
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'walpressure'
ORDER BY p.proname;

DROP ROLE regress_wp_nobody;
DROP ROLE regress_wp_monitor;
