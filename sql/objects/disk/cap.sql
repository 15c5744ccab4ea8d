--
-- The disk: a write-IOPS cap on pg_wal's disk, as the paced disk (every
-- write IO and flush its share of the cap, in arrival order: a volume) or
-- the cgroup's throttle (a 100 ms slice's IOs at once, then a stall), and
-- the view of it.
--

CREATE OR REPLACE FUNCTION set_iops_cap(write_iops int, read_iops int DEFAULT NULL, device text DEFAULT NULL,
                                        disk text DEFAULT NULL, flush_floor_ms float8 DEFAULT NULL,
                                        burst int DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_set_iops_cap'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION set_iops_cap(int, int, text, text, float8, int) IS 'Cap pg_wal''s disk at write_iops: disk => ''paced'' (the default where the server was started with walpressure_pacer.so: every write IO and flush of pg_wal''s filesystem costs its share of the cap, in arrival order, a flush taking at least flush_floor_ms, burst IOs lent after an idle time) or ''throttle'' (every server process in walpressure.cgroup, the device''s IOPS limited by the cgroup''s blk-throttle: a 100 ms slice''s IOs at once, then a stall; read_iops and device => ''MAJ:MIN'' are the throttle''s); one at a time';

CREATE OR REPLACE FUNCTION clear_iops_cap(device text DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_clear_iops_cap'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION clear_iops_cap(text) IS 'Remove the cap: the paced disk off, and the throttle''s limits of the pg_wal disk (or device) removed from walpressure.cgroup';

CREATE OR REPLACE FUNCTION iops_cap_state(
    OUT mode text,
    OUT cgroup text,
    OUT device text,
    OUT write_iops bigint,
    OUT read_iops bigint,
    OUT processes_enrolled int,
    OUT server_processes int,
    OUT problem text,
    OUT disk text,
    OUT flush_floor_ms float8,
    OUT burst int,
    OUT pacer text)
AS 'MODULE_PATHNAME', 'wp_iops_cap_state'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

CREATE OR REPLACE VIEW iops_cap AS SELECT * FROM iops_cap_state();

COMMENT ON VIEW iops_cap IS 'The cap in force: disk (paced, throttle, NULL: none) and its write_iops (with the throttle, read_iops; with the paced disk, flush_floor_ms and burst); the cgroup''s mode (v1/v2), name, the pg_wal disk, server processes enrolled, and what keeps the throttle from being set (problem); pacer: whether the server was started with walpressure_pacer.so, or how to start it so';

REVOKE ALL ON FUNCTION set_iops_cap(int, int, text, text, float8, int) FROM PUBLIC;
REVOKE ALL ON FUNCTION clear_iops_cap(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION iops_cap_state() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION iops_cap_state() TO pg_monitor;
GRANT SELECT ON iops_cap TO pg_monitor;
