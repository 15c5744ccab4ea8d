--
-- Run against a server that does not preload walpressure: the extension
-- installs, and every function says what is missing.
--
\set SHOW_CONTEXT never
CREATE EXTENSION walpressure CASCADE;
SELECT * FROM walpressure.live;
SELECT * FROM walpressure.samples;
SELECT walpressure.reset();
SELECT walpressure.run_sweep('commit_delay', ARRAY['0']);
SELECT walpressure.cancel_sweep(1);
SELECT walpressure.init_pgbench(1);
SELECT walpressure.set_iops_cap(1000);
SELECT * FROM walpressure.iops_cap;
SELECT * FROM walpressure.probe_fsync();
-- the interval parameter exists in every session; the others need the preload
SHOW walpressure.sample_interval;
DROP EXTENSION walpressure;
