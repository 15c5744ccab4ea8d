--
-- Experiments: sweeps, their steps and per-second samples.
--

CREATE TABLE sweeps (
    sweep_id bigserial PRIMARY KEY,
    label text,
    setting text NOT NULL,
    vals text[] NOT NULL,
    clients int NOT NULL,
    duration interval NOT NULL,
    workload text NOT NULL,
    iops_cap int,
    warmup interval NOT NULL,
    repeats int NOT NULL,
    settings jsonb NOT NULL DEFAULT '{}',
    prewarm bool NOT NULL,
    scale int,
    run_by name NOT NULL,
    database name NOT NULL,
    status text NOT NULL DEFAULT 'running'
        CHECK (status IN ('running', 'done', 'cancelled', 'failed', 'aborted')),
    steps_total int NOT NULL,
    steps_done int NOT NULL DEFAULT 0,
    error text,
    accept_data_loss bool NOT NULL DEFAULT false,
    engine text NOT NULL DEFAULT 'pgbench' CHECK (engine IN ('pgbench', 'backend')),
    script text,
    server_settings jsonb,
    server_originals jsonb,
    server_settings_restored text,
    server_version text NOT NULL DEFAULT current_setting('server_version'),
    walpressure_version text,
    started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at timestamptz,
    current_value text,
    current_pos int,
    cpus int,
    wal_disk text,
    origin jsonb,
    auto_repeats bool NOT NULL DEFAULT false,
    budget interval,
    rounds_stop text,
    checkpoint bool NOT NULL DEFAULT true,
    on_standby_loss text NOT NULL DEFAULT 'stop' CHECK (on_standby_loss IN ('stop', 'skip')),
    standby_conninfo text,
    rate float8,
    latency_limit_ms float8,
    f0_ms float8,
    f0_p50_ms float8,
    f0_p99_ms float8,
    f0_source text,
    threshold text,
    search text CHECK (search IN ('golden')),
    search_range text,
    search_resolution text,
    search_stop text,
    search_found int,
    disk text CHECK (disk IN ('paced', 'throttle')),
    flush_floor_ms float8
);

CREATE TABLE steps (
    sweep_id bigint NOT NULL REFERENCES sweeps ON DELETE CASCADE,
    step int NOT NULL,
    value text NOT NULL,
    value_pos int NOT NULL,
    repeat int NOT NULL,
    clients int NOT NULL,
    batch_size int,
    round_trip_us int NOT NULL,
    started_at timestamptz NOT NULL,
    seconds float8 NOT NULL,
    transactions bigint NOT NULL,
    retries bigint NOT NULL,
    tps float8 NOT NULL,
    rows_per_s float8,
    latency_avg_ms float8,
    latency_stddev_ms float8,
    latency_p50_ms float8,
    latency_p95_ms float8,
    latency_p99_ms float8,
    commits bigint NOT NULL,
    leaders bigint NOT NULL,
    wal_fsyncs bigint,
    commits_per_fsync float8,
    wal_fsyncs_per_s float8,
    fsync_avg_ms float8,
    fsync_p50_ms float8,
    fsync_p99_ms float8,
    wal_bytes bigint,
    wal_records bigint,
    wal_fpi bigint,
    fpi_pct float8,
    wal_buffers_full bigint,
    checkpoints_timed bigint,
    checkpoints_requested bigint,
    server_seconds float8 NOT NULL,
    iops_cap int,
    read_iops float8,
    write_iops float8,
    checkpoint_write_ms float8,
    checkpoint_sync_ms float8,
    data_loss text,
    discarded text,
    setup_s float8,
    client_cpu_s float8,
    server_cpu_s float8,
    wal_lsn_start pg_lsn,
    wal_lsn_end pg_lsn,
    fpi_bytes bigint,
    buffers_checkpoint bigint,
    buffers_clean bigint,
    buffers_backend bigint,
    buffers_backend_fsync bigint,
    syncrep_wait_pct float8,
    syncrep_wait_ms float8,
    standby_wal_mb_per_s float8,
    standby_wal_writes_per_s float8,
    standby_wal_fsyncs_per_s float8,
    standby_write_iops float8,
    standby_source text,
    latency_p999_ms float8,
    rate float8,
    rate_achieved float8,
    rate_sustained bool,
    lag_avg_ms float8,
    lag_p50_ms float8,
    lag_p99_ms float8,
    transactions_late bigint,
    transactions_skipped bigint,
    commit_avg_ms float8,
    commit_p99_ms float8,
    disk text CHECK (disk IN ('paced', 'throttle')),
    PRIMARY KEY (sweep_id, step)
);

CREATE TABLE step_samples (
    sweep_id bigint NOT NULL,
    step int NOT NULL,
    second int NOT NULL,
    tps float8 NOT NULL,
    latency_p50_ms float8,
    latency_p99_ms float8,
    commits bigint NOT NULL,
    wal_fsyncs bigint,
    wal_bytes bigint,
    sample_time timestamptz,
    PRIMARY KEY (sweep_id, step, second),
    FOREIGN KEY (sweep_id, step) REFERENCES steps ON DELETE CASCADE
);

-- The load's statements over each step's window, from pg_stat_statements.
CREATE TABLE step_statements (
    sweep_id bigint NOT NULL,
    step int NOT NULL,
    rank int NOT NULL,
    queryid bigint NOT NULL,
    query text NOT NULL,
    calls bigint NOT NULL,
    total_ms float8 NOT NULL,
    mean_ms float8 NOT NULL,
    stddev_ms float8 NOT NULL,
    rows bigint NOT NULL,
    wal_bytes bigint NOT NULL,
    PRIMARY KEY (sweep_id, step, rank),
    FOREIGN KEY (sweep_id, step) REFERENCES steps ON DELETE CASCADE
);

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

-- A search's rounds: what each ran and why, and what the rule said after it.
CREATE TABLE search_rounds (
    sweep_id bigint NOT NULL REFERENCES sweeps ON DELETE CASCADE,
    round int NOT NULL,
    pair int NOT NULL,
    low text NOT NULL,
    high text NOT NULL,
    vals text[] NOT NULL,
    why text NOT NULL,
    verdict text,
    decision text,
    PRIMARY KEY (sweep_id, round)
);

-- What grant_sweeper gave each role, so that revoke_sweeper takes back that
-- and nothing else.
CREATE TABLE sweeper_grants (
    grant_id bigserial PRIMARY KEY,
    role regrole NOT NULL,
    granted text NOT NULL,
    revoke text NOT NULL,
    granted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    granted_by name NOT NULL DEFAULT current_user
);

--
-- The fleet: servers this database starts sweeps on and gathers them from,
-- over dblink (sql/objects/fleet/).  A server is a foreign server
-- (CREATE SERVER) whose user mappings are the DBA's: no password is kept
-- here.
--

CREATE TABLE fleet_servers (
    server name PRIMARY KEY,
    system_identifier text,
    server_version text,
    walpressure_version text,
    answered_at timestamptz,
    registered_by name NOT NULL DEFAULT current_user,
    registered_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE fleet_runs (
    run_id bigserial PRIMARY KEY,
    sweep jsonb NOT NULL,
    servers name[] NOT NULL,
    lost_after interval NOT NULL,
    run_by name NOT NULL DEFAULT current_user,
    pid int NOT NULL DEFAULT pg_catalog.pg_backend_pid(),
    backend_start timestamptz,
    started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at timestamptz,
    status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'cancelled'))
);

CREATE TABLE fleet_members (
    run_id bigint NOT NULL REFERENCES fleet_runs ON DELETE CASCADE,
    server name NOT NULL,
    state text NOT NULL DEFAULT 'connecting'
        CHECK (state IN ('connecting', 'running', 'collecting', 'collected', 'unreachable', 'refused',
                         'failed', 'lost', 'cancelled')),
    cancel_requested bool NOT NULL DEFAULT false,
    system_identifier text,
    remote_pid int,
    remote_sweep_id bigint,
    sweep_status text,
    sweep_id bigint REFERENCES sweeps ON DELETE SET NULL,
    step int,
    steps_done int,
    steps_total int,
    value text,
    phase text,
    estimated_end timestamptz,
    detail text,
    started_at timestamptz,
    last_heard timestamptz,
    ended_at timestamptz,
    PRIMARY KEY (run_id, server)
);

CREATE TABLE fleet_sweeps (
    server name NOT NULL,
    remote_sweep_id bigint NOT NULL,
    remote_started_at timestamptz NOT NULL,
    system_identifier text NOT NULL,
    sweep_id bigint NOT NULL UNIQUE REFERENCES sweeps ON DELETE CASCADE,
    run_id bigint REFERENCES fleet_runs ON DELETE SET NULL,
    collected_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (server, remote_sweep_id)
);
