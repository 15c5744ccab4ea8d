--
-- The fleet: the same sweep on many servers, started, watched and gathered
-- from one database over dblink (optional: the entry points say "CREATE
-- EXTENSION dblink first" when it is missing).  A server is a foreign
-- server whose user mappings are the DBA's; the entry points are C
-- (src/api/fleet.c, which says why this is safe) and check everything they
-- are given before any server is contacted; what follows is their work.
--
-- The fleet's SQL runs as its caller: dblink connects with the caller's
-- own user mapping, and each server's run_sweep checks the mapped role's
-- rights there.  Its rows are written as the extension's owner, after the
-- caller's authority is checked in C (Writing, below).  Every remote call
-- is one of the fixed texts below or the run_sweep call fleet_run built;
-- everything that comes back is data (a sweep comes in through import(),
-- which checks it in C; every text is cleaned).
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
-- mapping (dblink reads the server's options and the mapping's).  A
-- connection that fails is said in one line, cleaned: libpq's message may
-- hold what the server sent.
CREATE OR REPLACE FUNCTION _fleet_connect(conn text, server text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    e_state text; e_msg text; e_detail text; e_hint text;
BEGIN
    -- dblink reads a name that is no foreign server's as a connection string
    IF NOT EXISTS (SELECT FROM pg_foreign_server s WHERE s.srvname = _fleet_connect.server) THEN
        RAISE EXCEPTION 'foreign server "%" does not exist', _fleet_connect.server
            USING ERRCODE = 'undefined_object';
    END IF;
    PERFORM walpressure._fleet_disconnect(conn);
    BEGIN
        EXECUTE format('SELECT %s.dblink_connect($1, $2)', walpressure._fleet_dblink())
            USING conn, _fleet_connect.server;
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_msg = MESSAGE_TEXT,
                                e_detail = PG_EXCEPTION_DETAIL, e_hint = PG_EXCEPTION_HINT;
        RAISE EXCEPTION USING ERRCODE = walpressure._fleet_sqlstate(e_state),
                              MESSAGE = walpressure._fleet_error(e_msg, e_detail, e_hint);
    END;
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
        RAISE EXCEPTION 'could not send a query to the server: %', walpressure._fleet_line(why)
            USING ERRCODE = 'connection_failure';
    END IF;
END
$$;

-- Is conn still working on what was sent?  (It reads what has come, and
-- never waits: dblink_get_result, called when it is not, returns at once.)
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

-- Read what has come on conn for the question out on it, without waiting.
-- An answer is two reads: its result, then the end of the results (the
-- server's ReadyForQuery); each is made only once dblink_is_busy says it
-- is there, since dblink_get_result waits for it with no deadline (a
-- server that sends a result and never its end held the centre so).  got:
-- the result was read by an earlier call, and held is it; done: the end
-- has come too, and the connection takes a next question.  held is
-- {"answer": the result's one column of its one row, as jsonb}, or for an
-- error there, or a result that is not one JSON value, {"failure": its
-- words in one cleaned line, "sqlstate": its SQLSTATE} (_fleet_sqlstate).
-- A cancel of this session's own (one that dblink did not bring from the
-- server) goes on as a cancel.
CREATE OR REPLACE FUNCTION _fleet_poll(conn text, INOUT got bool, INOUT held jsonb, OUT done bool)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    d text := walpressure._fleet_dblink();
    j text;
    e_state text; e_msg text; e_detail text; e_hint text; e_context text;
BEGIN
    done := false;
    got := coalesce(got, false);
    IF walpressure._fleet_busy(conn) THEN
        RETURN;
    END IF;
    IF NOT got THEN
        got := true;
        BEGIN
            EXECUTE format('SELECT t.j FROM %s.dblink_get_result($1) AS t(j text)', d) INTO j USING conn;
            held := jsonb_build_object('answer', j::jsonb);
        EXCEPTION WHEN OTHERS OR query_canceled OR assert_failure THEN
            GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_msg = MESSAGE_TEXT,
                                    e_detail = PG_EXCEPTION_DETAIL, e_hint = PG_EXCEPTION_HINT,
                                    e_context = PG_EXCEPTION_CONTEXT;
            IF e_state = '57014' AND strpos(e_context, 'on dblink connection named') = 0 THEN
                RAISE;
            END IF;
            held := jsonb_build_object('failure', walpressure._fleet_error(e_msg, e_detail, e_hint),
                                       'sqlstate', walpressure._fleet_sqlstate(e_state));
        END;
        IF walpressure._fleet_busy(conn) THEN
            RETURN;
        END IF;
    END IF;
    -- the end of the results: an empty set
    EXECUTE format('SELECT count(*) FROM %s.dblink_get_result($1, false) AS t(j text)', d) USING conn;
    done := true;
END
$$;

-- Send sql on conn and wait for its answer (_fleet_poll), at most within
-- for the whole of it: a server that does not answer, or sends a result
-- and not its end, raises connection_failure (its connection closed), and
-- never holds up the caller longer than that.  An error there is raised
-- here, in one cleaned line, with its SQLSTATE.
CREATE OR REPLACE FUNCTION _fleet_ask(conn text, sql text, within interval)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    deadline timestamptz := clock_timestamp() + within;
    pause float8 := 0.0005;     -- doubled up to 50 ms: a near server's answer is not waited for long
    got bool := false;
    held jsonb;
    done bool;
BEGIN
    PERFORM walpressure._fleet_send(conn, sql);
    LOOP
        SELECT p.got, p.held, p.done INTO got, held, done FROM walpressure._fleet_poll(conn, got, held) p;
        EXIT WHEN done;
        IF clock_timestamp() > deadline THEN
            PERFORM walpressure._fleet_disconnect(conn);
            RAISE EXCEPTION 'no answer within %', within
                USING ERRCODE = 'connection_failure';
        END IF;
        PERFORM pg_sleep(pause);
        pause := least(2 * pause, 0.05);
    END LOOP;
    IF held ? 'failure' THEN
        RAISE EXCEPTION USING ERRCODE = held->>'sqlstate', MESSAGE = held->>'failure';
    END IF;
    RETURN nullif(held->'answer', 'null');
END
$$;

-- How long the fleet waits for a server's answer to one of its own small
-- questions outside a run (who it is, its session's settings, its list of
-- sweeps: registering, collecting); a sweep's document has the run's
-- lost_after, or 60 s.
CREATE OR REPLACE FUNCTION _fleet_quick()
RETURNS interval
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN interval '10 s';

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

-- Why a server that answered `who` (_fleet_who) cannot take part, or NULL:
-- an answer that is not one, no walpressure there, an older one, or another
-- cluster than the one registered under that name.
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
    IF who->>'pid' IS NULL OR coalesce(who->>'system_identifier', '') !~ '^[0-9]{1,20}$' THEN
        RETURN 'its answer to who it is lacks its backend''s pid or its system identifier: not an answer a PostgreSQL server gives to the fleet''s question';
    ELSIF who->>'walpressure' IS NULL THEN
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
-- What comes back from a server: data, each part checked or cleaned before
-- it reaches a NOTICE, an error, a table or a view.
--

-- The SQLSTATE a server's error keeps here: its own, unless it is not one
-- (five digits or capitals), or one that no handler of the fleet may take
-- for its own (a cancel, an operator's intervention, an assertion): those
-- read 38000 (external_routine_exception), so that a server cannot cancel
-- the fleet run it is part of by sending 57014.
CREATE OR REPLACE FUNCTION _fleet_sqlstate(state text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN state ~ '^[0-9A-Z]{5}$' AND state !~ '^(57|P0004)' THEN state ELSE '38000' END;

-- A server's answer to who it is (_fleet_identity_sql), as the fleet keeps
-- it: each text one cleaned line (a database named with ESC, BEL or U+202E
-- reaches no reader so), the backend's pid a number or NULL, whether the
-- role may read walpressure.progress true or false.
CREATE OR REPLACE FUNCTION _fleet_who(answer jsonb)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN (SELECT jsonb_build_object(
            'pid', CASE WHEN jsonb_typeof(a->'pid') = 'number' AND a->>'pid' ~ '^[0-9]{1,9}$'
                        THEN (a->>'pid')::int END,
            'role', walpressure._fleet_line(a->>'role'),
            'database', walpressure._fleet_line(a->>'database'),
            'server_version', walpressure._fleet_line(a->>'server_version'),
            'system_identifier', walpressure._fleet_line(a->>'system_identifier'),
            'walpressure', walpressure._fleet_line(a->>'walpressure'),
            'progress', coalesce(jsonb_typeof(a->'progress') = 'boolean' AND (a->>'progress')::bool, false))
        FROM (SELECT CASE WHEN jsonb_typeof(answer) = 'object' THEN answer END AS a) x);

-- A whole number from a server's answer, or NULL.
CREATE OR REPLACE FUNCTION _fleet_int(v jsonb, digits int)
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN jsonb_typeof(v) = 'number' AND v::text ~ ('^[0-9]{1,' || digits || '}$') THEN v::text::bigint END;

-- A time from a server's answer (ISO 8601, as to_jsonb writes one), or NULL.
CREATE OR REPLACE FUNCTION _fleet_time(v jsonb)
RETURNS timestamptz
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF jsonb_typeof(v) = 'string'
       AND (v #>> '{}') ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?([+-][0-9]{2}(:?[0-9]{2})?)?$' THEN
        RETURN (v #>> '{}')::timestamptz;
    END IF;
    RETURN NULL;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;      -- a day or an hour out of range
END
$$;

-- A server's answer to the watch (_fleet_watch_sql), as the fleet keeps
-- it: the keys it had among sweep_id, step, steps_done, steps_total
-- (numbers, or NULL), value, phase (one cleaned line each), estimated_end
-- (a time, or NULL).
CREATE OR REPLACE FUNCTION _fleet_watched(answer jsonb)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    a jsonb := CASE WHEN jsonb_typeof(answer) = 'object' THEN answer ELSE '{}' END;
    p jsonb := '{}';
BEGIN
    IF a ? 'sweep_id' THEN
        p := p || jsonb_build_object('sweep_id', walpressure._fleet_int(a->'sweep_id', 18));
    END IF;
    FOR k IN 1 .. 3 LOOP
        IF a ? (ARRAY['step', 'steps_done', 'steps_total'])[k] THEN
            p := p || jsonb_build_object((ARRAY['step', 'steps_done', 'steps_total'])[k],
                                         walpressure._fleet_int(a->(ARRAY['step', 'steps_done', 'steps_total'])[k], 9));
        END IF;
    END LOOP;
    IF a ? 'value' THEN
        p := p || jsonb_build_object('value', walpressure._fleet_line(a->>'value'));
    END IF;
    IF a ? 'phase' THEN
        p := p || jsonb_build_object('phase', walpressure._fleet_line(a->>'phase'));
    END IF;
    IF a ? 'estimated_end' THEN
        p := p || jsonb_build_object('estimated_end', walpressure._fleet_time(a->'estimated_end'));
    END IF;
    RETURN p;
END
$$;

--
-- Writing.  The fleet's rows are written as the extension's owner (an
-- operator needs no right on the tables but reading them), after the
-- caller's authority is checked in C (src/api/fleet_rows.c says how): the
-- _fleet_write_* functions below run only as the owner (revoked from
-- PUBLIC), called by the entry points and by four gates, which the fleet's
-- SQL calls as the caller and which write only within the fleet_run() or
-- fleet_collect() call of this backend that runs now.  Every text a server
-- sent is cleaned here once more.
--

CREATE OR REPLACE FUNCTION _fleet_in_call(run_id bigint)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_fleet_in_call'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION _fleet_in_call(bigint) IS
'Raises unless this is the fleet_run() call that runs run_id (NULL: a fleet_collect() call): what runs behind them connects to no server when called on its own';

CREATE OR REPLACE FUNCTION _fleet_member_set(run_id bigint, server text, changes jsonb)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_fleet_member_set'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION _fleet_member_set(bigint, text, jsonb) IS
'A server''s row of the fleet run this fleet_run() call runs: the columns changes names (texts cleaned), written as the extension''s owner';

CREATE OR REPLACE FUNCTION _fleet_run_end(run_id bigint, status text)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_fleet_run_end'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION _fleet_run_end(bigint, text) IS
'The fleet run this fleet_run() call runs ended: done or cancelled';

CREATE OR REPLACE FUNCTION _fleet_answered(server text, who jsonb)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_fleet_answered'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION _fleet_answered(text, jsonb) IS
'What a server the caller may reach answered when fleet_run() or fleet_collect() asked who it is, in fleet_servers';

CREATE OR REPLACE FUNCTION _fleet_gather(server text, remote_id bigint, run_id bigint, doc jsonb)
RETURNS bigint
AS 'MODULE_PATHNAME', 'wp_fleet_gather'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION _fleet_gather(text, bigint, bigint, jsonb) IS
'A server''s sweep, as its export() gave it to fleet_run() or fleet_collect(), imported here and keyed in fleet_sweeps by what import() made of it';

-- A fleet run's rows, for run_by in the session of pid and backend_start
-- (fleet_run(), as the owner).
CREATE OR REPLACE FUNCTION _fleet_write_run(run_id bigint, sweep jsonb, servers text[], lost_after interval,
                                            run_by name, pid int, backend_start timestamptz)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO walpressure.fleet_runs (run_id, sweep, servers, lost_after, run_by, pid, backend_start)
    VALUES (run_id, sweep, servers, lost_after, run_by, pid, backend_start);
    INSERT INTO walpressure.fleet_members (run_id, server)
    SELECT _fleet_write_run.run_id, x FROM unnest(servers) AS x;
END
$$;

-- fleet_cancel()'s request for the servers of a run (NULL: all) still
-- connecting or running (fleet_cancel(), as the owner).  Returns how many.
CREATE OR REPLACE FUNCTION _fleet_write_cancel(run_id bigint, servers text[])
RETURNS int
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    WITH asked AS (UPDATE walpressure.fleet_members m SET cancel_requested = true
                   WHERE m.run_id = _fleet_write_cancel.run_id
                     AND (_fleet_write_cancel.servers IS NULL OR m.server = ANY (_fleet_write_cancel.servers))
                     AND m.state IN ('connecting', 'running')
                   RETURNING 1)
    SELECT count(*) FROM asked;
END;

-- Set columns of a server's row of a fleet run (fleet_members): changes
-- names each (a JSON null sets NULL), among state, system_identifier,
-- remote_pid, remote_sweep_id, step, steps_done, steps_total, value, phase,
-- estimated_end, detail, started_at, last_heard, ended_at (_fleet_member_set).
CREATE OR REPLACE FUNCTION _fleet_write_member(run_id bigint, server text, changes jsonb)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bad text;
BEGIN
    SELECT string_agg(k, ', ') INTO bad FROM jsonb_object_keys(changes) k
    WHERE k <> ALL (ARRAY['state', 'system_identifier', 'remote_pid', 'remote_sweep_id', 'step', 'steps_done',
                          'steps_total', 'value', 'phase', 'estimated_end', 'detail', 'started_at', 'last_heard',
                          'ended_at']);
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'a fleet run does not set % of its members', bad;
    END IF;
    UPDATE walpressure.fleet_members m
    SET (state, system_identifier, remote_pid, remote_sweep_id, step, steps_done, steps_total, value, phase,
         estimated_end, detail, started_at, last_heard, ended_at)
      = (SELECT r.state, walpressure._fleet_line(r.system_identifier), r.remote_pid, r.remote_sweep_id, r.step,
                r.steps_done, r.steps_total, walpressure._fleet_line(r.value), walpressure._fleet_line(r.phase),
                r.estimated_end, walpressure._fleet_line(r.detail), r.started_at, r.last_heard, r.ended_at
         FROM jsonb_populate_record(m, changes) r)
    WHERE m.run_id = _fleet_write_member.run_id AND m.server = _fleet_write_member.server;
END
$$;

-- A fleet run ended: done (every server ended, each its own way) or
-- cancelled (the call was) (_fleet_run_end).
CREATE OR REPLACE FUNCTION _fleet_write_run_end(run_id bigint, status text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    UPDATE walpressure.fleet_runs r SET status = _fleet_write_run_end.status, finished_at = clock_timestamp()
    WHERE r.run_id = _fleet_write_run_end.run_id AND r.status = 'running';
END
$$;

-- What a registered server answered (who, _fleet_who): its versions, and
-- its cluster when none was known (a server registered without a check);
-- one that answers as another cluster was refused before (_fleet_refusal)
-- (_fleet_answered).
CREATE OR REPLACE FUNCTION _fleet_write_answered(server text, who jsonb)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    UPDATE walpressure.fleet_servers f
    SET system_identifier = coalesce(f.system_identifier, walpressure._fleet_line(who->>'system_identifier')),
        server_version = walpressure._fleet_line(who->>'server_version'),
        walpressure_version = walpressure._fleet_line(who->>'walpressure'),
        answered_at = clock_timestamp()
    WHERE f.server = _fleet_write_answered.server
      AND (f.system_identifier IS NULL OR f.system_identifier = walpressure._fleet_line(who->>'system_identifier'));
END
$$;

-- Sweep remote_id of a server, exported there (doc), into this database:
-- the document must be that sweep, ended, of the cluster registered under
-- that name; import() checks it in C and makes it a sweep here, keyed by
-- the server and its id there in fleet_sweeps (from the sweep's origin),
-- linked to the fleet run that started it (run_id: one with that server),
-- whose row of fleet_members gets its id here and its status.  A sweep
-- gathered before is not brought twice.  Returns its id here (_fleet_gather).
CREATE OR REPLACE FUNCTION _fleet_write_sweep(server text, remote_id bigint, run_id bigint, doc jsonb)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    registered text;
    here bigint;
    o jsonb;
BEGIN
    SELECT f.system_identifier INTO registered FROM walpressure.fleet_servers f
    WHERE f.server = _fleet_write_sweep.server;
    IF registered IS NULL THEN
        RAISE EXCEPTION 'server % has no cluster registered', server
            USING HINT = format('SELECT walpressure.fleet_register(%L); records the one that answers.', server);
    END IF;
    SELECT f.sweep_id INTO here FROM walpressure.fleet_sweeps f
    WHERE f.server = _fleet_write_sweep.server AND f.remote_sweep_id = remote_id;
    IF here IS NULL THEN
        IF jsonb_typeof(doc) IS DISTINCT FROM 'object' THEN
            RAISE EXCEPTION 'export(%) there returned no document', remote_id;
        END IF;
        IF doc #>> '{server,system_identifier}' IS DISTINCT FROM registered
           OR doc #>> '{sweep,sweep_id}' IS DISTINCT FROM remote_id::text THEN
            RAISE EXCEPTION 'export(%) there returned another sweep than the one asked for', remote_id;
        END IF;
        IF doc #>> '{sweep,status}' = 'running' THEN
            RAISE EXCEPTION 'sweep % there still runs', remote_id;
        END IF;
        here := walpressure.import(doc);
        -- its key, from what import() made of it
        SELECT s.origin INTO o FROM walpressure.sweeps s WHERE s.sweep_id = here;
        IF o->>'system_identifier' IS DISTINCT FROM registered OR o->>'sweep_id' IS DISTINCT FROM remote_id::text THEN
            RAISE EXCEPTION 'sweep % here is not sweep % of server %', here, remote_id, server;
        END IF;
        INSERT INTO walpressure.fleet_sweeps (server, remote_sweep_id, remote_started_at, system_identifier,
                                              sweep_id, run_id)
        SELECT _fleet_write_sweep.server, (o->>'sweep_id')::bigint, s.started_at, o->>'system_identifier', here,
               (SELECT m.run_id FROM walpressure.fleet_members m
                WHERE m.run_id = _fleet_write_sweep.run_id AND m.server = _fleet_write_sweep.server)
        FROM walpressure.sweeps s WHERE s.sweep_id = here;
    END IF;
    -- the fleet run that started it, also when it never heard the sweep's id
    UPDATE walpressure.fleet_members m
    SET remote_sweep_id = remote_id, sweep_id = here, sweep_status = s.status, steps_done = s.steps_done,
        steps_total = s.steps_total
    FROM walpressure.sweeps s
    WHERE s.sweep_id = here AND m.server = _fleet_write_sweep.server
      AND (m.remote_sweep_id = remote_id
           OR (m.remote_sweep_id IS NULL AND m.run_id = _fleet_write_sweep.run_id));
    RETURN here;
END
$$;

--
-- Gathering.
--

-- Gather, on conn, the sweeps of server's list (its answer to which
-- sweeps ended there and are not imports) that are not here yet
-- (_fleet_gather), each by its id there.  A sweep's failure is noted and the
-- next one tried; the server gone (08...) ends the list (gone).
CREATE OR REPLACE FUNCTION _fleet_gather_list(conn text, server text, list jsonb,
                                              OUT collected int, OUT sweep_ids bigint[], OUT notes text[],
                                              OUT gone bool)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    e jsonb;
    rid bigint;
    started timestamptz;
    prev timestamptz;
    e_state text; e_msg text; e_detail text; e_hint text;
BEGIN
    collected := 0;
    sweep_ids := '{}';
    notes := '{}';
    gone := false;
    IF jsonb_typeof(list) IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'its list of sweeps is not an array';
    END IF;
    FOR e IN SELECT x FROM jsonb_array_elements(list) AS x LOOP
        rid := walpressure._fleet_int(e->'id', 18);
        started := walpressure._fleet_time(e->'started_at');
        IF rid IS NULL THEN
            notes := notes || 'its list of sweeps holds one without an id'::text;
            CONTINUE;
        END IF;
        SELECT f.remote_started_at INTO prev FROM walpressure.fleet_sweeps f
        WHERE f.server = _fleet_gather_list.server AND f.remote_sweep_id = rid;
        IF FOUND THEN
            IF prev IS DISTINCT FROM started THEN
                notes := notes || format('sweep %s there started at %s, not at %s as the one gathered before under that id (its sweeps were numbered anew?): delete that row of walpressure.fleet_sweeps to gather it',
                                         rid, coalesce(started::text, 'an unknown time'), prev);
            END IF;
            CONTINUE;
        END IF;
        BEGIN
            sweep_ids := sweep_ids || walpressure._fleet_gather(
                server, rid,
                -- the fleet run that started it: by the id it heard, or by
                -- the label it gave (when it did not live to hear the id)
                (SELECT m.run_id FROM walpressure.fleet_members m
                 WHERE m.server = _fleet_gather_list.server
                   AND (m.remote_sweep_id = rid
                        OR (m.remote_sweep_id IS NULL AND e->>'label' = 'fleet run ' || m.run_id))
                 ORDER BY m.remote_sweep_id IS NULL, m.run_id DESC LIMIT 1),
                walpressure._fleet_ask(conn, format('SELECT walpressure.export(%s)', rid), '60 s'));
            collected := collected + 1;
        EXCEPTION WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_msg = MESSAGE_TEXT,
                                    e_detail = PG_EXCEPTION_DETAIL, e_hint = PG_EXCEPTION_HINT;
            notes := notes || format('sweep %s: %s', rid, walpressure._fleet_error(e_msg, e_detail, e_hint));
            IF e_state LIKE '08%' THEN
                gone := true;       -- what came before stays
                EXIT;
            END IF;
        END;
    END LOOP;
END
$$;

-- fleet_collect() after its checks: per server, every sweep that ran there
-- (not one imported there), ended, and is not here yet, exported there and
-- gathered here (_fleet_gather_list).  A server's failure is its row's; the
-- others go on.
CREATE OR REPLACE FUNCTION _fleet_collect(servers text[])
RETURNS TABLE (server text, state text, collected int, sweep_ids bigint[], detail text)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    conn text := 'walpressure_fleet_collect';
    who jsonb;
    g record;
    e_state text; e_msg text; e_detail text; e_hint text;
BEGIN
    PERFORM walpressure._fleet_in_call(NULL);
    PERFORM walpressure._fleet_disconnect_all();
    FOR i IN 1 .. coalesce(cardinality(servers), 0) LOOP
        server := servers[i];
        state := 'collected';
        collected := 0;
        sweep_ids := '{}';
        detail := NULL;
        BEGIN
            PERFORM walpressure._fleet_connect(conn, servers[i]);
            who := walpressure._fleet_who(walpressure._fleet_ask(conn, walpressure._fleet_identity_sql(),
                                                                 walpressure._fleet_quick()));
            detail := walpressure._fleet_refusal(servers[i], who);
            IF detail IS NOT NULL THEN
                state := 'refused';
            ELSE
                PERFORM walpressure._fleet_answered(servers[i], who);
                PERFORM walpressure._fleet_ask(conn, walpressure._fleet_session_sql(NULL, '60 s'), walpressure._fleet_quick());
                SELECT * INTO g FROM walpressure._fleet_gather_list(conn, servers[i], walpressure._fleet_ask(conn,
                    $q$SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                        'id', s.sweep_id, 'started_at', s.started_at, 'label', s.label) ORDER BY s.sweep_id), '[]')
                    FROM walpressure.sweeps s WHERE s.status <> 'running' AND s.origin IS NULL$q$,
                    walpressure._fleet_quick()));
                collected := g.collected;
                sweep_ids := g.sweep_ids;
                detail := nullif(array_to_string(g.notes, '; '), '');
                state := CASE WHEN g.gone THEN 'failed' ELSE 'collected' END;
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
        detail := walpressure._fleet_line(detail);
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

-- Who answers as the caller's mapping on the foreign server, asked once
-- (_fleet_who): fleet_register()'s check.
CREATE OR REPLACE FUNCTION _fleet_ask_who(server text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    conn text := 'walpressure_fleet_register';
    who jsonb;
BEGIN
    BEGIN
        PERFORM walpressure._fleet_connect(conn, server);
        who := walpressure._fleet_who(walpressure._fleet_ask(conn, walpressure._fleet_identity_sql(),
                                                             walpressure._fleet_quick()));
        PERFORM walpressure._fleet_disconnect(conn);
    EXCEPTION WHEN OTHERS THEN
        BEGIN
            PERFORM walpressure._fleet_disconnect(conn);
        EXCEPTION WHEN OTHERS THEN
            NULL;
        END;
        RAISE;
    END;
    RETURN who;
END
$$;

-- fleet_register() after its checks, as the owner: the server added (once),
-- and when it was asked, what answered (who, _fleet_who; NULL: not asked),
-- with a NOTICE for what keeps it from taking part, a cluster that changed,
-- or a cluster registered under another name too.
CREATE OR REPLACE FUNCTION _fleet_write_server(server text, who jsonb)
RETURNS walpressure.fleet_servers
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    was walpressure.fleet_servers;
    why text;
    twin text;
    r walpressure.fleet_servers;
BEGIN
    SELECT * INTO was FROM walpressure.fleet_servers f WHERE f.server = _fleet_write_server.server;
    INSERT INTO walpressure.fleet_servers (server) VALUES (_fleet_write_server.server)
    ON CONFLICT DO NOTHING;
    IF who IS NOT NULL THEN
        IF was.system_identifier IS NOT NULL AND was.system_identifier IS DISTINCT FROM who->>'system_identifier' THEN
            RAISE NOTICE 'server % was registered as system %; it answers as system % now: that cluster is the one registered from here on',
                _fleet_write_server.server, was.system_identifier, who->>'system_identifier';
        END IF;
        UPDATE walpressure.fleet_servers f
        SET system_identifier = walpressure._fleet_line(who->>'system_identifier'),
            server_version = walpressure._fleet_line(who->>'server_version'),
            walpressure_version = walpressure._fleet_line(who->>'walpressure'), answered_at = clock_timestamp()
        WHERE f.server = _fleet_write_server.server;
        why := walpressure._fleet_refusal(_fleet_write_server.server, who);
        IF why IS NOT NULL THEN
            RAISE NOTICE 'server % cannot run the fleet''s sweeps yet: %', _fleet_write_server.server, why;
        END IF;
        SELECT string_agg(f.server, ', ') INTO twin FROM walpressure.fleet_servers f
        WHERE f.system_identifier = who->>'system_identifier' AND f.server <> _fleet_write_server.server;
        IF twin IS NOT NULL THEN
            RAISE NOTICE 'server % answers as system %, as % does: the same cluster (or a copy of it) registered twice',
                _fleet_write_server.server, who->>'system_identifier', twin;
        END IF;
    END IF;
    SELECT * INTO r FROM walpressure.fleet_servers f WHERE f.server = _fleet_write_server.server;
    RETURN r;
END
$$;

COMMENT ON FUNCTION _fleet_write_server(text, jsonb) IS
'fleet_register() after its checks: the server''s row, with what answered';

CREATE OR REPLACE FUNCTION fleet_register(server text, "check" bool DEFAULT true)
RETURNS walpressure.fleet_servers
AS 'MODULE_PATHNAME', 'wp_fleet_register'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION fleet_register(text, bool) IS
'Add a foreign server to the fleet (the caller needs USAGE on it and a user mapping of its own, and the server a connect_timeout); with check (the default), connect as that mapping and record the cluster it is (system identifier), its versions, and say what keeps it from taking part (no walpressure, an older one); registering again records the cluster that answers now';

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
REVOKE ALL ON FUNCTION _fleet_write_server(text, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_write_run(bigint, jsonb, text[], interval, name, int, timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_write_cancel(bigint, text[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_write_member(bigint, text, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_write_run_end(bigint, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_write_answered(text, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_write_sweep(text, bigint, bigint, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION fleet_collect(text[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_collect(text[]) FROM PUBLIC;
GRANT SELECT ON fleet_servers, fleet_runs, fleet_members, fleet_sweeps, fleet_progress, fleet_reading TO pg_monitor;
