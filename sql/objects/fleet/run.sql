--
-- The fleet's run: fleet_run() starts the same sweep on every server at
-- once, watches each, and gathers each sweep as it ends, in one procedure
-- (_fleet_run) that commits after each look, so that fleet_progress shows
-- where every server is from any session.
--
-- No look waits for a server.  Every question is sent, and its answer read
-- at a later look once it has come, each of its two reads (the result, then
-- the end of the results) only when dblink_is_busy says it is there
-- (_fleet_poll); each question has a deadline, lost_after (the run_sweep
-- call's from when its result came).  The only waits are connection
-- attempts, each at most the foreign server's connect_timeout (required,
-- 30 s at most), made at the start of a look before any row is written in
-- it (_fleet_start), so that a server taking its time never holds a row
-- that fleet_cancel wants.
--
-- Between looks a server's state is one jsonb, which _fleet_start and
-- _fleet_look take and give back:
--   state       connecting, running, collecting (as its row of
--               fleet_members), or how it ended
--   need        a connection to open at the next look: run (then ask who
--               it is) or watch (then set its session)
--   rq, wq      the question out on the run's connection (who, session,
--               sweep: the run_sweep call, export) and on the watch's
--               (session, watch, cancel); rat, wat: when it went out, or
--               when its result came; rgot, rheld, wgot, wheld: that
--               result, read while its end is still to come (_fleet_poll)
--   pid, progress   the backend there that runs run_sweep, and whether the
--               mapped role may read walpressure.progress there
--   rid, sysid  its sweep there once known, its cluster
--   heard, detail, started_at, cancelling, failed (a connection that
--               could not be made: its SQLSTATE and why)
--

-- The name of connection kind (run or watch) to server i of fleet run run_id.
CREATE OR REPLACE FUNCTION _fleet_conn(run_id bigint, i int, kind text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN format('walpressure_fleet_%s_%s_%s', run_id, i, kind);

-- Open the connection server i needs (s->>'need'), if the look began less
-- than a second ago (starts take a second of a look at most, then it
-- commits), and send its first question.  A connection that cannot be made
-- is kept in s (failed): _fleet_look ends the server unreachable.  Writes
-- nothing.
CREATE OR REPLACE FUNCTION _fleet_start(run_id bigint, i int, server text, lost_after interval, s jsonb,
                                        look_began timestamptz)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    conn text;
    e_state text; e_msg text; e_detail text; e_hint text;
BEGIN
    IF s->>'need' IS NULL OR clock_timestamp() - look_began > interval '1 s' THEN
        RETURN s;
    END IF;
    conn := walpressure._fleet_conn(run_id, i, s->>'need');
    BEGIN
        IF s->>'need' = 'run' THEN
            s := s || jsonb_build_object('started_at', clock_timestamp());
            PERFORM walpressure._fleet_connect(conn, server);
            PERFORM walpressure._fleet_send(conn, walpressure._fleet_identity_sql());
            s := s || jsonb_build_object('rq', 'who', 'rat', clock_timestamp());
        ELSE
            PERFORM walpressure._fleet_connect(conn, server);
            PERFORM walpressure._fleet_send(conn, walpressure._fleet_session_sql(run_id, lost_after));
            s := s || jsonb_build_object('wq', 'session', 'wat', clock_timestamp());
        END IF;
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_msg = MESSAGE_TEXT,
                                e_detail = PG_EXCEPTION_DETAIL, e_hint = PG_EXCEPTION_HINT;
        s := s || jsonb_build_object('failed', jsonb_build_object(
            'sqlstate', e_state, 'why', walpressure._fleet_error(e_msg, e_detail, e_hint)));
    END;
    RETURN s - 'need';
END
$$;

-- Server i ends as it ended (ended: refused, unreachable, failed, lost,
-- cancelled, collected), and why: its connections closed, its row written.
CREATE OR REPLACE FUNCTION _fleet_end(run_id bigint, i int, server text, s jsonb, ended text, why text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    BEGIN
        PERFORM walpressure._fleet_disconnect(walpressure._fleet_conn(run_id, i, 'run'));
        PERFORM walpressure._fleet_disconnect(walpressure._fleet_conn(run_id, i, 'watch'));
    EXCEPTION WHEN OTHERS THEN
        NULL;
    END;
    PERFORM walpressure._fleet_member_set(run_id, server, jsonb_strip_nulls(jsonb_build_object(
        'state', ended, 'detail', why, 'remote_sweep_id', s->'rid', 'ended_at', clock_timestamp(),
        'started_at', s->'started_at', 'last_heard', s->'heard')));
    RETURN (s - ARRAY['rq', 'wq', 'rgot', 'wgot', 'rheld', 'wheld', 'need'])
           || jsonb_build_object('state', ended, 'detail', why);
END
$$;

-- What fleet_cancel asked for server i, read afresh at each look (each
-- statement sees what committed before it): a server not started yet is
-- not started; one whose sweep's id is known has cancel_sweep called on its
-- watch's connection (run_sweep then returns, and its sweep is gathered);
-- one whose id is not known has its sessions closed (its run_sweep cancels
-- the sweep of a caller that is gone).
CREATE OR REPLACE FUNCTION _fleet_cancel_asked(run_id bigint, i int, server text, s jsonb)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF coalesce((s->>'cancelling')::bool, false) OR s->>'state' NOT IN ('connecting', 'running')
       OR NOT coalesce((SELECT m.cancel_requested FROM walpressure.fleet_members m
                        WHERE m.run_id = _fleet_cancel_asked.run_id AND m.server = _fleet_cancel_asked.server), false) THEN
        RETURN s;
    ELSIF s->>'state' = 'connecting' THEN
        RETURN walpressure._fleet_end(run_id, i, server, s, 'cancelled', 'cancelled by fleet_cancel() before it started');
    ELSIF s ? 'rid' AND NOT s ? 'wq' THEN
        PERFORM walpressure._fleet_send(walpressure._fleet_conn(run_id, i, 'watch'),
                                        format('SELECT pg_catalog.to_jsonb(walpressure.cancel_sweep(%s))', s->>'rid'));
        PERFORM walpressure._fleet_member_set(run_id, server, '{"detail": "cancelled by fleet_cancel()"}');
        RETURN s || jsonb_build_object('wq', 'cancel', 'wat', clock_timestamp(), 'cancelling', true,
                                       'detail', 'cancelled by fleet_cancel()');
    ELSIF NOT s ? 'rid' THEN
        RETURN walpressure._fleet_end(run_id, i, server, s, 'cancelled',
            'cancelled by fleet_cancel(): its session was closed, and the server cancels the sweep of a caller that is gone; fleet_collect() gathers it');
    END IF;
    RETURN s;       -- its watch is out: at a next look
END
$$;

-- The answer to server i's question on the run's connection (q: who,
-- session, sweep, export), held as _fleet_poll gives it.
CREATE OR REPLACE FUNCTION _fleet_run_answer(run_id bigint, i int, server text, statement text, lost_after interval,
                                             s jsonb, q text, held jsonb)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    rc text := walpressure._fleet_conn(run_id, i, 'run');
    answer jsonb := nullif(held->'answer', 'null');
    who jsonb;
    why text;
    rid bigint;
    here bigint;
BEGIN
    s := s || jsonb_build_object('heard', clock_timestamp());
    IF held ? 'failure' AND q <> 'sweep' THEN
        RAISE EXCEPTION USING ERRCODE = held->>'sqlstate', MESSAGE = held->>'failure';
    END IF;
    IF q = 'who' THEN
        -- who answers, and whether it can take part
        who := walpressure._fleet_who(answer);
        PERFORM walpressure._fleet_member_set(run_id, server, jsonb_build_object(
            'system_identifier', who->'system_identifier', 'started_at', s->'started_at', 'last_heard', s->'heard'));
        why := walpressure._fleet_refusal(server, who);
        IF why IS NOT NULL THEN
            RETURN walpressure._fleet_end(run_id, i, server, s, 'refused', why);
        END IF;
        PERFORM walpressure._fleet_answered(server, who);
        PERFORM walpressure._fleet_send(rc, walpressure._fleet_session_sql(run_id, lost_after));
        RETURN s || jsonb_build_object('rq', 'session', 'rat', clock_timestamp(), 'pid', who->'pid',
                                       'progress', who->'progress', 'sysid', who->'system_identifier');
    ELSIF q = 'session' THEN
        RETURN s || '{"need": "watch"}';
    ELSIF q = 'sweep' THEN
        -- run_sweep there returned: its sweep's id, or its error
        IF held ? 'failure' THEN
            why := held->>'failure';
            IF held->>'sqlstate' LIKE '08%' THEN
                RETURN walpressure._fleet_end(run_id, i, server, s, 'lost', 'the connection was lost: ' || why);
            END IF;
        ELSE
            rid := walpressure._fleet_int(answer, 18);
            s := s || jsonb_strip_nulls(jsonb_build_object('rid', rid));
        END IF;
        IF NOT s ? 'rid' THEN
            RETURN walpressure._fleet_end(run_id, i, server, s, 'failed',
                                          coalesce(why, 'its run_sweep returned no sweep id'));
        END IF;
        -- gathered on the run's own connection (the watch's may still be out)
        s := s || jsonb_strip_nulls(jsonb_build_object('detail', why));
        PERFORM walpressure._fleet_member_set(run_id, server, jsonb_build_object(
            'state', 'collecting', 'remote_sweep_id', s->'rid', 'last_heard', s->'heard', 'detail', s->'detail'));
        PERFORM walpressure._fleet_send(rc, format('SELECT walpressure.export(%s)', s->>'rid'));
        RETURN s || jsonb_build_object('state', 'collecting', 'rq', 'export', 'rat', clock_timestamp());
    ELSE
        -- its sweep's document: brought here
        here := walpressure._fleet_gather(server, (s->>'rid')::bigint, run_id, answer);
        RETURN walpressure._fleet_end(run_id, i, server, s, 'collected', s->>'detail');
    END IF;
END
$$;

-- The answer to server i's question on the watch's connection (q: session,
-- watch, cancel), held as _fleet_poll gives it.
CREATE OR REPLACE FUNCTION _fleet_watch_answer(run_id bigint, i int, server text, statement text, s jsonb, q text,
                                               held jsonb)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    p jsonb;
BEGIN
    s := s || jsonb_build_object('heard', clock_timestamp());
    IF q = 'cancel' THEN
        RETURN s;       -- what cancel_sweep said: run_sweep's return says how it ended
    ELSIF held ? 'failure' THEN
        RAISE EXCEPTION USING ERRCODE = held->>'sqlstate', MESSAGE = held->>'failure';
    ELSIF q = 'session' THEN
        -- both sessions ready: the call, and the first look at once (the
        -- sweep's id, as soon as it has one)
        PERFORM walpressure._fleet_send(walpressure._fleet_conn(run_id, i, 'run'), statement);
        PERFORM walpressure._fleet_send(walpressure._fleet_conn(run_id, i, 'watch'),
                                        walpressure._fleet_watch_sql((s->>'pid')::int, (s->>'progress')::bool));
        PERFORM walpressure._fleet_member_set(run_id, server, jsonb_build_object(
            'state', 'running', 'remote_pid', s->'pid', 'last_heard', s->'heard'));
        RETURN s || jsonb_build_object('state', 'running', 'rq', 'sweep', 'rat', clock_timestamp(),
                                       'wq', 'watch', 'wat', clock_timestamp());
    END IF;
    -- where its sweep is
    p := walpressure._fleet_watched(nullif(held->'answer', 'null'));
    s := s || jsonb_strip_nulls(jsonb_build_object('rid', p->'sweep_id'));
    PERFORM walpressure._fleet_member_set(run_id, server, (p - 'sweep_id') || jsonb_strip_nulls(jsonb_build_object(
        'remote_sweep_id', s->'rid', 'last_heard', s->'heard')));
    RETURN s;
END
$$;

-- One look at server i: what fleet_cancel asked, what came on its two
-- connections, its silence, its next watch.  Any error ends it: lost when
-- its connection broke (08...), unreachable when it could not be made,
-- failed otherwise, in one cleaned line.  Returns its state.
CREATE OR REPLACE FUNCTION _fleet_look(run_id bigint, i int, server text, statement text, lost_after interval,
                                       s jsonb)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    p record;
    ended text;
    why text;
    e_state text; e_msg text; e_detail text; e_hint text;
BEGIN
    IF s->>'state' NOT IN ('connecting', 'running', 'collecting') THEN
        RETURN s;
    END IF;
    BEGIN
        IF s ? 'failed' THEN
            RAISE EXCEPTION USING ERRCODE = s->'failed'->>'sqlstate', MESSAGE = s->'failed'->>'why';
        END IF;
        s := walpressure._fleet_cancel_asked(run_id, i, server, s);
        IF s ? 'rq' THEN
            SELECT * INTO p FROM walpressure._fleet_poll(walpressure._fleet_conn(run_id, i, 'run'),
                                                         (s->>'rgot')::bool, s->'rheld');
            IF p.done THEN
                s := walpressure._fleet_run_answer(run_id, i, server, statement, lost_after,
                                                   s - ARRAY['rq', 'rgot', 'rheld'], s->>'rq', p.held);
            ELSIF p.got AND NOT coalesce((s->>'rgot')::bool, false) THEN
                -- its result came: the end of it within lost_after
                s := s || jsonb_build_object('rgot', true, 'rheld', p.held, 'rat', clock_timestamp());
            END IF;
        END IF;
        IF s ? 'wq' THEN
            SELECT * INTO p FROM walpressure._fleet_poll(walpressure._fleet_conn(run_id, i, 'watch'),
                                                         (s->>'wgot')::bool, s->'wheld');
            IF p.done THEN
                s := walpressure._fleet_watch_answer(run_id, i, server, statement, s - ARRAY['wq', 'wgot', 'wheld'],
                                                     s->>'wq', p.held);
            ELSIF p.got AND NOT coalesce((s->>'wgot')::bool, false) THEN
                s := s || jsonb_build_object('wgot', true, 'wheld', p.held, 'wat', clock_timestamp());
            END IF;
        END IF;
        IF (s ? 'rq' AND (s->>'rq' <> 'sweep' OR (s->>'rgot')::bool)
            AND clock_timestamp() - (s->>'rat')::timestamptz > lost_after)
           OR (s ? 'wq' AND clock_timestamp() - (s->>'wat')::timestamptz > lost_after) THEN
            -- silent: a network cut, or a server that hangs (or that sent a result and not its end)
            RETURN walpressure._fleet_end(run_id, i, server, s, 'lost',
                format('no answer for %s: the server or the network to it is gone.  The server cancels its sweep itself once it has heard nothing from this session for about as long (its TCP keepalives and tcp_user_timeout give up); fleet_collect() gathers it when the server answers again',
                       lost_after));
        END IF;
        -- the next look at its sweep, a second after the last answer
        IF s->>'state' = 'running' AND NOT s ? 'wq' AND clock_timestamp() - (s->>'heard')::timestamptz >= interval '1 s' THEN
            PERFORM walpressure._fleet_send(walpressure._fleet_conn(run_id, i, 'watch'),
                                            walpressure._fleet_watch_sql((s->>'pid')::int, (s->>'progress')::bool));
            s := s || jsonb_build_object('wq', 'watch', 'wat', clock_timestamp());
        END IF;
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS e_state = RETURNED_SQLSTATE, e_msg = MESSAGE_TEXT,
                                e_detail = PG_EXCEPTION_DETAIL, e_hint = PG_EXCEPTION_HINT;
        why := walpressure._fleet_error(e_msg, e_detail, e_hint);
        ended := CASE WHEN s ? 'failed' THEN 'unreachable'
                      WHEN e_state LIKE '08%' THEN 'lost'
                      ELSE 'failed' END;
        IF ended = 'failed' AND s->>'state' = 'collecting' THEN
            why := format('its sweep %s there ended, but could not be gathered: %s; fleet_collect() tries again',
                          s->>'rid', why);
        ELSIF ended = 'failed' AND s->>'detail' IS NOT NULL THEN
            why := (s->>'detail') || '; ' || why;
        END IF;
        s := walpressure._fleet_end(run_id, i, server, s, ended, why);
    END;
    RETURN s;
END
$$;

-- Server i when the call was cancelled: its sessions closed (the server
-- cancels the sweep of a caller that is gone), its row marked cancelled.
CREATE OR REPLACE FUNCTION _fleet_abandon(run_id bigint, i int, server text, s jsonb)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    was text;
BEGIN
    -- (as its row says: what this look wrote before the cancel was rolled back)
    SELECT m.state INTO was FROM walpressure.fleet_members m
    WHERE m.run_id = _fleet_abandon.run_id AND m.server = _fleet_abandon.server;
    RETURN CASE was
        WHEN 'connecting' THEN
            walpressure._fleet_end(run_id, i, server, s, 'cancelled', 'the fleet run was cancelled before it started here')
        WHEN 'running' THEN
            walpressure._fleet_end(run_id, i, server, s, 'cancelled',
                'the fleet run was cancelled: its session here was closed, and the server cancels the sweep of a caller that is gone; fleet_collect() gathers it')
        WHEN 'collecting' THEN
            walpressure._fleet_end(run_id, i, server, s, 'cancelled',
                'the fleet run was cancelled before the sweep that ended there was gathered; fleet_collect() gathers it')
        ELSE s END;
END
$$;

-- How long to sleep before the next look: a hundredth of a second while a
-- server is starting, ending or gathered (an answer that comes in
-- milliseconds), half a second while they all run.
CREATE OR REPLACE FUNCTION _fleet_pause(s jsonb[])
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN EXISTS (SELECT FROM unnest(s) x
                         WHERE x ? 'need' OR x->>'rq' IN ('who', 'session', 'export')
                               OR x->>'wq' IN ('session', 'cancel') OR (x->>'rgot')::bool)
            THEN 0.01 ELSE 0.5 END;

-- fleet_run() after its checks: start `statement` (the run_sweep call
-- fleet_run built) on every server at once, each in a session of its own
-- with a second one to watch it, and gather each sweep as it ends.  A
-- server's failure is its own: one that cannot be reached, lacks
-- walpressure, fails or goes silent (lost_after) is marked so and the
-- others go on.  When this call ends any other way (a cancel, an error, its
-- session's end), every session it opened closes, and each server's
-- run_sweep, seeing its caller gone, cancels its sweep.

-- A procedure that commits cannot have a SET clause: search_path is pinned
-- by its first statement and again right after each COMMIT (when the
-- caller's is back), and nothing is initialized in DECLARE (that would run
-- before).
CREATE OR REPLACE PROCEDURE _fleet_run(run_id bigint, servers text[], sweep jsonb, statement text,
                                       lost_after interval)
LANGUAGE plpgsql
AS $$
DECLARE
    s jsonb[];              -- each server's state (above)
    look_began timestamptz;
    pause float8;
    interrupted bool;
BEGIN
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
    PERFORM walpressure._fleet_in_call(run_id);
    interrupted := false;
    PERFORM walpressure._fleet_disconnect_all();
    -- (its rows were made by fleet_run(), for this session)
    FOR i IN 1 .. cardinality(servers) LOOP
        s[i] := '{"state": "connecting", "need": "run"}';
    END LOOP;
    COMMIT;
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);

    LOOP
        IF NOT interrupted THEN
            BEGIN
                look_began := clock_timestamp();
                -- connections first, before any row is written in this look
                FOR i IN 1 .. cardinality(servers) LOOP
                    s[i] := walpressure._fleet_start(run_id, i, servers[i], lost_after, s[i], look_began);
                END LOOP;
                FOR i IN 1 .. cardinality(servers) LOOP
                    s[i] := walpressure._fleet_look(run_id, i, servers[i], statement, lost_after, s[i]);
                END LOOP;
            EXCEPTION WHEN query_canceled THEN
                interrupted := true;
            END;
        END IF;

        IF interrupted THEN
            -- the CALL was cancelled (Ctrl-C, statement_timeout): close every
            -- session; each server cancels the sweep of its caller that is gone
            FOR i IN 1 .. cardinality(servers) LOOP
                s[i] := walpressure._fleet_abandon(run_id, i, servers[i], s[i]);
            END LOOP;
            PERFORM walpressure._fleet_run_end(run_id, 'cancelled');
            COMMIT;
            PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
            RAISE EXCEPTION 'canceling statement due to user request'
                USING ERRCODE = 'query_canceled',
                      DETAIL = format('Fleet run %s was cancelled: the servers cancel their sweeps as they see their sessions close.', run_id);
        END IF;

        EXIT WHEN NOT EXISTS (SELECT FROM unnest(s) x WHERE x->>'state' IN ('connecting', 'running', 'collecting'));
        pause := walpressure._fleet_pause(s);
        COMMIT;
        PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
        BEGIN
            PERFORM pg_sleep(pause);
        EXCEPTION WHEN query_canceled THEN
            interrupted := true;
        END;
    END LOOP;

    PERFORM walpressure._fleet_run_end(run_id, 'done');
    COMMIT;
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
END
$$;

COMMENT ON PROCEDURE _fleet_run(bigint, text[], jsonb, text, interval) IS 'fleet_run() after its checks: the run_sweep call it built, started on every server, watched, and each sweep gathered as it ends';

CREATE OR REPLACE PROCEDURE fleet_run(sweep jsonb, servers text[] DEFAULT NULL,
                                      lost_after interval DEFAULT '60 s', INOUT run_id bigint DEFAULT NULL)
AS 'MODULE_PATHNAME', 'wp_fleet_run'
LANGUAGE C;

COMMENT ON PROCEDURE fleet_run(jsonb, text[], interval, bigint) IS 'Run the same sweep on many servers at once: each server runs it with its own run_sweep, on its own disk, as the role its user mapping names, with its own checks; the centre watches them all in fleet_progress and gathers each sweep as it ends.';

-- fleet_cancel(): the session that runs the fleet run cancels those sweeps
-- at its next look.
CREATE OR REPLACE FUNCTION fleet_cancel(run_id bigint, servers text[] DEFAULT NULL)
RETURNS int
AS 'MODULE_PATHNAME', 'wp_fleet_cancel'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION fleet_cancel(bigint, text[]) IS 'Ask the session that runs a fleet run to cancel its sweeps on some servers (all by default), from any session.';

REVOKE ALL ON PROCEDURE fleet_run(jsonb, text[], interval, bigint) FROM PUBLIC;
REVOKE ALL ON PROCEDURE _fleet_run(bigint, text[], jsonb, text, interval) FROM PUBLIC;
REVOKE ALL ON FUNCTION fleet_cancel(bigint, text[]) FROM PUBLIC;
