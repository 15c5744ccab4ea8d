-- 0.2.1 -> 0.3.0: advice against the current setting, one call to grant a sweeper, compare,
-- clean-up.
-- (Each version's drops say IF EXISTS: an update from an older release never made
-- the objects of the versions between.)

-- the swept setting's value at the start, the server's CPUs and disk, an
-- import's origin, rounds added until the answer is clear
ALTER TABLE sweeps ADD COLUMN current_value text, ADD COLUMN current_pos int, ADD COLUMN cpus int,
    ADD COLUMN wal_disk text, ADD COLUMN origin jsonb, ADD COLUMN auto_repeats bool NOT NULL DEFAULT false,
    ADD COLUMN budget interval, ADD COLUMN rounds_stop text;
-- when each second of a step ended
ALTER TABLE step_samples ADD COLUMN sample_time timestamptz;

-- run_sweep's arguments became "any" (vals, durations, repeats)
DROP FUNCTION IF EXISTS run_sweep(text, text[], int, interval, text, int, interval, int, jsonb, bool, text, bool,
                        bool, text, text);
DROP FUNCTION IF EXISTS _nice_ceiling(float8);
