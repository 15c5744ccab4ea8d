--
-- The fleet: the same sweep on many servers, started, watched and gathered
-- from one database over dblink (optional: the entry points say "CREATE
-- EXTENSION dblink first" when it is missing).  A server is a foreign
-- server whose user mappings are the DBA's; the entry points are C
-- (src/api/fleet.c, which says why this is safe) and check everything they
-- are given before any server is contacted; what follows is their work.
--
-- Every function here runs as its caller: dblink connects with the
-- caller's own user mapping, and each server's run_sweep checks the mapped
-- role's rights there.  Every remote call is one of the fixed texts below
-- or the run_sweep call fleet_run built; everything that comes back is
-- data (a sweep comes in through import(), which checks it in C).
--

COMMENT ON TABLE fleet_servers IS
'The servers of the fleet: each a foreign server (CREATE SERVER, with user mappings: no password is kept here), and what it answered when last asked: its system identifier (the cluster it is; a server that answers as another is refused until registered again), versions';
COMMENT ON TABLE fleet_runs IS
'One row per fleet_run call: the sweep (run_sweep''s arguments), the servers, the session that ran it (pid and backend_start), and its status: running, done (every server ended, each its own way: fleet_progress), cancelled (the CALL was cancelled)';
COMMENT ON TABLE fleet_members IS
'Each server of each fleet run: state (connecting, running, collecting; collected: its sweep ended and is here, sweep_status says how; unreachable, refused: no walpressure, an older one, or another cluster; failed; lost: no answer within lost_after; cancelled), its sweep there (remote_sweep_id) and here (sweep_id), where it was when last heard from, and why it ended as it did (detail)';
COMMENT ON TABLE fleet_sweeps IS
'Every sweep gathered from a server of the fleet: the server and its sweep id there (the key: two servers'' sweep 1 are two rows), the cluster it ran on, and the sweep it is here (walpressure.sweeps, whose origin holds its fingerprint: system identifier, version, CPUs, WAL disk, cap)';
COMMENT ON COLUMN fleet_members.cancel_requested IS
'fleet_cancel() asked the session that runs the fleet run to cancel this server''s sweep';
COMMENT ON COLUMN fleet_runs.lost_after IS
'how long a server may leave a question unanswered before fleet_run counts it as lost and stops waiting for it';

SELECT pg_catalog.pg_extension_config_dump('fleet_servers', '');
SELECT pg_catalog.pg_extension_config_dump('fleet_runs', '');
SELECT pg_catalog.pg_extension_config_dump('fleet_runs_run_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('fleet_members', '');
SELECT pg_catalog.pg_extension_config_dump('fleet_sweeps', '');

--
-- dblink, called by name through its schema (it may be installed in any).
--

-- dblink's schema, quoted.
CREATE OR REPLACE FUNCTION _fleet_dblink()
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp text;
BEGIN
    SELECT quote_ident(n.nspname) INTO nsp
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'dblink';
    IF nsp IS NULL THEN
        RAISE EXCEPTION 'the fleet needs the dblink extension in this database'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'CREATE EXTENSION dblink first (it comes with PostgreSQL''s contrib modules).';
    END IF;
    RETURN nsp;
END
$$;

-- Close connection conn if it is open.
CREATE OR REPLACE FUNCTION _fleet_disconnect(conn text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    d text := walpressure._fleet_dblink();
    open bool;
BEGIN
    EXECUTE format('SELECT $1 = ANY (%s.dblink_get_connections())', d) INTO open USING conn;
    IF open THEN
        EXECUTE format('SELECT %s.dblink_disconnect($1)', d) USING conn;
    END IF;
END
$$;

-- Close every connection of the fleet's this session still has: those of
-- a fleet run or a collection that ended on an error nothing caught (a
-- session runs one at a time, so none of them is in use).
CREATE OR REPLACE FUNCTION _fleet_disconnect_all()
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    d text := walpressure._fleet_dblink();
    conns text[];
BEGIN
    EXECUTE format('SELECT %s.dblink_get_connections()', d) INTO conns;
    FOR i IN 1 .. coalesce(cardinality(conns), 0) LOOP
        IF starts_with(conns[i], 'walpressure_fleet_') THEN
            EXECUTE format('SELECT %s.dblink_disconnect($1)', d) USING conns[i];
        END IF;
    END LOOP;
END
$$;

-- Open connection conn to the foreign server, with the caller's user
-- mapping (dblink reads the server's options and the mapping's).
CREATE OR REPLACE FUNCTION _fleet_connect(conn text, server text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- dblink reads a name that is no foreign server's as a connection string
    IF NOT EXISTS (SELECT FROM pg_foreign_server s WHERE s.srvname = _fleet_connect.server) THEN
        RAISE EXCEPTION 'foreign server "%" does not exist', _fleet_connect.server
            USING ERRCODE = 'undefined_object';
    END IF;
    PERFORM walpressure._fleet_disconnect(conn);
    EXECUTE format('SELECT %s.dblink_connect($1, $2)', walpressure._fleet_dblink())
        USING conn, _fleet_connect.server;
END
$$;

-- Send sql on conn without waiting for its answer.
CREATE OR REPLACE FUNCTION _fleet_send(conn text, sql text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    d text := walpressure._fleet_dblink();
    sent int;
    why text;
BEGIN
    EXECUTE format('SELECT %s.dblink_send_query($1, $2)', d) INTO sent USING conn, sql;
    IF sent IS DISTINCT FROM 1 THEN
        EXECUTE format('SELECT %s.dblink_error_message($1)', d) INTO why USING conn;
        RAISE EXCEPTION 'could not send a query to the server: %', why
            USING ERRCODE = 'connection_failure';
    END IF;
END
$$;

-- Is conn still working on what was sent?  (It reads what has come, and
-- never waits.)
CREATE OR REPLACE FUNCTION _fleet_busy(conn text)
RETURNS bool
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    busy int;
BEGIN
    EXECUTE format('SELECT %s.dblink_is_busy($1)', walpressure._fleet_dblink()) INTO busy USING conn;
    RETURN busy = 1;
END
$$;

-- The answer to what was sent on conn: one row of one column, read as
-- jsonb (NULL when no row).  A remote error is raised here with its own
-- SQLSTATE, message, detail and hint; the connection is left ready for the
-- next query.
CREATE OR REPLACE FUNCTION _fleet_result(conn text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    d text := walpressure._fleet_dblink();
    answer jsonb;
BEGIN
    BEGIN
        EXECUTE format('SELECT t.j FROM %s.dblink_get_result($1) AS t(j jsonb)', d) INTO answer USING conn;
    EXCEPTION WHEN OTHERS THEN
        -- the end of the results, so that the connection takes a next query
        BEGIN
            EXECUTE format('SELECT count(*) FROM %s.dblink_get_result($1, false) AS t(j text)', d) USING conn;
        EXCEPTION WHEN OTHERS THEN
            NULL;
        END;
        RAISE;
    END;
    -- the end of the results: an empty set
    EXECUTE format('SELECT count(*) FROM %s.dblink_get_result($1) AS t(j jsonb)', d) USING conn;
    RETURN answer;
END
$$;

-- Send sql on conn and wait for its answer (_fleet_result), at most
-- within: a server that does not answer raises connection_failure, and
-- never holds up the caller longer than that.
CREATE OR REPLACE FUNCTION _fleet_ask(conn text, sql text, within interval)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    deadline timestamptz := clock_timestamp() + within;
    pause float8 := 0.0005;     -- doubled up to 50 ms: a near server's answer is not waited for long
BEGIN
    PERFORM walpressure._fleet_send(conn, sql);
    WHILE walpressure._fleet_busy(conn) LOOP
        IF clock_timestamp() > deadline THEN
            RAISE EXCEPTION 'no answer within %', within
                USING ERRCODE = 'connection_failure';
        END IF;
        PERFORM pg_sleep(pause);
        pause := least(2 * pause, 0.05);
    END LOOP;
    RETURN walpressure._fleet_result(conn);
END
$$;

--
-- What is asked of a server: fixed texts.
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

-- The oldest walpressure a server may run for the fleet: one whose waiting
-- run_sweep cancels its sweep when its caller is gone, and whose export()
-- this import() reads.
CREATE OR REPLACE FUNCTION _fleet_min_version()
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN '0.7.0';

-- A version as numbers, for comparing ('0.7.0' -> {0,7,0}); NULL when it
-- is not one.
CREATE OR REPLACE FUNCTION _fleet_version(v text)
RETURNS int[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN (regexp_match(v, '^(\d{1,6})\.(\d{1,6})(?:\.(\d{1,6}))?'))::int[];

-- Why a server that answered `who` (_fleet_identity_sql) cannot take part,
-- or NULL: no walpressure there, an older one, or another cluster than the
-- one registered under that name.
CREATE OR REPLACE FUNCTION _fleet_refusal(server text, who jsonb)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    registered text;
    v int[] := walpressure._fleet_version(who->>'walpressure');
BEGIN
    SELECT f.system_identifier INTO registered FROM walpressure.fleet_servers f
    WHERE f.server = _fleet_refusal.server;
    IF who->>'walpressure' IS NULL THEN
        RETURN format('walpressure is not installed in database %s there (as its DBA: CREATE EXTENSION walpressure CASCADE, with walpressure in shared_preload_libraries)',
                      who->>'database');
    ELSIF v IS NULL
          OR ARRAY[v[1], v[2], coalesce(v[3], 0)] < walpressure._fleet_version(walpressure._fleet_min_version()) THEN
        RETURN format('walpressure %s there; the fleet needs %s or later (as its DBA: ALTER EXTENSION walpressure UPDATE)',
                      who->>'walpressure', walpressure._fleet_min_version());
    ELSIF registered IS NOT NULL AND registered IS DISTINCT FROM who->>'system_identifier' THEN
        RETURN format('it answers as system %s, but was registered as system %s: another cluster answers under that name now (register it again with fleet_register(%L) once that is meant)',
                      who->>'system_identifier', registered, server);
    END IF;
    RETURN NULL;
END
$$;

-- One line of text from a server: what a terminal or a chart may show
-- (each run of controls, line separators and formatting characters, bidi
-- overrides among them, as one space; at most 1000 characters).
CREATE OR REPLACE FUNCTION _clean_line(t text)
RETURNS text
AS 'MODULE_PATHNAME', 'wp_clean_line'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION _fleet_line(t text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN walpressure._clean_line(t);

-- A caught error as one line: message, detail, hint.
CREATE OR REPLACE FUNCTION _fleet_error(message text, detail text, hint text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN walpressure._fleet_line(concat_ws(' ', message,
                                         nullif('(' || detail || ')', '()'),
                                         nullif('HINT: ' || hint, 'HINT: ')));

--
-- Gathering.
--

-- Bring sweep remote_id of the server, asked on conn, into this database:
-- export() there, import() here (which checks the document in C), keyed by
-- server and remote id in fleet_sweeps, and the fleet runs that started it
-- told.  Returns its id here; a sweep gathered before is not brought twice.
CREATE OR REPLACE FUNCTION _fleet_collect_sweep(conn text, server text, remote_id bigint, run_id bigint,
                                                system_identifier text, within interval)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    doc jsonb;
    here bigint;
BEGIN
    SELECT f.sweep_id INTO here FROM walpressure.fleet_sweeps f
    WHERE f.server = _fleet_collect_sweep.server AND f.remote_sweep_id = remote_id;
    IF here IS NULL THEN
        doc := walpressure._fleet_ask(conn, format('SELECT walpressure.export(%s)', remote_id), within);
        IF doc IS NULL OR jsonb_typeof(doc) <> 'object' THEN
            RAISE EXCEPTION 'export(%) there returned no document', remote_id;
        END IF;
        -- the document must be that sweep of that cluster, ended
        IF doc #>> '{server,system_identifier}' IS DISTINCT FROM _fleet_collect_sweep.system_identifier
           OR doc #>> '{sweep,sweep_id}' IS DISTINCT FROM remote_id::text THEN
            RAISE EXCEPTION 'export(%) there returned another sweep than the one asked for', remote_id;
        END IF;
        IF doc #>> '{sweep,status}' = 'running' THEN
            RAISE EXCEPTION 'sweep % there still runs', remote_id;
        END IF;
        here := walpressure.import(doc);
        INSERT INTO walpressure.fleet_sweeps (server, remote_sweep_id, remote_started_at, system_identifier,
                                              sweep_id, run_id)
        VALUES (_fleet_collect_sweep.server, remote_id, (doc #>> '{sweep,started_at}')::timestamptz,
                _fleet_collect_sweep.system_identifier, here, _fleet_collect_sweep.run_id);
    END IF;
    -- the fleet run that started it, also when it never heard the sweep's id
    UPDATE walpressure.fleet_members m
    SET remote_sweep_id = remote_id, sweep_id = here, sweep_status = s.status, steps_done = s.steps_done,
        steps_total = s.steps_total
    FROM walpressure.sweeps s
    WHERE s.sweep_id = here AND m.server = _fleet_collect_sweep.server
      AND (m.remote_sweep_id = remote_id
           OR (m.remote_sweep_id IS NULL AND m.run_id = _fleet_collect_sweep.run_id));
    RETURN here;
END
$$;

-- fleet_collect() after its checks: per server, every sweep that ran there
-- (not one imported there), ended, and is not here yet.  A server's
-- failure is its row's; the others go on.
CREATE OR REPLACE FUNCTION _fleet_collect(servers text[])
RETURNS TABLE (server text, state text, collected int, sweep_ids bigint[], detail text)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    conn text := 'walpressure_fleet_collect';
    within interval := '60 s';
    who jsonb;
    list jsonb;
    e jsonb;
    rid bigint;
    prev timestamptz;
    here bigint;
    notes text[];
    e_state text; e_msg text; e_detail text; e_hint text;
BEGIN
    PERFORM walpressure._fleet_disconnect_all();
    FOR i IN 1 .. coalesce(cardinality(servers), 0) LOOP
        server := servers[i];
        state := 'collected';
        collected := 0;
        sweep_ids := '{}';
        detail := NULL;
        notes := '{}';
        BEGIN
            PERFORM walpressure._fleet_connect(conn, servers[i]);
            who := walpressure._fleet_ask(conn, walpressure._fleet_identity_sql(), within);
            detail := walpressure._fleet_refusal(servers[i], who);
            IF detail IS NOT NULL THEN
                state := 'refused';
            ELSE
                UPDATE walpressure.fleet_servers f
                SET system_identifier = who->>'system_identifier', server_version = who->>'server_version',
                    walpressure_version = who->>'walpressure', answered_at = clock_timestamp()
                WHERE f.server = servers[i];
                PERFORM walpressure._fleet_ask(conn, walpressure._fleet_session_sql(NULL, within), within);
                list := walpressure._fleet_ask(conn, $q$SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                            'id', s.sweep_id, 'started_at', s.started_at, 'label', s.label) ORDER BY s.sweep_id), '[]')
                        FROM walpressure.sweeps s WHERE s.status <> 'running' AND s.origin IS NULL$q$, within);
                FOR e IN SELECT x FROM jsonb_array_elements(list) AS x LOOP
                    rid := (e->>'id')::bigint;
                    SELECT f.remote_started_at INTO prev FROM walpressure.fleet_sweeps f
                    WHERE f.server = servers[i] AND f.remote_sweep_id = rid;
                    IF FOUND THEN
                        IF prev IS DISTINCT FROM (e->>'started_at')::timestamptz THEN
                            notes := notes || format('sweep %s there started at %s, not at %s as the one gathered before under that id (its sweeps were numbered anew?): delete that row of walpressure.fleet_sweeps to gather it',
                                                     rid, e->>'started_at', prev);
                        END IF;
                        CONTINUE;
                    END IF;
                    BEGIN
                        here := walpressure._fleet_collect_sweep(
                            conn, servers[i], rid,
                            -- the fleet run that started it: by the id it heard, or by
                            -- the label it gave (when it did not live to hear the id)
                            (SELECT m.run_id FROM walpressure.fleet_members m
                             WHERE m.server = servers[i]
                               AND (m.remote_sweep_id = rid
                                    OR (m.remote_sweep_id IS NULL AND e->>'label' = 'fleet run ' || m.run_id))
                             ORDER BY m.remote_sweep_id IS NULL, m.run_id DESC LIMIT 1),
                            who->>'system_identifier', within);
                        collected := collected + 1;
                        sweep_ids := sweep_ids || here;
                    EXCEPTION WHEN OTHERS THEN
                        GET STACKED DIAGNOSTICS e_msg = MESSAGE_TEXT, e_detail = PG_EXCEPTION_DETAIL,
                                                e_hint = PG_EXCEPTION_HINT;
                        notes := notes || format('sweep %s: %s', rid, walpressure._fleet_error(e_msg, e_detail, e_hint));
                    END;
                END LOOP;
                detail := nullif(array_to_string(notes, '; '), '');
            END IF;
            PERFORM walpressure._fleet_disconnect(conn);
        EXCEPTION WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_msg = MESSAGE_TEXT,
                                    e_detail = PG_EXCEPTION_DETAIL, e_hint = PG_EXCEPTION_HINT;
            state := CASE WHEN e_state LIKE '08%' THEN 'unreachable' ELSE 'failed' END;
            detail := walpressure._fleet_error(e_msg, e_detail, e_hint);
            collected := 0;
            sweep_ids := '{}';
            BEGIN
                PERFORM walpressure._fleet_disconnect(conn);
            EXCEPTION WHEN OTHERS THEN
                NULL;
            END;
        END;
        RETURN NEXT;
    END LOOP;
END
$$;

COMMENT ON FUNCTION _fleet_collect(text[]) IS
'fleet_collect() after its checks: per server, the sweeps that ran and ended there and are not here yet, exported there and imported here';

CREATE OR REPLACE FUNCTION fleet_collect(servers text[] DEFAULT NULL)
RETURNS TABLE (server text, state text, collected int, sweep_ids bigint[], detail text)
AS 'MODULE_PATHNAME', 'wp_fleet_collect'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION fleet_collect(text[]) IS
'Gather from each server (the registered ones by default) every sweep that ran and ended there and is not here yet: its row, steps, samples, statements and replication figures, with its fingerprint, as import() brings one, keyed by server and its id there (walpressure.fleet_sweeps); a second call brings nothing twice.  One row per server: collected, unreachable, refused or failed, and why';

--
-- Registering.
--

-- fleet_register() after its checks: the server added (once), and with
-- check, asked what it is.
CREATE OR REPLACE FUNCTION _fleet_register(server text, "check" bool)
RETURNS walpressure.fleet_servers
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    conn text := 'walpressure_fleet_register';
    who jsonb;
    was walpressure.fleet_servers;
    why text;
    twin text;
    r walpressure.fleet_servers;
BEGIN
    SELECT * INTO was FROM walpressure.fleet_servers f WHERE f.server = _fleet_register.server;
    INSERT INTO walpressure.fleet_servers (server) VALUES (_fleet_register.server)
    ON CONFLICT DO NOTHING;
    IF "check" THEN
        BEGIN
            PERFORM walpressure._fleet_connect(conn, _fleet_register.server);
            who := walpressure._fleet_ask(conn, walpressure._fleet_identity_sql(), '60 s');
            PERFORM walpressure._fleet_disconnect(conn);
        EXCEPTION WHEN OTHERS THEN
            BEGIN
                PERFORM walpressure._fleet_disconnect(conn);
            EXCEPTION WHEN OTHERS THEN
                NULL;
            END;
            RAISE;
        END;
        IF was.system_identifier IS NOT NULL AND was.system_identifier IS DISTINCT FROM who->>'system_identifier' THEN
            RAISE NOTICE 'server % was registered as system %; it answers as system % now: that cluster is the one registered from here on',
                _fleet_register.server, was.system_identifier, who->>'system_identifier';
        END IF;
        UPDATE walpressure.fleet_servers f
        SET system_identifier = who->>'system_identifier', server_version = who->>'server_version',
            walpressure_version = who->>'walpressure', answered_at = clock_timestamp()
        WHERE f.server = _fleet_register.server;
        why := walpressure._fleet_refusal(_fleet_register.server, who);
        IF why IS NOT NULL THEN
            RAISE NOTICE 'server % cannot run the fleet''s sweeps yet: %', _fleet_register.server, why;
        END IF;
        SELECT string_agg(f.server, ', ') INTO twin FROM walpressure.fleet_servers f
        WHERE f.system_identifier = who->>'system_identifier' AND f.server <> _fleet_register.server;
        IF twin IS NOT NULL THEN
            RAISE NOTICE 'server % answers as system %, as % does: the same cluster (or a copy of it) registered twice',
                _fleet_register.server, who->>'system_identifier', twin;
        END IF;
    END IF;
    SELECT * INTO r FROM walpressure.fleet_servers f WHERE f.server = _fleet_register.server;
    RETURN r;
END
$$;

COMMENT ON FUNCTION _fleet_register(text, bool) IS
'fleet_register() after its checks';

CREATE OR REPLACE FUNCTION fleet_register(server text, "check" bool DEFAULT true)
RETURNS walpressure.fleet_servers
AS 'MODULE_PATHNAME', 'wp_fleet_register'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION fleet_register(text, bool) IS
'Add a foreign server to the fleet (the caller needs USAGE on it and a user mapping of its own); with check (the default), connect as that mapping and record the cluster it is (system identifier), its versions, and say what keeps it from taking part (no walpressure, an older one); registering again records the cluster that answers now';

--
-- Running.
--

-- fleet_run() after its checks: start `statement` (the run_sweep call
-- fleet_run built) on every server at once, each in a session of its own
-- with a second one to watch it, and gather each sweep as it ends.  It
-- commits after each look (twice a second), so that fleet_progress shows
-- where every server is.  A server's failure is its own: one that cannot
-- be reached, lacks walpressure, fails or goes silent (lost_after) is
-- marked so and the others go on.  When this call ends any other way (a
-- cancel, an error, its session's end), every session it opened closes,
-- and each server's run_sweep, seeing its caller gone, cancels its sweep.
CREATE OR REPLACE PROCEDURE _fleet_run(run_id bigint, servers text[], sweep jsonb, statement text,
                                       lost_after interval)
LANGUAGE plpgsql
AS $$
DECLARE
    n int;
    rc text[];              -- each server's session for run_sweep
    wc text[];              -- ... and the one that watches it
    st text[];              -- where each is: connecting, running, or how it ended
    rpid int[];             -- its backend there that waits in run_sweep
    rid bigint[];           -- its sweep there, once known
    sysid text[];
    watch text[];           -- the watch's question
    asked timestamptz[];    -- when the watch's question went out (NULL: none out)
    heard timestamptz[];    -- when it last answered
    cancelling bool[];
    who jsonb;
    answer jsonb;
    why text;
    outcome text;
    interrupted bool;
    round_began timestamptz;
    e_state text; e_msg text; e_detail text; e_hint text;
BEGIN
    -- the caller's search_path is never used: pinned first, and again after
    -- each COMMIT (a procedure that commits cannot have a SET clause, and a
    -- DECLARE initializer would run before this)
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
    n := cardinality(servers);
    interrupted := false;
    PERFORM walpressure._fleet_disconnect_all();
    INSERT INTO walpressure.fleet_runs (run_id, sweep, servers, lost_after, backend_start)
    VALUES (run_id, sweep, servers, lost_after,
            (SELECT a.backend_start FROM pg_stat_activity a WHERE a.pid = pg_backend_pid()));
    INSERT INTO walpressure.fleet_members (run_id, server)
    SELECT _fleet_run.run_id, s FROM unnest(servers) AS s;
    FOR i IN 1 .. n LOOP
        rc[i] := format('walpressure_fleet_%s_%s_run', run_id, i);
        wc[i] := format('walpressure_fleet_%s_%s_watch', run_id, i);
        st[i] := 'connecting';
        cancelling[i] := false;
    END LOOP;
    COMMIT;
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);

    LOOP
        PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
        round_began := clock_timestamp();
        BEGIN
            -- what fleet_cancel asked, read afresh after each commit
            FOR i IN 1 .. n LOOP
                IF st[i] IN ('connecting', 'running') AND NOT cancelling[i]
                   AND (SELECT m.cancel_requested FROM walpressure.fleet_members m
                        WHERE m.run_id = _fleet_run.run_id AND m.server = servers[i]) THEN
                    cancelling[i] := true;
                    IF st[i] = 'connecting' THEN
                        st[i] := 'cancelled';
                        UPDATE walpressure.fleet_members m
                        SET state = 'cancelled', detail = 'cancelled by fleet_cancel() before it started',
                            ended_at = clock_timestamp()
                        WHERE m.run_id = _fleet_run.run_id AND m.server = servers[i];
                    ELSIF rid[i] IS NOT NULL THEN
                        IF asked[i] IS NULL THEN
                            -- cancel_sweep there; run_sweep then returns, and the sweep is gathered
                            PERFORM walpressure._fleet_send(wc[i], format('SELECT pg_catalog.to_jsonb(walpressure.cancel_sweep(%s))', rid[i]));
                            asked[i] := clock_timestamp();
                            UPDATE walpressure.fleet_members m SET detail = 'cancelled by fleet_cancel()'
                            WHERE m.run_id = _fleet_run.run_id AND m.server = servers[i];
                        ELSE
                            cancelling[i] := false;     -- its watch is out: at the next look
                        END IF;
                    ELSE
                        -- not started yet (or its watch busy): close its session; run_sweep
                        -- there cancels the sweep of a caller that is gone
                        PERFORM walpressure._fleet_disconnect(rc[i]);
                        PERFORM walpressure._fleet_disconnect(wc[i]);
                        st[i] := 'cancelled';
                        UPDATE walpressure.fleet_members m
                        SET state = 'cancelled', ended_at = clock_timestamp(),
                            detail = 'cancelled by fleet_cancel(): its session was closed, and the server cancels the sweep of a caller that is gone; fleet_collect() gathers it'
                        WHERE m.run_id = _fleet_run.run_id AND m.server = servers[i];
                    END IF;
                END IF;
            END LOOP;

            FOR i IN 1 .. n LOOP
                CONTINUE WHEN st[i] NOT IN ('connecting', 'running');
                -- starts take a second of a look at most, then commit (fleet_progress)
                CONTINUE WHEN st[i] = 'connecting' AND clock_timestamp() - round_began > '1 s';
                BEGIN
                    IF st[i] = 'connecting' THEN
                        -- start: who answers, whether it can take part, its sessions, the call
                        UPDATE walpressure.fleet_members m SET started_at = clock_timestamp()
                        WHERE m.run_id = _fleet_run.run_id AND m.server = servers[i];
                        PERFORM walpressure._fleet_connect(rc[i], servers[i]);
                        who := walpressure._fleet_ask(rc[i], walpressure._fleet_identity_sql(), lost_after);
                        sysid[i] := who->>'system_identifier';
                        UPDATE walpressure.fleet_members m
                        SET system_identifier = sysid[i], last_heard = clock_timestamp()
                        WHERE m.run_id = _fleet_run.run_id AND m.server = servers[i];
                        why := walpressure._fleet_refusal(servers[i], who);
                        IF why IS NOT NULL THEN
                            st[i] := 'refused';
                            PERFORM walpressure._fleet_disconnect(rc[i]);
                            UPDATE walpressure.fleet_members m
                            SET state = 'refused', detail = why, ended_at = clock_timestamp()
                            WHERE m.run_id = _fleet_run.run_id AND m.server = servers[i];
                            CONTINUE;
                        END IF;
                        UPDATE walpressure.fleet_servers f
                        SET system_identifier = sysid[i], server_version = who->>'server_version',
                            walpressure_version = who->>'walpressure', answered_at = clock_timestamp()
                        WHERE f.server = servers[i];
                        PERFORM walpressure._fleet_ask(rc[i], walpressure._fleet_session_sql(run_id, lost_after), lost_after);
                        PERFORM walpressure._fleet_connect(wc[i], servers[i]);
                        PERFORM walpressure._fleet_ask(wc[i], walpressure._fleet_session_sql(run_id, lost_after), lost_after);
                        PERFORM walpressure._fleet_send(rc[i], statement);
                        rpid[i] := (who->>'pid')::int;
                        watch[i] := walpressure._fleet_watch_sql(rpid[i], (who->>'progress')::bool);
                        heard[i] := clock_timestamp();
                        -- the first look at once: the sweep's id, as soon as it has one
                        PERFORM walpressure._fleet_send(wc[i], watch[i]);
                        asked[i] := clock_timestamp();
                        st[i] := 'running';
                        UPDATE walpressure.fleet_members m
                        SET state = 'running', remote_pid = rpid[i], last_heard = heard[i]
                        WHERE m.run_id = _fleet_run.run_id AND m.server = servers[i];

                    ELSIF NOT walpressure._fleet_busy(rc[i]) THEN
                        -- run_sweep there returned: its sweep's id, or its error
                        outcome := NULL;
                        BEGIN
                            answer := walpressure._fleet_result(rc[i]);
                            rid[i] := (answer #>> '{}')::bigint;
                        EXCEPTION WHEN OTHERS THEN
                            GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_msg = MESSAGE_TEXT,
                                                    e_detail = PG_EXCEPTION_DETAIL, e_hint = PG_EXCEPTION_HINT;
                            outcome := walpressure._fleet_error(e_msg, e_detail, e_hint);
                            st[i] := CASE WHEN e_state LIKE '08%' THEN 'lost' ELSE 'failed' END;
                        END;
                        heard[i] := clock_timestamp();
                        IF rid[i] IS NOT NULL AND st[i] <> 'lost' THEN
                            UPDATE walpressure.fleet_members m
                            SET state = 'collecting', remote_sweep_id = rid[i], last_heard = heard[i],
                                detail = coalesce(outcome, m.detail)
                            WHERE m.run_id = _fleet_run.run_id AND m.server = servers[i];
                            -- the watch may still be out: gather on the run's own session
                            PERFORM walpressure._fleet_collect_sweep(rc[i], servers[i], rid[i], run_id, sysid[i], lost_after);
                            st[i] := 'collected';
                        END IF;
                        PERFORM walpressure._fleet_disconnect(rc[i]);
                        PERFORM walpressure._fleet_disconnect(wc[i]);
                        UPDATE walpressure.fleet_members m
                        SET state = st[i], remote_sweep_id = coalesce(rid[i], m.remote_sweep_id),
                            detail = coalesce(CASE WHEN st[i] = 'lost' THEN 'the connection was lost: ' || outcome ELSE outcome END,
                                              m.detail),
                            last_heard = heard[i], ended_at = clock_timestamp()
                        WHERE m.run_id = _fleet_run.run_id AND m.server = servers[i];

                    ELSIF asked[i] IS NOT NULL AND NOT walpressure._fleet_busy(wc[i]) THEN
                        -- the watch's answer: where the sweep is
                        answer := walpressure._fleet_result(wc[i]);
                        asked[i] := NULL;
                        heard[i] := clock_timestamp();
                        IF answer ? 'sweep_id' AND jsonb_typeof(answer->'sweep_id') = 'number' THEN
                            rid[i] := (answer->>'sweep_id')::bigint;
                        END IF;
                        UPDATE walpressure.fleet_members m
                        SET remote_sweep_id = coalesce(rid[i], m.remote_sweep_id), last_heard = heard[i],
                            step = CASE WHEN answer ? 'step' THEN (answer->>'step')::int ELSE m.step END,
                            steps_done = CASE WHEN answer ? 'steps_done' THEN (answer->>'steps_done')::int ELSE m.steps_done END,
                            steps_total = CASE WHEN answer ? 'steps_total' THEN (answer->>'steps_total')::int ELSE m.steps_total END,
                            value = CASE WHEN answer ? 'value' THEN walpressure._fleet_line(answer->>'value') ELSE m.value END,
                            phase = CASE WHEN answer ? 'phase' THEN walpressure._fleet_line(answer->>'phase') ELSE m.phase END,
                            estimated_end = CASE WHEN answer ? 'estimated_end' THEN (answer->>'estimated_end')::timestamptz
                                                 ELSE m.estimated_end END
                        WHERE m.run_id = _fleet_run.run_id AND m.server = servers[i];

                    ELSIF asked[i] IS NOT NULL AND clock_timestamp() - asked[i] > lost_after THEN
                        -- silent: a network cut, or a server that hangs
                        PERFORM walpressure._fleet_disconnect(rc[i]);
                        PERFORM walpressure._fleet_disconnect(wc[i]);
                        st[i] := 'lost';
                        UPDATE walpressure.fleet_members m
                        SET state = 'lost', remote_sweep_id = coalesce(rid[i], m.remote_sweep_id), ended_at = clock_timestamp(),
                            detail = format('no answer for %s: the server or the network to it is gone.  The server cancels its sweep itself once it has heard nothing from this session for about as long (its TCP keepalives and tcp_user_timeout give up); fleet_collect() gathers it when the server answers again',
                                            lost_after)
                        WHERE m.run_id = _fleet_run.run_id AND m.server = servers[i];
                    END IF;

                    -- the next look, a second after the last answer
                    IF st[i] = 'running' AND asked[i] IS NULL AND clock_timestamp() - heard[i] >= '1 s' THEN
                        PERFORM walpressure._fleet_send(wc[i], watch[i]);
                        asked[i] := clock_timestamp();
                    END IF;
                EXCEPTION WHEN OTHERS THEN
                    GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_msg = MESSAGE_TEXT,
                                            e_detail = PG_EXCEPTION_DETAIL, e_hint = PG_EXCEPTION_HINT;
                    BEGIN
                        PERFORM walpressure._fleet_disconnect(rc[i]);
                        PERFORM walpressure._fleet_disconnect(wc[i]);
                    EXCEPTION WHEN OTHERS THEN
                        NULL;
                    END;
                    why := walpressure._fleet_error(e_msg, e_detail, e_hint);
                    st[i] := CASE WHEN st[i] = 'connecting' AND e_state LIKE '08%' THEN 'unreachable'
                                  WHEN e_state LIKE '08%' THEN 'lost'
                                  ELSE 'failed' END;
                    UPDATE walpressure.fleet_members m
                    SET state = st[i], remote_sweep_id = coalesce(rid[i], m.remote_sweep_id),
                        detail = CASE WHEN st[i] = 'failed' AND rid[i] IS NOT NULL AND m.state = 'collecting' THEN
                                          format('its sweep %s there ended, but could not be gathered: %s; fleet_collect() tries again', rid[i], why)
                                      WHEN m.detail IS NOT NULL AND st[i] = 'failed' THEN m.detail || '; ' || why
                                      ELSE why END,
                        ended_at = clock_timestamp()
                    WHERE m.run_id = _fleet_run.run_id AND m.server = servers[i];
                END;
            END LOOP;

            IF 'running' = ANY (st) THEN
                PERFORM pg_sleep(0.5);
            END IF;
        EXCEPTION WHEN query_canceled THEN
            interrupted := true;
        END;

        IF interrupted THEN
            -- the CALL was cancelled (Ctrl-C, statement_timeout): close every session;
            -- each server cancels the sweep of its caller that is gone
            FOR i IN 1 .. n LOOP
                CONTINUE WHEN st[i] NOT IN ('connecting', 'running');
                BEGIN
                    PERFORM walpressure._fleet_disconnect(rc[i]);
                    PERFORM walpressure._fleet_disconnect(wc[i]);
                EXCEPTION WHEN OTHERS THEN
                    NULL;
                END;
                UPDATE walpressure.fleet_members m
                SET state = 'cancelled', remote_sweep_id = coalesce(rid[i], m.remote_sweep_id), ended_at = clock_timestamp(),
                    detail = CASE WHEN st[i] = 'connecting' THEN 'the fleet run was cancelled before it started here'
                                  ELSE 'the fleet run was cancelled: its session here was closed, and the server cancels the sweep of a caller that is gone; fleet_collect() gathers it' END
                WHERE m.run_id = _fleet_run.run_id AND m.server = servers[i];
            END LOOP;
            UPDATE walpressure.fleet_runs r SET status = 'cancelled', finished_at = clock_timestamp()
            WHERE r.run_id = _fleet_run.run_id;
            COMMIT;
            PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
            RAISE EXCEPTION 'canceling statement due to user request'
                USING ERRCODE = 'query_canceled',
                      DETAIL = format('Fleet run %s was cancelled: the servers cancel their sweeps as they see their sessions close.', run_id);
        END IF;

        EXIT WHEN NOT ('connecting' = ANY (st) OR 'running' = ANY (st));
        COMMIT;
        PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
    END LOOP;

    UPDATE walpressure.fleet_runs r SET status = 'done', finished_at = clock_timestamp()
    WHERE r.run_id = _fleet_run.run_id;
    COMMIT;
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
END
$$;

COMMENT ON PROCEDURE _fleet_run(bigint, text[], jsonb, text, interval) IS
'fleet_run() after its checks: the run_sweep call it built, started on every server, watched, and each sweep gathered as it ends';

CREATE OR REPLACE PROCEDURE fleet_run(sweep jsonb, servers text[] DEFAULT NULL,
                                      lost_after interval DEFAULT '60 s', INOUT run_id bigint DEFAULT NULL)
AS 'MODULE_PATHNAME', 'wp_fleet_run'
LANGUAGE C;

COMMENT ON PROCEDURE fleet_run(jsonb, text[], interval, bigint) IS
'CALL it (outside a transaction block) to run the same sweep on each server (every registered one by default) at once: sweep holds run_sweep''s arguments by name (as JSON: setting, vals, clients, duration, ...); each server runs it with its own run_sweep, as the role its user mapping names, with its own checks; fleet_progress shows where each is, and each sweep is gathered here as it ends (fleet_sweeps).  A server that cannot be reached, lacks walpressure, fails, or leaves a question unanswered for lost_after is marked so, and the others go on; when the call ends otherwise (a cancel, its session''s end) every server cancels its sweep.  Returns the run''s id';

-- fleet_cancel(): the session that runs the fleet run cancels those sweeps
-- at its next look.
CREATE OR REPLACE FUNCTION fleet_cancel(run_id bigint, servers text[] DEFAULT NULL)
RETURNS int
AS 'MODULE_PATHNAME', 'wp_fleet_cancel'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION fleet_cancel(bigint, text[]) IS
'Ask the session that runs a fleet run to cancel its sweeps on those servers (all by default): within a second it calls cancel_sweep there, and the sweep, cancelled with the steps it finished, is gathered; only the role that started the run (or one with its privileges) may; returns how many servers were asked';

--
-- Watching and reading.
--

CREATE OR REPLACE VIEW fleet_progress AS
SELECT m.run_id,
       m.server,
       CASE WHEN m.state IN ('connecting', 'running', 'collecting') AND NOT l.alive THEN 'orphaned'
            ELSE m.state END AS state,
       m.sweep_status,
       m.remote_sweep_id,
       m.sweep_id,
       m.step,
       m.steps_done,
       m.steps_total,
       m.value,
       m.phase,
       m.estimated_end,
       m.last_heard,
       CASE WHEN m.state IN ('connecting', 'running', 'collecting') AND l.alive THEN
                round(extract(epoch FROM clock_timestamp() - coalesce(m.last_heard, m.started_at))::numeric, 1)
       END AS silent_s,
       CASE WHEN m.state IN ('connecting', 'running', 'collecting') AND NOT l.alive THEN
                format('the session that ran fleet run %s (pid %s) ended while this server''s sweep ran: the server cancelled it when it saw that session''s connection close; fleet_collect() gathers what it did',
                       m.run_id, r.pid)
            ELSE m.detail END AS detail,
       m.system_identifier,
       m.started_at,
       m.ended_at,
       CASE WHEN NOT l.alive THEN 'orphaned' ELSE r.status END AS run_status,
       r.run_by
FROM fleet_members m
JOIN fleet_runs r USING (run_id)
CROSS JOIN LATERAL (
    SELECT r.status <> 'running'
           OR EXISTS (SELECT FROM pg_catalog.pg_stat_activity a
                      WHERE a.pid = r.pid AND (a.backend_start = r.backend_start OR a.backend_start IS NULL)) AS alive
) l
ORDER BY m.run_id DESC, m.server;

COMMENT ON VIEW fleet_progress IS
'Every server of every fleet run, in one view: its state (connecting, running, collecting, collected, unreachable, refused, failed, lost, cancelled; orphaned: the session that ran it ended, and the server cancelled its sweep), its sweep there and here, step i of n, value and phase as last heard (about once a second while it runs), seconds since, the estimated end, why it ended as it did, and the run''s status (running, done, cancelled; orphaned: its session ended while it ran)';

-- The fleet's answer: one row per server and question (the sweeps of one
-- fleet run; sweeps gathered otherwise, by setting and values), the latest
-- sweep of each.  What it answered (best), its gain with the 95% interval
-- (the one decision rule, through best), its fsync cost, commits per fsync
-- and sync-rep share at the baseline; servers grouped by what they
-- answered, and in a group of three or more, a server whose fsync cost or
-- gain lies far from the group's median (more than 1.5x, and more than 3
-- median absolute deviations of the logarithms) is named.
CREATE OR REPLACE VIEW fleet_reading AS
WITH gathered AS (
    SELECT DISTINCT ON (q.question, f.server)
           q.question, f.server, f.run_id, f.sweep_id, f.remote_sweep_id, f.system_identifier
    FROM fleet_sweeps f
    JOIN sweeps s USING (sweep_id)
    CROSS JOIN LATERAL (SELECT coalesce('fleet run ' || f.run_id,
                                        format('%s %s', s.setting, array_to_string(s.vals, ', '))) AS question) q
    ORDER BY q.question, f.server, s.started_at DESC, f.sweep_id DESC
), base AS (
    SELECT r.sweep_id, r.value, r.fsync_avg_ms, r.commits_per_fsync, r.syncrep_wait_pct
    FROM results r JOIN sweeps s USING (sweep_id)
    WHERE r.value_pos = coalesce(s.current_pos, 1)
), answered AS (
    SELECT g.*, s.status, s.setting, s.server_version, s.cpus, s.wal_disk,
           b.value AS best_value, b.gain, b.gain_ci_low, b.gain_ci_high, b.verdict, b.answer,
           ba.fsync_avg_ms, ba.commits_per_fsync, ba.syncrep_wait_pct,
           CASE WHEN b.sweep_id IS NULL OR ba.sweep_id IS NULL OR b.tps IS NULL THEN 'no answer'
                WHEN b.verdict = 'faster' THEN format('change %s to %s', s.setting, b.value)
                ELSE format('keep %s = %s', s.setting, ba.value) END AS answered
    FROM gathered g
    JOIN sweeps s USING (sweep_id)
    LEFT JOIN best b USING (sweep_id)
    LEFT JOIN base ba USING (sweep_id)
), centre AS (
    SELECT a.question, a.answered, count(*) AS n,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY ln(a.fsync_avg_ms)) FILTER (WHERE a.fsync_avg_ms > 0) AS fsync_med,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY ln(a.gain)) FILTER (WHERE a.gain > 0) AS gain_med
    FROM answered a
    GROUP BY a.question, a.answered
), spread AS (
    SELECT a.question, a.answered,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(ln(a.fsync_avg_ms) - c.fsync_med))
               FILTER (WHERE a.fsync_avg_ms > 0) AS fsync_mad,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(ln(a.gain) - c.gain_med))
               FILTER (WHERE a.gain > 0) AS gain_mad
    FROM answered a JOIN centre c USING (question, answered)
    GROUP BY a.question, a.answered
)
SELECT a.question,
       a.run_id,
       a.server,
       a.sweep_id,
       a.remote_sweep_id,
       a.status,
       a.setting,
       a.answered,
       a.best_value,
       a.gain,
       a.gain_ci_low,
       a.gain_ci_high,
       a.verdict,
       a.fsync_avg_ms AS fsync_ms,
       a.commits_per_fsync,
       a.syncrep_wait_pct,
       c.n AS group_servers,
       nullif(concat_ws('; ',
           CASE WHEN c.n >= 3 AND a.fsync_avg_ms > 0
                     AND abs(ln(a.fsync_avg_ms) - c.fsync_med) > ln(1.5)
                     AND abs(ln(a.fsync_avg_ms) - c.fsync_med) > 3 * 1.4826 * sp.fsync_mad THEN
                format('fsync %s ms, %sx the median of the %s servers that answered %s (%s ms)',
                       round(a.fsync_avg_ms::numeric, 3), walpressure._ratio_text(a.fsync_avg_ms / exp(c.fsync_med)),
                       c.n, a.answered, round(exp(c.fsync_med)::numeric, 3)) END,
           CASE WHEN c.n >= 3 AND a.gain > 0
                     AND abs(ln(a.gain) - c.gain_med) > ln(1.5)
                     AND abs(ln(a.gain) - c.gain_med) > 3 * 1.4826 * sp.gain_mad THEN
                format('gain %sx against the median %sx of the %s servers that answered %s',
                       walpressure._ratio_text(a.gain), walpressure._ratio_text(exp(c.gain_med)), c.n, a.answered) END
       ), '') AS outlier,
       a.answer,
       a.system_identifier,
       a.server_version,
       a.cpus,
       a.wal_disk
FROM answered a
JOIN centre c USING (question, answered)
JOIN spread sp USING (question, answered)
ORDER BY a.question, a.answered, a.server;

COMMENT ON VIEW fleet_reading IS
'The fleet''s answer, per server and question (a fleet run''s sweeps; sweeps gathered otherwise, by setting and values), from its latest sweep: status (a stopped sweep says cancelled or failed), what it answered (best: change the setting to a value, or keep it), the gain with its 95% interval and verdict (the one decision rule), fsync_ms and commits_per_fsync at the baseline, syncrep_wait_pct where standbys ran; group_servers: how many servers answered the same; outlier names a server whose fsync cost or gain lies far from its group''s median (groups of 3 or more: beyond 1.5x and 3 median absolute deviations of the logarithms); and the server''s fingerprint';

-- Every server's sweep of a fleet run against one server's (against; by
-- default the first, by name, with a sweep here), value by value, through
-- compare(): the same figures, intervals and verdicts.
CREATE OR REPLACE FUNCTION fleet_compare(run_id bigint, against text DEFAULT NULL)
RETURNS TABLE (server text, value text, tps_against numeric, tps numeric, ratio numeric,
               ratio_ci_low numeric, ratio_ci_high numeric, verdict text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ref text := against;
    ref_sweep bigint;
    m record;
BEGIN
    IF ref IS NULL THEN
        SELECT f.server INTO ref FROM walpressure.fleet_sweeps f
        WHERE f.run_id = fleet_compare.run_id ORDER BY f.server LIMIT 1;
    END IF;
    SELECT f.sweep_id INTO ref_sweep FROM walpressure.fleet_sweeps f
    WHERE f.run_id = fleet_compare.run_id AND f.server = ref;
    IF ref_sweep IS NULL THEN
        RAISE EXCEPTION 'fleet run % has no sweep gathered from server %', fleet_compare.run_id, coalesce(ref, '(any)')
            USING ERRCODE = 'no_data_found',
                  HINT = 'walpressure.fleet_sweeps lists the sweeps gathered for each run.';
    END IF;
    FOR m IN SELECT f.server, f.sweep_id FROM walpressure.fleet_sweeps f
             WHERE f.run_id = fleet_compare.run_id AND f.server <> ref ORDER BY f.server LOOP
        RETURN QUERY
        SELECT m.server::text, c.value, c.tps_a, c.tps_b, c.ratio, c.ratio_ci_low, c.ratio_ci_high, c.verdict
        FROM walpressure.compare(ref_sweep, m.sweep_id) c;
    END LOOP;
END
$$;

COMMENT ON FUNCTION fleet_compare(bigint, text) IS
'Every server''s sweep of a fleet run against one server''s (against; by default the first by name), value by value, through compare(): tps of each, the ratio with its 95% interval and the verdict; a NOTICE per pair names what else differs (the server, CPUs, WAL disk, versions, settings)';

REVOKE ALL ON FUNCTION fleet_register(text, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_register(text, bool) FROM PUBLIC;
REVOKE ALL ON PROCEDURE fleet_run(jsonb, text[], interval, bigint) FROM PUBLIC;
REVOKE ALL ON PROCEDURE _fleet_run(bigint, text[], jsonb, text, interval) FROM PUBLIC;
REVOKE ALL ON FUNCTION fleet_collect(text[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_collect(text[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_collect_sweep(text, text, bigint, bigint, text, interval) FROM PUBLIC;
REVOKE ALL ON FUNCTION fleet_cancel(bigint, text[]) FROM PUBLIC;
GRANT SELECT ON fleet_servers, fleet_runs, fleet_members, fleet_sweeps, fleet_progress, fleet_reading TO pg_monitor;
