--
-- Running a sweep: run_sweep, cancel_sweep, and where a running one is (progress).
--

-- Every argument is checked in C, as the caller, before anything starts;
-- the checked request goes to the coordinator as it is.  vals takes what
-- people type: ARRAY['0', '1000'], ARRAY[0, 1000], '{0,1000}'; duration and
-- warmup an interval ('60 s') or a number of seconds (60); repeats a number
-- of rounds or 'auto', and budget (an interval or seconds) the time the
-- rounds of repeats => 'auto' may take; rate (transactions per second,
-- pgbench's --rate) makes it an open loop, latency_limit (ms) counts late
-- transactions and skips those that would start later than it.  range
-- instead of vals: a search over '[low, high]' of a number setting, by the
-- resolution (a number, or text with a unit), search => 'golden' (or
-- 'auto', the default).
CREATE OR REPLACE FUNCTION run_sweep(
    setting text,
    vals "any" DEFAULT NULL::text[],
    clients int DEFAULT 10,
    duration "any" DEFAULT '60 s'::interval,
    workload text DEFAULT 'simple-update',
    iops_cap int DEFAULT NULL,
    warmup "any" DEFAULT '5 s'::interval,
    repeats "any" DEFAULT 1,
    settings jsonb DEFAULT '{}',
    prewarm bool DEFAULT true,
    label text DEFAULT NULL,
    wait bool DEFAULT true,
    accept_data_loss bool DEFAULT false,
    engine text DEFAULT 'pgbench',
    script text DEFAULT NULL,
    budget "any" DEFAULT NULL::interval,
    checkpoint bool DEFAULT true,
    on_standby_loss text DEFAULT 'stop',
    standby_conninfo text DEFAULT NULL,
    rate float8 DEFAULT NULL,
    latency_limit float8 DEFAULT NULL,
    range text DEFAULT NULL,
    search text DEFAULT NULL,
    resolution "any" DEFAULT NULL::text,
    disk text DEFAULT NULL,
    flush_floor_ms float8 DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'wp_run_sweep'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool, text, text, float8, float8, text, text, "any", text, float8) IS 'Run the load once per value of a setting (times the repeats, interleaved) and record every step.';

CREATE OR REPLACE FUNCTION cancel_sweep(sweep_id bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'wp_cancel_sweep'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION cancel_sweep(bigint) IS 'Stop a running sweep and wait until it has stopped; the steps it finished are kept.';

CREATE OR REPLACE FUNCTION progress_row(
    OUT pid int,
    OUT job text,
    OUT sweep_id bigint,
    OUT database text,
    OUT run_by text,
    OUT step int,
    OUT steps_total int,
    OUT steps_done int,
    OUT setting text,
    OUT value text,
    OUT repeat int,
    OUT phase text,
    OUT phase_seconds float8,
    OUT estimated_end timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'wp_progress'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION progress_row() IS 'The C function behind the progress view: the row of the job (sweep or init_pgbench) that runs now, or no row.';

CREATE OR REPLACE VIEW progress AS
SELECT pid, job, sweep_id, database, run_by, step, steps_total, steps_done,
       setting, value, repeat, phase, round(phase_seconds::numeric, 1) AS phase_seconds,
       estimated_end
FROM progress_row();

COMMENT ON VIEW progress IS 'The sweep or init_pgbench that runs now, in the manner of pg_stat_progress_*: no row when none runs.';
REVOKE ALL ON FUNCTION run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool, text, text, float8, float8, text, text, "any", text, float8) FROM PUBLIC;
REVOKE ALL ON FUNCTION cancel_sweep(bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION progress_row() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION progress_row() TO pg_monitor;

-- the tables and views of sweeps, for pg_monitor to read
GRANT SELECT ON sweeps, steps, step_samples, step_replication, search_rounds, results, progress TO pg_monitor;
