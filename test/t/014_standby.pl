# Sweeps on a primary with a synchronous standby: the replication figures of
# each step against a known standby delay, sweeps over synchronous_commit and
# synchronous_standby_names, the standby's own side over libpq, and a standby
# killed in the middle of a step.
#
# The known delay: the standby applies each commit record no sooner than
# recovery_min_apply_delay after its commit time, so with synchronous_commit
# = remote_apply every commit waits that long for the standby, and with
# local, remote_write or on it does not.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use WalPressure::Test;

# some of its assertions measure the machine: those run where test/run
# measures, with no other major's suites beside it (WalPressure::Test);
# elsewhere what can only grow under load (a wait, a lag) keeps its low side
my $measuring = quiet_machine();

my $delay_ms = 50;

my $primary = new_node('primary', init => { allows_streaming => 1 },
	conf => [ max_worker_processes => 16, restart_after_crash => 'on' ], pgbench => 1);
$primary->safe_psql('postgres', q{SELECT pg_create_physical_replication_slot('s1')});
$primary->backup('base');

# the standby: application_name s1 (its node name), walpressure preloaded
my $standby = keep_node(PostgreSQL::Test::Cluster->new('s1'));
$standby->init_from_backup($primary, 'base', has_streaming => 1);
# (its slot keeps the WAL it has not received while it is down)
$standby->append_conf('postgresql.conf', qq{
recovery_min_apply_delay = '${delay_ms}ms'
primary_slot_name = 's1'
});
$standby->start;
$primary->wait_for_catchup($standby, 'replay');

# s1 synchronous from now on, from the configuration file
$primary->append_conf('postgresql.conf', q{synchronous_standby_names = 'FIRST 1 (s1)'});
$primary->reload;
standby_sync('the standby did not become synchronous');

my $started = $primary->safe_psql('postgres', 'SELECT pg_postmaster_start_time()');
my $standby_conninfo = $standby->connstr('postgres');
$standby_conninfo =~ s/'/''/g;

sub q1 { return $primary->safe_psql('postgres', $_[0]); }

sub standby_sync
{
	my ($or_else) = @_;
	poll($primary, q{SELECT sync_state = 'sync' FROM pg_stat_replication WHERE application_name = 's1'})
	  or die $or_else;
}

# --- the level sweep, with the standby's own side
my $id = q1(qq{
SELECT walpressure.run_sweep('synchronous_commit', ARRAY['local', 'remote_write', 'on', 'remote_apply'],
                             clients => 2, duration => '4 s', warmup => '1 s', prewarm => false,
                             engine => 'backend', standby_conninfo => '$standby_conninfo')});
is(q1("SELECT status FROM walpressure.sweeps WHERE sweep_id = $id"), 'done', 'level sweep done');
is(q1("SELECT count(*) FROM walpressure.steps WHERE sweep_id = $id AND discarded IS NULL"), '4',
	'four clean steps');
is(q1(qq{SELECT string_agg(DISTINCT standby || ' ' || sync_state, ',')
         FROM walpressure.step_replication WHERE sweep_id = $id}), 's1 sync',
	'every step saw s1 as the synchronous standby');
ok(q1("SELECT bool_and(samples >= 3) FROM walpressure.step_replication WHERE sweep_id = $id") eq 't',
	'a sample of the standby each second of each window');

my %s;
for my $row (split /\n/, q1(qq{
SELECT value, syncrep_wait_ms, syncrep_wait_pct, latency_avg_ms, tps,
       (SELECT replay_lag_ms_mean FROM walpressure.step_replication r WHERE r.sweep_id = st.sweep_id AND r.step = st.step),
       (SELECT flush_lag_ms_mean FROM walpressure.step_replication r WHERE r.sweep_id = st.sweep_id AND r.step = st.step),
       standby_source, standby_wal_fsyncs_per_s
FROM walpressure.steps st WHERE sweep_id = $id ORDER BY step}))
{
	my @f = split /\|/, $row;
	$s{ $f[0] } = {
		wait_ms => $f[1], wait_pct => $f[2], latency => $f[3], tps => $f[4],
		replay_lag => $f[5], flush_lag => $f[6], source => $f[7], fsyncs => $f[8] };
	note sprintf('%-12s %7.1f tps, latency %7.3f ms, sync-rep wait %7.3f ms per commit (%5.1f%% of commit time), replay lag %s ms, flush lag %s ms, standby %s fsyncs/s (%s)',
		$f[0], $f[4], $f[3], $f[1], $f[2], $f[5] // '-', $f[6] // '-', $f[8] // '-', $f[7] // '-');
}

my $ra = $s{remote_apply};
my $local = $s{local};
# the known delay: remote_apply waits it, the others do not
# (the sampler times the wait in 1 ms ticks and drops gaps over 100 ms: a
# starved sampler undercounts, so on a busy machine the low side is lower)
my $low = $measuring ? 0.8 : 0.5;
cmp_ok($ra->{wait_ms}, '>=', $low * $delay_ms, 'remote_apply: each commit waits about the apply delay (low)');
cmp_ok($local->{wait_ms}, '<', 0.5, 'local: commits do not wait for the standby');
# (the mean of a few samples of pg_stat_replication's replay_lag: on 19 under
# the other majors' load one window read 37.8 ms against a 50 ms delay, while
# remote_apply's read 0.3 ms; the low side still tells the two apart)
cmp_ok($s{on}->{replay_lag}, '>=', $low * $delay_ms, 'on: replay lag about the apply delay');
if ($measuring)
{
	cmp_ok($ra->{wait_ms}, '<=', 1.5 * $delay_ms, 'remote_apply: ... (high)');
	cmp_ok($ra->{wait_pct}, '>=', 90, 'remote_apply: the standby is most of the commit time');
	cmp_ok($s{on}->{wait_ms}, '<', 0.5 * $delay_ms, 'on: the flush on the standby, not its delayed apply');
	cmp_ok($s{on}->{replay_lag}, '<=', 2 * $delay_ms, 'on: ... (high)');
	cmp_ok($s{on}->{flush_lag}, '<', $delay_ms, 'on: flush lag below the apply delay');
}

# the sampled wait against the clients' own latency: what remote_apply adds
# to a transaction over local is the wait for the standby, within 10%
my $added = $ra->{latency} - $local->{latency};
note "remote_apply adds $added ms to a transaction; the sampler timed $ra->{wait_ms} ms of sync-rep wait per commit";
if ($measuring)
{
	cmp_ok(abs($ra->{wait_ms} - $added), '<=', 0.10 * $added,
		'the sampled sync-rep wait is within 10% of the latency remote_apply adds');
}

# the standby's side: from its own walpressure sampler, over the window
is($ra->{source}, 'walpressure', "the standby's figures come from its walpressure");
ok(defined $ra->{fsyncs} && $ra->{fsyncs} ne '', "the standby's WAL fsyncs per second are recorded");
# the WAL it received and flushed: what the primary wrote in the window, give or take its edges
my ($wal_mb_s, $primary_mb_s, $iops) = split /\|/, q1(qq{
SELECT standby_wal_mb_per_s, wal_bytes / 1048576.0 / server_seconds, standby_write_iops
FROM walpressure.steps WHERE sweep_id = $id AND value = 'on'});
note "on: the standby received $wal_mb_s MB/s, the primary wrote $primary_mb_s MB/s; standby write IOPS $iops";
if ($measuring)
{
	cmp_ok(abs($wal_mb_s - $primary_mb_s), '<=', 0.25 * $primary_mb_s,
		"the standby's WAL rate is the primary's, within 25%");
}
else
{
	cmp_ok($wal_mb_s, '>', 0, "the standby's WAL rate is recorded ($wal_mb_s MB/s)");
}
# (its disk's writes: the test clusters run with fsync = off, so they may be 0)
ok(defined $iops && $iops ne '' && $iops >= 0, "the standby's write IOPS are recorded");
# the coordinator's own commits are local: what it records is the server's
is(q1("SELECT server_settings->>'synchronous_commit' FROM walpressure.sweeps WHERE sweep_id = $id"), 'on',
	"the sweep records the server's synchronous_commit, not its coordinator's own");
is(q1("SELECT standby_conninfo !~ 'password' FROM walpressure.sweeps WHERE sweep_id = $id"), 't',
	'the sweep keeps the connection string without a password');

# report(): each value's wait for the standby and its lags
my $report = q1("SELECT string_agg(r, E'\\n') FROM walpressure.report($id) r");
note $report;
like($report, qr/^  remote_apply +\| wait [0-9.]+ ms \([0-9.]+%\)\n    s1 sync: write [0-9.]+, flush [0-9.]+, replay [0-9.]+ ms$/m,
	'report() shows the wait of a commit for the standby and its lags');

# live: the wait share while walsenders run
ok(q1("SELECT syncrep_wait_pct IS NOT NULL FROM walpressure.live WHERE period = 'since reset'") eq 't',
	'live shows the sync-rep wait share with a walsender');

# --- synchronous_standby_names swept server-wide, with remote_apply
my $ssn_before = q1('SHOW synchronous_standby_names');
$id = q1(q{
SELECT walpressure.run_sweep('synchronous_standby_names', ARRAY['', 'FIRST 1 (s1)', 'ANY 1 (s1, s2)'],
                             clients => 2, duration => '3 s', warmup => '1 s', prewarm => false,
                             engine => 'backend', settings => '{"synchronous_commit": "remote_apply"}')});
is(q1("SELECT status FROM walpressure.sweeps WHERE sweep_id = $id"), 'done', 'names sweep done');
my @w = split /\n/, q1("SELECT syncrep_wait_ms FROM walpressure.steps WHERE sweep_id = $id ORDER BY step");
note "sync-rep wait per commit: '' $w[0] ms, FIRST 1 (s1) $w[1] ms, ANY 1 (s1, s2) $w[2] ms";
cmp_ok($w[0], '<', 0.5, "names '': commits wait for no standby");
cmp_ok($w[1], '>=', $low * $delay_ms, 'FIRST 1 (s1): they wait for s1');
cmp_ok($w[2], '>=', $low * $delay_ms, 'ANY 1 (s1, s2): they wait for s1');
is(q1("SELECT string_agg(sync_state, ',' ORDER BY step) FROM walpressure.step_replication WHERE sweep_id = $id"),
	'async,sync,quorum', 'the sync state each value gave s1');
is(q1('SHOW synchronous_standby_names'), $ssn_before, 'synchronous_standby_names restored');

# --- the standby killed in the middle of a step
# Start a sweep, wait for the first step's window, kill -9 the standby, and
# time how long until that step is recorded.
sub kill_mid_step
{
	my ($loss, $engine) = @_;
	my $sid = q1(qq{
SELECT walpressure.run_sweep('synchronous_commit', ARRAY['on', 'local'], clients => 2,
                             duration => '30 s', warmup => '1 s', prewarm => false, engine => '$engine',
                             on_standby_loss => '$loss', wait => false)});
	# two seconds into the window
	wait_window($primary, step => 1, seconds => 2);
	my $t0 = time;
	$standby->kill9;
	wait_sql($primary, "SELECT count(*) > 0 FROM walpressure.steps WHERE sweep_id = $sid AND step = 1",
		'step 1 recorded');
	my $took = time - $t0;
	wait_sweep($primary, $sid);
	return ($sid, $took);
}

my ($sid, $took) = kill_mid_step('skip', 'backend');
note sprintf('standby killed: the step ended %.1f s later', $took);
cmp_ok($took, '<', 10, "the step ended within 10 s of the standby's loss");
like(q1("SELECT discarded FROM walpressure.steps WHERE sweep_id = $sid AND step = 1"),
	qr/^standby lost [0-9.]+ s into the window: /, 'the step is marked standby lost');
ok(q1("SELECT transactions > 0 AND seconds > 1 AND seconds < 30 FROM walpressure.steps WHERE sweep_id = $sid AND step = 1") eq 't',
	'what was measured up to then is kept');
is(q1("SELECT status FROM walpressure.sweeps WHERE sweep_id = $sid"), 'done',
	"on_standby_loss => 'skip': the sweep went on");
is(q1("SELECT discarded IS NULL FROM walpressure.steps WHERE sweep_id = $sid AND step = 2"), 't',
	'the step that does not need the standby ran clean');
is(q1(q{SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'}), '0',
	'no commit left waiting for the standby');
is(q1(q{SELECT count(*) FROM pg_stat_activity WHERE backend_type IN ('walpressure client', 'walpressure coordinator')}),
	'0', 'no worker left');
is(q1('SELECT pg_postmaster_start_time()'), $started, 'the primary did not restart');

# no standby: a level that needs one is refused before anything starts
my ($ret, $out, $err) = $primary->psql('postgres', q{
SELECT walpressure.run_sweep('synchronous_commit', ARRAY['local', 'on'], clients => 1, duration => '1 s')});
isnt($ret, 0, 'with no standby, synchronous_commit = on is refused');
like($err, qr/synchronous_commit = on needs 1 synchronous standby, and 0 are connected/,
	'... saying why');

# 'stop', with pgbench's connections waiting: the standby back, then lost
# again; the sweep fails after the step
$standby->start;
standby_sync('the standby did not come back');
($sid, $took) = kill_mid_step('stop', 'pgbench');
cmp_ok($took, '<', 10, "on_standby_loss => 'stop': the step ended within 10 s");
is(q1("SELECT status FROM walpressure.sweeps WHERE sweep_id = $sid"), 'failed', 'the sweep stopped');
like(q1("SELECT error FROM walpressure.sweeps WHERE sweep_id = $sid"),
	qr/step 1 lost its synchronous standby; the sweep stops/, 'its error says why');
is(q1("SELECT count(*) FROM walpressure.steps WHERE sweep_id = $sid"), '1', 'the lost step is recorded, no other ran');
like(q1("SELECT discarded FROM walpressure.steps WHERE sweep_id = $sid"), qr/^standby lost /, '... marked');
ok(q1("SELECT transactions > 0 FROM walpressure.steps WHERE sweep_id = $sid") eq 't',
	"with what pgbench's log had up to then");
is(q1(q{SELECT count(*) FROM pg_stat_activity WHERE application_name = 'walpressure pgbench'}), '0',
	"no pgbench connection left");
is(q1(q{SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'}), '0',
	'no commit left waiting');
is(q1('SELECT pg_postmaster_start_time()'), $started, 'the primary did not restart');
is(q1('SHOW synchronous_standby_names'), $ssn_before, 'synchronous_standby_names as before');

done_testing();
