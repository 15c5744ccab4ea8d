--
-- run_sweep refuses bad input with a clear error before anything starts,
-- and records nothing.
--
\set VERBOSITY default
\set SHOW_CONTEXT never

-- what can be swept
SELECT walpressure.run_sweep('shared_buffers', ARRAY['1GB']);
SELECT walpressure.run_sweep('no_such_setting', ARRAY['1']);
SELECT walpressure.run_sweep('commit_delay', NULL);

-- the values
SELECT walpressure.run_sweep('commit_delay', ARRAY[]::text[]);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', NULL]);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '-5']);
SELECT walpressure.run_sweep('synchronous_commit', ARRAY['on', 'sometimes']);
SELECT walpressure.run_sweep('clients', ARRAY['4', '0']);
SELECT walpressure.run_sweep('batch_size', ARRAY['ten']);

-- the workload
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], workload => 'read-only');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], workload => 'custom');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"sql": "SELECT 1"}');

-- the fixed settings
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '[1]');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"commit_delay": 5}');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"shared_buffers": "1GB"}');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"commit_siblings": -1}');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"batch_size": 0}');
-- the client round trip
SELECT walpressure.run_sweep('round_trip_us', ARRAY['0', '-5']);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"round_trip_us": "1 ms"}');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"round_trip_us": 2000000}');
-- server-wide settings: restart-only ones, data loss without acknowledgement, bad values
SELECT walpressure.run_sweep('wal_buffers', ARRAY['16MB', '64MB']);
SELECT walpressure.run_sweep('fsync', ARRAY['on', 'off']);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"full_page_writes": "off"}');
SELECT walpressure.run_sweep('checkpoint_timeout', ARRAY['5min', '10 parsecs']);
SELECT walpressure.run_sweep('wal_sync_method', ARRAY['fdatasync', 'carrier_pigeon']);
SELECT walpressure.run_sweep('fsync', ARRAY['off'], accept_data_loss => NULL);

-- the load: clients, worker slots, time, repeats
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 0);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 500);
SELECT walpressure.run_sweep('clients', ARRAY['1', '500']);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, duration => '0 s');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, warmup => '-1 s');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, repeats => 0);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => NULL);

-- the disk cap (the cgroup's own errors are in the TAP suite)
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, iops_cap => 0);
SELECT walpressure.run_sweep('iops_cap', ARRAY['500'], clients => 1, iops_cap => 100);
SELECT walpressure.run_sweep('iops_cap', ARRAY['500', 'lots'], clients => 1);

-- the data
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1);
SELECT * FROM walpressure.prewarm();

-- nothing to cancel, nothing to build
SELECT walpressure.cancel_sweep(12345);
SELECT walpressure.init_pgbench(0);

-- none of this recorded anything
SELECT count(*) AS sweeps FROM walpressure.sweeps;

-- one sweep at a time
SELECT walpressure.init_pgbench(1);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '100'], clients => 1,
                             duration => '60 s', warmup => '0 s', prewarm => false,
                             wait => false) AS first_sweep;
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1);
SELECT walpressure.init_pgbench(1);
SELECT walpressure.cancel_sweep(1);
SELECT sweep_id, status, steps_done, steps_total FROM walpressure.sweeps;
SELECT count(*) AS workers_left FROM pg_stat_activity
WHERE backend_type IN ('walpressure client', 'walpressure coordinator');

-- while run_sweep waits it must not hold back VACUUM: a repeatable-read
-- snapshot would, so that is refused
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1);
ROLLBACK;

-- the workers connect as the current role, which must be able to log in
CREATE ROLE regress_wp_nologin NOLOGIN;
GRANT USAGE ON SCHEMA walpressure TO regress_wp_nologin;
GRANT EXECUTE ON FUNCTION walpressure.run_sweep(text, text[], int, interval, text, int, interval, int, jsonb, bool, text, bool, bool),
    walpressure._launch_sweep(text, bool), walpressure._check_setting(text, text),
    walpressure._free_worker_slots() TO regress_wp_nologin;
GRANT SELECT ON pgbench_branches TO regress_wp_nologin;
SET ROLE regress_wp_nologin;
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1);
RESET ROLE;
DROP OWNED BY regress_wp_nologin;
DROP ROLE regress_wp_nologin;

-- whoever may call _launch_sweep directly gets the same limits: nothing runs
SELECT walpressure._launch_sweep('{"setting": "clients", "vals": ["5000"], "clients": 1,
    "duration_s": 1, "workload": "simple-update", "warmup_s": 0, "repeats": 1,
    "settings": {}, "prewarm": false, "scale": 1}', true);
SELECT walpressure._launch_sweep('{"setting": "session_replication_role", "vals": ["replica"],
    "clients": 1, "duration_s": 1, "workload": "simple-update", "warmup_s": 0, "repeats": 1,
    "settings": {}, "prewarm": false, "scale": 1}', true);
SELECT walpressure._launch_sweep('{"setting": "commit_delay", "vals": ["0"],
    "clients": 1, "duration_s": 1, "workload": "simple-update", "warmup_s": 0, "repeats": 1,
    "settings": {"lo_compat_privileges": "on"}, "prewarm": false, "scale": 1}', true);
SELECT sweep_id, status, steps_done, error FROM walpressure.sweeps WHERE sweep_id > 1 ORDER BY 1;
