--
-- The disk: a cgroup write-IOPS cap, and what one WAL flush costs.
--

CREATE OR REPLACE FUNCTION set_iops_cap(write_iops int, read_iops int DEFAULT NULL, device text DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_set_iops_cap'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION set_iops_cap(int, int, text) IS
'Put every server process in walpressure.cgroup and cap the IOPS of the pg_wal disk (or device => ''MAJ:MIN'')';

CREATE OR REPLACE FUNCTION clear_iops_cap(device text DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME', 'wp_clear_iops_cap'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION clear_iops_cap(text) IS
'Remove the IOPS limits of the pg_wal disk (or device) from walpressure.cgroup';

CREATE OR REPLACE FUNCTION iops_cap_state(
    OUT mode text,
    OUT cgroup text,
    OUT device text,
    OUT write_iops bigint,
    OUT read_iops bigint,
    OUT processes_enrolled int,
    OUT server_processes int,
    OUT problem text)
AS 'MODULE_PATHNAME', 'wp_iops_cap_state'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

CREATE OR REPLACE VIEW iops_cap AS SELECT * FROM iops_cap_state();

COMMENT ON VIEW iops_cap IS
'The cgroup cap: mode (v1/v2), cgroup, the pg_wal disk, its limits (NULL: none), server processes enrolled, and what is wrong if it cannot be set';

CREATE OR REPLACE FUNCTION probe_fsync(
    duration interval DEFAULT '5 s',
    block_size int DEFAULT 8192,
    OUT ops bigint,
    OUT seconds float8,
    OUT ops_per_s float8,
    OUT latency_avg_ms float8,
    OUT latency_p50_ms float8,
    OUT latency_p99_ms float8,
    OUT commit_budget_per_s float8)
AS 'MODULE_PATHNAME', 'wp_probe_fsync'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION probe_fsync(interval, int) IS
'pg_test_fsync''s fdatasync test on a file in pg_wal, under the current cap: ops/s, latency, and the commit budget (1 / latency)';

REVOKE ALL ON FUNCTION set_iops_cap(int, int, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION clear_iops_cap(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION iops_cap_state() FROM PUBLIC;
REVOKE ALL ON FUNCTION probe_fsync(interval, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION iops_cap_state() TO pg_monitor;
GRANT SELECT ON iops_cap TO pg_monitor;
