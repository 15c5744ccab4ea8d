-- The sweep tables and views: columns, keys, dump, run_sweep's signature.
BEGIN;
SELECT plan(105);

SELECT has_table('walpressure', 'sweeps', 'table sweeps');
SELECT has_table('walpressure', 'steps', 'table steps');
SELECT has_table('walpressure', 'step_samples', 'table step_samples');
SELECT has_view('walpressure', 'results', 'view results');
SELECT has_table('walpressure', 'step_statements', 'table step_statements');
SELECT col_is_pk('walpressure', 'step_statements', ARRAY['sweep_id', 'step', 'rank'], 'step_statements: primary key (sweep_id, step, rank)');
SELECT fk_ok('walpressure', 'step_statements', ARRAY['sweep_id', 'step'], 'walpressure', 'steps', ARRAY['sweep_id', 'step']);
SELECT columns_are('walpressure', 'step_statements', ARRAY[
    'sweep_id', 'step', 'rank', 'queryid', 'query', 'calls', 'total_ms', 'mean_ms', 'stddev_ms',
    'rows', 'wal_bytes']);
SELECT has_table('walpressure', 'step_replication', 'table step_replication');
SELECT col_is_pk('walpressure', 'step_replication', ARRAY['sweep_id', 'step', 'pid'], 'step_replication: primary key (sweep_id, step, pid)');
SELECT fk_ok('walpressure', 'step_replication', ARRAY['sweep_id', 'step'], 'walpressure', 'steps', ARRAY['sweep_id', 'step']);
SELECT columns_are('walpressure', 'step_replication', ARRAY[
    'sweep_id', 'step', 'standby', 'pid', 'sync_state', 'samples', 'write_lag_ms_mean', 'write_lag_ms_max',
    'flush_lag_ms_mean', 'flush_lag_ms_max', 'replay_lag_ms_mean', 'replay_lag_ms_max',
    'behind_bytes_mean', 'behind_bytes_max']);
SELECT columns_are('walpressure', 'statements', ARRAY[
    'sweep_id', 'label', 'value', 'value_pos', 'rank', 'queryid', 'query', 'steps', 'calls_per_s',
    'mean_ms', 'mean_ci_low_ms', 'mean_ci_high_ms', 'stddev_ms', 'mean_change_pct',
    'stddev_change_pct', 'rows_per_call', 'wal_bytes_per_call', 'time_pct']);

SELECT col_is_pk('walpressure', 'sweeps', 'sweep_id', 'sweeps: primary key sweep_id');
SELECT col_is_pk('walpressure', 'steps', ARRAY['sweep_id', 'step'], 'steps: primary key (sweep_id, step)');
SELECT col_is_pk('walpressure', 'step_samples', ARRAY['sweep_id', 'step', 'second'], 'step_samples: primary key (sweep_id, step, second)');
SELECT fk_ok('walpressure', 'steps', 'sweep_id', 'walpressure', 'sweeps', 'sweep_id');

SELECT col_has_check('walpressure', 'sweeps', 'status', 'sweeps.status is checked');
SELECT ok(
    (SELECT array_agg(c.relname::text ORDER BY c.relname)
     FROM pg_extension e, unnest(e.extconfig) AS x(oid) JOIN pg_class c ON c.oid = x.oid
     WHERE e.extname = 'walpressure')
    = ARRAY['fleet_members', 'fleet_runs', 'fleet_runs_run_id_seq', 'fleet_servers', 'fleet_sweeps',
            'search_rounds', 'step_replication', 'step_samples', 'step_statements', 'steps', 'sweeper_grants',
            'sweeper_grants_grant_id_seq', 'sweeps', 'sweeps_sweep_id_seq'],
    'results are kept by pg_dump (pg_extension_config_dump)');

SELECT has_column('walpressure', 'steps', c, format('steps.%s', c))
FROM unnest(ARRAY['tps', 'latency_p99_ms', 'commits_per_fsync']) AS c;

SELECT columns_are('walpressure', 'results', ARRAY[
    'sweep_id', 'label', 'setting', 'value', 'value_pos', 'repeats', 'tps', 'tps_stddev',
    'tps_ci_low', 'tps_ci_high', 'tps_stddev_seconds', 'rows_per_s',
    'latency_avg_ms', 'latency_stddev_ms', 'latency_p50_ms', 'latency_p95_ms',
    'latency_p99_ms', 'latency_p99_stddev_ms', 'latency_p99_ci_low_ms', 'latency_p99_ci_high_ms',
    'commits_per_fsync', 'wal_fsyncs_per_s', 'iops_cap', 'write_iops',
    'read_iops', 'fsync_avg_ms', 'wal_mb', 'fpi_pct', 'wal_buffers_full',
    'checkpoints_timed', 'checkpoints_requested', 'checkpoint_write_s',
    'checkpoint_sync_s', 'retries', 'speedup', 'speedup_ci_low', 'speedup_ci_high',
    'verdict', 'ci_basis', 'data_loss', 'steps_discarded', 'is_current', 'fpi_bytes_pct',
    'syncrep_wait_pct', 'syncrep_wait_ms', 'verdict_detail', 'paired_rounds', 'rounds_needed',
    'latency_p50_ratio', 'latency_p50_verdict', 'latency_p99_ratio', 'latency_p99_ratio_ci_low',
    'latency_p99_ratio_ci_high', 'latency_p99_verdict', 'latency_p999_ms', 'rate', 'rate_achieved',
    'rate_sustained', 'lag_avg_ms', 'lag_p99_ms', 'transactions_late', 'transactions_skipped',
    'latency_p99_detail', 'latency_p99_rounds_needed', 'latency_p999_ratio', 'latency_p999_verdict',
    'disk']);
SELECT has_view('walpressure', 'best', 'view best');
SELECT columns_are('walpressure', 'best', ARRAY[
    'sweep_id', 'label', 'setting', 'value', 'tps', 'gain', 'gain_ci_low', 'gain_ci_high',
    'verdict', 'apply', 'diagnoses', 'answer', 'current_value', 'ties', 'disk', 'kind']);
SELECT table_privs_are('walpressure', 'best', 'pg_monitor', ARRAY['SELECT']);
SELECT has_view('walpressure', 'findings', 'view findings');
SELECT columns_are('walpressure', 'findings', ARRAY['sweep_id', 'ord', 'kind', 'value', 'finding']);
SELECT table_privs_are('walpressure', 'findings', 'pg_monitor', ARRAY['SELECT']);
SELECT function_returns('walpressure', 'report', ARRAY['bigint'], 'setof text');
SELECT function_returns('walpressure', 'effects', ARRAY['bigint', 'integer'], 'setof record');
SELECT function_returns('walpressure', 'plot', ARRAY['bigint'], 'text');
SELECT function_returns('walpressure', 'compare', ARRAY['bigint', 'bigint'], 'setof record');
SELECT function_lang_is('walpressure', f, ARRAY['bigint'], 'c', format('%s checks its sweep id in C (no PL/pgSQL CONTEXT)', f))
FROM unnest(ARRAY['report', 'plot']) AS f;
SELECT has_trigger('walpressure', 'sweeps', t, format('sweeps: trigger %s', t))
FROM unnest(ARRAY['keep_running', 'keep_running_truncate']) AS t;

SELECT has_column('walpressure', 'steps', c, format('steps.%s', c))
FROM unnest(ARRAY['round_trip_us', 'checkpoint_write_ms', 'checkpoint_sync_ms', 'data_loss',
                   'wal_lsn_start', 'wal_lsn_end', 'discarded', 'setup_s', 'client_cpu_s', 'server_cpu_s',
                   'fpi_bytes', 'buffers_checkpoint', 'buffers_clean', 'buffers_backend',
                   'buffers_backend_fsync', 'syncrep_wait_pct', 'syncrep_wait_ms', 'standby_wal_mb_per_s',
                   'standby_wal_writes_per_s', 'standby_wal_fsyncs_per_s', 'standby_write_iops',
                   'standby_source', 'latency_p999_ms', 'rate', 'rate_achieved', 'rate_sustained',
                   'lag_avg_ms', 'lag_p50_ms', 'lag_p99_ms', 'transactions_late', 'transactions_skipped',
                   'commit_avg_ms', 'commit_p99_ms']) AS c;
SELECT has_column('walpressure', 'sweeps', c, format('sweeps.%s', c))
FROM unnest(ARRAY['accept_data_loss', 'server_originals', 'server_settings_restored',
                   'engine', 'script', 'current_value', 'current_pos', 'cpus', 'wal_disk', 'origin',
                   'auto_repeats', 'budget', 'rounds_stop', 'checkpoint', 'on_standby_loss',
                   'standby_conninfo', 'rate', 'latency_limit_ms', 'f0_ms', 'f0_p50_ms', 'f0_p99_ms',
                   'f0_source', 'threshold', 'search', 'search_range', 'search_resolution', 'search_stop',
                   'search_found']) AS c;
SELECT has_column('walpressure', 'step_samples', 'sample_time', 'step_samples.sample_time');

-- a search's rounds
SELECT has_table('walpressure', 'search_rounds', 'table search_rounds');
SELECT col_is_pk('walpressure', 'search_rounds', ARRAY['sweep_id', 'round'], 'search_rounds: primary key (sweep_id, round)');
SELECT fk_ok('walpressure', 'search_rounds', 'sweep_id', 'walpressure', 'sweeps', 'sweep_id');
SELECT columns_are('walpressure', 'search_rounds', ARRAY[
    'sweep_id', 'round', 'pair', 'low', 'high', 'vals', 'why', 'verdict', 'decision']);
SELECT col_has_check('walpressure', 'sweeps', 'search', 'sweeps.search is checked');

SELECT is(
    (SELECT pg_get_function_arguments('walpressure.run_sweep'::regproc)),
    'setting text, vals "any" DEFAULT NULL::text[], clients integer DEFAULT 10, duration "any" DEFAULT ''00:01:00''::interval, '
    'workload text DEFAULT ''simple-update''::text, iops_cap integer DEFAULT NULL::integer, '
    'warmup "any" DEFAULT ''00:00:05''::interval, repeats "any" DEFAULT 1, '
    'settings jsonb DEFAULT ''{}''::jsonb, prewarm boolean DEFAULT true, '
    'label text DEFAULT NULL::text, wait boolean DEFAULT true, accept_data_loss boolean DEFAULT false, '
    'engine text DEFAULT ''pgbench''::text, script text DEFAULT NULL::text, '
    'budget "any" DEFAULT NULL::interval, checkpoint boolean DEFAULT true, '
    'on_standby_loss text DEFAULT ''stop''::text, standby_conninfo text DEFAULT NULL::text, '
    'rate double precision DEFAULT NULL::double precision, '
    'latency_limit double precision DEFAULT NULL::double precision, '
    'range text DEFAULT NULL::text, search text DEFAULT NULL::text, resolution "any" DEFAULT NULL::text, '
    'disk text DEFAULT NULL::text, flush_floor_ms double precision DEFAULT NULL::double precision',
    'run_sweep has the arguments of the design');

SELECT * FROM finish();
ROLLBACK;
