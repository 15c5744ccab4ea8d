/* walpressure 0.2.0 -> 0.2.1: walpressure.samples lists the newest interval first */

\echo Use "ALTER EXTENSION walpressure UPDATE TO '0.2.1'" to load this file. \quit

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

COMMENT ON VIEW samples IS
'One row per walpressure.sample_interval, newest first: the activity of that interval and the waits at its end';
