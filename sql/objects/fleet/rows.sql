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

COMMENT ON FUNCTION _fleet_in_call(bigint) IS 'Raises unless this is the fleet_run() call that runs run_id (NULL: a fleet_collect() call): what runs behind them connects to no server when called on its own';

CREATE OR REPLACE FUNCTION _fleet_member_set(run_id bigint, server text, changes jsonb)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_fleet_member_set'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION _fleet_member_set(bigint, text, jsonb) IS 'A server''s row of the fleet run this fleet_run() call runs: the columns changes names (texts cleaned), written as the extension''s owner';

CREATE OR REPLACE FUNCTION _fleet_run_end(run_id bigint, status text)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_fleet_run_end'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION _fleet_run_end(bigint, text) IS 'The fleet run this fleet_run() call runs ended: done or cancelled';

CREATE OR REPLACE FUNCTION _fleet_answered(server text, who jsonb)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_fleet_answered'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION _fleet_answered(text, jsonb) IS 'What a server the caller may reach answered when fleet_run() or fleet_collect() asked who it is, in fleet_servers';

CREATE OR REPLACE FUNCTION _fleet_gather(server text, remote_id bigint, run_id bigint, doc jsonb)
RETURNS bigint
AS 'MODULE_PATHNAME', 'wp_fleet_gather'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION _fleet_gather(text, bigint, bigint, jsonb) IS 'A server''s sweep, as its export() gave it to fleet_run() or fleet_collect(), imported here and keyed in fleet_sweeps by what import() made of it';

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

REVOKE ALL ON FUNCTION _fleet_write_run(bigint, jsonb, text[], interval, name, int, timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_write_cancel(bigint, text[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_write_member(bigint, text, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_write_run_end(bigint, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_write_answered(text, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_write_sweep(text, bigint, bigint, jsonb) FROM PUBLIC;
