--
-- predict()'s model: the closed loop's MVA (C), the flush's floor, what a sweep ran with.
--
-- Each of a sweep's N clients runs a transaction and waits for the WAL
-- flush that carries its commit: CPU time (a queue on the CPUs), the flush
-- (a queue: one at a time, its time shared by the g commits it carries) and
-- a delay, solved by mean-value analysis (src/sweep/mva.c) and fitted to
-- each step's tps and commit time (steps.commit_avg_ms); at another cap the
-- flush's period follows the cap, above the measured cap down to a floor.
-- Each round predicts; their geometric mean and a 95% interval across the
-- rounds are returned (widened by the model's error, _predict_interval).
-- docs/reference/predict.md derives it, its bounds and where it fails.
--

-- _mva_predict (C, api/predict.c over sweep/mva.c): the network fitted to
-- one step, run with new_clients and its flush demand scaled, or where the
-- disk binds at flush_tps (a flush that never idles), unless the network
-- with the flush at flush_floor (a commit's share of a flush without the
-- cap) gives less.
CREATE OR REPLACE FUNCTION _mva_predict(clients int, tps float8, commit_s float8, cpu_demand float8,
                                        cpus float8, flush_scale float8, new_clients int, flush_tps float8,
                                        flush_floor float8,
                                        OUT tps float8, OUT commit_s float8, OUT flush_util float8,
                                        OUT new_flush_util float8, OUT delay_s float8, OUT fitted bool)
AS 'MODULE_PATHNAME', 'wp_mva_predict'
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
