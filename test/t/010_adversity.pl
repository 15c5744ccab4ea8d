# Faults staged while a sweep runs: each is detected and said, nothing is
# stored as a figure that is not one, and the next sweep works.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use WalPressure::Test;

my $node = new_node('adversity',
	conf => [ max_worker_processes => 16, fsync => 'on', restart_after_crash => 'on' ], pgbench => 1);
my $pgdata = $node->data_dir;

# the sweep's state file is gone (its recovery closed it)
sub state_file_gone { return wait_until(sub { !-e "$pgdata/walpressure.sweep" }); }

# a short sweep works: what every fault below must leave true
sub sweep_works
{
	my ($what) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '1 s',
                             warmup => '0 s', prewarm => false)});
	is($ret, 0, "$what: the next sweep works") or diag($err);
}

# nothing of a sweep left: no coordinator, no pgbench connection, no state file, no cap
sub nothing_left
{
	my ($what) = @_;
	poll($node, q{
SELECT count(*) = 0 FROM pg_stat_activity
WHERE backend_type IN ('walpressure coordinator', 'walpressure client', 'walpressure recovery')
   OR application_name = 'walpressure pgbench'}) or diag("$what: processes left");
	is($node->safe_psql('postgres', q{
SELECT count(*) FROM pg_stat_activity
WHERE backend_type IN ('walpressure coordinator', 'walpressure client')
   OR application_name = 'walpressure pgbench'}) . ' ' . (-e "$pgdata/walpressure.sweep" ? 'state' : 'nostate'),
		'0 nostate', "$what: no process, no state file left");
}

# --- the state file at start: corrupt, or naming a database that is gone
$node->stop;
write_file("$pgdata/walpressure.sweep", "\x00garbage\n");
$node->start;
sweep_works('a corrupt state file at start');
$node->stop;
write_file("$pgdata/walpressure.sweep", "424242 4294967000\n");
$node->start;
ok(state_file_gone(), 'a state file naming a database that is gone: the recovery worker fails, the file goes anyway');
sweep_works('after a failed recovery');
my $checkpointer = backend_pid($node, 'checkpointer');

# --- cancel_sweep from another database, and with ids that are not it
$node->safe_psql('postgres', 'CREATE DATABASE other');
$node->safe_psql('other', 'CREATE EXTENSION walpressure CASCADE');
my $id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '30 s',
                             warmup => '0 s', prewarm => false, wait => false)});
for my $bad ($id, 0, -1)
{
	my ($ret, $out, $err) = $node->psql('other', "SELECT walpressure.cancel_sweep($bad)",
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/ERROR:  P0002: no sweep -?\d+/, "cancel_sweep($bad) from another database: P0002, no such sweep there");
}
my ($ret, $out, $err) = $node->psql('postgres', 'SELECT walpressure.cancel_sweep(0)');
like($err, qr/no sweep 0/, 'cancel_sweep(0) stops nothing');
is($node->safe_psql('postgres', "SELECT status FROM walpressure.sweeps WHERE sweep_id = $id"), 'running',
	'the sweep runs on');

# --- a second launch while one runs: refused, the first runs on
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '1 s', prewarm => false)},
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  55006: sweep $id is running; walpressure runs one sweep at a time/,
	'a second launch: 55006, naming the sweep that runs');

# --- pg_terminate_backend on one of pgbench's connections: the step is discarded
wait_sql($node, q{SELECT count(*) > 0 FROM pg_stat_activity
                  WHERE application_name = 'walpressure pgbench' AND state = 'active'}, 'pgbench\'s connection');
$node->safe_psql('postgres', q{SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'walpressure pgbench'});
wait_sweep($node, $id);
like(sweep_field($node, $id, q{status || ': ' || coalesce(error, '')}),
	qr/^failed: pgbench lost all its clients/, 'its only client terminated: the sweep fails, saying so');
nothing_left('pgbench\'s connection terminated');

# --- pg_cancel_backend on the coordinator
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5', '6'], clients => 2, duration => '30 s',
                             warmup => '0 s', prewarm => false, wait => false)});
wait_window($node);
$node->safe_psql('postgres', q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE backend_type = 'walpressure coordinator'});
wait_sweep($node, $id);
like(sweep_field($node, $id, q{status || ': ' || coalesce(error, '')}),
	qr/^(failed|cancelled): .*cancel/, 'pg_cancel_backend on the coordinator ends the sweep, saying so');
nothing_left('the coordinator cancelled');
sweep_works('after the coordinator was cancelled');

# --- statement_timeout on the caller: the sweep is cancelled with the statement
($ret, $out, $err) = $node->psql('postgres', q{
SET statement_timeout = '2s';
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '30 s',
                             warmup => '0 s', prewarm => false, label => 'timeout')});
like($err, qr/canceling statement due to statement timeout/, 'statement_timeout cancels run_sweep');
is($node->safe_psql('postgres', q{SELECT status FROM walpressure.sweeps WHERE label = 'timeout'}), 'cancelled',
	'and its sweep');
nothing_left('statement_timeout');

# --- two sessions launching at once: one runs, the other is refused
my @h = map { background($node, qq{SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '2 s',
		                                   warmup => '0 s', prewarm => false, label => 'race $_')}) } (0, 1);
my @err = map { ($_->finish)[1] } @h;
is(scalar(grep { /is running/ } @err) . ' '
   . $node->safe_psql('postgres', q{SELECT count(*) FROM walpressure.sweeps WHERE label LIKE 'race %' AND status = 'done'}),
	'1 1', 'two launches at once: one sweep runs to its end, the other is refused');
nothing_left('two launches at once');

is(backend_pid($node, 'checkpointer'), $checkpointer, 'none of these faults crash-restarted the server (the checkpointer kept its pid)');

# pg_stat_reset_shared during a window: the step is discarded with why, the
# figures from the reset statistics are NULL, never negative
# (17 moved the checkpointer's counts out of the bgwriter's statistics)
for my $target ('wal', $node->pg_version >= 17 ? 'checkpointer' : 'bgwriter')
{
	my $id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '10'], clients => 2, duration => '3 s',
                             warmup => '0 s', prewarm => false, wait => false)});
	wait_window($node, step => 1, seconds => 1);
	$node->safe_psql('postgres', "SELECT pg_stat_reset_shared('$target')");
	wait_sweep($node, $id);
	my $what = $target eq 'wal' ? 'WAL' : 'checkpointer';
	like($node->safe_psql('postgres', "SELECT discarded FROM walpressure.steps WHERE sweep_id = $id AND step = 1"),
		qr/^the server's $what statistics were reset during the window/,
		"pg_stat_reset_shared('$target') in a window: the step is discarded, saying why");
	my $cols = $target eq 'wal'
	  ? 'wal_bytes, wal_records, wal_fsyncs, commits_per_fsync'
	  : 'checkpoints_timed, checkpoints_requested, checkpoint_write_ms';
	is($node->safe_psql('postgres', qq{
SELECT num_nonnulls($cols) = 0
FROM walpressure.steps WHERE sweep_id = $id AND step = 1}),
		't', "its $what figures are NULL, not negative or made up");
	is($node->safe_psql('postgres', qq{
SELECT status || ' ' || (SELECT discarded IS NULL FROM walpressure.steps WHERE sweep_id = $id AND step = 2)
       || ' ' || (SELECT string_agg(value || ':' || steps_discarded, ' ' ORDER BY value_pos)
                  FROM walpressure.results WHERE sweep_id = $id)
FROM walpressure.sweeps WHERE sweep_id = $id}),
		'done true 0:1 10:0', 'the sweep goes on; results leave the discarded step out');
}

# grant_sweeper, as the README calls it for the default engine (pgbench,
# asked for), gives a role exactly what a sweep with the default arguments
# needs (prewarm, commit_delay); revoke_sweeper takes it back
my $readme = slurp_file("$ENV{TESTDIR}/README.md");
my ($call) = $readme =~ /To let a role other than a superuser run sweeps.*?```sql\n(SELECT \* FROM walpressure\.grant_sweeper\('r', engine => 'pgbench'\);)/s;
ok(defined $call, 'the README grants a sweeper with one call');
$call =~ s/'r'/'regress_grantee'/;
$node->safe_psql('postgres', "CREATE ROLE regress_grantee LOGIN;\n$call");
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY[0, 100], clients => 1, duration => 1, warmup => 0)},
	extra_params => [ '-U', 'regress_grantee' ]);
is($ret, 0, 'a role given grant_sweeper runs a default sweep of commit_delay') or diag($err);
is($node->safe_psql('postgres', qq{SELECT engine || ' ' || status || ' ' || run_by || ' ' || prewarm
                                   FROM walpressure.sweeps WHERE sweep_id = '$out'}),
	'pgbench done regress_grantee true', 'its sweep ran pgbench, prewarmed, and is done');
is(scalar $node->psql('postgres', "SELECT count(*) FROM walpressure.best WHERE sweep_id = '$out'",
	extra_params => [ '-U', 'regress_grantee' ]), 0, 'and it reads its answer');
$node->safe_psql('postgres', q{SELECT count(*) FROM walpressure.revoke_sweeper('regress_grantee')});
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY[0, 100], clients => 1, duration => 1, warmup => 0)},
	extra_params => [ '-U', 'regress_grantee' ]);
like($err, qr/permission denied for schema walpressure/, 'revoke_sweeper takes it back');
is($node->safe_psql('postgres', q{
SELECT count(*) FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member WHERE r.rolname = 'regress_grantee'}),
	'0', 'no role membership is left');
# with the backend engine, no right to run programs
$node->safe_psql('postgres', q{SELECT count(*) FROM walpressure.grant_sweeper('regress_grantee', engine => 'backend')});
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY[0, 100], clients => 1, duration => 1, warmup => 0, engine => 'backend')},
	extra_params => [ '-U', 'regress_grantee' ]);
is($ret, 0, 'grant_sweeper(engine => backend): a backend sweep runs') or diag($err);
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY[0, 100], clients => 1, duration => 1, warmup => 0)},
	extra_params => [ '-U', 'regress_grantee' ]);
like($err, qr/permission denied to run pgbench on the server.*HINT:.*grant_sweeper/s,
	'and not pgbench, whose refusal names grant_sweeper');
$node->safe_psql('postgres', q{SELECT count(*) FROM walpressure.revoke_sweeper('regress_grantee')});

# a running sweep's row cannot be deleted or truncated away; ended ones can
my $running = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '20 s',
                             warmup => '0 s', prewarm => false, engine => 'backend', wait => false)});
($ret, $out, $err) = $node->psql('postgres', "DELETE FROM walpressure.sweeps WHERE sweep_id = $running",
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  55006: sweep $running is running: its row cannot be deleted/, 'DELETE of the running sweep: 55006');
($ret, $out, $err) = $node->psql('postgres', 'TRUNCATE walpressure.sweeps CASCADE');
like($err, qr/cannot be truncated while sweep $running runs/, 'TRUNCATE while it runs: refused');
is($node->safe_psql('postgres', q{SELECT walpressure.delete_sweeps('1 microsecond') > 0}), 't',
	'delete_sweeps deletes the ended sweeps meanwhile');
is($node->safe_psql('postgres', q{SELECT walpressure.cancel_sweep(} . $running . q{)}), 't', 'the sweep runs on, and is cancelled');
is($node->safe_psql('postgres', "SELECT status FROM walpressure.sweeps WHERE sweep_id = $running"), 'cancelled',
	'its row kept to its end');

is(backend_pid($node, 'checkpointer'), $checkpointer, 'no crash-restart (the checkpointer kept its pid)');

# --- probe_fsync: intervals at their extremes are refused before any file exists
for my $d ("'1000000000 months'", "'-1 day'", "'2 days'", "'0 s'", "'-178000000 years'")
{
	my ($ret, $out, $err) = $node->psql('postgres', "SELECT * FROM walpressure.probe_fsync($d)",
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/ERROR:  22023: duration must be between 0 and 1 hour/, "probe_fsync($d): 22023");
}
my @left = glob("$pgdata/pg_wal/walpressure_fsync_probe.*");
is(scalar @left, 0, 'and left no file');

# --- kill -9 of a backend in the middle of probe_fsync: the crash-restart
# removes its 16 MB file (the sampler, at its start)
my $probe = background($node, q{SELECT * FROM walpressure.probe_fsync('30 s')});
my @files;
wait_until(sub { @files = glob("$pgdata/pg_wal/walpressure_fsync_probe.*") });
ok(scalar @files == 1, 'probe_fsync writes its file in pg_wal');
my ($prober) = $files[0] =~ /\.(\d+)$/;
kill9($node, $prober);
$probe->finish;
ok(wait_until(sub { !-e $files[0] }), 'after the crash-restart the dead probe\'s file is gone');

# --- pg_cancel_backend and pg_terminate_backend on the sampler during a
# window: the sampler comes back, the sweep runs to its end
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '4 s',
                             warmup => '0 s', prewarm => false, wait => false)});
wait_window($node, seconds => 1);
my $sampler = backend_pid($node, 'walpressure sampler');
$node->safe_psql('postgres', "SELECT pg_cancel_backend($sampler)");
# once a sample was taken after the cancel (a sampler that left on it, or
# was restarted, has another pid)
my $cancelled = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
wait_sql($node, "SELECT max(sample_time) > '$cancelled' FROM walpressure.samples", 'a sample after the cancel');
is(backend_pid($node, 'walpressure sampler'), $sampler, 'pg_cancel_backend on the sampler: it samples on');
$node->safe_psql('postgres', "SELECT pg_terminate_backend($sampler)");
wait_sweep($node, $id);
is(sweep_field($node, $id, "status || ' ' || (SELECT count(*) FROM walpressure.steps WHERE sweep_id = $id AND tps > 0)"),
	'done 1', 'pg_terminate_backend on the sampler in a window: the sweep ends with its step measured');
wait_sql($node, qq{SELECT count(*) = 1 FROM pg_stat_activity
                   WHERE backend_type = 'walpressure sampler' AND pid <> $sampler}, 'a new sampler');
nothing_left('the sampler terminated');

# --- worker slots taken by others mid-sweep: the backend engine's second
# step cannot start its clients; the sweep fails saying so, with the
# first step kept, and everything put back
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('clients', ARRAY['1', '10'], engine => 'backend', duration => '3 s',
                             warmup => '0 s', prewarm => false, wait => false)});
wait_window($node, step => 1);
my @hogs;
my $force_parallel = $node->pg_version >= 16 ? 'debug_parallel_query' : 'force_parallel_mode';
for my $i (1 .. 8)
{
	push @hogs, background($node, "SET $force_parallel = on; SET parallel_setup_cost = 0; SELECT pg_sleep(20)");
}
wait_sql($node, q{SELECT count(*) = 8 FROM pg_stat_activity WHERE backend_type = 'parallel worker'},
	'the parallel workers');
wait_sweep($node, $id);
like(sweep_field($node, $id, q{status || ': ' || coalesce(error, '')}),
	qr/^failed: could not start client worker \d+ of 10/,
	'no worker slot left for step 2\'s clients: the sweep fails, saying so');
is($node->safe_psql('postgres', "SELECT count(*) FROM walpressure.steps WHERE sweep_id = $id AND tps > 0"),
	'1', 'the step measured before is kept');
$node->safe_psql('postgres', q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity
                               WHERE query LIKE '%pg_sleep(20)%' AND backend_type = 'client backend'
                                 AND pid <> pg_backend_pid()});
$_->finish for @hogs;
nothing_left('worker slots taken mid-sweep');
sweep_works('after worker slots were taken mid-sweep');

# --- Ctrl-C while init_pgbench generates its rows: the statement is
# cancelled within a second, not at the end of the step
my $init = background($node, 'SELECT walpressure.init_pgbench(200)');
wait_sql($node, q{SELECT count(*) > 0 FROM pg_stat_activity
                  WHERE query LIKE 'insert into pgbench_accounts%' AND state = 'active'}, 'init_pgbench generating rows');
usleep(500_000);
my $t0 = Time::HiRes::time();
$node->safe_psql('postgres', q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity
                               WHERE query LIKE '%init_pgbench(200)%' AND backend_type = 'client backend'
                                 AND pid <> pg_backend_pid()});
my (undef, $ierr) = $init->finish;
my $took = Time::HiRes::time() - $t0;
like($ierr, qr/canceling statement due to user request/, 'Ctrl-C of init_pgbench: the call is cancelled');
ok($took < 5, sprintf('within the generating step: it returned %.1f s after the cancel', $took));
nothing_left('init_pgbench cancelled');
$node->safe_psql('postgres', 'SELECT walpressure.init_pgbench(1)');
sweep_works('after init_pgbench was cancelled');

# the blkio cgroup's directory, where the cap is written
my ($blkio) = map { (split ' ')[1] } grep { / cgroup .*\bblkio\b/ } split /\n/, slurp_file('/proc/mounts');
my $capfile = "$blkio/$CGROUP/blkio.throttle.write_iops_device";
sub capped { return slurp_file($capfile) =~ /^\d+:\d+ [1-9]/m ? 'capped' : 'uncapped'; }

# a capped sweep in its window
sub capped_sweep
{
	my ($duration) = @_;
	my $id = $node->safe_psql('postgres', qq{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '$duration',
                             warmup => '0 s', prewarm => false, iops_cap => 500, wait => false)});
	wait_window($node);
	is(capped(), 'capped', 'a capped sweep writes its cap in the cgroup');
	return $id;
}

# --- a machine crash during a capped sweep, and after the "reboot"
# walpressure.cgroup names another cgroup: the recovery removes the cap
# from the cgroup the sweep capped, which its state file names
$id = capped_sweep('30 s');
$node->stop('immediate');
$node->append_conf('postgresql.conf', "walpressure.cgroup = '${CGROUP}_nodeleg'\n");
$node->start;
sweep_reaches($node, $id, "status = 'aborted'") or die "sweep $id was not marked aborted";
is(capped() . ' ' . sweep_field($node, $id, q{coalesce(error, '')}),
	'uncapped interrupted: the server stopped or the coordinator exited (see the server log)',
	'walpressure.cgroup changed across a crash: the cap is removed from the cgroup the sweep capped');
$node->append_conf('postgresql.conf', "walpressure.cgroup = '$CGROUP'\n");
$node->reload;
wait_sql($node, qq{SELECT current_setting('walpressure.cgroup') = '$CGROUP'}, 'walpressure.cgroup back');

# --- the same, and the cgroup the sweep capped is gone after the "reboot"
# (its name in the state file is one that does not exist): the recovery
# cannot remove the cap, says so in the sweep's row and the log, and still
# closes the sweep: nothing is locked out
$id = capped_sweep('30 s');
$node->stop('immediate');
my $state = slurp_file("$pgdata/walpressure.sweep");
like($state, qr/^cap \d+:\d+ \d+ \d+ \Q$CGROUP\E$/m, 'the state file names the cgroup the sweep capped');
$state =~ s/^(cap \d+:\d+ \d+ \d+) \Q$CGROUP\E$/$1 walpressure_gone/m;
write_file("$pgdata/walpressure.sweep", $state);
$node->start;
sweep_reaches($node, $id, "status = 'aborted'") or die "sweep $id was not marked aborted";
like(sweep_field($node, $id, 'error'),
	qr/the recovery could not remove the IOPS cap: cgroup blkio:\/walpressure_gone does not exist/,
	'a recovery that cannot remove the cap says so in the sweep\'s row');
ok(state_file_gone(), 'and still removes the state file');
sweep_works('after a recovery that could not remove the cap');
$node->safe_psql('postgres', 'SELECT walpressure.clear_iops_cap()');
is(capped(), 'uncapped', 'clear_iops_cap removes what was left');

# --- the cap cannot be removed at a sweep's normal end (its limits file
# made read-only during the window): the sweep closes, the recovery tries
# again, and the row says what neither could do; nothing is locked out
$id = capped_sweep('3 s');
my $mode = (stat $capfile)[2] & 07777;
chmod 0444, $capfile or die "chmod $capfile: $!";
wait_sweep($node, $id);
my $gone = state_file_gone();
chmod $mode, $capfile or die;
ok($gone, 'a cap that cannot be removed at the end: the state file goes all the same');
like(sweep_field($node, $id, q{status || ': ' || coalesce(error, '')}),
	qr/^done: the recovery could not remove the IOPS cap: cgroup blkio:\/\Q$CGROUP\E is not delegated/,
	'the sweep keeps its figures and its row says the cap could not be removed');
sweep_works('after a cap that could not be removed');
$node->safe_psql('postgres', 'SELECT walpressure.clear_iops_cap()');
is(capped(), 'uncapped', 'clear_iops_cap removes it');

# --- a state file left while the server runs (its recovery worker could
# not start: no free slot): the next launch is refused, starts the recovery
# again, and a launch a moment later works
my $dboid = $node->safe_psql('postgres', q{SELECT oid FROM pg_database WHERE datname = 'postgres'});
write_file("$pgdata/walpressure.sweep", "987654 $dboid\n");
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '1 s', prewarm => false)});
like($err, qr/sweep 987654 was interrupted by a server stop and is still being closed/,
	'a launch while a state file is left: refused, saying why');
ok(state_file_gone(), 'that launch started the recovery, which closed the sweep');
sweep_works('after a state file left while the server ran');

done_testing();
