-- 0.5.0 -> 0.6.0: sweeps on a primary with synchronous standbys.

-- live_figures gained columns: it and its view are made again
DROP VIEW IF EXISTS live;
DROP FUNCTION IF EXISTS live_figures();

-- what to do when the standby is lost, and the standby read
ALTER TABLE sweeps
    ADD COLUMN on_standby_loss text NOT NULL DEFAULT 'stop' CHECK (on_standby_loss IN ('stop', 'skip')),
    ADD COLUMN standby_conninfo text;
-- the sync-rep wait and the standby's own figures
ALTER TABLE steps
    ADD COLUMN syncrep_wait_pct float8,
    ADD COLUMN syncrep_wait_ms float8,
    ADD COLUMN standby_wal_mb_per_s float8,
    ADD COLUMN standby_wal_writes_per_s float8,
    ADD COLUMN standby_wal_fsyncs_per_s float8,
    ADD COLUMN standby_write_iops float8,
    ADD COLUMN standby_source text;

-- Each standby over each step's window, from its walsender each second.
CREATE TABLE step_replication (
    sweep_id bigint NOT NULL,
    step int NOT NULL,
    standby text NOT NULL,
    pid int NOT NULL,
    sync_state text NOT NULL,
    samples int NOT NULL,
    write_lag_ms_mean float8,
    write_lag_ms_max float8,
    flush_lag_ms_mean float8,
    flush_lag_ms_max float8,
    replay_lag_ms_mean float8,
    replay_lag_ms_max float8,
    behind_bytes_mean float8,
    behind_bytes_max float8,
    PRIMARY KEY (sweep_id, step, pid),
    FOREIGN KEY (sweep_id, step) REFERENCES steps ON DELETE CASCADE
);

COMMENT ON TABLE step_replication IS
'Each standby (walsender) over each step''s measured window, read once a second as pg_stat_replication shows it: standby is its application_name, sync_state at the window''s end (sync, quorum, potential, async; gone when its walsender ended in the window); write, flush and replay lag mean and max over the seconds it reported one; behind_bytes: WAL sent but not yet replayed';

-- run_sweep's on_standby_loss and standby_conninfo
DROP FUNCTION IF EXISTS run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool,
                        text, text, "any", bool);
