-- 0.4.0 -> 0.5.0: per-statement figures from pg_stat_statements.

-- The load's statements over each step's window.
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

