-- 0.6.0 -> 0.7.0: the sources of every function and view kept once (sql/objects/); what
-- grant_sweeper gave each role, recorded for revoke_sweeper; searches (run_sweep's range,
-- search and resolution) and their rounds; each step's commit time (predict()); the open
-- loop (run_sweep's rate and latency_limit, each step's rate, lag and tail, the flush cost F0);
-- the fleet's tables.

CREATE TABLE sweeper_grants (
    grant_id bigserial PRIMARY KEY,
    role regrole NOT NULL,
    granted text NOT NULL,
    revoke text NOT NULL,
    granted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    granted_by name NOT NULL DEFAULT current_user
);

-- run_sweep gains rate and latency_limit (the open loop), then range, search and
-- resolution (a search; vals now optional) at its end
DROP FUNCTION IF EXISTS run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool,
                                  text, text, "any", bool, text, text);

-- the open loop: the rate asked, the flush cost F0 measured before step 1
ALTER TABLE sweeps
    ADD COLUMN rate float8,
    ADD COLUMN latency_limit_ms float8,
    ADD COLUMN f0_ms float8,
    ADD COLUMN f0_p50_ms float8,
    ADD COLUMN f0_p99_ms float8,
    ADD COLUMN f0_source text,
    ADD COLUMN threshold text;

-- the tail, and each open-loop step's rate, lag, late and skipped
ALTER TABLE steps
    ADD COLUMN latency_p999_ms float8,
    ADD COLUMN rate float8,
    ADD COLUMN rate_achieved float8,
    ADD COLUMN rate_sustained bool,
    ADD COLUMN lag_avg_ms float8,
    ADD COLUMN lag_p50_ms float8,
    ADD COLUMN lag_p99_ms float8,
    ADD COLUMN transactions_late bigint,
    ADD COLUMN transactions_skipped bigint;

-- a search over a range of a setting instead of a list of values
ALTER TABLE sweeps
    ADD COLUMN search text CHECK (search IN ('golden')),
    ADD COLUMN search_range text,
    ADD COLUMN search_resolution text,
    ADD COLUMN search_stop text,
    ADD COLUMN search_found int;
-- the commits' own time (the probe's), which predict() reads
ALTER TABLE steps
    ADD COLUMN commit_avg_ms float8,
    ADD COLUMN commit_p99_ms float8;

-- the disk a cap stands for: the paced disk or the cgroup's throttle
ALTER TABLE sweeps
    ADD COLUMN disk text CHECK (disk IN ('paced', 'throttle')),
    ADD COLUMN flush_floor_ms float8;
ALTER TABLE steps
    ADD COLUMN disk text CHECK (disk IN ('paced', 'throttle'));
-- earlier sweeps' caps were all the throttle's
UPDATE sweeps SET disk = 'throttle' WHERE iops_cap IS NOT NULL OR setting = 'iops_cap';
UPDATE steps SET disk = 'throttle' WHERE iops_cap IS NOT NULL;
DROP VIEW IF EXISTS iops_cap;
DROP FUNCTION IF EXISTS iops_cap_state();
DROP FUNCTION IF EXISTS set_iops_cap(int, int, text);
DROP FUNCTION IF EXISTS probe_fsync(interval, int);
-- import()'s check that a document is an export() is C's now (api/import_check.c)
DROP FUNCTION IF EXISTS _is_export(jsonb);
-- the fleet's writes of a run's rows, of what a server answered and of a
-- gathered sweep are statements of src/api/fleet_rows.c now, as the owner
DROP FUNCTION IF EXISTS _fleet_write_run(bigint, jsonb, text[], interval, name, int, timestamptz);
DROP FUNCTION IF EXISTS _fleet_write_cancel(bigint, text[]);
DROP FUNCTION IF EXISTS _fleet_write_member(bigint, text, jsonb);
DROP FUNCTION IF EXISTS _fleet_write_run_end(bigint, text);
DROP FUNCTION IF EXISTS _fleet_write_answered(text, jsonb);
DROP FUNCTION IF EXISTS _fleet_write_sweep(text, bigint, bigint, jsonb);

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
