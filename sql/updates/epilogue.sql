--
-- After an update: every privilege the prologue recorded that the function
-- or view of the same name lacks now (it was dropped and made again), given
-- back as it was, grant option included.
--

DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT u.*, p.oid::pg_catalog.regprocedure::text AS object
        FROM walpressure._update_privileges u
        JOIN pg_catalog.pg_proc p ON p.proname OPERATOR(pg_catalog.=) u.name
                                  AND p.pronamespace OPERATOR(pg_catalog.=) 'walpressure'::pg_catalog.regnamespace
        WHERE u.kind OPERATOR(pg_catalog.=) 'function'
          AND NOT EXISTS (SELECT FROM pg_catalog.aclexplode(p.proacl) a
                          WHERE a.grantee OPERATOR(pg_catalog.=) u.grantee
                            AND a.privilege_type OPERATOR(pg_catalog.=) u.privilege_type
                            AND a.is_grantable OPERATOR(pg_catalog.>=) u.is_grantable)
        UNION ALL
        SELECT u.*, c.oid::pg_catalog.regclass::text
        FROM walpressure._update_privileges u
        JOIN pg_catalog.pg_class c ON c.relname OPERATOR(pg_catalog.=) u.name
                                   AND c.relnamespace OPERATOR(pg_catalog.=) 'walpressure'::pg_catalog.regnamespace
        WHERE u.kind OPERATOR(pg_catalog.=) 'relation'
          AND NOT EXISTS (SELECT FROM pg_catalog.aclexplode(c.relacl) a
                          WHERE a.grantee OPERATOR(pg_catalog.=) u.grantee
                            AND a.privilege_type OPERATOR(pg_catalog.=) u.privilege_type
                            AND a.is_grantable OPERATOR(pg_catalog.>=) u.is_grantable)
    LOOP
        EXECUTE pg_catalog.format('GRANT %s ON %s %s TO %s%s',
                                  r.privilege_type,
                                  CASE WHEN r.kind OPERATOR(pg_catalog.=) 'function' THEN 'FUNCTION' ELSE 'TABLE' END,
                                  r.object,
                                  CASE WHEN r.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
                                       ELSE r.grantee::pg_catalog.regrole::text END,
                                  CASE WHEN r.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
    END LOOP;
END
$$;

DROP TABLE _update_privileges;
