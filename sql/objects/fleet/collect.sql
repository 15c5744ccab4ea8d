--
-- Gathering: fleet_collect(), every sweep of each server that is not here
-- yet.
--

-- What _fleet_gather_list counted beyond the notes it said.
CREATE OR REPLACE FUNCTION _fleet_list_counts(noid int, twice int, renumbered int, failed int, untried int)
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN array_remove(ARRAY[
    CASE WHEN noid > 1 THEN format('%s more without an id', noid - 1) END,
    CASE WHEN twice > 0 THEN format('it named %s sweep%s twice (each tried once)', twice, CASE WHEN twice > 1 THEN 's' END) END,
    CASE WHEN renumbered > 5 THEN format('%s more sweeps there started at another time than the ones gathered before under their ids (the first 5 said)', renumbered - 5) END,
    CASE WHEN failed > 5 THEN format('%s more sweeps there could not be gathered (the first 5 said)', failed - 5) END,
    CASE WHEN untried > 0 THEN format('%s more sweep%s there not tried: at most 100 a call, for at most 5 minutes; call fleet_collect again for them',
                                      untried, CASE WHEN untried > 1 THEN 's' END) END], NULL);

-- Gather, on conn, the sweeps of server's list (its answer to which sweeps
-- ended there and are not imports) not here yet (_fleet_gather), by their
-- ids there; a failure is noted and the next one tried, the server gone
-- (08...) ends the list.  A list cannot make a call or its line endless: its
-- first 10000 entries read, an id named twice tried once, at most 100 sweeps
-- tried for at most 5 minutes (the rest next call), each note kind counted.
CREATE OR REPLACE FUNCTION _fleet_gather_list(conn text, server text, list jsonb,
                                              OUT collected int, OUT sweep_ids bigint[], OUT notes text[],
                                              OUT gone bool)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    e jsonb; rid bigint; started timestamptz; prev timestamptz;
    e_state text; e_msg text; e_detail text; e_hint text;
    seen bigint[] := '{}';
    t0 timestamptz := clock_timestamp();
    tried int := 0; untried int := 0; failed int := 0; noid int := 0; renumbered int := 0; twice int := 0;
BEGIN
    collected := 0;
    sweep_ids := '{}';
    notes := '{}';
    gone := false;
    IF jsonb_typeof(list) IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'its list of sweeps is not an array';
    END IF;
    IF jsonb_array_length(list) > 10000 THEN
        notes := notes || format('its list holds %s sweeps: the first 10000 were read', jsonb_array_length(list));
    END IF;
    FOR e IN SELECT t.x FROM jsonb_array_elements(list) WITH ORDINALITY AS t(x, o) WHERE t.o <= 10000 ORDER BY t.o LOOP
        rid := walpressure._fleet_int(e->'id', 18);
        IF rid IS NULL THEN
            noid := noid + 1;
            IF noid = 1 THEN
                notes := notes || 'its list of sweeps holds one without an id'::text;
            END IF;
            CONTINUE;
        END IF;
        IF rid = ANY (seen) THEN
            twice := twice + 1;
            CONTINUE;
        END IF;
        seen := seen || rid;
        started := walpressure._fleet_time(e->'started_at');
        SELECT f.remote_started_at INTO prev FROM walpressure.fleet_sweeps f
        WHERE f.server = _fleet_gather_list.server AND f.remote_sweep_id = rid;
        IF FOUND THEN
            IF prev IS DISTINCT FROM started THEN
                renumbered := renumbered + 1;
                IF renumbered <= 5 THEN
                    notes := notes || format('sweep %s there started at %s, not at %s as the one gathered before under that id (its sweeps were numbered anew?): delete that row of walpressure.fleet_sweeps to gather it',
                                             rid, coalesce(started::text, 'an unknown time'), prev);
                END IF;
            END IF;
            CONTINUE;
        END IF;
        IF tried = 100 OR clock_timestamp() - t0 > interval '5 minutes' THEN
            untried := untried + 1;
            CONTINUE;
        END IF;
        tried := tried + 1;
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
            failed := failed + 1;
            IF failed <= 5 OR e_state LIKE '08%' THEN
                notes := notes || format('sweep %s: %s', rid, walpressure._fleet_error(e_msg, e_detail, e_hint));
            END IF;
            IF e_state LIKE '08%' THEN
                gone := true;       -- what came before stays
                EXIT;
            END IF;
        END;
    END LOOP;
    notes := notes || walpressure._fleet_list_counts(noid, twice, renumbered, CASE WHEN gone THEN 0 ELSE failed END,
                                                     CASE WHEN gone THEN 0 ELSE untried END);
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

COMMENT ON FUNCTION _fleet_collect(text[]) IS 'fleet_collect() after its checks: per server, the sweeps that ran and ended there and are not here yet, exported there and imported here';

CREATE OR REPLACE FUNCTION fleet_collect(servers text[] DEFAULT NULL)
RETURNS TABLE (server text, state text, collected int, sweep_ids bigint[], detail text)
AS 'MODULE_PATHNAME', 'wp_fleet_collect'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION fleet_collect(text[]) IS 'Gather from each server of the fleet every sweep that ran and ended there and is not here yet: its row, steps, samples, statements and replication figures, with its fingerprint.';

REVOKE ALL ON FUNCTION fleet_collect(text[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_collect(text[]) FROM PUBLIC;
