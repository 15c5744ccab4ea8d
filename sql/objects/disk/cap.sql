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

COMMENT ON FUNCTION set_iops_cap(int, int, text, text, float8, int) IS 'Cap the write IOPS of the disk holding pg_wal, as the paced disk (every write IO and flush its share of the cap, in arrival order: a volume) or the cgroup''s throttle (every server process put in the cgroup walpressure.cgroup names; a 100 ms slice''s IOs at once, then a stall).';

CREATE OR REPLACE FUNCTION clear_iops_cap(device text DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_clear_iops_cap'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION clear_iops_cap(text) IS 'Remove the IOPS limits of the pg_wal disk (or of a device) from the cgroup walpressure.cgroup names.';

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

COMMENT ON FUNCTION iops_cap_state() IS 'The C function behind the iops_cap view: the cap''s state (the paced disk''s and the cgroup''s), one row, never an error.';

CREATE OR REPLACE VIEW iops_cap AS SELECT * FROM iops_cap_state();

COMMENT ON VIEW iops_cap IS 'The disk cap: the disk in force (paced or the throttle) and its limits; the cgroup mode, the cgroup, the pg_wal disk, the server processes enrolled, and what is wrong if the throttle cannot be set; whether the server has the pacer.';

REVOKE ALL ON FUNCTION set_iops_cap(int, int, text, text, float8, int) FROM PUBLIC;
REVOKE ALL ON FUNCTION clear_iops_cap(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION iops_cap_state() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION iops_cap_state() TO pg_monitor;
GRANT SELECT ON iops_cap TO pg_monitor;
