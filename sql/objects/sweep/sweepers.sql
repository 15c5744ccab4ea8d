--
-- Letting a role run sweeps, and taking it back.
--

-- grant_sweeper() after the caller's side (C): give a role every right a
-- sweep needs that it does not hold yet, and record each, so that
-- revoke_sweeper takes back exactly what was given.  pg_execute_server_program
-- (the pgbench engine: any program as the server's OS user, which equals
-- superuser) only with engine => 'pgbench'.  The results' statement texts
-- (step_statements, statements) are not among them: pg_read_all_stats'.
CREATE OR REPLACE FUNCTION _grant_sweeper(role regrole, engine text, tables regclass[])
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r text := _grant_sweeper.role::text;
    g record;
BEGIN
    FOR g IN
        SELECT * FROM (
            SELECT 1 AS o, format('GRANT USAGE ON SCHEMA walpressure TO %s', r) AS grant_sql,
                   format('REVOKE USAGE ON SCHEMA walpressure FROM %s', r) AS revoke_sql,
                   has_schema_privilege(_grant_sweeper.role, 'walpressure', 'USAGE') AS held
            UNION ALL
            SELECT 2, format('GRANT EXECUTE ON FUNCTION %s TO %s', f::regprocedure, r),
                   format('REVOKE EXECUTE ON FUNCTION %s FROM %s', f::regprocedure, r),
                   has_function_privilege(_grant_sweeper.role, f, 'EXECUTE')
            FROM unnest(ARRAY(SELECT p.oid FROM pg_catalog.pg_proc p
                              WHERE p.pronamespace = 'walpressure'::regnamespace
                                AND p.proname IN ('run_sweep', 'cancel_sweep', 'prewarm', 'progress_row')
                              ORDER BY p.proname)) AS f
            UNION ALL
            SELECT 3, format('GRANT SELECT ON %s TO %s', c, r), format('REVOKE SELECT ON %s FROM %s', c, r),
                   has_table_privilege(_grant_sweeper.role, c, 'SELECT')
            FROM unnest(ARRAY['walpressure.sweeps', 'walpressure.steps', 'walpressure.step_samples',
                              'walpressure.step_replication', 'walpressure.search_rounds',
                              'walpressure.results', 'walpressure.best',
                              'walpressure.progress']::regclass[]) AS c
            UNION ALL
            SELECT 4, format('GRANT pg_checkpoint TO %s', r), format('REVOKE pg_checkpoint FROM %s', r),
                   pg_has_role(_grant_sweeper.role, 'pg_checkpoint', 'MEMBER')
            UNION ALL
            SELECT 5, format('GRANT SET ON PARAMETER %s TO %s', p, r),
                   format('REVOKE SET ON PARAMETER %s FROM %s', p, r),
                   has_parameter_privilege(_grant_sweeper.role, p, 'SET')
            FROM unnest(ARRAY['commit_delay', 'track_wal_io_timing']) AS p
            UNION ALL
            SELECT 6, format('GRANT pg_execute_server_program TO %s', r),
                   format('REVOKE pg_execute_server_program FROM %s', r),
                   pg_has_role(_grant_sweeper.role, 'pg_execute_server_program', 'MEMBER')
            WHERE _grant_sweeper.engine = 'pgbench'
            UNION ALL
            -- the pgbench tables: the rights the role lacks of those the load uses
            SELECT 7, format('GRANT %s ON %s TO %s', privs, t, r), format('REVOKE %s ON %s FROM %s', privs, t, r),
                   privs IS NULL
            FROM (SELECT t, string_agg(p, ', ' ORDER BY p <> 'SELECT', p) FILTER (WHERE NOT has_table_privilege(_grant_sweeper.role, t, p)) AS privs
                  FROM unnest(coalesce(_grant_sweeper.tables, '{}')) AS t,
                       LATERAL unnest(CASE WHEN (SELECT c.relname FROM pg_catalog.pg_class c WHERE c.oid = t) = 'pgbench_history'
                                           THEN ARRAY['SELECT', 'INSERT'] ELSE ARRAY['SELECT', 'UPDATE'] END) AS p
                  GROUP BY t) AS tp
        ) AS items
        WHERE NOT held
        ORDER BY o, grant_sql
    LOOP
        EXECUTE g.grant_sql;
        INSERT INTO walpressure.sweeper_grants (role, granted, revoke) VALUES (_grant_sweeper.role, g.grant_sql, g.revoke_sql);
        RETURN NEXT g.grant_sql || CASE WHEN g.o = 6
            THEN '   -- the pgbench engine runs the server''s pgbench: the role may run any program as the server''s OS user, which equals superuser'
            ELSE '' END;
    END LOOP;
    IF coalesce(array_length(_grant_sweeper.tables, 1), 0) = 0 THEN
        RAISE NOTICE 'no pgbench tables yet: after walpressure.init_pgbench(), call grant_sweeper again for their rows';
    END IF;
END
$$;

COMMENT ON FUNCTION _grant_sweeper(regrole, text, regclass[]) IS 'grant_sweeper() after its check: the GRANTs the role lacks, each recorded in sweeper_grants';

CREATE OR REPLACE FUNCTION grant_sweeper(role regrole, engine text DEFAULT 'backend')
RETURNS SETOF text
AS 'MODULE_PATHNAME', 'wp_grant_sweeper'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION grant_sweeper(regrole, text) IS 'Grant a role every right a sweep needs that it lacks, each recorded so that revoke_sweeper takes back exactly those; returns the GRANTs.';

-- revoke_sweeper() after the caller's side (C, which cancels the role's
-- running sweep first): what grant_sweeper gave the role, taken back, and
-- nothing else (a right it held before stays).
CREATE OR REPLACE FUNCTION _revoke_sweeper(role regrole)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    g record;
BEGIN
    FOR g IN WITH gone AS (DELETE FROM walpressure.sweeper_grants sg WHERE sg.role = _revoke_sweeper.role
                           RETURNING sg.revoke, sg.grant_id)
             SELECT * FROM gone ORDER BY grant_id DESC LOOP
        BEGIN
            EXECUTE g.revoke;
            RETURN NEXT g.revoke;
        EXCEPTION WHEN undefined_table OR undefined_function OR undefined_object THEN
            -- a pgbench table dropped since: nothing left to revoke on it
            RETURN NEXT '-- gone: ' || g.revoke;
        END;
    END LOOP;
    IF NOT FOUND THEN
        RAISE NOTICE 'grant_sweeper gave % nothing that is not taken back already', _revoke_sweeper.role
            USING HINT = 'Rights granted by walpressure before 0.7.0 were not recorded: revoke them by hand.';
    END IF;
END
$$;

COMMENT ON FUNCTION _revoke_sweeper(regrole) IS 'revoke_sweeper() after its check: the recorded GRANTs of grant_sweeper, revoked';

CREATE OR REPLACE FUNCTION revoke_sweeper(role regrole)
RETURNS SETOF text
AS 'MODULE_PATHNAME', 'wp_revoke_sweeper'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION revoke_sweeper(regrole) IS 'Cancel the role''s running sweep, then revoke what grant_sweeper gave it, and nothing it held before; returns the REVOKEs.';

REVOKE ALL ON FUNCTION grant_sweeper(regrole, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION _grant_sweeper(regrole, text, regclass[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION _revoke_sweeper(regrole) FROM PUBLIC;
REVOKE ALL ON FUNCTION revoke_sweeper(regrole) FROM PUBLIC;
