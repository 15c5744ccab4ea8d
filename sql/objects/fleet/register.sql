--
-- Registering: fleet_register(), a foreign server added to the fleet and
-- asked what it is.
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

COMMENT ON FUNCTION _fleet_write_server(text, jsonb) IS 'fleet_register() after its checks: the server''s row, with what answered';

CREATE OR REPLACE FUNCTION fleet_register(server text, "check" bool DEFAULT true)
RETURNS walpressure.fleet_servers
AS 'MODULE_PATHNAME', 'wp_fleet_register'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION fleet_register(text, bool) IS 'Add a foreign server to the fleet: the servers this database starts sweeps on and gathers them from, over dblink.';

REVOKE ALL ON FUNCTION fleet_register(text, bool) FROM PUBLIC;
REVOKE ALL ON FUNCTION _fleet_write_server(text, jsonb) FROM PUBLIC;
