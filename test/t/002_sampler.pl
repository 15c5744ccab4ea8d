# The sampler: reloads its interval, comes back after kill -9, and the
# server crash-restarts cleanly with the library loaded.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use WalPressure::Test;

# some of its assertions measure the machine: those run where test/run
# measures, with no other major's suites beside it (WalPressure::Test)
my $measuring = quiet_machine();

# WAL fsyncs for the live view's consistency under load (the test
# framework's default is fsync = off: no fsync to count)
my $node = new_node('sampler',
	conf => [ 'walpressure.sample_interval' => 200, restart_after_crash => 'on', fsync => 'on' ]);
# one connection for the queries around the crashes below: it reconnects
# when a crash-restart has killed its backend
my $s = session($node);

sub sampler_pid
{
	return $s->query(q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'walpressure sampler'});
}

# Intervals of the newest samples, once at least `n` exist after a reset.
# The first interval after a reset starts at the reset: the reset comes
# just after a sample (in the server, whatever the load on this machine),
# so that interval is a whole one but for milliseconds.
sub recent_intervals
{
	my ($n) = @_;
	$s->query(q{
DO $$
DECLARE t0 timestamptz := (SELECT max(sample_time) FROM walpressure.samples);
BEGIN
  WHILE (SELECT max(sample_time) FROM walpressure.samples) IS NOT DISTINCT FROM t0 LOOP
    PERFORM pg_sleep(0.005);
  END LOOP;
  PERFORM walpressure.reset();
END $$});
	wait_sql($node, qq{SELECT count(*) >= $n FROM walpressure.samples}, "$n samples");
	return $s->query(q{SELECT round(avg(seconds), 1) FROM walpressure.samples});
}

# kill -9 of a server process: the postmaster crash-restarts the server,
# and the sampler comes back
sub crash_restart
{
	my ($pid, $name) = @_;
	ok(kill9($node, $pid), $name);
	wait_sql($node, q{SELECT count(*) = 1 FROM pg_stat_activity WHERE backend_type = 'walpressure sampler'},
		'the sampler to come back');
	return;
}

my $pid = sampler_pid();
like($pid, qr/^\d+$/, 'the sampler runs');
my $interval = recent_intervals(4);
if ($measuring)
{
	is($interval, '0.2', 'samples every 200 ms');
}
else
{
	cmp_ok($interval, '>=', 0.2, "samples at least 200 ms apart ($interval s; their interval is measured on $ENV{WP_ONE_MAJOR})");
}

# SIGHUP: a new interval, same process (once the sampler took it, its
# samples are a second long)
$s->query(q{
ALTER SYSTEM SET walpressure.sample_interval = '1s';
SELECT pg_reload_conf();
});
wait_sql($node, q{SELECT seconds >= 0.9 FROM walpressure.samples LIMIT 1}, 'a sample at the new interval');
$interval = recent_intervals(3);
if ($measuring)
{
	is($interval, '1.0', 'after a reload, samples every second');
}
else
{
	cmp_ok($interval, '>=', 0.9, "after a reload, samples about a second apart ($interval s)");
}
is(sampler_pid(), $pid, 'the sampler took the reload without restarting');

# terminated by a superuser: it leaves quietly and is started again
$node->safe_psql('postgres', qq{SELECT pg_terminate_backend($pid)});
ok(poll($node, qq{
SELECT count(*) = 1 FROM pg_stat_activity
WHERE backend_type = 'walpressure sampler' AND pid <> $pid}),
	'a terminated sampler is started again');
$pid = sampler_pid();

# kill -9 of the sampler: a process attached to shared memory died, so the
# postmaster restarts the server; the sampler comes back.
crash_restart($pid, 'the server crash-restarted');
my $new_pid = sampler_pid();
isnt($new_pid, $pid, 'the sampler is back, as a new process');
ok(poll($node, q{SELECT count(*) >= 2 FROM walpressure.samples}),
	'and it samples again');
is($node->safe_psql('postgres', q{
SELECT bool_and(newer > older) FROM (
  SELECT sample_time AS newer, lead(sample_time) OVER () AS older FROM walpressure.samples) s
WHERE older IS NOT NULL}), 't', 'walpressure.samples lists the newest interval first');

# kill -9 of another server process (the WAL writer): crash-restart, then
# everything works again
crash_restart($s->query(q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'walwriter'}),
	'WAL writer killed: the server crash-restarted');

$s->query(q{
SELECT walpressure.reset();
CREATE TABLE after_crash (i int);
INSERT INTO after_crash VALUES (1);
});
is($s->query(q{SELECT commits FROM walpressure.live WHERE period = 'since reset'}),
	'2', 'the probe counts commits after the crash-restart');

# a clean stop and start: no complaint from the library
$node->restart;
is($s->query(q{SELECT count(*) FROM walpressure.live}), '2',
	'live reads after a restart');
$s->quit;
my $log = slurp_file($node->logfile);
unlike($log, qr/walpressure.*(ERROR|FATAL)|(ERROR|FATAL).*walpressure/,
	'no error from walpressure in the server log');

# Under load, the live view and the samples never show more leaders'
# fsyncs than WAL fsyncs in one row (pg_stat_wal shows a backend's fsyncs up
# to a second late, the probe counts the leaders' at once)
$node->safe_psql('postgres', 'SELECT walpressure.init_pgbench(1)');
$node->safe_psql('postgres', 'SELECT walpressure.reset()');
my $sid = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY[0], clients => 4,
                             duration => 6, warmup => 0, prewarm => false, wait => false)});
# read while the load runs, not before it started
wait_window($node);
my ($rows, $over) = (0, 0);
for (1 .. 40)
{
	my ($n, $bad) = split /\|/, $node->safe_psql('postgres', q{
SELECT count(*), count(*) FILTER (WHERE leader_fsyncs > wal_fsyncs) FROM walpressure.live WHERE commits > 0});
	$rows += $n;
	$over += $bad;
	usleep(150_000);
}
ok($measuring ? $rows > 40 : $rows > 0, "live read $rows times under load");
is($over, 0, 'leader_fsyncs never exceeds wal_fsyncs in a row of live');
is($node->safe_psql('postgres', q{SELECT count(*) FILTER (WHERE leaders > wal_fsyncs) FROM walpressure.samples}),
	'0', 'nor leaders in a row of samples');
wait_sweep($node, $sid);

$node->stop;
done_testing();
