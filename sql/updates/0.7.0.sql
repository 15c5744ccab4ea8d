-- 0.6.0 -> 0.7.0: the sources of every function and view kept once (sql/objects/); what
-- grant_sweeper gave each role, recorded for revoke_sweeper; searches (run_sweep's range,
-- search and resolution) and their rounds; each step's commit time (predict()); the open
-- loop (run_sweep's rate and latency_limit, each step's rate, lag and tail, the flush cost F0).

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
    ADD COLUMN search_stop text;
-- the commits' own time (the probe's), which predict() reads
ALTER TABLE steps
    ADD COLUMN commit_avg_ms float8,
    ADD COLUMN commit_p99_ms float8;

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

