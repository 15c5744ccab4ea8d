# Server-wide settings in sweeps: applied with ALTER SYSTEM and a reload,
# and the server left exactly as it was, whatever happens.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use WalPressure::Test;

# WAL segments of 1MB: a max_wal_size of 2MB requests a checkpoint every
# megabyte, which any machine writes within a step's window
my $node = new_node('server_settings',
	init => { extra => ['--wal-segsize=1'] },
	conf => [ fsync => 'on', max_worker_processes => 16, wal_keep_size => '1GB', restart_after_crash => 'on' ],
	pgbench => 1);
my $pgdata = $node->data_dir;
my $autoconf = "$pgdata/postgresql.auto.conf";

# A postgresql.auto.conf a DBA wrote: one setting a sweep will change, one it
# will not, and a comment of theirs, so "byte for byte" means something.
$node->safe_psql('postgres', q{ALTER SYSTEM SET wal_writer_delay = '300ms'});
$node->safe_psql('postgres', q{ALTER SYSTEM SET work_mem = '8MB'});
append_to_file($autoconf, "# tuned by the DBA on 2026-11-01\n");
$node->reload;

my @managed = qw(fsync full_page_writes wal_writer_delay wal_writer_flush_after
  max_wal_size checkpoint_timeout checkpoint_completion_target wal_sync_method);
my $settings_query = q{
SELECT string_agg(name || '=' || setting || ' ' || source || ' ' || coalesce(sourcefile, '') || ':'
                  || coalesce(sourceline::text, '') || ' ' || pending_restart, E'\n' ORDER BY name)
FROM pg_settings WHERE name IN ('} . join("', '", @managed, 'work_mem', 'synchronous_commit') . q{')};

my $settings_before = $node->safe_psql('postgres', $settings_query);
my $file_before = slurp_file($autoconf);

sub unchanged
{
	my ($what) = @_;
	# what a new session sees: every server process has the settings back
	is($node->safe_psql('postgres', $settings_query), $settings_before, "$what: pg_settings as before");
	is(slurp_file($autoconf), $file_before, "$what: postgresql.auto.conf identical, byte for byte");
	ok(!-e "$pgdata/walpressure.settings" && !-e "$pgdata/walpressure.sweep", "$what: no restore record left");
	ok(!-e "$pgdata/walpressure.auto.conf.orig", "$what: no copy of postgresql.auto.conf left");
	ok(!-e "$pgdata/walpressure.needs_sync", "$what: no data directory sync pending");
}

# postgresql.auto.conf as the DBA wrote it, again
sub reference_back
{
	my ($what) = @_;
	write_file($autoconf, $file_before);
	$node->reload;
	unchanged($what);
}

# the value the server has now, seen by a new session
sub show
{
	return $node->safe_psql('postgres', "SHOW $_[0]");
}

# --- a max_wal_size sweep: checkpoints per step in the results
my $id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('max_wal_size', ARRAY['2MB', '1GB'], clients => 4,
                             duration => '4 s', warmup => '1 s', prewarm => false,
                             workload => 'batch-insert', settings => '{"batch_size": 1000}')});
is(sweep_field($node, $id, 'status'), 'done', 'max_wal_size sweep done');
unchanged('after a max_wal_size sweep');
is(sweep_field($node, $id, 'server_settings_restored'), 'restored byte for byte',
	'the sweep says how it restored');
is(sweep_field($node, $id, q{server_originals->'max_wal_size'->>'in_auto_conf'}), 'false',
	'the original max_wal_size was not in postgresql.auto.conf');
my ($req32, $req1g) = split /\|/, $node->safe_psql('postgres', qq{
SELECT (SELECT checkpoints_requested FROM walpressure.results WHERE sweep_id = $id AND value = '2MB'),
       (SELECT checkpoints_requested FROM walpressure.results WHERE sweep_id = $id AND value = '1GB')});
note "requested checkpoints in the window: 2MB $req32, 1GB $req1g";
cmp_ok($req32, '>', $req1g, 'a small max_wal_size requests more checkpoints in the window');
my ($bufsteps, $ckptbuf) = split /\|/, $node->safe_psql('postgres', qq{
SELECT count(*) FILTER (WHERE buffers_checkpoint >= 0 AND buffers_clean >= 0 AND buffers_backend >= 0
                          AND buffers_backend_fsync >= 0),
       max(buffers_checkpoint) FILTER (WHERE value = '2MB')
FROM walpressure.steps WHERE sweep_id = $id});
is($bufsteps, 2, 'each step records the data-file buffers written by the checkpointer, the bgwriter and the rest');
cmp_ok($ckptbuf, '>', 0, "the checkpoints at 2MB wrote buffers in the window ($ckptbuf)");
is($node->safe_psql('postgres', qq{
SELECT count(*) FROM walpressure.steps
WHERE sweep_id = $id AND checkpoint_write_ms >= 0 AND checkpoint_sync_ms >= 0 AND data_loss IS NULL}),
	'2', 'checkpoint write and sync time per step; nothing at risk');

# --- wal_writer_delay, set in postgresql.auto.conf before the sweep; the
# steps run with the value in effect (a client sees it)
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('wal_writer_delay', ARRAY['10ms', '1000ms'], clients => 2,
                             duration => '2 s', warmup => '0 s', prewarm => false,
                             workload => 'custom',
                             settings => '{"sql": "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) SELECT -1, 1, 1, extract(epoch FROM current_setting(''wal_writer_delay'')::interval) * 1000, now()"}')});
is(sweep_field($node, $id, 'status'), 'done', 'wal_writer_delay sweep done');
is($node->safe_psql('postgres', q{
SELECT string_agg(DISTINCT delta::text, ' ' ORDER BY delta::text) FROM pgbench_history WHERE tid = -1}),
	'10 1000', 'each step\'s clients ran with its wal_writer_delay in effect');
is(sweep_field($node, $id, q{server_originals->'wal_writer_delay'->>'in_auto_conf'}), 'true',
	'the original wal_writer_delay was in postgresql.auto.conf');
unchanged('after a wal_writer_delay sweep');

# --- a sweep that fails in its second step: restored on error
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('checkpoint_completion_target', ARRAY['0.5', '0.7'], clients => 1,
                             duration => '2 s', warmup => '0 s', prewarm => false, wait => false,
                             workload => 'custom',
                             settings => '{"sql": "SELECT CASE WHEN current_setting(''checkpoint_completion_target'') = ''0.7'' THEN 1 / floor(random())::int END"}')});
wait_sweep($node, $id);
is(sweep_field($node, $id, 'status'), 'failed', 'a client error fails the sweep');
like(sweep_field($node, $id, 'error'), qr/^pgbench lost all its clients/, 'with pgbench\'s reason');
unchanged('after a failed sweep');

# --- cancel during a checkpoint_timeout step
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('checkpoint_timeout', ARRAY['30s', '1h'], clients => 2, engine => 'backend',
                             duration => '30 s', warmup => '0 s', prewarm => false, wait => false)});
wait_clients($node);
is(show('checkpoint_timeout'), '30s', 'the step\'s checkpoint_timeout is in effect server-wide');
is($node->safe_psql('postgres', "SELECT walpressure.cancel_sweep($id)"), 't', 'cancel_sweep');
is(sweep_field($node, $id, 'status'), 'cancelled', 'the sweep reads cancelled');
unchanged('after a cancel during a checkpoint_timeout step');

# --- a change by someone else during the sweep is kept
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('wal_writer_flush_after', ARRAY['0', '1MB'], engine => 'backend', clients => 1,
                             duration => '3 s', warmup => '0 s', prewarm => false, wait => false)});
wait_clients($node);
$node->safe_psql('postgres', q{ALTER SYSTEM SET maintenance_work_mem = '77MB'});
wait_sweep($node, $id);
like(sweep_field($node, $id, 'server_settings_restored'), qr/setting by setting/,
	'a concurrent ALTER SYSTEM: restored setting by setting');
like(slurp_file($autoconf), qr/^maintenance_work_mem = '77MB'$/m, 'the other change is kept');
is(show('wal_writer_flush_after'), '1MB', 'wal_writer_flush_after is back');
is(show('wal_writer_delay'), '300ms', 'wal_writer_delay (theirs, in the file) is back');
$node->safe_psql('postgres', q{ALTER SYSTEM RESET maintenance_work_mem});
# back to the reference file for what follows
reference_back('the reference file back');

# --- a hand edit of postgresql.auto.conf during the sweep: kept as written,
# its comment and its own line comment included
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('wal_writer_flush_after', ARRAY['0', '1MB'], engine => 'backend', clients => 1,
                             duration => '3 s', warmup => '0 s', prewarm => false, wait => false)});
# after the sweep's last ALTER SYSTEM (step 2's): ALTER SYSTEM itself
# rewrites the file without comments
wait_window($node, step => 2);
append_to_file($autoconf, "# tuned by hand on 2026-11-23\nmaintenance_work_mem = '66MB'   # by hand\n");
wait_sweep($node, $id);
my $after = slurp_file($autoconf);
like($after, qr/^# tuned by hand on 2026-11-23$/m, 'a comment written by hand during the sweep is kept');
like($after, qr/^maintenance_work_mem = '66MB'   # by hand$/m, 'and the hand-written line, as written');
is(show('wal_writer_flush_after'), '1MB', 'the swept setting is back');
reference_back('the reference file back after a hand edit');

# --- an unreadable record at start: postgresql.auto.conf comes back whole
# from the copy made before the sweep's first change; fsync = off does not stay
$node->stop;
write_file("$pgdata/walpressure.auto.conf.orig", $file_before);
append_to_file($autoconf, "fsync = 'off'\n");
write_file("$pgdata/walpressure.settings", "\x00damaged");
my $log_offset = -s $node->logfile;
$node->start;
is(show('fsync'), 'on', 'an unreadable record at start: fsync is not left off');
like(slurp_file($node->logfile, $log_offset), qr/WARNING:  walpressure: its record of a sweep's server settings, "walpressure.settings", was unreadable/,
	'the log says so');
unchanged('after an unreadable record at start');

# --- fsync off, then back on in a later step: the data directory is synced
# before that step runs, not only when the sweep ends, so its label holds
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('fsync', ARRAY['off', 'on'], engine => 'backend', clients => 1,
                             duration => '3 s', warmup => '0 s', prewarm => false, wait => false,
                             accept_data_loss => true)});
wait_window($node, step => 1);
like(slurp_file("$pgdata/walpressure.sweep"), qr/^needs_sync$/m,
	'during the fsync = off step a data directory sync is pending (the crash record says so)');
my $sync_offset = -s $node->logfile;
wait_window($node, step => 2);
like(slurp_file($node->logfile, $sync_offset), qr/syncing the data directory: fsync is back on after a step with fsync = off/,
	'once a later step turned fsync back on, the data directory was synced before that step ran');
wait_sweep($node, $id);
is($node->safe_psql('postgres', qq{
SELECT string_agg(value || ':' || coalesce(data_loss, 'safe'), ' ' ORDER BY step)
FROM walpressure.steps WHERE sweep_id = $id}),
	'off:fsync=off on:safe', 'only the fsync = off step is labelled as risking data');
unchanged('after an fsync off-then-on sweep');

# A sweep of $setting = off, acknowledged, in its 60 s step: its id.
sub off_in_a_step
{
	my ($setting, $name) = @_;
	my $id = $node->safe_psql('postgres', qq{
SELECT walpressure.run_sweep('$setting', ARRAY['off'], engine => 'backend', clients => 2, duration => '60 s',
                             warmup => '0 s', prewarm => false, wait => false,
                             accept_data_loss => true)});
	wait_clients($node);
	is(show($setting), 'off', $name);
	return $id;
}

# --- kill -9 during an acknowledged fsync=off step: restored at restart
$id = off_in_a_step('fsync', 'fsync is off server-wide during the step');
kill9($node, backend_pid($node, 'walpressure coordinator'));
sweep_reaches($node, $id, "status = 'aborted'") or die 'the sweep was not marked aborted';
is(show('fsync'), 'on', 'after the crash restart fsync is on again');
unchanged('after kill -9 during an fsync=off step');
like(slurp_file($node->logfile), qr/server settings interrupted sweep $id changed are restored byte for byte/,
	'the postmaster restored them before recovery, and says so');
like(slurp_file($node->logfile), qr/syncing the data directory: a sweep ran with fsync = off/,
	'and synced what was written while fsync was off');

# the same after the whole server is killed, then started
$id = off_in_a_step('full_page_writes', 'full_page_writes off during the step');
my @server_pids = split /\n/, $node->safe_psql('postgres', 'SELECT pid FROM pg_stat_activity');
$node->kill9;
# the old server's processes notice and leave; until then its memory is in use
ok(wait_until(sub { !grep { kill 0, $_ } @server_pids }), 'the killed server\'s processes are gone');
$node->start;
sweep_reaches($node, $id, "status = 'aborted'") or die 'the sweep was not marked aborted';
unchanged('after kill -9 of the postmaster during a full_page_writes=off step');

# --- labels of what a crash can lose
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('synchronous_commit', ARRAY['on', 'off'], clients => 1,
                             duration => '1 s', warmup => '0 s', prewarm => false,
                             settings => '{"fsync": "off"}', accept_data_loss => true)});
is($node->safe_psql('postgres', qq{
SELECT string_agg(value || ': ' || data_loss, ' / ' ORDER BY step) FROM walpressure.steps WHERE sweep_id = $id}),
	'on: fsync=off / off: fsync=off, synchronous_commit=off', 'steps label the settings that can lose data');
is($node->safe_psql('postgres', qq{
SELECT string_agg(value || ': ' || data_loss, ' / ') FROM walpressure.results WHERE sweep_id = $id}),
	'on: fsync=off / off: fsync=off, synchronous_commit=off', 'and so do the results');
unchanged('after a sweep with fsync fixed off');

# --- whole configurations in one sweep ('settings'): each value's
# server-wide settings in effect for its step, and those it does not set back
# to what they were (fsync on again for '{}' after '{"fsync": "off"}'); the
# session settings in the clients; one value sets the load's clients
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('settings',
           ARRAY['{"fsync": "off", "wal_writer_delay": "10ms"}', '{}',
                 '{"synchronous_commit": "off", "clients": 3}', '{"wal_writer_delay": "1000ms"}'],
           clients => 2, duration => '2 s', warmup => '0 s', prewarm => false, accept_data_loss => true,
           workload => 'custom',
           settings => '{"sql": "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) SELECT -2, current_setting(''synchronous_commit'')::bool::int, 1, extract(epoch FROM current_setting(''wal_writer_delay'')::interval) * 1000, now()"}')});
is(sweep_field($node, $id, 'status'), 'done', 'settings sweep done');
is($node->safe_psql('postgres', qq{
SELECT string_agg(value || ' ' || clients || ' ' || coalesce(data_loss, 'safe'), ' / ' ORDER BY step)
FROM walpressure.steps WHERE sweep_id = $id}),
	'{"fsync": "off", "wal_writer_delay": "10ms"} 2 fsync=off / {} 2 safe / '
	. '{"clients": 3, "synchronous_commit": "off"} 3 synchronous_commit=off / {"wal_writer_delay": "1000ms"} 2 safe',
	'each step ran its configuration: fsync back on and wal_writer_delay back after the values that set them');
is($node->safe_psql('postgres', q{
SELECT string_agg(DISTINCT bid || ':' || delta, ' ' ORDER BY bid || ':' || delta) FROM pgbench_history WHERE tid = -2}),
	'0:300 1:10 1:1000 1:300',
	'the clients saw each value\'s settings (synchronous_commit:wal_writer_delay), the DBA\'s 300ms where none is set');
is(sweep_field($node, $id, q{current_value || ' ' || current_pos}), '{} 2', 'the current configuration is {}, value 2');
is(sweep_field($node, $id, q{(SELECT string_agg(key, ' ' ORDER BY key) FROM jsonb_object_keys(server_originals) key)}),
	'fsync wal_writer_delay', 'the server-wide settings of every value were recorded to restore');
unchanged('after a settings sweep');

# --- full-page image bytes per step, read from the WAL: what pg_waldump
# --stats counts over the same window (to the record at its end); far fewer
# with full_page_writes = off
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('settings', ARRAY['{}', '{"full_page_writes": "off"}'], clients => 2,
                             duration => '2 s', warmup => '0 s', prewarm => false, accept_data_loss => true)});
my @fpi;
foreach my $row (split /\n/, $node->safe_psql('postgres', qq{
SELECT fpi_bytes, wal_lsn_start, wal_lsn_end FROM walpressure.steps WHERE sweep_id = $id ORDER BY step}))
{
	my ($bytes, $start, $end) = split /\|/, $row;
	my ($stdout, $stderr);
	IPC::Run::run([ 'pg_waldump', '--stats', '-p', "$pgdata/pg_wal", '-s', $start, '-e', $end ],
		'>', \$stdout, '2>', \$stderr);
	my ($waldump) = $stdout =~ /^Total\s+\d+\s+\d+\s+\[[^\]]*\]\s+(\d+)/m;
	ok(defined $waldump && abs($bytes - $waldump) <= 32768,
		"step's fpi_bytes $bytes: pg_waldump counts " . ($waldump // "nothing: $stderr") . " from $start to $end");
	push @fpi, $bytes;
}
ok($fpi[0] > 0 && $fpi[1] < $fpi[0] / 10, "full-page images after each step's checkpoint ($fpi[0] bytes), far fewer with full_page_writes = off ($fpi[1])");
like($node->safe_psql('postgres', qq{SELECT string_agg(fpi_bytes_pct::text, ' ' ORDER BY value_pos) FROM walpressure.results WHERE sweep_id = $id}),
	qr/^\d+(\.\d)? \d+(\.\d)?$/, 'results gives the full-page images\' share of the WAL bytes');
unchanged('after a full_page_writes configuration sweep');

# --- checkpoint => false: no CHECKPOINT before the steps
my $ckpt_query = $node->pg_version >= 17 ? 'SELECT num_requested FROM pg_stat_checkpointer'
  : 'SELECT checkpoints_req FROM pg_stat_bgwriter';
my $ckpt_before = $node->safe_psql('postgres', $ckpt_query);
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '10'], clients => 1, duration => '1 s',
                             warmup => '0 s', prewarm => false, checkpoint => false)});
is(sweep_field($node, $id, q{status || ' ' || checkpoint}), 'done false', 'a sweep without checkpoints done, and recorded so');
$node->safe_psql('postgres', 'SELECT pg_stat_clear_snapshot()');
is($node->safe_psql('postgres', $ckpt_query), $ckpt_before,
	'no checkpoint was requested');
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '10'], clients => 1, duration => '1 s',
                             warmup => '0 s', prewarm => false)});
ok($node->safe_psql('postgres', $ckpt_query) >= $ckpt_before + 2,
	'while a default sweep requests one per step');

# --- refused, with nothing changed
my ($ret, $out, $err);
my $sweeps_before = $node->safe_psql('postgres', 'SELECT count(*) FROM walpressure.sweeps');
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT walpressure.run_sweep('work_mem', ARRAY['4MB'])});
like($err, qr/walpressure cannot sweep "work_mem"/, 'a setting outside the list');
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT walpressure.run_sweep('wal_buffers', ARRAY['16MB', '64MB'])});
like($err, qr/cannot sweep "wal_buffers": it takes effect only when the server restarts/,
	'a restart-only setting is refused clearly');
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"shared_buffers": "1GB"}')});
like($err, qr/cannot set "shared_buffers" in settings: it takes effect only when the server restarts/,
	'a restart-only setting in settings too');
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT walpressure.run_sweep('fsync', ARRAY['on', 'off'])});
like($err, qr/fsync = off is refused: a crash while it is in effect can corrupt the whole cluster/,
	'fsync=off without accept_data_loss is refused');
like($err, qr/accept_data_loss => true/, 'the refusal says how to accept');
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], settings => '{"full_page_writes": "false"}')});
like($err, qr/full_page_writes = false is refused.*torn pages/s, 'full_page_writes=off in settings too');
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT walpressure.run_sweep('max_wal_size', ARRAY['1GB', 'lots'])});
like($err, qr/invalid value for parameter "max_wal_size": "lots"/, 'a bad value is caught first');
$node->safe_psql('postgres', q{
CREATE ROLE sweeper LOGIN;
GRANT USAGE ON SCHEMA walpressure TO sweeper;
GRANT EXECUTE ON FUNCTION walpressure.run_sweep TO sweeper;
});
($ret, $out, $err) = $node->psql('postgres',
	q{SELECT walpressure.run_sweep('max_wal_size', ARRAY['1GB'])}, extra_params => [ '-U', 'sweeper' ]);
like($err, qr/permission denied to change max_wal_size for the whole server/,
	'a role without ALTER SYSTEM on the parameter is refused');
like($err, qr/GRANT ALTER SYSTEM ON PARAMETER max_wal_size TO sweeper/, 'with the GRANT that allows it');
is($node->safe_psql('postgres', 'SELECT count(*) FROM walpressure.sweeps'), $sweeps_before,
	'the refused sweeps recorded nothing');
unchanged('after the refusals');

done_testing();
