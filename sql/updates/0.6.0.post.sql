-- 0.6.0, after the objects: who could read the steps may read the standbys' figures.
DO $$
DECLARE
    r text;
BEGIN
    FOR r IN SELECT DISTINCT a.grantee::pg_catalog.regrole::text
             FROM pg_catalog.pg_class c, LATERAL pg_catalog.aclexplode(c.relacl) a
             WHERE c.oid OPERATOR(pg_catalog.=) 'walpressure.steps'::pg_catalog.regclass
               AND a.privilege_type OPERATOR(pg_catalog.=) 'SELECT'
               AND a.grantee OPERATOR(pg_catalog.<>) c.relowner AND a.grantee OPERATOR(pg_catalog.<>) 0 LOOP
        EXECUTE pg_catalog.format('GRANT SELECT ON walpressure.step_replication TO %s', r);
    END LOOP;
END
$$;
