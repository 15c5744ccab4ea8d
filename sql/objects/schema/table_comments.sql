--
-- What the tables are: their comments, what pg_dump keeps, who reads them (the DDL is sql/tables.sql).
--

COMMENT ON TABLE sweeps IS 'One row per run_sweep call (or import): its arguments, the server''s settings at its start, its status and progress.';
COMMENT ON COLUMN sweeps.engine IS 'what ran the load: pgbench (this server''s pgbench over its Unix socket, as the caller) or backend (in-server client workers)';
COMMENT ON COLUMN sweeps.script IS 'the pgbench script the sweep ran (run_sweep''s script argument), NULL for the others';
COMMENT ON COLUMN sweeps.server_originals IS 'the server-wide settings the sweep changed, as they were before its first change, and whether postgresql.auto.conf set them';
COMMENT ON COLUMN sweeps.current_value IS 'the swept setting''s value when the sweep started, as a new session of the role that ran it gets it (NULL: the load, not a setting): what best and results compare against';
COMMENT ON COLUMN sweeps.current_pos IS 'the position in vals of the value that means current_value (''200ms'' and ''200'' alike), NULL when none does';
COMMENT ON COLUMN sweeps.checkpoint IS 'whether each step started with a CHECKPOINT (run_sweep''s checkpoint): false, the checkpoints came as the server''s settings brought them, their writes through the cap';
COMMENT ON COLUMN sweeps.on_standby_loss IS 'what the sweep did when a step''s synchronous standby was lost: stop (the sweep failed after recording that step, marked) or skip (it went on; steps that needed the standby while it was not there were not run)';
COMMENT ON COLUMN sweeps.standby_conninfo IS 'run_sweep''s standby_conninfo without its password: the standby each step read its own WAL figures from';
COMMENT ON COLUMN sweeps.cpus IS 'CPUs online on the server when the sweep started';
COMMENT ON COLUMN sweeps.wal_disk IS 'the disk pg_wal was on when the sweep started: MAJ:MIN, its name, rotational or not';
COMMENT ON COLUMN sweeps.origin IS 'for a sweep brought in with import(): the server it ran on (system identifier, version, CPUs, disk, settings), its id there and when it was exported; NULL for a sweep that ran here';
COMMENT ON COLUMN sweeps.auto_repeats IS 'repeats => ''auto'' or a budget: rounds were added one at a time (repeats is then the fewest) until the answer was clear';
COMMENT ON COLUMN sweeps.budget IS 'the time the rounds of an auto-repeats sweep could take';
COMMENT ON COLUMN sweeps.rounds_stop IS 'why an auto-repeats sweep stopped adding rounds: decided (the value with the most tps is faster than every other, paired 95% intervals), equivalent (every value that cannot be told from it is the same within the equivalence margin the sweep ran with), the budget, or the most rounds';
COMMENT ON COLUMN sweeps.server_settings_restored IS 'how the server-wide settings were put back when the sweep ended (NULL: it changed none)';

COMMENT ON COLUMN steps.syncrep_wait_pct IS 'share of the window''s commit time spent waiting for synchronous standbys (IPC:SyncRep, timed by the sampler every millisecond, over the commit time the probe measured); NULL when the server had no walsender and nothing waited';
COMMENT ON COLUMN steps.syncrep_wait_ms IS 'time waiting for synchronous standbys per commit of the window';
COMMENT ON COLUMN steps.standby_wal_mb_per_s IS 'with standby_conninfo: WAL the standby received and flushed per second over the window (pg_last_wal_receive_lsn at its edges, the standby''s clock); NULL when it could not be read';
COMMENT ON COLUMN steps.standby_wal_fsyncs_per_s IS 'with standby_conninfo: the standby''s WAL fsyncs per second over the window (standby_wal_writes_per_s: its WAL writes), from its walpressure sampler when it preloads walpressure (standby_source = walpressure, with standby_write_iops from its disk: the cgroup''s counters when it is in walpressure.cgroup, /proc/diskstats otherwise), else from its pg_stat_wal (pg_stat_io from 18).  Both count what the standby''s statistics count, and the WAL receiver''s own writes and fsyncs are not among them (they read 0 on 15 and 18 in test/t/014_standby.pl): standby_write_iops and standby_wal_mb_per_s show its disk''s load';

COMMENT ON COLUMN steps.buffers_backend IS 'data-file buffers written over the window by processes other than the checkpointer and the background writer (backends, pgbench''s connections, autovacuum): pg_stat_bgwriter.buffers_backend before 17, pg_stat_io from 17; buffers_checkpoint and buffers_clean: by the checkpointer and the background writer; buffers_backend_fsync: fsyncs those processes did themselves; NULL when those statistics were reset in the window';
COMMENT ON COLUMN steps.fpi_bytes IS 'bytes of full-page images in the WAL records of the window (wal_lsn_start to wal_lsn_end), read from the server''s WAL as pg_walinspect''s pg_get_wal_stats counts them (after compression, without holes); NULL when that WAL was already removed';

COMMENT ON TABLE steps IS 'One row per value x round of a sweep: the measured window''s figures. Committed when the step ends, in a transaction of its own: a crash or cancel loses only the step in flight.';
COMMENT ON COLUMN steps.round_trip_us IS 'the emulated client round trip each client waited before each statement (BEGIN, queries, COMMIT)';
COMMENT ON COLUMN steps.seconds IS 'length of the measured window (tps and latency cover it)';
COMMENT ON COLUMN steps.write_iops IS 'writes per second to the pg_wal disk over the window: on the paced disk the IOs it charged, under the throttle the cgroup''s counters, /proc/diskstats (the whole disk) otherwise';
COMMENT ON COLUMN steps.disk IS 'the disk the step''s cap stood for: paced (every write IO and flush its share of the cap, in arrival order, walpressure_pacer.so) or throttle (the cgroup''s blk-throttle: a 100 ms slice''s IOs at once, then a stall); NULL without a cap';
COMMENT ON COLUMN sweeps.disk IS 'the disk the sweep''s cap stood for (run_sweep''s disk, or what it defaulted to): paced or throttle; NULL without a cap; a sweep of disk has each step''s in steps.disk';
COMMENT ON COLUMN sweeps.flush_floor_ms IS 'the paced disk''s least flush time the sweep ran with (run_sweep''s flush_floor_ms); NULL unless a step ran on the paced disk';
COMMENT ON COLUMN steps.checkpoint_write_ms IS 'time the checkpoints completed in the window spent writing buffers (pg_stat_bgwriter.checkpoint_write_time)';
COMMENT ON COLUMN steps.checkpoint_sync_ms IS 'time the checkpoints completed in the window spent in fsync (pg_stat_bgwriter.checkpoint_sync_time)';
COMMENT ON COLUMN steps.data_loss IS 'the step''s settings that can lose data in a crash: fsync=off, full_page_writes=off (corruption), synchronous_commit=off (the last commits); NULL: none';
COMMENT ON COLUMN steps.discarded IS 'why the step is left out of results, best, report and plot: pgbench lost clients, ended early or was killed (in pgbench''s own words), or the server''s statistics were reset during the window (the figures taken from them are then NULL); what else it measured is kept; NULL: the step counts';
COMMENT ON COLUMN steps.setup_s IS 'seconds from the step''s start to its load''s start: the server-wide value put in effect, the step''s CHECKPOINT, the cap';
COMMENT ON COLUMN steps.client_cpu_s IS 'CPU seconds (user + system, all threads) pgbench spent over the measured window; NULL with the backend engine, whose clients are server processes';
COMMENT ON COLUMN steps.server_cpu_s IS 'CPU seconds the server''s processes (postmaster, backends, workers, auxiliary processes) spent over the measured window';
COMMENT ON COLUMN steps.wal_lsn_start IS 'WAL insert position at the window''s start; with wal_lsn_end, what pg_waldump --stats reads to show what the step''s WAL was made of';
COMMENT ON COLUMN steps.wal_lsn_end IS 'WAL insert position at the window''s end (the end of server_seconds)';
COMMENT ON COLUMN steps.server_seconds IS 'window start to the clients'' exit: what the server-side figures (commits, WAL, fsyncs) cover';

COMMENT ON COLUMN steps.commit_avg_ms IS 'the mean time of the window''s commits from the start of the commit to its end, as the probe timed it in every backend (the WAL flush the commit waited for, commit_delay, the commit record): what predict() takes as the time a transaction waits for its flush; commit_p99_ms: the 99th percentile (NULL for steps recorded before walpressure 0.7.0)';

COMMENT ON TABLE step_samples IS 'Each second of each step''s measured window.';

COMMENT ON COLUMN step_samples.sample_time IS 'when the second ended (NULL for samples recorded before walpressure 0.3.0)';

COMMENT ON TABLE step_statements IS 'The load''s statements over each step''s measured window, from pg_stat_statements: the 10 that took the most time, run by the sweep''s role at top level.';

COMMENT ON TABLE step_replication IS 'Each standby (walsender) over each step''s measured window, read once a second as pg_stat_replication shows it.';

COMMENT ON COLUMN sweeps.search IS 'golden for a sweep run with range => (a search: its values chosen as its rounds came in), NULL for one that ran the values of vals';
COMMENT ON COLUMN sweeps.search_range IS 'the range a search chose its values in, as [low, high] in the setting''s base unit (what a bare number of it means); vals holds the current value (the baseline, in each pair''s first round) and then the range''s values by search_resolution';
COMMENT ON COLUMN sweeps.search_resolution IS 'the step between two values a search could choose (run_sweep''s resolution; by default a twentieth of the range, at least the setting''s own step)';
COMMENT ON COLUMN sweeps.search_stop IS 'why a search stopped (the resolution: no value left to try; flat: the pair the same within the margin; no round measured both of the pair; the budget: its steps, as many as the range has values and at least two pairs'' fewest rounds, or run_sweep''s budget of time) and the value it found, with its tps against the baseline';
COMMENT ON COLUMN sweeps.search_found IS 'the value a search found, as its position in vals (from 1; what best starts from): the better of its last pair, by the rule or, where the rule could not order the two, by the point estimate of the pair''s rounds';

COMMENT ON TABLE search_rounds IS 'Each round of a search (run_sweep with range =>): the values it ran, why, what the rule said after it and what the search did.';

COMMENT ON TABLE sweeper_grants IS 'Each GRANT grant_sweeper() gave a role (only those the role did not hold already) and the REVOKE that takes it back: revoke_sweeper() runs those and deletes the rows.';

SELECT pg_catalog.pg_extension_config_dump('sweeps', '');
SELECT pg_catalog.pg_extension_config_dump('sweeps_sweep_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('steps', '');
SELECT pg_catalog.pg_extension_config_dump('step_samples', '');
SELECT pg_catalog.pg_extension_config_dump('step_statements', '');
SELECT pg_catalog.pg_extension_config_dump('step_replication', '');
SELECT pg_catalog.pg_extension_config_dump('search_rounds', '');
SELECT pg_catalog.pg_extension_config_dump('sweeper_grants', '');
SELECT pg_catalog.pg_extension_config_dump('sweeper_grants_grant_id_seq', '');
