--
-- What is asked of a server of the fleet: fixed texts.
--

-- Who answers: its backend, role, database, versions, cluster, and whether
-- that role may read walpressure.progress there.
CREATE OR REPLACE FUNCTION _fleet_identity_sql()
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN $q$SELECT pg_catalog.jsonb_build_object(
    'pid', pg_catalog.pg_backend_pid(),
    'role', current_user::text,
    'database', pg_catalog.current_database()::text,
    'server_version', pg_catalog.current_setting('server_version'),
    'system_identifier', (SELECT c.system_identifier::text FROM pg_catalog.pg_control_system() c),
    'walpressure', (SELECT e.extversion FROM pg_catalog.pg_extension e WHERE e.extname = 'walpressure'),
    'progress', coalesce(pg_catalog.has_function_privilege(pg_catalog.to_regprocedure('walpressure.progress_row()'), 'EXECUTE')
                         AND pg_catalog.has_table_privilege(pg_catalog.to_regclass('walpressure.progress'), 'SELECT'), false))$q$;

-- The remote session the fleet works in: the mapped role's own settings
-- (its search_path finds the pgbench tables, as in psql; every name the
-- fleet sends is qualified), but no statement timeout (a sweep's length is
-- the sweep's), and the loss of the fleet's session seen as soon as the
-- fleet would count the server lost (within): client_connection_check_interval
-- looks at the socket every second, and TCP keepalives (idle a third of
-- within, then 3 probes a sixth of it apart) and tcp_user_timeout (within
-- of unacknowledged data) end a connection that a network cut left open,
-- so that run_sweep cancels the sweep whose caller is gone (job/launch.c).
-- The application_name names the fleet run (NULL: a collection).
CREATE OR REPLACE FUNCTION _fleet_session_sql(run_id bigint, within interval)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN format($q$SELECT pg_catalog.jsonb_build_array(
    pg_catalog.set_config('statement_timeout', '0', false),
    pg_catalog.set_config('client_connection_check_interval', '1000', false),
    pg_catalog.set_config('tcp_keepalives_idle', %L, false),
    pg_catalog.set_config('tcp_keepalives_interval', %L, false),
    pg_catalog.set_config('tcp_keepalives_count', '3', false),
    pg_catalog.set_config('tcp_user_timeout', %L, false),
    pg_catalog.set_config('application_name', %L, false))$q$,
    greatest(1, floor(extract(epoch FROM within) / 3))::int,
    greatest(1, floor(extract(epoch FROM within) / 6))::int,
    greatest(1000, floor(extract(epoch FROM within) * 1000))::bigint,
    coalesce('walpressure fleet run ' || run_id, 'walpressure fleet collect'));

-- Where the sweep that backend pid waits for is: walpressure.progress there,
-- or, for a role that may not read it, whether that backend still runs.
CREATE OR REPLACE FUNCTION _fleet_watch_sql(pid int, progress bool)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN progress THEN
    format($q$SELECT (SELECT pg_catalog.to_jsonb(p) FROM (
        SELECT x.sweep_id, x.step, x.steps_done, x.steps_total, x.value, x.phase, x.estimated_end
        FROM walpressure.progress x WHERE x.pid = %s) p)$q$, pid)
ELSE
    format($q$SELECT (SELECT pg_catalog.jsonb_build_object('state', a.state)
        FROM pg_catalog.pg_stat_activity a WHERE a.pid = %s)$q$, pid)
END;
