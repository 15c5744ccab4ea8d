--
-- search_path is pinned before the first expression of every function and
-- procedure of the extension: a caller's search_path must not choose what
-- they call (an exact-type public.cardinality(text[]) beats
-- pg_catalog.cardinality(anyarray) whatever the order of the path).
--
-- A function in SQL or PL/pgSQL pins it with SET search_path = pg_catalog,
-- pg_temp.  A procedure that commits cannot have a SET clause: its first
-- statement, and the statement right after each COMMIT or ROLLBACK (when the
-- caller's search_path is back), is
--     PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
-- and its DECLARE section initializes nothing (an initializer runs before
-- the first statement).  A C function pins what it runs through SPI itself.
-- The last query lists each object that breaks the rule, and why.
--
\pset null '(null)'

CREATE TEMP VIEW routines AS
SELECT p.oid::regprocedure AS routine, p.prokind, l.lanname, p.proconfig,
       -- the body without its comments; its DECLARE section (up to the
       -- first BEGIN), and what follows that BEGIN
       b.src,
       substring(b.src from '(?i)^\s*DECLARE((?:(?!\mBEGIN\M).)*)\mBEGIN\M') AS declared,
       substring(b.src from '(?i)^\s*(?:DECLARE(?:(?!\mBEGIN\M).)*)?\mBEGIN\M(.*)$') AS body
FROM pg_proc p
JOIN pg_language l ON l.oid = p.prolang
CROSS JOIN LATERAL (SELECT regexp_replace(regexp_replace(p.prosrc, '/\*.*?\*/', ' ', 'g'),
                                          '--[^\n]*', ' ', 'g') AS src) b
WHERE p.pronamespace = 'walpressure'::regnamespace;

CREATE TEMP VIEW pin AS
SELECT $re$PERFORM\s+pg_catalog\.set_config\(\s*'search_path'\s*,\s*'pg_catalog, pg_temp'\s*,\s*true\s*\)\s*;$re$ AS re;

-- what is examined: every function and procedure of the schema
SELECT count(*) > 80 AS all_of_them, count(*) FILTER (WHERE lanname = 'plpgsql') > 0 AS plpgsql,
       count(*) FILTER (WHERE lanname = 'sql') > 0 AS sql, count(*) FILTER (WHERE prokind = 'p') > 0 AS procedures
FROM routines;

-- none breaks the rule
SELECT r.routine, r.lanname, r.proconfig,
       CASE WHEN r.prokind <> 'p' OR r.proconfig IS NOT NULL THEN 'no SET search_path = pg_catalog, pg_temp'
            WHEN coalesce(r.declared, '') ~* '(:=|\mDEFAULT\M)' THEN 'an initializer in DECLARE'
            WHEN coalesce(r.body, '') !~* ('^\s*' || pin.re) THEN 'its first statement does not pin search_path'
            ELSE 'a COMMIT or ROLLBACK not followed by the pin' END AS why
FROM routines r, pin
WHERE r.lanname <> 'c'
  AND NOT coalesce('search_path=pg_catalog, pg_temp' = ANY (r.proconfig), false)
  AND NOT (r.prokind = 'p' AND r.proconfig IS NULL
           AND coalesce(r.declared, '') !~* '(:=|\mDEFAULT\M)'
           AND coalesce(r.body, '') ~* ('^\s*' || pin.re)
           AND regexp_count(r.src, '\m(COMMIT|ROLLBACK)\M\s*;', 1, 'i')
               = regexp_count(r.src, '\m(COMMIT|ROLLBACK)\M\s*;\s*' || pin.re, 1, 'i'))
ORDER BY 1;

-- the rule read on procedures that break it, each its own way
CREATE FUNCTION pg_temp.why(src text) RETURNS text LANGUAGE sql AS $$
SELECT CASE WHEN coalesce(substring(src from '(?i)^\s*DECLARE((?:(?!\mBEGIN\M).)*)\mBEGIN\M'), '') ~* '(:=|\mDEFAULT\M)'
                THEN 'an initializer in DECLARE'
            WHEN coalesce(substring(src from '(?i)^\s*(?:DECLARE(?:(?!\mBEGIN\M).)*)?\mBEGIN\M(.*)$'), '') !~* ('^\s*' || pin.re)
                THEN 'its first statement does not pin search_path'
            WHEN regexp_count(src, '\m(COMMIT|ROLLBACK)\M\s*;', 1, 'i')
                 <> regexp_count(src, '\m(COMMIT|ROLLBACK)\M\s*;\s*' || pin.re, 1, 'i')
                THEN 'a COMMIT or ROLLBACK not followed by the pin'
            ELSE 'pinned' END
FROM pin $$;
SELECT pg_temp.why($$ DECLARE n int := cardinality(a); BEGIN PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true); END $$);
SELECT pg_temp.why($$ DECLARE n int; BEGIN n := cardinality(a); PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true); END $$);
SELECT pg_temp.why($$ DECLARE n int; BEGIN PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
                      COMMIT; RAISE EXCEPTION '%', format('%s', n); END $$);
SELECT pg_temp.why($$ DECLARE n int; BEGIN PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
                      BEGIN NULL; END; COMMIT; PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true); END $$);

-- the install script binds no name to an object of a schema another role can
-- create in: views and SQL-standard bodies bind their names as the script
-- runs, and it runs with the extension's schema and pg_prewarm's (public,
-- often) on its path.  A trojan planted first in public, of the exact types
-- fleet_reading and best use (text || bigint, format(text, text, numeric,
-- text)), then CREATE EXTENSION in a database of its own: no view or body of
-- the extension depends on anything outside pg_catalog and walpressure
CREATE DATABASE regress_wp_trap;
\c regress_wp_trap
CREATE FUNCTION public.trap_cat(text, bigint) RETURNS text LANGUAGE sql AS 'SELECT ''trojan''';
CREATE OPERATOR public.|| (LEFTARG = text, RIGHTARG = bigint, FUNCTION = public.trap_cat);
CREATE FUNCTION public.format(text, text, numeric, text) RETURNS text LANGUAGE sql AS 'SELECT ''trojan''';
CREATE EXTENSION walpressure CASCADE;
SELECT CASE d.classid WHEN 'pg_rewrite'::regclass THEN (SELECT r.ev_class::regclass::text FROM pg_rewrite r WHERE r.oid = d.objid)
                      ELSE d.objid::regprocedure::text END AS object,
       CASE d.refclassid WHEN 'pg_proc'::regclass THEN d.refobjid::regprocedure::text
                         WHEN 'pg_operator'::regclass THEN d.refobjid::regoperator::text
                         ELSE d.refobjid::regtype::text END AS depends_on
FROM pg_depend d
WHERE d.refclassid IN ('pg_proc'::regclass, 'pg_operator'::regclass, 'pg_type'::regclass)
  AND ((d.classid = 'pg_rewrite'::regclass
        AND (SELECT c.relnamespace FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class WHERE r.oid = d.objid)
            = 'walpressure'::regnamespace)
       OR (d.classid = 'pg_proc'::regclass
           AND (SELECT p.pronamespace FROM pg_proc p WHERE p.oid = d.objid) = 'walpressure'::regnamespace))
  AND coalesce((SELECT p.pronamespace FROM pg_proc p WHERE d.refclassid = 'pg_proc'::regclass AND p.oid = d.refobjid),
               (SELECT o.oprnamespace FROM pg_operator o WHERE d.refclassid = 'pg_operator'::regclass AND o.oid = d.refobjid),
               (SELECT t.typnamespace FROM pg_type t WHERE d.refclassid = 'pg_type'::regclass AND t.oid = d.refobjid))
      NOT IN ('pg_catalog'::regnamespace, 'walpressure'::regnamespace)
ORDER BY 1, 2;
\c contrib_regression
DROP DATABASE regress_wp_trap;
