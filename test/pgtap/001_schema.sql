-- The SQL contract: schema, views and their columns, functions.
BEGIN;
SELECT plan(25);

SELECT has_extension('walpressure', 'walpressure', 'extension is installed in schema walpressure');
SELECT has_schema('walpressure');
SELECT is((SELECT extrelocatable FROM pg_extension WHERE extname = 'walpressure'), false,
          'extension is not relocatable');
SELECT is((SELECT array_agg(e.extname ORDER BY e.extname)
           FROM pg_depend d
           JOIN pg_extension w ON w.oid = d.objid AND w.extname = 'walpressure'
           JOIN pg_extension e ON e.oid = d.refobjid
           WHERE d.classid = 'pg_extension'::regclass
             AND d.refclassid = 'pg_extension'::regclass),
          ARRAY['pg_prewarm']::name[], 'requires pg_prewarm');

SELECT has_view('walpressure', 'live', 'view live exists');
SELECT columns_are('walpressure', 'live', ARRAY[
    'period', 'since', 'seconds', 'commits', 'commits_per_s', 'wal_fsyncs',
    'wal_fsyncs_per_s', 'leader_fsyncs', 'commits_per_fsync', 'leader_pct',
    'fsync_avg_ms', 'fsync_p50_ms', 'fsync_p99_ms', 'commit_avg_ms',
    'commit_p50_ms', 'commit_p99_ms', 'wal_mb_per_s', 'fpi_pct',
    'wal_buffers_full_per_s', 'syncrep_wait_pct', 'syncrep_wait_ms']);
SELECT has_view('walpressure', 'samples', 'view samples exists');
SELECT columns_are('walpressure', 'samples', ARRAY[
    'sample_time', 'seconds', 'commits', 'leaders', 'wal_fsyncs', 'wal_writes',
    'commits_per_fsync', 'wal_records', 'wal_fpi', 'wal_bytes', 'wal_buffers_full',
    'commit_p50_ms', 'commit_p99_ms', 'fsync_p50_ms', 'fsync_p99_ms',
    'insert_lsn', 'flush_lsn', 'checkpoints_timed', 'checkpoints_requested',
    'waiting_walwrite_lock', 'waiting_wal_sync', 'waiting_wal_write', 'waiting_other',
    'read_iops', 'write_iops']);

SELECT has_function('walpressure', 'reset', '{}'::name[]);
SELECT function_returns('walpressure', 'reset', '{}'::name[], 'void');
SELECT functions_are('walpressure', ARRAY['live_figures', 'sample_rows', 'reset',
    'run_sweep', 'cancel_sweep', 'init_pgbench', 'prewarm', 'sweepable_settings',
    'sweepable_load', 'progress_row',
    'set_iops_cap', 'clear_iops_cap', 'iops_cap_state', 'probe_fsync',
    'sweepable_server_settings', '_data_loss', '_int_setting', '_t975', 'report', 'plot', '_xml_text',
    '_nice_step', '_tick', '_px', '_setting_number', '_setting_unit', '_report', '_plot', '_compare',
    'compare', 'grant_sweeper', 'revoke_sweeper', '_value_label', 'grid',
    'delete_sweeps', '_sweeps_keep_running', '_export', 'export', 'import', '_import', '_prewarm', '_grid', '_plot_grid', '_plot_grid_cell', '_plot_frame', '_plot_x_ticks', '_plot_points', '_plot_legend',
    '_grant_sweeper', '_revoke_sweeper', '_rounds_decided', '_decide', '_margin', '_ratio_text',
    '_top', '_ties', 'effects', '_open_loop', '_lambda_star', '_sqrt_rule_us',
    '_threshold_text', '_threshold_finding', '_rate_answer', '_rate_knee', 'predict', '_predict', '_commit_model',
    '_flush_floor', '_in_effect',
    'fleet_register', 'fleet_run', '_fleet_run', 'fleet_collect', '_fleet_collect',
    'fleet_cancel', 'fleet_compare', '_fleet_dblink', '_fleet_disconnect',
    '_fleet_disconnect_all', '_fleet_connect', '_fleet_connect_timeout', '_fleet_disconnect_quietly', '_fleet_list_counts', '_fleet_send', '_fleet_busy', '_fleet_poll', '_fleet_ask',
    '_fleet_quick', '_fleet_identity_sql', '_fleet_session_sql', '_fleet_watch_sql', '_fleet_min_version',
    '_fleet_version', '_fleet_refusal', '_fleet_deadline', '_clean_line', '_fleet_line', '_fleet_error', '_fleet_sqlstate',
    '_fleet_who', '_fleet_int', '_fleet_time', '_fleet_watched', '_fleet_ask_who',
    '_fleet_in_call', '_fleet_member_set', '_fleet_run_end', '_fleet_answered', '_fleet_gather', '_fleet_gather_list',
    '_fleet_write_server',
    '_fleet_conn', '_fleet_start', '_fleet_end', '_fleet_cancel_asked', '_fleet_run_answer',
    '_fleet_watch_answer', '_fleet_look', '_fleet_abandon', '_fleet_pause', '_step_data_loss',
    '_fit', '_wrap', '_join_wrapped', '_disk_words', '_value_words', '_choice', '_risk_words', '_keep_words', '_answer', '_apply', '_findings',
    '_findings_run', '_findings_load', '_findings_disk', '_findings_decision',
    '_report_table', '_report_open_loop', '_report_search', '_report_grid', '_report_statements', '_report_standbys',
    '_predict_refusal', '_predict_step_refusal', '_predict_round', '_predict_interval', '_predict_basis']);
SELECT function_lang_is('walpressure', 'live_figures', '{}'::name[], 'c');

SELECT results_eq('SELECT period FROM walpressure.live',
                  ARRAY['since reset', 'last 60 s'],
                  'live has one row per period, in order');
SELECT cmp_ok((SELECT count(*) FROM walpressure.samples), '>=', 0::bigint,
              'samples reads');

SELECT columns_are('walpressure', 'iops_cap', ARRAY[
    'mode', 'cgroup', 'device', 'write_iops', 'read_iops', 'processes_enrolled',
    'server_processes', 'problem', 'disk', 'flush_floor_ms', 'burst', 'pacer']);
SELECT is((SELECT pg_get_function_arguments('walpressure.set_iops_cap'::regproc)),
          'write_iops integer, read_iops integer DEFAULT NULL::integer, device text DEFAULT NULL::text, '
          'disk text DEFAULT NULL::text, flush_floor_ms double precision DEFAULT NULL::double precision, '
          'burst integer DEFAULT NULL::integer',
          'set_iops_cap has the arguments of the design');

-- predict: the model's entry point checks in C; what it returns
SELECT function_lang_is('walpressure', 'predict', ARRAY['bigint', 'integer', 'integer'], 'c',
                        'predict checks its arguments and the sweep in C');
SELECT is((SELECT pg_get_function_arguments('walpressure.predict'::regproc)),
          'sweep_id bigint, iops_cap integer, clients integer DEFAULT NULL::integer',
          'predict(sweep_id, iops_cap, clients)');
SELECT is((SELECT pg_get_function_result('walpressure.predict'::regproc)),
          'TABLE(value_pos integer, value text, measured_cap integer, measured_clients integer, measured_tps numeric, '
          'rounds integer, tps numeric, tps_ci_low numeric, tps_ci_high numeric, commits_per_fsync numeric, '
          'commits_per_fsync_ci_low numeric, commits_per_fsync_ci_high numeric, commit_ms numeric, '
          'commit_ms_ci_low numeric, commit_ms_ci_high numeric, latency_ms numeric, write_iops numeric, '
          'cpu_share numeric, bound text, basis text)',
          'predict returns one row per value with its intervals and why');
SELECT function_lang_is('walpressure', '_commit_model',
                        ARRAY['integer', 'double precision', 'double precision', 'double precision',
                              'double precision', 'double precision', 'double precision', 'integer',
                              'double precision'],
                        'c', 'the group commit model is C (src/sweep/group_commit.c)');
-- the fleet: dblink is optional (the extension requires pg_prewarm only, above)
SELECT columns_are('walpressure', 'fleet_progress', ARRAY[
    'run_id', 'server', 'state', 'sweep_status', 'remote_sweep_id', 'sweep_id', 'step', 'steps_done',
    'steps_total', 'value', 'phase', 'estimated_end', 'last_heard', 'silent_s', 'detail',
    'system_identifier', 'started_at', 'ended_at', 'run_status', 'run_by']);
SELECT columns_are('walpressure', 'fleet_reading', ARRAY[
    'question', 'run_id', 'server', 'sweep_id', 'remote_sweep_id', 'status', 'setting', 'answered',
    'best_value', 'gain', 'gain_ci_low', 'gain_ci_high', 'verdict', 'fsync_ms', 'commits_per_fsync',
    'syncrep_wait_pct', 'group_servers', 'outlier', 'answer', 'system_identifier', 'server_version',
    'cpus', 'wal_disk']);
SELECT is((SELECT proargnames::text || ' ' || proargmodes::text FROM pg_proc WHERE oid = 'walpressure.fleet_run'::regproc),
          '{sweep,servers,lost_after,run_id} {i,i,i,b}',
          'fleet_run takes the sweep, the servers, lost_after; returns the run id');
SELECT is((SELECT prokind FROM pg_proc WHERE oid = 'walpressure.fleet_run'::regproc), 'p',
          'fleet_run is a procedure (it commits as it goes)');
SELECT col_is_pk('walpressure', 'fleet_sweeps', ARRAY['server', 'remote_sweep_id'],
                 'a gathered sweep is keyed by its server and its id there');

SELECT * FROM finish();
ROLLBACK;
