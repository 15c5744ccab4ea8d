# The paced disk: a server started with walpressure_pacer.so (LD_PRELOAD),
# whose cap charges every write IO and flush of pg_wal's filesystem its share
# of the budget, in arrival order, as a volume does, beside the cgroup's
# throttle (test/run delegates blkio:/walpressure, or WP_TEST_CGROUP).
#
# What is checked: the view says the pacer is there; a paced flush costs its
# share (2 ms at 1000 write IOPS, no cliff: p99 near p50), a floor and the
# flush after it; a paced sweep, a throttle sweep and a sweep of the disk
# itself end to end, each step's disk recorded, shown by results and carried
# by export and import; nothing left paced after a sweep, a cancel or a
# crash, a paced cap set by hand put back after a sweep and gone after a
# crash (shared memory is made anew); a server without the pacer refuses the
# paced disk with the line that adds it, and defaults to the throttle.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use WalPressure::Test;

# some of its assertions measure the machine: those run where test/run
# measures, with no other major's suites beside it (WalPressure::Test);
# elsewhere a paced flush keeps its low side (pacing only adds to it), and
# this major's own writes and flushes are still charged (the IOs counted)
my $measuring = quiet_machine();

my $pacer;
{
	my $probe = PostgreSQL::Test::Cluster->new('pkglib');
	$pacer = $probe->config_data('--pkglibdir') . '/walpressure_pacer.so';
}
ok(-f $pacer, "the pacer is installed beside walpressure ($pacer)");

# (PostgreSQL::Test::Cluster's clusters run with fsync off: a flush here is a flush)
my $node = new_node('paced',
	conf => [ fsync => 'on', max_worker_processes => 16, restart_after_crash => 'on' ],
	env => { LD_PRELOAD => $pacer }, pgbench => 1);

sub cap_state
{
	return $node->safe_psql('postgres', q{
SELECT coalesce(disk, 'none') || ' ' || coalesce(write_iops::text, '-') FROM walpressure.iops_cap});
}

is($node->safe_psql('postgres', 'SELECT pacer FROM walpressure.iops_cap'), 'loaded',
	'the view says the server runs with the pacer');
is(cap_state(), 'none -', 'no cap at first');

# a paced flush: at 1000 write IOPS a flush (2 IOs) costs 2 ms, each one the
# same: the mean is the budget's share and p99 stays near p50, where the
# throttle's p99 is a whole 100 ms slice
my ($ret, $out, $err) = $node->psql('postgres', 'SELECT walpressure.set_iops_cap(1000)');
like($err, qr/paced at 1000 write IOs a second .*the paced disk: the server was started with walpressure_pacer.so/,
	'set_iops_cap paces by default where the pacer is loaded, and says so');
is(cap_state(), 'paced 1000', 'the view shows the paced cap');
my ($avg, $p50, $p99, $disk) = split /\|/, $node->safe_psql('postgres', q{
SELECT latency_avg_ms, latency_p50_ms, latency_p99_ms, disk FROM walpressure.probe_fsync('3 s')});
note "paced 1000 IOPS: fdatasync mean $avg ms, p50 $p50 ms, p99 $p99 ms";
if ($measuring)
{
	cmp_ok(abs($avg / 2.0 - 1), '<', 0.15, "a paced flush costs its share: mean $avg ms within 15% of 2 ms");
	cmp_ok($p99 / $p50, '<=', 3, "no cliff: p99/p50 = " . sprintf('%.2f', $p99 / $p50) . ' <= 3');
}
else
{
	cmp_ok($p50, '>=', 2.0 * 0.9, "a paced flush costs at least its share: p50 $p50 ms of 2 ms");
}
is($disk, 'paced at 1000 write IOPS', 'probe_fsync says the disk it ran on');
$node->safe_psql('postgres', q{SELECT walpressure.set_iops_cap(1000, disk => 'paced', flush_floor_ms => 5)});
($avg) = $node->safe_psql('postgres', q{SELECT latency_avg_ms FROM walpressure.probe_fsync('1 s')});
cmp_ok($avg, '>=', 5 * 0.97, "a floor of 5 ms holds on an idle disk: mean $avg ms (low side)");
cmp_ok($avg, '<', 5 * 1.3, "... and adds little to it (high side)") if $measuring;
$node->safe_psql('postgres', 'SELECT walpressure.clear_iops_cap()');
is(cap_state(), 'none -', 'clear_iops_cap takes the paced cap away');
($avg, $p50) = split /\|/, $node->safe_psql('postgres', q{SELECT latency_avg_ms, latency_p50_ms FROM walpressure.probe_fsync('1 s')});
if ($measuring)
{
	cmp_ok($avg, '<', 1.5, "uncapped again: mean $avg ms");
}
else
{
	# the disk is shared with other majors' clusters: its median, below the floor
	cmp_ok($p50, '<', 4.85, "uncapped again: median $p50 ms, the floor gone");
}

# a paced sweep end to end: the disk in its plan, its row, each step, results
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '1000'], clients => 4, engine => 'backend',
                             duration => '2 s', warmup => '1 s', repeats => 2, iops_cap => 1000,
                             prewarm => false, label => 'paced')});
is($ret, 0, 'a paced sweep runs') or diag $err;
my $paced = $out;
like($err, qr/the cap of 1000 write IOPS stands for the paced disk \(the server was started with walpressure_pacer.so\)/,
	'its plan NOTICE names the paced disk and why');
is(sweep_field($node, $paced, q{disk || ' ' || status}), 'paced done', 'the sweep records its disk');
is($node->safe_psql('postgres', qq{
SELECT string_agg(DISTINCT disk, ' ') FROM walpressure.steps WHERE sweep_id = $paced}), 'paced',
	'each step records its disk');
is($node->safe_psql('postgres', qq{
SELECT string_agg(disk, ' ' ORDER BY value_pos) FROM walpressure.results WHERE sweep_id = $paced}),
	'paced paced', 'results shows the disk of each value');
my $w0 = $node->safe_psql('postgres', qq{
SELECT write_iops FROM walpressure.results WHERE sweep_id = $paced AND value = '0'});
cmp_ok($w0, '>', 0, "the steps' write IOPS are the IOs the paced disk charged ($w0)");
cmp_ok($w0, '<=', 1050, "... and no more than the cap ($w0)");
like(sweep_field($node, $paced, 'f0_source'), qr/\(paced disk\)/, 'F0 was measured on the paced disk');
is($node->safe_psql('postgres', qq{
SELECT count(*) > 0 FROM walpressure.samples WHERE write_iops BETWEEN @{[ $measuring ? 500 : 1 ]} AND 1050}),
	't', 'the sampler saw the paced disk\'s write IOPS');
is(cap_state(), 'none -', 'nothing is left paced after the sweep');

# export and import carry the disk
my $copy = $node->safe_psql('postgres', qq{SELECT walpressure.import(walpressure.export($paced))});
is($node->safe_psql('postgres', qq{
SELECT s.disk || ' ' || (SELECT string_agg(DISTINCT x.disk, ' ') FROM walpressure.steps x WHERE x.sweep_id = s.sweep_id)
FROM walpressure.sweeps s WHERE s.sweep_id = $copy}), 'paced paced', 'export and import carry the disk');

# the throttle, asked for; and the disk itself as the swept setting
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 2, engine => 'backend',
                             duration => '2 s', warmup => '1 s', iops_cap => 1000, disk => 'throttle',
                             prewarm => false)});
is($ret, 0, 'a throttle sweep runs') or diag $err;
like($err, qr/is the cgroup's throttle \(disk => 'throttle'\): it lets a 100 ms slice's IOs through at once/,
	'its plan NOTICE names the throttle and its cliff');
is(sweep_field($node, $out, 'disk'), 'throttle', 'the throttle sweep records its disk');
like($node->safe_psql('postgres', q{SELECT coalesce(write_iops::text, 'none') FROM walpressure.iops_cap}),
	qr/^none$/, 'no throttle limit left after it');
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('disk', ARRAY['paced', 'throttle'], clients => 2, engine => 'backend',
                             duration => '2 s', warmup => '1 s', iops_cap => 1000, prewarm => false)});
is($ret, 0, 'a sweep of the disk runs') or diag $err;
is($node->safe_psql('postgres', qq{
SELECT string_agg(value || '=' || disk, ' ' ORDER BY step) FROM walpressure.steps WHERE sweep_id = $out}),
	'paced=paced throttle=throttle', 'each step of a disk sweep ran on its value');
is(cap_state(), 'none -', 'nothing left capped after the disk sweep');

# a paced cap set by hand is put back after a sweep
$node->safe_psql('postgres', 'SELECT walpressure.set_iops_cap(400)');
$node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 2, engine => 'backend',
                             duration => '1 s', warmup => '0 s', iops_cap => 1000, prewarm => false)});
is(cap_state(), 'paced 400', 'the paced cap set by hand is back after the sweep');

# a cancel mid-step: nothing left paced
my $bg = background($node, q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '0'], clients => 2, engine => 'backend',
                             duration => '20 s', warmup => '0 s', iops_cap => 800, prewarm => false,
                             label => 'to cancel')});
wait_window($node);
is(cap_state(), 'paced 800', 'the sweep holds its paced cap');
my $cancelled = $node->safe_psql('postgres', q{SELECT sweep_id FROM walpressure.sweeps WHERE label = 'to cancel'});
$node->safe_psql('postgres', "SELECT walpressure.cancel_sweep($cancelled)");
$bg->finish;
is(sweep_field($node, $cancelled, 'status'), 'cancelled', 'the sweep reads cancelled');
is(cap_state(), 'paced 400', 'after a cancel the cap is the one before the sweep');

# a crash: shared memory is made anew, the paced disk off, the pacer still there
my $crash = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '0'], engine => 'backend', clients => 2,
                             duration => '20 s', warmup => '0 s', iops_cap => 700,
                             prewarm => false, wait => false)});
wait_clients($node);
is(cap_state(), 'paced 700', 'the sweep holds a 700 IOPS paced cap');
ok(kill9($node, backend_pid($node, 'walpressure client')), 'kill -9: the server crash-restarts');
ok(sweep_reaches($node, $crash, "status = 'aborted'"), 'the sweep reads aborted');
is(cap_state(), 'none -', 'nothing is paced after the crash');
is($node->safe_psql('postgres', 'SELECT pacer FROM walpressure.iops_cap'), 'loaded',
	'the pacer took the new shared memory');
$node->safe_psql('postgres', 'SELECT walpressure.set_iops_cap(1000)');
($avg) = $node->safe_psql('postgres', q{SELECT latency_avg_ms FROM walpressure.probe_fsync('1 s')});
if ($measuring)
{
	cmp_ok(abs($avg / 2.0 - 1), '<', 0.15, "and paces again after it: mean $avg ms");
}
else
{
	cmp_ok($avg, '>=', 2.0 * 0.9, "and paces again after it: mean $avg ms, at least its share of 2 ms");
}

# a cap set by set_iops_cap is the running server's: it goes off as the
# server stops, before the shutdown checkpoint, which would otherwise wait
# a cap's share on each of its flushes (here 2 s, at 1 write IOPS).  The
# buffers it has to write are dirtied first, uncapped (made under the cap,
# the tables' own writes and fsyncs at commit, wal_level minimal, took two
# minutes): every page of dirty updated, left for the shutdown checkpoint
$node->safe_psql('postgres', q{SELECT walpressure.clear_iops_cap()});
$node->safe_psql('postgres', q{CREATE TABLE dirty AS SELECT g, repeat('x', 200) AS pad FROM generate_series(1, 100000) g;
                               CREATE INDEX ON dirty (g); CREATE TABLE dirty2 AS SELECT * FROM dirty});
$node->safe_psql('postgres', q{UPDATE dirty SET pad = pad});
$node->safe_psql('postgres', q{SELECT walpressure.set_iops_cap(1, disk => 'paced', flush_floor_ms => 1000)});
my $t0 = time;
$node->stop('fast');
cmp_ok(time - $t0, '<', $measuring ? 20 : 40, sprintf('a fast stop under a paced cap of 1 write IOPS ends within 20 s (%.1f s)', time - $t0));

# without the pacer: the paced disk is refused with the line that adds it,
# and a cap defaults to the throttle, said in the plan
my $bare = new_node('nopacer', conf => [ fsync => 'on', max_worker_processes => 16 ], pgbench => 1);
like($bare->safe_psql('postgres', 'SELECT pacer FROM walpressure.iops_cap'),
	qr/^not loaded: Start the server with LD_PRELOAD=\S+walpressure_pacer.so/, 'the view says how to add the pacer');
($ret, $out, $err) = $bare->psql('postgres', q{SELECT walpressure.set_iops_cap(1000, disk => 'paced')});
like($err, qr/ERROR:  the paced disk needs walpressure_pacer.so, and this server was started without it/,
	'the paced disk is refused without the pacer');
like($err, qr/HINT:  Start the server with LD_PRELOAD=\Q$pacer\E/, 'the HINT gives the library to preload');
($ret, $out, $err) = $bare->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 2, engine => 'backend',
                             duration => '1 s', warmup => '0 s', iops_cap => 1000, prewarm => false)});
is($ret, 0, 'a capped sweep runs without the pacer') or diag $err;
like($err, qr/is the cgroup's throttle \(the server was started without walpressure_pacer.so\)/,
	'on the throttle, and its plan says why');
like($err, qr/HINT:  For a disk where every flush costs its share: Start the server with LD_PRELOAD=/,
	'and how to have the paced disk');
is(sweep_field($bare, $out, 'disk'), 'throttle', 'the sweep records the throttle');
$bare->stop;

done_testing();
