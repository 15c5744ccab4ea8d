-- 0.6.0 -> 0.7.0: the sources of every function and view kept once (sql/objects/); what
-- grant_sweeper gave each role, recorded for revoke_sweeper; the fleet's tables.

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
-- over dblink (sql/objects/07_fleet.sql).  A server is a foreign server
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
