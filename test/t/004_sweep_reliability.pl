# Sweeps under trouble with the backend engine: cancel, Ctrl-C, kill -9 of
# a client worker, custom SQL without rights (the pgbench engine's: 009).
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use WalPressure::Test;

my $node = new_node('reliability', conf => [ max_worker_processes => 16, restart_after_crash => 'on' ],
	pgbench => 1);

sub wait_steps
{
	my ($id, $n) = @_;
	sweep_reaches($node, $id, "steps_done >= $n") or die "sweep $id did not reach $n steps";
	# and the next step's clients are running
	wait_clients($node);
}

# a file's first line, or '' (a process that has just gone)
sub slurp_or_empty
{
	my ($path) = @_;
	open(my $f, '<', $path) or return '';
	return scalar(<$f>) // '';
}

# a one-step sweep with the backend engine runs to its end
sub sweep_runs
{
	my ($name) = @_;
	my $id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, duration => '1 s',
                             warmup => '0 s', engine => 'backend')});
	is(sweep_field($node, $id, 'status'), 'done', $name);
}

# cancel_sweep in the middle of the second step
my $id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '100', '200'], clients => 2,
                             duration => '2 s', warmup => '0 s', engine => 'backend', prewarm => false,
                             wait => false)});
wait_steps($id, 1);
is($node->safe_psql('postgres', "SELECT walpressure.cancel_sweep($id)"), 't', 'cancel_sweep');
is($node->safe_psql('postgres', qq{
SELECT status || ' ' || steps_done || ' ' || (SELECT count(*) FROM walpressure.steps WHERE sweep_id = $id)
FROM walpressure.sweeps WHERE sweep_id = $id}),
	'cancelled 1 1', 'cancelled: the finished step is kept, the one in flight is not');
is(worker_count($node), '0', 'no worker left after cancel_sweep');

# Ctrl-C on a waiting run_sweep: the same as pg_cancel_backend on its backend
my $h = background($node, q{SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '100', '200'], clients => 2,
	                                 duration => '2 s', warmup => '0 s', engine => 'backend', prewarm => false,
	                                 label => 'ctrl-c')});
wait_sql($node, q{SELECT count(*) = 1 FROM walpressure.sweeps WHERE label = 'ctrl-c'}, 'the ctrl-c sweep');
$id = $node->safe_psql('postgres', q{SELECT sweep_id FROM walpressure.sweeps WHERE label = 'ctrl-c'});
wait_steps($id, 1);
$node->safe_psql('postgres', q{
SELECT pg_cancel_backend(pid) FROM pg_stat_activity
WHERE query LIKE '%ctrl-c%' AND backend_type = 'client backend' AND pid <> pg_backend_pid()});
my (undef, $err) = $h->finish;
like($err, qr/canceling statement due to user request/, 'Ctrl-C: run_sweep is cancelled');
is($node->safe_psql('postgres', qq{
SELECT status || ' ' || (SELECT count(*) FROM walpressure.steps WHERE sweep_id = $id)
FROM walpressure.sweeps WHERE sweep_id = $id}),
	'cancelled 1', 'Ctrl-C cancels the sweep and keeps the finished step');
is(worker_count($node), '0', 'no worker left after Ctrl-C');

# custom SQL runs as the caller: no rights, no result
$node->safe_psql('postgres', q{
CREATE TABLE secret (i int);
CREATE ROLE regress_sweeper LOGIN;
GRANT USAGE ON SCHEMA walpressure TO regress_sweeper;
GRANT EXECUTE ON FUNCTION
    walpressure.run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool, text, text, float8, float8, text, text, "any", text, float8)
TO regress_sweeper;
GRANT pg_checkpoint TO regress_sweeper;
});
my ($ret, $stdout, $stderr) = $node->psql('postgres', q{
\set VERBOSITY verbose
SET ROLE regress_sweeper;
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '1 s',
                             warmup => '0 s', engine => 'backend', workload => 'custom', label => 'no rights',
                             settings => '{"sql": "INSERT INTO secret VALUES (1)"}')});
like($stderr, qr/ERROR:  42501: sweep \d+ failed: client worker 1 stopped: permission denied for table secret/,
	'custom SQL without rights: a permission error (its SQLSTATE carried back), not a result');
is($node->safe_psql('postgres', q{
SELECT status || ' ' || run_by || ' ' || (SELECT count(*) FROM secret)
FROM walpressure.sweeps WHERE label = 'no rights'}),
	'failed regress_sweeper 0', 'the sweep failed, ran as the caller, wrote nothing');

# the same client failing before its coordinator sees it start: the sweep
# gives the client's error, not "did not start".  Staged by pid: the
# postmaster is held while the coordinator waits for the client to start,
# then the coordinator while the client starts, fails and exits.
{
	my $s = session($node);
	my $postmaster = $node->{_pid};
	my $checkpointer = backend_pid($node, 'checkpointer');
	my @held;
	my $hold = sub { kill 'STOP', $_[0]; push @held, $_[0]; };
	my $release = sub { kill 'CONT', $_[0]; @held = grep { $_ != $_[0] } @held; };
	# (17 and later spell it BgworkerStartup, 15 and 16 BgWorkerStartup)
	my $wait_event = sub {
		my ($pid, $event) = @_;
		wait_until(sub { lc($s->query("SELECT wait_event FROM pg_stat_activity WHERE pid = $pid")) eq lc($event) })
		  or die "pid $pid never waited on $event";
	};
	# the postmaster's children named walpressure client
	my $clients = sub {
		return scalar grep { slurp_or_empty("/proc/$_/cmdline") =~ /walpressure client/ } children($postmaster);
	};
	my $rid;
	my $staged = eval {
		# the step's checkpoint holds the coordinator before it starts the client
		$hold->($checkpointer);
		$rid = $node->safe_psql('postgres', q{
SET ROLE regress_sweeper;
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '1 s',
                             warmup => '0 s', engine => 'backend', workload => 'custom', prewarm => false,
                             wait => false, label => 'fails at once',
                             settings => '{"sql": "INSERT INTO secret VALUES (1)"}')});
		my $coordinator = backend_pid($node, 'walpressure coordinator');
		$wait_event->($coordinator, 'CheckpointStart');
		$hold->($postmaster);
		$release->($checkpointer);
		$wait_event->($coordinator, 'BgWorkerStartup');
		$hold->($coordinator);
		$release->($postmaster);
		# the client has come and gone before the coordinator looks
		my $seen = 0;
		my $t0 = Time::HiRes::time();
		wait_until(sub { my $n = $clients->(); $seen ||= $n; !$n && ($seen || Time::HiRes::time() - $t0 > 3) })
		  or die 'the client did not exit';
		$release->($coordinator);
		1;
	};
	my $why = $@;
	kill 'CONT', $_ for @held;
	$s->quit;
	die "staging the fast failure: $why" unless $staged;
	wait_sweep($node, $rid);
	like(sweep_field($node, $rid, q{status || ': ' || error}),
		qr/^failed: client worker 1 stopped: permission denied for table secret/,
		'a client gone before its coordinator saw it start: the sweep gives its error, not "did not start"');
	is(worker_count($node), '0', 'no worker left after it');
}

# the bookkeeping done as the extension owner ignores the caller's
# search_path: a function planted there never runs with the owner's rights
$node->safe_psql('postgres', q{
CREATE SCHEMA evil AUTHORIZATION regress_sweeper;
ALTER ROLE regress_sweeper SET search_path = evil, pg_catalog, public;
GRANT SELECT ON pgbench_branches TO regress_sweeper;
});
$node->safe_psql('postgres', q{
SET ROLE regress_sweeper;
CREATE FUNCTION evil.clock_timestamp() RETURNS timestamptz LANGUAGE plpgsql AS $$
BEGIN EXECUTE 'ALTER ROLE regress_sweeper SUPERUSER'; RETURN now(); END $$;
CREATE FUNCTION evil.jsonb_array_length(jsonb) RETURNS int LANGUAGE plpgsql AS $$
BEGIN EXECUTE 'ALTER ROLE regress_sweeper SUPERUSER'; RETURN 1; END $$;
});
($ret, $stdout, $stderr) = $node->psql('postgres', q{
SET ROLE regress_sweeper;
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '1 s',
                             warmup => '0 s', engine => 'backend', prewarm => false, label => 'search_path',
                             workload => 'custom', settings => '{"sql": "SELECT 1"}')});
is($node->safe_psql('postgres', q{
SELECT s.status || ' ' || r.rolsuper FROM walpressure.sweeps s, pg_roles r
WHERE s.label = 'search_path' AND r.rolname = 'regress_sweeper'}),
	'done false', 'a function on the caller\'s search_path never runs as the owner');

# a client terminated in the middle of a step fails the sweep, with the reason
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '100'], clients => 2,
                             duration => '3 s', warmup => '0 s', engine => 'backend', prewarm => false,
                             wait => false)});
wait_steps($id, 0);
$node->safe_psql('postgres', q{
SELECT pg_terminate_backend(pid) FROM pg_stat_activity
WHERE backend_type = 'walpressure client' LIMIT 1});
ok(sweep_reaches($node, $id, "status = 'failed'"), 'a terminated client fails the sweep');
like(sweep_field($node, $id, 'error'), qr/terminated before the step ended/, 'and the sweep says why');
is(worker_count($node), '0', 'no worker left after a terminated client');

# kill -9 of one client in the middle of a step
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '100', '200', '300'], clients => 2,
                             duration => '2 s', warmup => '0 s', engine => 'backend', prewarm => false,
                             wait => false)});
wait_steps($id, 2);
ok(kill9($node, backend_pid($node, 'walpressure client')), 'kill -9 of a client: the server crash-restarts');
ok(sweep_reaches($node, $id, "status = 'aborted'"), 'the sweep reads aborted');
my $done = $node->safe_psql('postgres', qq{
SELECT count(*) FROM walpressure.steps WHERE sweep_id = $id});
cmp_ok($done, '>=', 2, 'the steps finished before the crash are intact');
is($node->safe_psql('postgres', qq{
SELECT count(*) = $done AND bool_and(tps > 0) FROM walpressure.steps
WHERE sweep_id = $id AND step <= $done}), 't', 'and complete');
is(worker_count($node), '0', 'no worker left after the crash');

# and a new sweep runs
sweep_runs('a new sweep runs after the crash');

# a client worker that cannot stop (SIGSTOP: it cannot act on SIGTERM) is
# given up on, and no later step reuses its slot while it lives
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5', '6'], clients => 1, duration => '2 s',
                             warmup => '0 s', engine => 'backend', prewarm => false, wait => false,
                             workload => 'custom', settings => '{"sql": "SELECT pg_sleep(1)"}')});
# stopped while it sleeps, holding no lock anyone else waits for
wait_sql($node,
	q{SELECT count(*) > 0 FROM pg_stat_activity WHERE backend_type = 'walpressure client' AND wait_event = 'PgSleep'},
	'the client in pg_sleep');
my $stuck = backend_pid($node, 'walpressure client');
kill 'STOP', $stuck;
wait_sweep($node, $id);
like(sweep_field($node, $id, q{status || ': ' || error}),
	qr/^failed: a walpressure client worker of an earlier step \(pid $stuck\) has not stopped/,
	'a client that does not stop: the next step refuses to reuse its slot, the sweep fails saying so');
kill 'CONT', $stuck;
ok(poll($node, q{SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'walpressure client'}),
	'once it can, it stops');
sweep_runs('and the next sweep runs');

$node->stop;
done_testing();
