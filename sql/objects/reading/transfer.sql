--
-- A sweep as one JSON document (export), and such a document as a sweep here (import).
--

-- A sweep as one JSON document, to read it on another server: its row, its
-- steps and samples, and the fingerprint of the server it ran on.
CREATE OR REPLACE FUNCTION _export(sweep_id bigint)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    doc jsonb;
    stmts jsonb := '[]';
BEGIN
    SELECT jsonb_build_object(
        'format', 'walpressure sweep',
        'format_version', 1,
        'exported_at', now(),
        'walpressure_version', (SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'walpressure'),
        'server', jsonb_build_object(
            'system_identifier', (SELECT system_identifier::text FROM pg_catalog.pg_control_system()),
            'server_version', s.server_version,
            'cpus', s.cpus,
            'wal_disk', s.wal_disk,
            'iops_cap', s.iops_cap,
            'settings', s.server_settings),
        'sweep', to_jsonb(s),
        'steps', coalesce((SELECT jsonb_agg(to_jsonb(st) - 'sweep_id' ORDER BY st.step)
                           FROM walpressure.steps st WHERE st.sweep_id = s.sweep_id), '[]'),
        'step_samples', coalesce((SELECT jsonb_agg(to_jsonb(x) - 'sweep_id' ORDER BY x.step, x.second)
                                  FROM walpressure.step_samples x WHERE x.sweep_id = s.sweep_id), '[]'),
        'step_replication', coalesce((SELECT jsonb_agg(to_jsonb(x) - 'sweep_id' ORDER BY x.step, x.pid)
                                      FROM walpressure.step_replication x WHERE x.sweep_id = s.sweep_id), '[]'),
        'search_rounds', coalesce((SELECT jsonb_agg(to_jsonb(x) - 'sweep_id' ORDER BY x.round)
                                   FROM walpressure.search_rounds x WHERE x.sweep_id = s.sweep_id), '[]'))
    INTO doc
    FROM walpressure.sweeps s
    WHERE s.sweep_id = _export.sweep_id;
    -- the statement texts, for a reader pg_stat_statements would show them to
    IF has_table_privilege('walpressure.step_statements', 'SELECT') THEN
        EXECUTE 'SELECT coalesce(jsonb_agg(to_jsonb(x) - ''sweep_id'' ORDER BY x.step, x.rank), ''[]'')
                 FROM walpressure.step_statements x WHERE x.sweep_id = $1'
            INTO stmts USING _export.sweep_id;
    END IF;
    RETURN doc || jsonb_build_object('step_statements', stmts);
END
$$;

COMMENT ON FUNCTION _export(bigint) IS 'export() after its check: a sweep as one JSON document';

-- The labels of the data a step can lose, as import() records them: those
-- its value and the sweep's fixed settings give (sweep/policy.c), and those
-- the document stated (the server's own settings there, which only it
-- knew), of the three there are: a document can add a label, never drop one.
CREATE OR REPLACE FUNCTION _step_data_loss(setting text, value text, settings jsonb, stated text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN (SELECT string_agg(DISTINCT l, ', ' ORDER BY l)
        FROM (SELECT walpressure._data_loss(setting, value) AS l
              WHERE setting <> 'settings'
              UNION ALL
              SELECT walpressure._data_loss(c.key, c.value)
              FROM jsonb_each_text(CASE WHEN setting = 'settings' THEN value::jsonb ELSE '{}' END
                                   || coalesce(settings, '{}')) AS c
              UNION ALL
              SELECT x FROM regexp_split_to_table(coalesce(stated, ''), ',\s*') AS x
              WHERE x IN ('fsync=off', 'full_page_writes=off', 'synchronous_commit=off')) a
        WHERE l IS NOT NULL);

-- import() after its check: the document as a new sweep here, its steps and
-- samples as they were, the server it ran on in origin; what can be derived
-- is derived, not taken: each step's value is the sweep's value at its
-- position, and what it can lose in a crash is what its settings give.
CREATE OR REPLACE FUNCTION _import(sweep jsonb)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    d jsonb := _import.sweep;
    s walpressure.sweeps;
BEGIN
    s := jsonb_populate_record(NULL::walpressure.sweeps, d->'sweep');
    s.origin := coalesce(d->'server', '{}') || jsonb_build_object(
        'sweep_id', d->'sweep'->'sweep_id', 'exported_at', d->'exported_at',
        'walpressure_version', d->'walpressure_version');
    s.sweep_id := nextval('walpressure.sweeps_sweep_id_seq');
    IF s.status = 'running' THEN
        s.status := 'aborted';      -- it ran on when it was exported: what came is all there is
    END IF;
    INSERT INTO walpressure.sweeps SELECT s.*;
    INSERT INTO walpressure.steps
    SELECT (jsonb_populate_record(NULL::walpressure.steps, e || jsonb_build_object(
                'sweep_id', s.sweep_id, 'value', v.value,
                'data_loss', walpressure._step_data_loss(s.setting, v.value, s.settings, e->>'data_loss')))).*
    FROM jsonb_array_elements(d->'steps') AS e
    CROSS JOIN LATERAL (SELECT s.vals[(e->>'value_pos')::int] AS value) v;
    INSERT INTO walpressure.step_samples
    SELECT (jsonb_populate_record(NULL::walpressure.step_samples, e || jsonb_build_object('sweep_id', s.sweep_id))).*
    FROM jsonb_array_elements(d->'step_samples') AS e;
    -- none in documents from before walpressure 0.5.0
    INSERT INTO walpressure.step_statements
    SELECT (jsonb_populate_record(NULL::walpressure.step_statements, e || jsonb_build_object('sweep_id', s.sweep_id))).*
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(d->'step_statements') = 'array'
                                   THEN d->'step_statements' ELSE '[]' END) AS e;
    -- none in documents from before walpressure 0.6.0
    INSERT INTO walpressure.step_replication
    SELECT (jsonb_populate_record(NULL::walpressure.step_replication, e || jsonb_build_object('sweep_id', s.sweep_id))).*
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(d->'step_replication') = 'array'
                                   THEN d->'step_replication' ELSE '[]' END) AS e;
    -- none in documents from before walpressure 0.7.0
    INSERT INTO walpressure.search_rounds
    SELECT (jsonb_populate_record(NULL::walpressure.search_rounds, e || jsonb_build_object('sweep_id', s.sweep_id))).*
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(d->'search_rounds') = 'array'
                                   THEN d->'search_rounds' ELSE '[]' END) AS e;
    RETURN s.sweep_id;
END
$$;

COMMENT ON FUNCTION _import(jsonb) IS 'import() after its check: the document as a new sweep of this database';

REVOKE ALL ON FUNCTION _import(jsonb) FROM PUBLIC;

CREATE OR REPLACE FUNCTION export(sweep_id bigint)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'wp_export'
LANGUAGE C STRICT STABLE;

CREATE OR REPLACE FUNCTION import(sweep jsonb)
RETURNS bigint
AS 'MODULE_PATHNAME', 'wp_import'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION import(jsonb) IS 'A sweep export() made (here or on another server) as a new sweep of this database, with its steps and samples.';

REVOKE ALL ON FUNCTION import(jsonb) FROM PUBLIC;

COMMENT ON FUNCTION export(bigint) IS 'A sweep as one JSON document, to read it on another server with import().';
