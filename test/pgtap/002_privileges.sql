-- Reading is for pg_monitor, changing for superusers; PUBLIC gets nothing.
BEGIN;
SELECT plan(54);

SELECT schema_privs_are('walpressure', 'public', ARRAY[]::text[], 'PUBLIC has no use of the schema');
SELECT schema_privs_are('walpressure', 'pg_monitor', ARRAY['USAGE'], 'pg_monitor uses the schema');
SELECT function_privs_are('walpressure', 'reset', '{}'::name[], 'public', ARRAY[]::text[],
                          'PUBLIC cannot reset');
SELECT function_privs_are('walpressure', 'reset', '{}'::name[], 'pg_monitor', ARRAY[]::text[],
                          'pg_monitor cannot reset');
SELECT function_privs_are('walpressure', 'live_figures', '{}'::name[], 'pg_monitor', ARRAY['EXECUTE']);
SELECT function_privs_are('walpressure', 'sample_rows', '{}'::name[], 'pg_monitor', ARRAY['EXECUTE']);
SELECT function_privs_are('walpressure', 'live_figures', '{}'::name[], 'public', ARRAY[]::text[]);
SELECT table_privs_are('walpressure', 'live', 'pg_monitor', ARRAY['SELECT']);
SELECT table_privs_are('walpressure', 'samples', 'pg_monitor', ARRAY['SELECT']);
SELECT table_privs_are('walpressure', 'live', 'public', ARRAY[]::text[]);
SELECT table_privs_are('walpressure', 'step_replication', 'pg_monitor', ARRAY['SELECT']);
SELECT table_privs_are('walpressure', 'search_rounds', 'pg_monitor', ARRAY['SELECT']);
SELECT table_privs_are('walpressure', 'search_rounds', 'public', ARRAY[]::text[]);
-- the load's statement texts: pg_read_all_stats' (pg_monitor is one of its members)
SELECT table_privs_are('walpressure', t, 'pg_read_all_stats', ARRAY['SELECT'])
FROM unnest(ARRAY['step_statements', 'statements']) AS t;
SELECT ok(NOT EXISTS (SELECT FROM pg_class c, aclexplode(c.relacl) a
                      WHERE c.oid IN ('walpressure.step_statements'::regclass, 'walpressure.statements'::regclass)
                        AND a.grantee NOT IN (c.relowner, 'pg_read_all_stats'::regrole)),
          'no other role is granted the statement texts');
-- what grant_sweeper gave whom, and the functions behind grant/revoke_sweeper: superusers'
SELECT table_privs_are('walpressure', 'sweeper_grants', 'pg_monitor', ARRAY[]::text[]);
SELECT function_privs_are('walpressure', '_grant_sweeper', ARRAY['regrole', 'text', 'regclass[]'], 'public',
                          ARRAY[]::text[]);
-- the auto-repeat rule the coordinator asks: not PUBLIC's
SELECT function_privs_are('walpressure', '_rounds_decided', ARRAY['bigint'], 'public', ARRAY[]::text[]);

SELECT function_privs_are('walpressure', f, args, 'public', ARRAY[]::text[],
                          format('PUBLIC cannot call %s', f))
FROM (VALUES ('run_sweep', ARRAY['text', '"any"', 'integer', '"any"', 'text', 'integer',
                                 '"any"', '"any"', 'jsonb', 'boolean', 'text', 'boolean',
                                 'boolean', 'text', 'text', '"any"', 'boolean', 'text', 'text',
                                 'double precision', 'double precision', 'text', 'text', '"any"',
                                 'text', 'double precision']),
             ('grant_sweeper', ARRAY['regrole', 'text']),
             ('revoke_sweeper', ARRAY['regrole']),
             ('delete_sweeps', ARRAY['interval']),
             ('import', ARRAY['jsonb']),
             ('progress_row', '{}'),
             ('cancel_sweep', ARRAY['bigint']),
             ('init_pgbench', ARRAY['integer']),
             ('prewarm', ARRAY['regclass[]']),
             ('set_iops_cap', ARRAY['integer', 'integer', 'text', 'text', 'double precision', 'integer']),
             ('clear_iops_cap', ARRAY['text']),
             ('probe_fsync', ARRAY['interval', 'integer']),
             ('fleet_run', ARRAY['jsonb', 'text[]', 'interval', 'bigint']),
             ('_fleet_run', ARRAY['bigint', 'text[]', 'jsonb', 'text', 'interval']),
             ('fleet_collect', ARRAY['text[]']),
             ('_fleet_collect', ARRAY['text[]']),
             ('fleet_register', ARRAY['text', 'boolean']),
             ('fleet_cancel', ARRAY['bigint', 'text[]']),
             -- what writes the fleet's rows, as the extension's owner (after the checks in C)
             ('_fleet_write_server', ARRAY['text', 'jsonb'])) AS f(f, args);
-- the fleet's tables and views: pg_monitor reads them, and nothing more
SELECT table_privs_are('walpressure', t, 'pg_monitor', ARRAY['SELECT'])
FROM unnest(ARRAY['fleet_servers', 'fleet_runs', 'fleet_members', 'fleet_sweeps', 'fleet_progress',
                  'fleet_reading']) AS t;
SELECT table_privs_are('walpressure', 'iops_cap', 'pg_monitor', ARRAY['SELECT']);
SELECT table_privs_are('walpressure', t, 'pg_monitor', ARRAY['SELECT'])
FROM unnest(ARRAY['sweeps', 'steps', 'progress']) AS t;

CREATE ROLE regress_tap_nobody;
CREATE ROLE regress_tap_monitor IN ROLE pg_monitor;

SET LOCAL ROLE regress_tap_nobody;
SELECT throws_ok('SELECT walpressure.reset()', '42501', 'permission denied for schema walpressure',
                 'a role without grants cannot reset');
RESET ROLE;

SET LOCAL ROLE regress_tap_monitor;
SELECT throws_ok('SELECT walpressure.reset()', '42501', 'permission denied for function reset',
                 'pg_monitor cannot reset');
SELECT lives_ok('SELECT * FROM walpressure.live', 'pg_monitor reads live');
SELECT lives_ok('SELECT * FROM walpressure.fleet_progress', 'pg_monitor reads the fleet''s progress');
SELECT throws_ok($$CALL walpressure.fleet_run('{"setting": "commit_delay", "vals": [0]}')$$, '42501',
                 'permission denied for procedure fleet_run', 'pg_monitor cannot start the fleet''s sweeps');
SELECT throws_ok('SELECT * FROM walpressure.fleet_collect()', '42501',
                 'permission denied for function fleet_collect', 'nor gather them');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
