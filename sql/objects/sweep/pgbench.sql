--
-- The pgbench tables: made from SQL, and prewarmed.
--

CREATE OR REPLACE FUNCTION init_pgbench(scale int DEFAULT 10)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_init_pgbench'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION init_pgbench(int) IS 'The pgbench tables, built in the server as pgbench -i -I dtGvp -s scale does, so that a sweep can start from psql alone.';

-- prewarm() after its check (the pgbench tables exist when no relation is
-- named): the relations and their indexes.
CREATE OR REPLACE FUNCTION _prewarm(relations regclass[])
RETURNS TABLE (relation regclass, blocks bigint)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    rels regclass[] := _prewarm.relations;
    prewarm_schema name;
    total bigint := 0;
    buffers bigint;
BEGIN
    -- (prewarm() names the pgbench tables when it is given none)

    SELECT n.nspname INTO prewarm_schema
    FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_prewarm';

    FOR relation IN
        SELECT r FROM unnest(rels) AS r
        UNION
        SELECT i.indexrelid::regclass
        FROM unnest(rels) AS r JOIN pg_catalog.pg_index i ON i.indrelid = r
        ORDER BY 1
    LOOP
        EXECUTE format('SELECT %I.pg_prewarm($1, ''buffer'')', prewarm_schema)
            INTO blocks USING relation;
        total := total + blocks;
        RETURN NEXT;
    END LOOP;

    SELECT setting::bigint INTO buffers FROM pg_catalog.pg_settings WHERE name = 'shared_buffers';
    IF total > buffers THEN
        RAISE NOTICE '% blocks prewarmed, but shared_buffers holds %: they do not all stay cached',
            total, buffers
            USING HINT = 'Raise shared_buffers or use a smaller scale, so that steps read no data from disk.';
    END IF;
END
$$;

COMMENT ON FUNCTION _prewarm(regclass[]) IS 'prewarm() after its check';

CREATE OR REPLACE FUNCTION prewarm(relations regclass[] DEFAULT NULL)
RETURNS TABLE (relation regclass, blocks bigint)
AS 'MODULE_PATHNAME', 'wp_prewarm'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION prewarm(regclass[]) IS 'pg_prewarm (buffer mode) of relations and all their indexes; by default the pgbench tables.';

REVOKE ALL ON FUNCTION init_pgbench(int) FROM PUBLIC;
REVOKE ALL ON FUNCTION prewarm(regclass[]) FROM PUBLIC;
