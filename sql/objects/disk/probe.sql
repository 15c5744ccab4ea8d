--
-- What one WAL flush costs: probe_fsync().
--

CREATE OR REPLACE FUNCTION probe_fsync(
    duration interval DEFAULT '5 s',
    block_size int DEFAULT 8192,
    OUT ops bigint,
    OUT seconds float8,
    OUT ops_per_s float8,
    OUT latency_avg_ms float8,
    OUT latency_p50_ms float8,
    OUT latency_p99_ms float8,
    OUT commit_budget_per_s float8,
    OUT disk text)
AS 'MODULE_PATHNAME', 'wp_probe_fsync'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION probe_fsync(interval, int) IS 'What one WAL flush costs on this disk, under the current cap: pg_test_fsync''s fdatasync test, on a file in pg_wal.';
REVOKE ALL ON FUNCTION probe_fsync(interval, int) FROM PUBLIC;
