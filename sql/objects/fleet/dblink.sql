--
-- dblink, called by name through its schema (it may be installed in any):
-- connections, and questions whose answers are read without waiting, each
-- with a deadline.
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

-- Close conn if open, from an error's handler: its own error (a second
-- cancel) does not replace the one handled (_fleet_disconnect_all then).
CREATE OR REPLACE FUNCTION _fleet_disconnect_quietly(conn text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM walpressure._fleet_disconnect(conn);
EXCEPTION WHEN OTHERS OR query_canceled THEN
    NULL;
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

-- The deadline of one connect: armed for n seconds, disarmed with 0
-- (true when it had passed); src/api/fleet_deadline.c says why.
CREATE OR REPLACE FUNCTION _fleet_deadline(seconds int)
RETURNS bool
AS 'MODULE_PATHNAME', 'wp_fleet_deadline'
LANGUAGE C VOLATILE STRICT;

-- The longest the caller's connection to server may take to be made, in
-- seconds: its connect_timeout (from the server's options, where dblink
-- reads it) for each host the server names; the server checked as the fleet
-- checks it (fleet_server.c).
CREATE OR REPLACE FUNCTION _fleet_connect_timeout(server text)
RETURNS int
AS 'MODULE_PATHNAME', 'wp_fleet_connect_timeout'
LANGUAGE C VOLATILE STRICT;

-- Open connection conn to the foreign server, with the caller's user
-- mapping (dblink takes the user and the secrets from it, every other
-- option from the server's), within connect_timeout for each host the
-- server names (kept by a deadline of our own: from 16 on dblink's connect
-- does not keep it).  A connection that fails is said
-- in one line, cleaned: libpq's message may hold what the server sent.  A
-- connect that ends in an error (a cancel that came just after dblink
-- opened it too) leaves no connection named conn.
CREATE OR REPLACE FUNCTION _fleet_connect(conn text, server text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    e_state text; e_msg text; e_detail text; e_hint text;
    limit_s int;
BEGIN
    -- refuses a name that is no foreign server's, which dblink would read
    -- as a connection string
    limit_s := walpressure._fleet_connect_timeout(_fleet_connect.server);
    PERFORM walpressure._fleet_disconnect(conn);
    -- a second past connect_timeout: on 15 libpq keeps it and says so first
    PERFORM walpressure._fleet_deadline(limit_s + 1);
    BEGIN
        EXECUTE format('SELECT %s.dblink_connect($1, $2)', walpressure._fleet_dblink())
            USING conn, _fleet_connect.server;
        PERFORM walpressure._fleet_deadline(0);
    EXCEPTION WHEN query_canceled THEN
        -- the deadline's own cancel is a connection that could not be made;
        -- any other is the caller's, and goes on as it came
        IF walpressure._fleet_deadline(0) THEN
            PERFORM walpressure._fleet_disconnect_quietly(conn);
            RAISE EXCEPTION 'could not establish connection to server "%": no answer within its connect_timeout (% s)',
                            walpressure._fleet_line(_fleet_connect.server), limit_s
                USING ERRCODE = 'sqlclient_unable_to_establish_sqlconnection';
        END IF;
        PERFORM walpressure._fleet_disconnect_quietly(conn);
        RAISE;
    WHEN OTHERS THEN
        PERFORM walpressure._fleet_deadline(0);
        PERFORM walpressure._fleet_disconnect_quietly(conn);
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
