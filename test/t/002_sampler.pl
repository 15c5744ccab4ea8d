# The sampler: reloads its interval, comes back after kill -9, and the
# server crash-restarts cleanly with the library loaded.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $node = PostgreSQL::Test::Cluster->new('sampler');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'walpressure'
walpressure.sample_interval = 200
restart_after_crash = on
# WAL fsyncs for the live view's consistency under load (the test
# framework's default is fsync = off: no fsync to count)
fsync = on
});
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION walpressure CASCADE');

sub sampler_pid
{
	return $node->safe_psql('postgres',
		q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'walpressure sampler'});
}

# Intervals of the newest samples, once at least `n` exist after a reset.
sub recent_intervals
{
	my ($n) = @_;
	$node->safe_psql('postgres', 'SELECT walpressure.reset()');
	$node->poll_query_until('postgres',
		qq{SELECT count(*) >= $n FROM walpressure.samples})
	  or die "no $n samples";
	return $node->safe_psql('postgres', qq{
SELECT round(avg(seconds), 1) FROM walpressure.samples});
}

my $pid = sampler_pid();
like($pid, qr/^\d+$/, 'the sampler runs');
is(recent_intervals(4), '0.2', 'samples every 200 ms');

# SIGHUP: a new interval, same process
$node->safe_psql('postgres', q{
ALTER SYSTEM SET walpressure.sample_interval = '1s';
SELECT pg_reload_conf();
});
is(recent_intervals(3), '1.0', 'after a reload, samples every second');
is(sampler_pid(), $pid, 'the sampler took the reload without restarting');

# terminated by a superuser: it leaves quietly and is started again
$node->safe_psql('postgres', qq{SELECT pg_terminate_backend($pid)});
ok($node->poll_query_until('postgres', qq{
SELECT count(*) = 1 FROM pg_stat_activity
WHERE backend_type = 'walpressure sampler' AND pid <> $pid}),
	'a terminated sampler is started again');
$pid = sampler_pid();

# kill -9 of the sampler: a process attached to shared memory died, so the
# postmaster restarts the server; the sampler comes back.
my $log_offset = -s $node->logfile;
kill 'KILL', $pid;
ok($node->wait_for_log(qr/all server processes terminated; reinitializing/, $log_offset),
	'the server crash-restarted');
$node->poll_query_until('postgres',
	q{SELECT count(*) = 1 FROM pg_stat_activity WHERE backend_type = 'walpressure sampler'})
  or die 'sampler did not come back';
my $new_pid = sampler_pid();
isnt($new_pid, $pid, 'the sampler is back, as a new process');
ok($node->poll_query_until('postgres', q{SELECT count(*) >= 2 FROM walpressure.samples}),
	'and it samples again');
is($node->safe_psql('postgres', q{
SELECT bool_and(newer > older) FROM (
  SELECT sample_time AS newer, lead(sample_time) OVER () AS older FROM walpressure.samples) s
WHERE older IS NOT NULL}), 't', 'walpressure.samples lists the newest interval first');

# kill -9 of another server process (the WAL writer): crash-restart, then
# everything works again
my $walwriter = $node->safe_psql('postgres',
	q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'walwriter'});
$log_offset = -s $node->logfile;
kill 'KILL', $walwriter;
ok($node->wait_for_log(qr/all server processes terminated; reinitializing/, $log_offset),
	'WAL writer killed: the server crash-restarted');
$node->poll_query_until('postgres',
	q{SELECT count(*) = 1 FROM pg_stat_activity WHERE backend_type = 'walpressure sampler'})
  or die 'sampler did not come back';

$node->safe_psql('postgres', q{
SELECT walpressure.reset();
CREATE TABLE after_crash (i int);
INSERT INTO after_crash VALUES (1);
});
is($node->safe_psql('postgres',
	q{SELECT commits FROM walpressure.live WHERE period = 'since reset'}),
	'2', 'the probe counts commits after the crash-restart');

# a clean stop and start: no complaint from the library
$node->restart;
is($node->safe_psql('postgres', q{SELECT count(*) FROM walpressure.live}), '2',
	'live reads after a restart');
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
my ($rows, $over) = (0, 0);
for (1 .. 40)
{
	my ($n, $bad) = split /\|/, $node->safe_psql('postgres', q{
SELECT count(*), count(*) FILTER (WHERE leader_fsyncs > wal_fsyncs) FROM walpressure.live WHERE commits > 0});
	$rows += $n;
	$over += $bad;
	usleep(150_000);
}
ok($rows > 40, "live read $rows times under load");
is($over, 0, 'leader_fsyncs never exceeds wal_fsyncs in a row of live');
is($node->safe_psql('postgres', q{SELECT count(*) FILTER (WHERE leaders > wal_fsyncs) FROM walpressure.samples}),
	'0', 'nor leaders in a row of samples');
$node->poll_query_until('postgres', qq{SELECT status <> 'running' FROM walpressure.sweeps WHERE sweep_id = $sid})
  or die 'the sweep did not end';

$node->stop;
done_testing();
