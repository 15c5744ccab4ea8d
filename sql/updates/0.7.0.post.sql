-- 0.7.0, after the objects: the load's statement texts are pg_read_all_stats' only (as
-- pg_stat_statements shows another role's): whoever else could read them no longer can.
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT DISTINCT c.oid::pg_catalog.regclass AS rel, a.grantee::pg_catalog.regrole AS grantee
             FROM pg_catalog.pg_class c, LATERAL pg_catalog.aclexplode(c.relacl) a
             WHERE c.oid OPERATOR(pg_catalog.=) ANY (ARRAY['walpressure.step_statements',
                                                         'walpressure.statements']::pg_catalog.regclass[])
               AND a.grantee OPERATOR(pg_catalog.<>) c.relowner AND a.grantee OPERATOR(pg_catalog.<>) 0
               AND a.grantee OPERATOR(pg_catalog.<>) 'pg_read_all_stats'::pg_catalog.regrole LOOP
        EXECUTE pg_catalog.format('REVOKE SELECT ON %s FROM %s', r.rel, r.grantee);
    END LOOP;
END
$$;
