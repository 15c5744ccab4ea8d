# The disk cap with a real cgroup (test/run delegates blkio:/walpressure, or
# the run's own WP_TEST_CGROUP, to the postgres user, and creates the same
# name with _nodeleg without doing so).
#
# Majors: one (test/run runs it on one major only: the cgroup's files and the
# kernel's throttle, and the disk measured: the same C on every major)
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use WalPressure::Test;

# its assertions measure the machine: no other major's suites beside it
quiet_machine();

my $node = new_node('cap',
	conf => [ fsync => 'on', max_worker_processes => 16, shared_buffers => '512MB', restart_after_crash => 'on' ]);
my $pgdata = $node->data_dir;

sub cap_state
{
	return $node->safe_psql('postgres', q{
SELECT coalesce(write_iops::text, 'none') || ' ' || processes_enrolled || '/' || server_processes
FROM walpressure.iops_cap});
}

# pg_test_fsync's fdatasync line on pg_wal's file system, optionally in the
# cgroup: the tool is stopped once it has printed that line (its second test,
# after 2 s), not left to run its other 17 tests of a second each
sub pg_test_fsync
{
	my @prefix = @_;
	my $file = "$pgdata/pg_wal/pg_test_fsync.tmp";
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start([ @prefix, 'pg_test_fsync', '-s', '1', '-f', $file ],
		'>', \$out, '2>', \$err, IPC::Run::timeout(60));
	$h->pump until $out =~ /^\s+fdatasync\s+[\d.]+ ops\/sec/m || !$h->pumpable;
	$h->kill_kill;
	unlink $file;
	my ($ops) = $out =~ /^\s+fdatasync\s+([\d.]+) ops\/sec/m;
	die "no fdatasync line in pg_test_fsync output:\n$out$err" unless defined $ops;
	return $ops;
}

sub probe_fsync
{
	return $node->safe_psql('postgres',
		q{SELECT round(ops_per_s) FROM walpressure.probe_fsync('2 s')});
}

# A disk shared with other suites drifts from second to second: interleave
# five rounds of each and compare them in pairs, one ratio per round, so the
# drift both see cancels; the median ratio says how far the probe reads from
# pg_test_fsync, the median probe what it read.
sub compare_fsync
{
	my @prefix = @_;
	my (@ref, @probe, @ratio);
	for (1 .. 5)
	{
		push @ref, pg_test_fsync(@prefix);
		push @probe, probe_fsync();
		push @ratio, $probe[-1] / $ref[-1];
	}
	note "pg_test_fsync @ref; probe_fsync @probe; ratios "
	  . join(' ', map { sprintf '%.3f', $_ } @ratio);
	my $median = sub { my @s = sort { $a <=> $b } @_; $s[$#s / 2] };
	return ($median->(@ratio), $median->(@probe));
}

# walpressure.cgroup for the whole server, once a new session sees it
sub use_cgroup
{
	my ($cgroup) = @_;
	$node->safe_psql('postgres', qq{ALTER SYSTEM SET walpressure.cgroup = '$cgroup'; SELECT pg_reload_conf()});
	poll($node, qq{SELECT current_setting('walpressure.cgroup') = '$cgroup'});
}

like($node->safe_psql('postgres', 'SELECT mode FROM walpressure.iops_cap'), qr/v1/,
	'cgroup v1 blkio detected');
like(cap_state(), qr{^none 0/\d+$}, 'no cap, no process enrolled');

# probe_fsync against pg_test_fsync, uncapped
my ($ratio, $probe) = compare_fsync();
cmp_ok(abs($ratio - 1), '<', 0.25,
	"probe_fsync within 25% of pg_test_fsync uncapped (median ratio $ratio, probe $probe ops/s)");

# a 500 write IOPS cap: an fdatasync is two IOs (the data, the flush)
$node->safe_psql('postgres', 'SELECT walpressure.set_iops_cap(500)');
like(cap_state(), qr{^500 (\d+)/\1$}, 'capped at 500, every server process enrolled');
($ratio, $probe) = compare_fsync('cgexec', '-g', "blkio:$CGROUP");
cmp_ok(abs($ratio - 1), '<', 0.25,
	"probe_fsync within 25% of pg_test_fsync at 500 IOPS (median ratio $ratio, probe $probe ops/s)");
cmp_ok($probe, '>', 250 * 0.75, 'about 250 fdatasyncs a second at 500 IOPS (low side)');
cmp_ok($probe, '<', 250 * 1.25, 'about 250 fdatasyncs a second at 500 IOPS (high side)');

# what a cap set by set_iops_cap does across a restart: the limit stays in
# the cgroup, but the restarted server's processes are outside it
$node->restart;
like(cap_state(), qr{^500 0/\d+$}, 'after a restart the limit is there, no process is under it');
$node->safe_psql('postgres', 'SELECT walpressure.clear_iops_cap()');
like(cap_state(), qr{^none 0/}, 'clear_iops_cap removes the limit');

# a sweep under a 1000 write IOPS cap, as seed 000: simple-update, 10 clients.
# The disk does ~500 fsyncs a second at 1000 IOPS; commit_delay makes each
# carry more commits.  Clients with the round trip of a real client (pgbench
# over a local socket here behaves like ~100 us per statement) are not all
# queued at a flush without the delay (~2.5 commits per fsync, pgbench ~2.2),
# so the delay lets several more join each flush.  How many join varies from
# step to step (6 to 8 commits per fsync), so five interleaved repeats and
# their means.  The grouping at least doubles in every run; the tps ratio
# was 2.1-2.4x in six runs on a long-lived cluster and 1.9x once on this
# fresh one (pgbench on the same machine: 1.9-2.3x), so the tps bound here
# is 1.8x: what holds run after run.
$node->safe_psql('postgres', 'SELECT walpressure.init_pgbench(10)');
my $id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '1000'], clients => 10, engine => 'backend',
                             duration => '6 s', warmup => '2 s', iops_cap => 1000,
                             repeats => 5, settings => '{"round_trip_us": 100}')});
my ($iops0, $tps0, $tps1000, $cpf0, $cpf1000) = split /\|/, $node->safe_psql('postgres', qq{
SELECT (SELECT write_iops FROM walpressure.results WHERE sweep_id = $id AND value = '0'),
       (SELECT tps FROM walpressure.results WHERE sweep_id = $id AND value = '0'),
       (SELECT tps FROM walpressure.results WHERE sweep_id = $id AND value = '1000'),
       (SELECT commits_per_fsync FROM walpressure.results WHERE sweep_id = $id AND value = '0'),
       (SELECT commits_per_fsync FROM walpressure.results WHERE sweep_id = $id AND value = '1000')});
note "1000 IOPS cap, 100 us round trip: commit_delay 0: $tps0 tps at $iops0 write IOPS, "
  . "$cpf0 commits/fsync; commit_delay 1000: $tps1000 tps, $cpf1000 commits/fsync";
cmp_ok(abs($iops0 - 1000), '<=', 100, "commit_delay 0 writes at the cap: $iops0 IOPS within 10% of 1000");
cmp_ok($cpf1000 / $cpf0, '>=', 2.0, 'commit_delay 1000 at least doubles the commits per fsync');
cmp_ok($tps1000 / $tps0, '>=', 1.8, 'commit_delay 1000 gives at least 1.8x the tps of 0');
is($node->safe_psql('postgres', qq{
SELECT string_agg(DISTINCT round_trip_us::text, ' ') FROM walpressure.steps WHERE sweep_id = $id}),
	'100', 'the steps record their round trip');

# Without round trips in-server clients are always ready: about half of the
# 10 are queued at each flush already (~4.6 commits per fsync), and the
# delay can at most fill the flush with all 10, a ceiling near 10/4.6.
my $id0 = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '1000'], clients => 10, engine => 'backend',
                             duration => '5 s', warmup => '2 s', iops_cap => 1000)});
my ($cpf_rt0, $cpf_rt1000) = split /\|/, $node->safe_psql('postgres', qq{
SELECT (SELECT commits_per_fsync FROM walpressure.results WHERE sweep_id = $id0 AND value = '0'),
       (SELECT commits_per_fsync FROM walpressure.results WHERE sweep_id = $id0 AND value = '1000')});
note "no round trip: $cpf_rt0 -> $cpf_rt1000 commits/fsync";
cmp_ok($cpf_rt0, '>', $cpf0, 'without round trips more clients share each flush at commit_delay 0');
cmp_ok($cpf_rt1000 / $cpf_rt0, '>=', 1.5, 'commit_delay 1000 still raises the grouping without round trips');
is($node->safe_psql('postgres', qq{
SELECT string_agg(iops_cap::text, ' ' ORDER BY step) FROM walpressure.steps WHERE sweep_id = $id}),
	'1000 1000 1000 1000 1000 1000 1000 1000 1000 1000', 'the steps record their cap');
like(cap_state(), qr{^none }, 'the sweep\'s cap is gone when it ends');
is($node->safe_psql('postgres', q{
SELECT count(*) > 0 FROM walpressure.samples WHERE write_iops BETWEEN 800 AND 1100}),
	't', 'the sampler saw the capped write IOPS');

# iops_cap as the swept parameter
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('iops_cap', ARRAY['300', '600'], clients => 4,
                             duration => '4 s', warmup => '1 s', prewarm => false)});
my ($w300, $w600) = split /\|/, $node->safe_psql('postgres', qq{
SELECT (SELECT write_iops FROM walpressure.steps WHERE sweep_id = $id AND value = '300'),
       (SELECT write_iops FROM walpressure.steps WHERE sweep_id = $id AND value = '600')});
cmp_ok($w300, '<=', 330, "iops_cap 300 holds writes to the cap ($w300)");
cmp_ok($w600, '>', $w300 * 1.5, "iops_cap 600 lets more through ($w600)");
like(cap_state(), qr{^none }, 'no cap left after the iops_cap sweep');

# kill -9 in the middle of a capped sweep: after the restart, no cap is left
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '0', '0'], engine => 'backend', clients => 4,
                             duration => '3 s', warmup => '0 s', iops_cap => 700,
                             prewarm => false, wait => false)});
wait_clients($node);
like(cap_state(), qr{^700 }, 'the sweep holds a 700 IOPS cap');
ok(kill9($node, backend_pid($node, 'walpressure client')), 'kill -9: the server crash-restarts');
ok(sweep_reaches($node, $id, "status = 'aborted'"), 'the capped sweep reads aborted');
ok(poll($node, q{SELECT write_iops IS NULL FROM walpressure.iops_cap}), 'no cap left on the device after the crash');

# the cgroup's own errors: each clear, nothing changed
my ($ret, $out, $err);
use_cgroup("${CGROUP}_missing");
($ret, $out, $err) = $node->psql('postgres', 'SELECT walpressure.set_iops_cap(100)');
like($err, qr/cgroup blkio:\/${CGROUP}_missing does not exist/, 'a missing cgroup');
like($err, qr/HINT:  As root, once: cgcreate -a postgres:postgres -t postgres:postgres -g blkio:\/${CGROUP}_missing/,
	'the hint gives the cgcreate command');
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1, iops_cap => 100)});
like($err, qr/does not exist/, 'run_sweep with a cap checks the cgroup before anything starts');

use_cgroup("${CGROUP}_nodeleg");
($ret, $out, $err) = $node->psql('postgres', 'SELECT walpressure.set_iops_cap(100)');
like($err, qr/cgroup blkio:\/${CGROUP}_nodeleg is not delegated to this server's user/,
	'a cgroup not delegated');
like($err, qr/cgcreate -a postgres:postgres -t postgres:postgres -g blkio:\/${CGROUP}_nodeleg/,
	'the hint gives the cgcreate command');
like($node->safe_psql('postgres', 'SELECT problem FROM walpressure.iops_cap'),
	qr/not delegated/, 'the iops_cap view says what is wrong');
$node->safe_psql('postgres', q{ALTER SYSTEM RESET walpressure.cgroup; SELECT pg_reload_conf()});

is($node->safe_psql('postgres', q{SELECT count(*) FROM walpressure.sweeps
WHERE iops_cap = 100}), '0', 'the refused sweeps recorded nothing');
$node->stop;

# no cgroup file system at all (the hierarchy's location pointed elsewhere)
my $bare = new_node('nocgroup', env => { WALPRESSURE_CGROUP_FS => PostgreSQL::Test::Utils::tempdir });
($ret, $out, $err) = $bare->psql('postgres', 'SELECT walpressure.set_iops_cap(100)');
like($err, qr/no cgroup hierarchy with an IO controller is mounted/, 'no cgroup hierarchy');
is($bare->safe_psql('postgres', 'SELECT mode FROM walpressure.iops_cap'), 'none',
	'the view says none');
$bare->stop;

done_testing();
