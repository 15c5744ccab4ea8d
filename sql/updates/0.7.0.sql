-- 0.6.0 -> 0.7.0: the sources of every function and view kept once (sql/objects/); what
-- grant_sweeper gave each role, recorded for revoke_sweeper; searches (run_sweep's range,
-- search and resolution) and their rounds; each step's commit time (predict()).

CREATE TABLE sweeper_grants (
    grant_id bigserial PRIMARY KEY,
    role regrole NOT NULL,
    granted text NOT NULL,
    revoke text NOT NULL,
    granted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    granted_by name NOT NULL DEFAULT current_user
);

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

-- run_sweep's range, search and resolution (and vals now optional)
DROP FUNCTION IF EXISTS run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool,
                        text, text, "any", bool, text, text);
