--
-- predict()'s model: the closed loop with group commit (C), the flush's floor, what a sweep ran with.
--
-- Each of a sweep's N clients runs a transaction and waits for the WAL
-- flush that carries its commit: CPU time (a queue on the CPUs, by
-- mean-value analysis: src/sweep/mva.c), the commit's wait for its flush
-- (flushes in cycles of commit_delay and the flush's cost, a commit riding
-- the cycle it arrives in or waiting for the next: src/sweep/group_commit.c)
-- and the rest, fitted to each step's tps and commit time
-- (steps.commit_avg_ms); at another cap the flush's cost follows the cap
-- down to the disk's own.  Each round predicts; their geometric mean and a
-- 95% interval across the rounds are returned (widened by the model's
-- error, _predict_interval).  docs/reference/predict.md derives it, its
-- bounds and where it fails.
--

-- _commit_model (C, api/predict.c over sweep/group_commit.c): the loop
-- fitted to one step (its clients, tps, commit time, CPU demand on its
-- CPUs, commit_delay in effect, a flush's cost), run with new_clients and
-- a flush costing new_flush_s.
CREATE OR REPLACE FUNCTION _commit_model(clients int, tps float8, commit_s float8, cpu_demand float8,
                                         cpus float8, delay_s float8, flush_s float8, new_clients int,
                                         new_flush_s float8,
                                         OUT tps float8, OUT commit_s float8, OUT cpu_s float8,
                                         OUT busy float8, OUT flushes_per_s float8, OUT fitted bool)
AS 'MODULE_PATHNAME', 'wp_commit_model'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The disk's own time for a WAL flush, as a sweep saw it: the shortest
-- flush (steps.fsync_avg_ms, the leaders' fdatasync) among the steps whose
-- flushes did not wait for the cap (under half of what the cap makes a
-- flush of the sweep's write IOs take: commit_delay's sleep, or the
-- commits' pace, left the cap's tokens unspent).  NULL when every flush of
-- the sweep waited for the cap: the disk's own time was not seen.
CREATE OR REPLACE FUNCTION _flush_floor(sweep_id bigint)
RETURNS float8
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT min(x.fsync_avg_ms) / 1000
    FROM walpressure.steps x
    WHERE x.sweep_id = $1 AND x.discarded IS NULL AND x.fsync_avg_ms > 0 AND x.iops_cap IS NOT NULL
      AND x.wal_fsyncs_per_s > 0 AND x.write_iops > 0
      AND x.fsync_avg_ms / 1000 < 0.5 * (x.write_iops / x.wal_fsyncs_per_s) / nullif(x.iops_cap, 0)
$$;

-- The setting `name` in effect for value `val` of sweep `s`: the value's own
-- (the setting swept, or a key of a configuration's value), else the one the
-- sweep fixed (settings), else the server's when the sweep began; NULL when
-- none says.
CREATE OR REPLACE FUNCTION _in_effect(s walpressure.sweeps, val text, name text)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(CASE WHEN s.setting = name THEN val
                         WHEN s.setting = 'settings' THEN val::jsonb ->> name END,
                    s.settings ->> name, s.server_settings ->> name)
$$;
