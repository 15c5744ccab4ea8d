--
-- The live instruments: the probe and the sampler, read without a sweep (live, samples), and reset().
--

CREATE OR REPLACE FUNCTION live_figures(
    OUT period text,
    OUT since timestamptz,
    OUT seconds float8,
    OUT commits bigint,
    OUT commits_per_s float8,
    OUT wal_fsyncs bigint,
    OUT wal_fsyncs_per_s float8,
    OUT leader_fsyncs bigint,
    OUT commits_per_fsync float8,
    OUT leader_pct float8,
    OUT fsync_avg_ms float8,
    OUT fsync_p50_ms float8,
    OUT fsync_p99_ms float8,
    OUT commit_avg_ms float8,
    OUT commit_p50_ms float8,
    OUT commit_p99_ms float8,
    OUT wal_mb_per_s float8,
    OUT fpi_pct float8,
    OUT wal_buffers_full_per_s float8,
    OUT syncrep_wait_pct float8,
    OUT syncrep_wait_ms float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'wp_live_figures'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION live_figures() IS 'The C function behind the live view: the same two rows, unrounded (float8).';

CREATE OR REPLACE VIEW live AS
SELECT period,
       since,
       round(seconds::numeric, 1) AS seconds,
       commits,
       round(commits_per_s::numeric, 1) AS commits_per_s,
       wal_fsyncs,
       round(wal_fsyncs_per_s::numeric, 1) AS wal_fsyncs_per_s,
       leader_fsyncs,
       round(commits_per_fsync::numeric, 2) AS commits_per_fsync,
       round(leader_pct::numeric, 1) AS leader_pct,
       round(fsync_avg_ms::numeric, 3) AS fsync_avg_ms,
       round(fsync_p50_ms::numeric, 3) AS fsync_p50_ms,
       round(fsync_p99_ms::numeric, 3) AS fsync_p99_ms,
       round(commit_avg_ms::numeric, 3) AS commit_avg_ms,
       round(commit_p50_ms::numeric, 3) AS commit_p50_ms,
       round(commit_p99_ms::numeric, 3) AS commit_p99_ms,
       round(wal_mb_per_s::numeric, 2) AS wal_mb_per_s,
       round(fpi_pct::numeric, 1) AS fpi_pct,
       round(wal_buffers_full_per_s::numeric, 2) AS wal_buffers_full_per_s,
       round(syncrep_wait_pct::numeric, 1) AS syncrep_wait_pct,
       round(syncrep_wait_ms::numeric, 3) AS syncrep_wait_ms
FROM live_figures();

COMMENT ON VIEW live IS 'How this server flushes its WAL, measured by the commit probe and the sampler: one row since reset() (or the server''s start) and one over the last 60 seconds.';

CREATE OR REPLACE FUNCTION sample_rows(
    OUT sample_time timestamptz,
    OUT seconds float8,
    OUT commits bigint,
    OUT leaders bigint,
    OUT wal_fsyncs bigint,
    OUT wal_writes bigint,
    OUT commits_per_fsync float8,
    OUT wal_records bigint,
    OUT wal_fpi bigint,
    OUT wal_bytes bigint,
    OUT wal_buffers_full bigint,
    OUT commit_p50_ms float8,
    OUT commit_p99_ms float8,
    OUT fsync_p50_ms float8,
    OUT fsync_p99_ms float8,
    OUT insert_lsn pg_lsn,
    OUT flush_lsn pg_lsn,
    OUT checkpoints_timed bigint,
    OUT checkpoints_requested bigint,
    OUT waiting_walwrite_lock int,
    OUT waiting_wal_sync int,
    OUT waiting_wal_write int,
    OUT waiting_other int,
    OUT read_iops float8,
    OUT write_iops float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'wp_sample_rows'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION sample_rows() IS 'The C function behind the samples view: the sampler''s ring, one row per interval, unrounded, oldest first.';

CREATE OR REPLACE VIEW samples AS
SELECT sample_time,
       round(seconds::numeric, 3) AS seconds,
       commits,
       leaders,
       wal_fsyncs,
       wal_writes,
       round(commits_per_fsync::numeric, 2) AS commits_per_fsync,
       wal_records,
       wal_fpi,
       wal_bytes,
       wal_buffers_full,
       round(commit_p50_ms::numeric, 3) AS commit_p50_ms,
       round(commit_p99_ms::numeric, 3) AS commit_p99_ms,
       round(fsync_p50_ms::numeric, 3) AS fsync_p50_ms,
       round(fsync_p99_ms::numeric, 3) AS fsync_p99_ms,
       insert_lsn,
       flush_lsn,
       checkpoints_timed,
       checkpoints_requested,
       waiting_walwrite_lock,
       waiting_wal_sync,
       waiting_wal_write,
       waiting_other,
       round(read_iops::numeric) AS read_iops,
       round(write_iops::numeric) AS write_iops
FROM sample_rows()
ORDER BY sample_time DESC;

COMMENT ON VIEW samples IS 'The sampler''s history, newest first: one row per walpressure.sample_interval, with what happened in that interval and what was waiting at its end.';

CREATE OR REPLACE FUNCTION reset()
RETURNS void
AS 'MODULE_PATHNAME', 'wp_reset'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION reset() IS 'Start live and samples afresh from now.';

--
-- Privileges: reading is for pg_monitor, changing is for superusers.
--

GRANT USAGE ON SCHEMA walpressure TO pg_monitor;
REVOKE ALL ON FUNCTION live_figures() FROM PUBLIC;
REVOKE ALL ON FUNCTION sample_rows() FROM PUBLIC;
REVOKE ALL ON FUNCTION reset() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION live_figures() TO pg_monitor;
GRANT EXECUTE ON FUNCTION sample_rows() TO pg_monitor;
GRANT SELECT ON live, samples TO pg_monitor;
-- the load's statement texts: pg_stat_statements shows another role's only
-- to pg_read_all_stats, and so do these
GRANT USAGE ON SCHEMA walpressure TO pg_read_all_stats;
