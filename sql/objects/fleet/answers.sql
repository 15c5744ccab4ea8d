--
-- What comes back from a server of the fleet: data, each part checked or
-- cleaned before it reaches a NOTICE, an error, a table or a view; and
-- why a server that answered cannot take part.
--

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
