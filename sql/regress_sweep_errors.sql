--
-- run_sweep refuses bad input with a clear error before anything starts,
-- and records nothing.
--
\set VERBOSITY default
\set SHOW_CONTEXT never

-- what can be swept
SELECT walpressure.run_sweep('shared_buffers', ARRAY['1GB']);
SELECT walpressure.run_sweep('no_such_setting', ARRAY['1']);
-- a typo: the setting it most likely means
SELECT walpressure.run_sweep('commit_dealy', ARRAY['1']);
-- a real setting, but not one a sweep varies: said so
SELECT walpressure.run_sweep('work_mem', ARRAY['4MB']);
-- names are read as PostgreSQL reads a setting's: in any case
SELECT walpressure.run_sweep('Commit_Delay', ARRAY['NaN']);
SELECT walpressure.run_sweep('Commit-Delay', ARRAY['1']);
-- a key of settings in another case: what it most likely means
SELECT walpressure.run_sweep('commit_delay', ARRAY['1'], settings => '{"Commit_Siblings": 5}');
SELECT walpressure.run_sweep('commit_delay', NULL);

-- the values
SELECT walpressure.run_sweep('commit_delay', ARRAY[]::text[]);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', NULL]);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '-5']);
SELECT walpressure.run_sweep('synchronous_commit', ARRAY['on', 'sometimes']);
SELECT walpressure.run_sweep('clients', ARRAY['4', '0']);
SELECT walpressure.run_sweep('batch_size', ARRAY['ten']);
-- a unit where the setting takes none, or one it does not know: the HINT
-- says what it is in
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '1000ms']);
SELECT walpressure.run_sweep('wal_writer_delay', ARRAY['1 second']);
SELECT walpressure.run_sweep('max_wal_size', ARRAY['1 gigabyte']);
SELECT walpressure.run_sweep('commit_delay', ARRAY['1'], settings => '{"commit_siblings": "5 sessions"}');

-- the types people type: numbers, a literal, one value, seconds
SELECT walpressure.run_sweep('commit_delay', ARRAY[0, 100000000]);
SELECT walpressure.run_sweep('checkpoint_completion_target', ARRAY[0.5, 1.5]);
SELECT walpressure.run_sweep('commit_delay', '{0,1000ms}');
SELECT walpressure.run_sweep('full_page_writes', true);
SELECT walpressure.run_sweep('commit_delay', ARRAY['2026-01-01'::date]);
SELECT walpressure.run_sweep('commit_delay', now());
SELECT walpressure.run_sweep('commit_delay', ARRAY[0], clients => 1, duration => 0);
SELECT walpressure.run_sweep('commit_delay', ARRAY[0], clients => 1, duration => 'a minute');
SELECT walpressure.run_sweep('commit_delay', ARRAY[0], clients => 1, duration => 'NaN'::float8);
SELECT walpressure.run_sweep('commit_delay', ARRAY[0], clients => 1, duration => 1e9);
SELECT walpressure.run_sweep('commit_delay', ARRAY[0], clients => 1, warmup => -1);
SELECT walpressure.run_sweep('commit_delay', ARRAY[0], clients => 1, duration => true);
SELECT walpressure.run_sweep('commit_delay', ARRAY[0], clients => 1, repeats => 'often');
SELECT walpressure.run_sweep('commit_delay', ARRAY[0], clients => 1, repeats => 2.5);
SELECT walpressure.run_sweep('commit_delay', ARRAY[0], clients => 1, budget => '-1 s');
SELECT walpressure.run_sweep('commit_delay', ARRAY[0], clients => 1, budget => '30 days');

-- the workload
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], workload => 'read-only');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], workload => 'custom');
-- the in-server clients' custom statement is prepared before the first step
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], workload => 'custom', engine => 'backend',
                             clients => 1, settings => '{"sql": "INSERT INTO no_such_table VALUES (1)"}');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], workload => 'custom', engine => 'backend',
                             clients => 1, settings => '{"sql": "INSRT INTO t VALUES (1)"}');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"sql": "SELECT 1"}');

-- the fixed settings
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '[1]');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"commit_delay": 5}');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"shared_buffers": "1GB"}');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"commit_siblings": -1}');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"batch_size": 0}');
-- batches pgbench would take seconds to parse; the backend engine takes them
SELECT walpressure.run_sweep('batch_size', ARRAY['1', '10000'], workload => 'batch-insert');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], workload => 'batch-insert', settings => '{"batch_size": 1001}');
-- the client round trip
SELECT walpressure.run_sweep('round_trip_us', ARRAY['0', '-5']);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"round_trip_us": "1 ms"}');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"round_trip_us": 2000000}');
-- clients and iops_cap are run_sweep's arguments, not settings
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"clients": 4}');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"iops_cap": 500}');
-- protocol: pgbench's --protocol, one of three words, for the pgbench engine
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"protocol": "fast"}');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], engine => 'backend', settings => '{"protocol": "prepared"}');
-- rate: an open loop, transactions per second for the pgbench engine
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], rate => 0);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], rate => 'NaN');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 2, rate => 50000);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], engine => 'backend', rate => 100);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], rate => 100, latency_limit => -1);
SELECT walpressure.run_sweep('rate', ARRAY['100', 'lots']);
SELECT walpressure.run_sweep('rate', ARRAY['100'], rate => 100);
-- server-wide settings: restart-only ones, data loss without acknowledgement, bad values
SELECT walpressure.run_sweep('wal_buffers', ARRAY['16MB', '64MB']);
SELECT walpressure.run_sweep('fsync', ARRAY['on', 'off']);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"full_page_writes": "off"}');
SELECT walpressure.run_sweep('checkpoint_timeout', ARRAY['5min', '10 parsecs']);
SELECT walpressure.run_sweep('wal_sync_method', ARRAY['fdatasync', 'carrier_pigeon']);
SELECT walpressure.run_sweep('fsync', ARRAY['off'], accept_data_loss => NULL);

-- the load: clients, worker slots, time, repeats
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 0);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 500, engine => 'backend');
SELECT walpressure.run_sweep('clients', ARRAY['1', '500'], engine => 'backend');
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
-- (these errors come with no PL/pgSQL CONTEXT, which psql would print here)
\set SHOW_CONTEXT errors
SELECT * FROM walpressure.prewarm();

-- nothing to cancel, nothing to build, nothing to read
SELECT walpressure.cancel_sweep(12345);
SELECT * FROM walpressure.report(12345);
SELECT walpressure.plot(12345);
SELECT * FROM walpressure.compare(12345, 12346);
SELECT walpressure.export(12345);
SELECT walpressure.import('[]');
\set SHOW_CONTEXT never
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
-- an ended sweep is not running; one that never existed does not exist
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
GRANT EXECUTE ON FUNCTION walpressure.run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool, text, text, float8, float8, text, text, "any", text, float8)
    TO regress_wp_nologin;
GRANT SELECT ON pgbench_branches TO regress_wp_nologin;
SET ROLE regress_wp_nologin;
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1);
RESET ROLE;
DROP OWNED BY regress_wp_nologin;
DROP ROLE regress_wp_nologin;

-- Hostile input.  Each is refused before anything starts: no worker, no
-- row, no crash-restart (which would end this session and restart the
-- sampler: its start time is compared at the end).
SELECT backend_start AS sampler_start FROM pg_stat_activity
WHERE backend_type = 'walpressure sampler' \gset
SELECT count(*) AS sweeps_before FROM walpressure.sweeps \gset

-- a value is one line: no newline can become a second setting for the clients
SELECT walpressure.run_sweep('synchronous_commit', ARRAY[E'on\nlo_compat_privileges=on'], clients => 1);
SELECT walpressure.run_sweep('commit_delay', ARRAY[E'0\r'], clients => 1);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1,
                             settings => '{"commit_siblings": "5\nlo_compat_privileges=on"}');
SELECT walpressure.run_sweep('wal_writer_delay', ARRAY[E'200ms\nfsync=off'], clients => 1);
-- '=' is no separator: the whole text is the value, or the name
SELECT walpressure.run_sweep('synchronous_commit', ARRAY['on=off'], clients => 1);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1,
                             settings => '{"commit_siblings=1\nlo_compat_privileges": "on"}');
SELECT walpressure.run_sweep('commit_delay=1', ARRAY['0'], clients => 1);
-- arrays: empty, NULL, NULL elements, two dimensions, too many values
SELECT walpressure.run_sweep('clients', ARRAY[]::text[]);
SELECT walpressure.run_sweep('clients', NULL::text[]);
SELECT walpressure.run_sweep('clients', ARRAY[NULL]::text[]);
SELECT walpressure.run_sweep('commit_delay', ARRAY[['0', '10'], ['20', '30']], clients => 1);
SELECT walpressure.run_sweep('commit_delay', array_agg(i::text), clients => 1)
FROM generate_series(1, 65) AS i;
-- shapes of settings: nested, null, not an object
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1,
                             settings => '{"commit_siblings": {"a": 1}}');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1,
                             settings => '{"commit_siblings": null}');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, settings => '"5"');
-- a settings sweep: each value a JSON object whose every key is checked as
-- a fixed setting is (one value, the caller's rights, data loss)
SELECT walpressure.run_sweep('settings', ARRAY[]::jsonb[]);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '[1]'], clients => 1);
-- one configuration as a literal; a literal array of them
SELECT walpressure.run_sweep('settings', '{"commit_delay": "soon"}', clients => 1);
SELECT walpressure.run_sweep('settings', '{"{\"commit_delay\": \"soon\"}"}', clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"commit_delay": 1'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"commit_delay": null}'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"commit_delay": "10\nfsync=off"}'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"commit_delay": "soon"}'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"Commit_Delay": 10}'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"shared_buffers": "1GB"}'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"work_mem": "1GB"}'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"full_page_writes": "off"}'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"batch_size": 10}'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"rate": 100}'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"clients": 0}'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"commit_siblings": {"a": 1}}'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"commit_delay": 10}'], clients => 1,
                             settings => '{"commit_delay": 0}');
SELECT walpressure.run_sweep('settings', ARRAY['{"commit_delay": 10}', '{"commit_delay": "10"}'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"settings": "{}"}'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"clients": 500}'], clients => 1, engine => 'backend');
SELECT walpressure.run_sweep('settings', ARRAY['{}', json_build_object('commit_delay', repeat('9', 2000))], clients => 1);
SELECT walpressure.run_sweep('settings', array_agg(json_build_object('commit_delay', i)), clients => 1)
FROM generate_series(1, 65) AS i;
SELECT walpressure.run_sweep('settings', array_agg(json_build_object('commit_delay', i, 'commit_siblings', 5, 'wal_compression', 'off')), clients => 1)
FROM generate_series(1, 64) AS i;
-- extremes of the load and of time
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 2147483647);
SELECT walpressure.run_sweep('clients', ARRAY['2147483648']);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, duration => '1 year');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, warmup => '2 days');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '1'], clients => 1, repeats => 2147483647);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, label => repeat('x', 9000));
-- synchronous standbys: a level that waits for one, with none connected,
-- is refused before anything starts (this server has no standby)
SELECT walpressure.run_sweep('synchronous_standby_names', ARRAY['', 'FIRST 1 (s1)'], clients => 1,
                             settings => '{"synchronous_commit": "remote_apply"}');
SELECT walpressure.run_sweep('settings', ARRAY['{"synchronous_commit": "local"}',
                             '{"synchronous_commit": "on", "synchronous_standby_names": "ANY 2 (s1, s2, s3)"}'],
                             clients => 1);
-- names the sweep sets are refused whatever the load's level: every other
-- session's commits would wait for them
SELECT walpressure.run_sweep('synchronous_standby_names', ARRAY['FIRST 1 (s1)'], clients => 1,
                             settings => '{"synchronous_commit": "local"}');
-- a level that waits, with no names (as here), waits for nothing: not refused
SELECT walpressure.run_sweep('synchronous_commit', ARRAY['on', 'remote_apply'], clients => 1,
                             on_standby_loss => 'wait');
SELECT walpressure.run_sweep('synchronous_standby_names', ARRAY['FIRST 1 (s1'], clients => 1);
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, on_standby_loss => 'wait');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, on_standby_loss => NULL);
-- standby_conninfo: a connection string, to a standby
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, standby_conninfo => 'nosuch=1');
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, standby_conninfo => repeat('x', 9000));
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1,
                             standby_conninfo => 'host=' || current_setting('unix_socket_directories') ||
                                                 ' port=' || current_setting('port') ||
                                                 ' dbname=' || current_database()) \gset nostandby_
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1,
                             standby_conninfo => 'host=127.0.0.1 port=1 connect_timeout=2');
-- nothing to cancel: no sweep 0, none of a starting launch
SELECT walpressure.cancel_sweep(0);
SELECT walpressure.cancel_sweep(-1);

-- A grantee given run_sweep reaches no further than its own rights: no
-- superuser-only setting without SET privilege on it, no disk cap without
-- the right to set_iops_cap.
CREATE ROLE regress_wp_grantee LOGIN;
GRANT USAGE ON SCHEMA walpressure TO regress_wp_grantee;
GRANT EXECUTE ON FUNCTION walpressure.run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool, text, text, float8, float8, text, text, "any", text, float8)
    TO regress_wp_grantee;
GRANT SELECT ON pgbench_branches TO regress_wp_grantee;
SET ROLE regress_wp_grantee;
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '1000'], clients => 1);
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1,
                             settings => '{"wal_compression": "on"}');
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"commit_delay": 10}'], clients => 1);
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"wal_writer_delay": "10ms"}'], clients => 1);
SELECT walpressure.run_sweep('iops_cap', ARRAY['500'], clients => 1);
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, iops_cap => 100);
SELECT walpressure.run_sweep('max_wal_size', ARRAY['1GB'], clients => 1);
-- each step starts with a CHECKPOINT: that needs pg_checkpoint
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1);
RESET ROLE;
GRANT pg_checkpoint TO regress_wp_grantee;
SET ROLE regress_wp_grantee;
-- the defaults prewarm the tables as the caller: that needs prewarm()
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1);
-- a fixed server-wide setting is applied with a reload: that needs pg_reload_conf()
RESET ROLE;
GRANT ALTER SYSTEM ON PARAMETER wal_writer_delay TO regress_wp_grantee;
SET ROLE regress_wp_grantee;
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, prewarm => false,
                             settings => '{"wal_writer_delay": "100ms"}');
-- standby_conninfo is a superuser's: the connection would be made with the
-- server's own credentials
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, prewarm => false, engine => 'backend',
                             standby_conninfo => 'host=/tmp dbname=postgres password=x');
RESET ROLE;
REVOKE ALTER SYSTEM ON PARAMETER wal_writer_delay FROM regress_wp_grantee;
-- a grantee cannot cancel a superuser's sweep
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, duration => '60 s',
                             warmup => '0 s', prewarm => false, wait => false) AS su_sweep \gset
GRANT EXECUTE ON FUNCTION walpressure.cancel_sweep(bigint) TO regress_wp_grantee;
SET ROLE regress_wp_grantee;
SELECT walpressure.cancel_sweep(:su_sweep);
RESET ROLE;
SELECT walpressure.cancel_sweep(:su_sweep);
-- cancel_sweep reads an ended sweep's row as the extension's owner: a
-- grantee's own functions or operators earlier in its search_path are not
-- what it calls (this one would say whose rights it ran with)
CREATE SCHEMA regress_wp_evil AUTHORIZATION regress_wp_grantee;
SET ROLE regress_wp_grantee;
CREATE FUNCTION regress_wp_evil.format(text, int, int) RETURNS text
    LANGUAGE sql AS $$SELECT 'run as ' || current_user$$;
SET search_path = regress_wp_evil, pg_catalog;
SELECT walpressure.cancel_sweep(:su_sweep);
RESET search_path;
RESET ROLE;
DROP SCHEMA regress_wp_evil CASCADE;
-- with SET privilege on commit_delay, that check passes (and the next one refuses)
GRANT SET ON PARAMETER commit_delay TO regress_wp_grantee;
SET ROLE regress_wp_grantee;
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '1000'], clients => 500, engine => 'backend');
RESET ROLE;
REVOKE SET ON PARAMETER commit_delay FROM regress_wp_grantee;
DROP OWNED BY regress_wp_grantee;
DROP ROLE regress_wp_grantee;

-- no internal entry point skips these checks: there is none
SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'walpressure' AND p.proname LIKE '\_%' AND p.prolang = 13
ORDER BY 1;

-- and nothing else started (the one new sweep is the cancelled one above),
-- nothing was recorded, the server did not restart
SELECT count(*) - :sweeps_before AS new_sweeps FROM walpressure.sweeps;
SELECT count(*) AS workers_left FROM pg_stat_activity
WHERE backend_type IN ('walpressure client', 'walpressure coordinator');
SELECT backend_start = :'sampler_start' AS sampler_not_restarted FROM pg_stat_activity
WHERE backend_type = 'walpressure sampler';
