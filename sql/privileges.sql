--
-- Who may read and who may change: the views are for pg_monitor, reset()
-- for superusers only.
--
CREATE ROLE regress_wp_nobody;
CREATE ROLE regress_wp_monitor IN ROLE pg_monitor;

-- a role without grants can neither read nor reset
SET ROLE regress_wp_nobody;
SELECT walpressure.reset();
SELECT count(*) FROM walpressure.live;
RESET ROLE;

-- pg_monitor reads both views but cannot reset
SET ROLE regress_wp_monitor;
SELECT count(*) FROM walpressure.live;
SELECT count(*) >= 0 AS readable FROM walpressure.samples;
SELECT walpressure.reset();
RESET ROLE;

-- the functions behind the views are not for PUBLIC either
SELECT p.proname, p.proacl
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'walpressure'
ORDER BY p.proname;

DROP ROLE regress_wp_nobody;
DROP ROLE regress_wp_monitor;
