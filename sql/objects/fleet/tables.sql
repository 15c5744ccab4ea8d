--
-- The fleet: the same sweep on many servers, started, watched and gathered
-- from one database over dblink (optional: the entry points say "CREATE
-- EXTENSION dblink first" when it is missing).  A server is a foreign
-- server whose user mappings are the DBA's; the entry points are C
-- (src/api/fleet.c, which says why this is safe) and check everything they
-- are given before any server is contacted; the files of sql/objects/fleet/
-- are their work.
--
-- The fleet's SQL runs as its caller: dblink connects with the caller's
-- own user mapping, and each server's run_sweep checks the mapped role's
-- rights there.  Its rows are written as the extension's owner, after the
-- caller's authority is checked in C (fleet/rows.sql).  Every remote call
-- is one of the fixed texts of fleet/questions.sql or the run_sweep call
-- fleet_run built; everything that comes back is data (fleet/answers.sql;
-- a sweep comes in through import(), which checks it in C).
--
-- Here: the fleet's tables (sql/tables.sql makes them), described.
--

COMMENT ON TABLE fleet_servers IS 'The servers of the fleet: each a foreign server whose user mappings are the DBA''s. No password is kept here.';

COMMENT ON TABLE fleet_runs IS 'One row per fleet_run call.';

COMMENT ON TABLE fleet_members IS 'Each server of each fleet run: where it is, and how it ended. fleet_progress reads it.';

COMMENT ON TABLE fleet_sweeps IS 'Every sweep gathered from a server of the fleet, keyed by the server and its id there: two servers'' sweep 1 are two rows, and two sweeps here.';

COMMENT ON COLUMN fleet_members.cancel_requested IS 'fleet_cancel() asked the session that runs the fleet run to cancel this server''s sweep';

COMMENT ON COLUMN fleet_runs.lost_after IS 'how long a server may leave a question unanswered before fleet_run counts it as lost and stops waiting for it';

SELECT pg_catalog.pg_extension_config_dump('fleet_servers', '');

SELECT pg_catalog.pg_extension_config_dump('fleet_runs', '');

SELECT pg_catalog.pg_extension_config_dump('fleet_runs_run_id_seq', '');

SELECT pg_catalog.pg_extension_config_dump('fleet_members', '');

SELECT pg_catalog.pg_extension_config_dump('fleet_sweeps', '');

GRANT SELECT ON fleet_servers, fleet_runs, fleet_members, fleet_sweeps TO pg_monitor;
