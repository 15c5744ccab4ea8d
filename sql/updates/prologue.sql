--
-- Before an update's own steps: the privileges on the extension's functions
-- and views, by name.  An update drops and makes again what changed shape (a
-- function whose arguments or result changed, a view whose columns did):
-- the epilogue gives those privileges back, so a DBA's grants survive it.
--

CREATE TABLE _update_privileges AS
SELECT 'function' AS kind, p.proname::text AS name, a.grantee, a.privilege_type, a.is_grantable
FROM pg_catalog.pg_depend d
JOIN pg_catalog.pg_proc p ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                          AND p.oid OPERATOR(pg_catalog.=) d.objid
CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
  AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e
                                         WHERE e.extname OPERATOR(pg_catalog.=) 'walpressure')
  AND d.deptype OPERATOR(pg_catalog.=) 'e'
  AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
UNION ALL
SELECT 'relation', c.relname::text, a.grantee, a.privilege_type, a.is_grantable
FROM pg_catalog.pg_depend d
JOIN pg_catalog.pg_class c ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
                           AND c.oid OPERATOR(pg_catalog.=) d.objid
CROSS JOIN LATERAL pg_catalog.aclexplode(c.relacl) a
WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
  AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e
                                         WHERE e.extname OPERATOR(pg_catalog.=) 'walpressure')
  AND d.deptype OPERATOR(pg_catalog.=) 'e'
  AND c.relkind OPERATOR(pg_catalog.=) 'v'
  AND a.grantee OPERATOR(pg_catalog.<>) c.relowner;
