# cgroup v2's code path, on a machine whose IO controller is v1: a v2
# hierarchy laid out in a directory (WALPRESSURE_CGROUP_FS) with the files
# the kernel gives a delegated cgroup.  What this proves: the checks before
# a cap (the cgroup, its parent's cgroup.subtree_control, the files'
# permissions), io.max's syntax as written and read back, enrolment through
# cgroup.procs, a sweep's cap set and put back, and the recovery after a
# crash.  What only a real v2 machine proves (docs/guide/disk-cap.md): that
# the kernel accepts those writes, throttles, moves the processes, and
# counts their IOs in io.stat.
#
# Majors: one (test/run runs it on one major only: a cgroup v2 hierarchy laid
# out in a directory: no server code that differs by major)
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Path qw(make_path);
use File::Spec;
use WalPressure::Test;

my $fs = File::Spec->rel2abs(PostgreSQL::Test::Utils::tempdir);
my $cg = "$fs/$CGROUP";
make_path($cg);
write_file("$fs/cgroup.controllers", "cpuset cpu io memory pids\n");
write_file("$fs/cgroup.subtree_control", "cpu memory\n");    # io not handed down yet
write_file("$cg/cgroup.controllers", "io\n");
write_file("$cg/io.max", "");
write_file("$cg/cgroup.procs", "");
write_file("$cg/io.stat", "");

# (for every start of the server, the one after its crash below too)
$ENV{WALPRESSURE_CGROUP_FS} = $fs;
my $node = new_node('v2', conf => [ max_worker_processes => 16 ], pgbench => 1);

# the parent does not hand the io controller down: said before anything
like($node->safe_psql('postgres', q{SELECT mode || ' ' || cgroup || ' ' || problem FROM walpressure.iops_cap}),
	qr/^v2 io:\/\Q$CGROUP\E the io controller is not enabled for cgroup io:\/\Q$CGROUP\E/,
	'v2: a cgroup without the io controller is the problem iops_cap shows');
my ($ret, $out, $err) = $node->psql('postgres', 'SELECT walpressure.set_iops_cap(500)',
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  42501: the io controller is not enabled for cgroup io:\/\Q$CGROUP\E.*HINT:  As root: echo \+io > \Q$fs\E\/cgroup.subtree_control/s,
	'set_iops_cap refuses, with the command that enables it');
is(slurp_file("$cg/io.max") . slurp_file("$cg/cgroup.procs"), '', 'and wrote nothing');

# the files of a delegated cgroup not writable by the server's user
write_file("$fs/cgroup.subtree_control", "cpu io memory\n");
chmod 0444, "$cg/cgroup.procs";
($ret, $out, $err) = $node->psql('postgres', 'SELECT walpressure.set_iops_cap(500)');
like($err, qr/cgroup io:\/\Q$CGROUP\E is not delegated to this server's user.*HINT:  As root: cgcreate .* -g io:\/\Q$CGROUP\E, and start the server inside it/s,
	'v2: a cgroup.procs the server cannot write: not delegated, with the v2 hint');
chmod 0644, "$cg/cgroup.procs";

# set and clear
my $dev = $node->safe_psql('postgres', q{SELECT device FROM walpressure.iops_cap});
like($dev, qr/^\d+:\d+$/, 'with the cgroup ready, iops_cap names the pg_wal disk');
$node->safe_psql('postgres', 'SELECT walpressure.set_iops_cap(500)');
is(slurp_file("$cg/io.max"), "$dev riops=max wiops=500\n", 'set_iops_cap(500) writes io.max in the v2 syntax');
my @procs = split /\n/, slurp_file("$cg/cgroup.procs");
my ($postmaster) = split /\n/, slurp_file($node->data_dir . '/postmaster.pid');
ok((grep { $_ == $postmaster } @procs), 'the postmaster\'s pid is written to cgroup.procs');
# (in a laid-out hierarchy the processes forked since are not listed: on a
# real v2 machine the kernel lists every child of an enrolled postmaster)
is($node->safe_psql('postgres', q{SELECT write_iops || ' ' || (processes_enrolled >= 1) || ' ' || coalesce(problem, 'none')
                                  FROM walpressure.iops_cap}),
	'500 true none', 'iops_cap reads io.max and cgroup.procs back: 500 write IOPS, processes enrolled');
$node->safe_psql('postgres', 'SELECT walpressure.clear_iops_cap()');
like(slurp_file("$cg/io.max"), qr/\Q$dev\E riops=max wiops=max\n$/, 'clear_iops_cap writes max');
is($node->safe_psql('postgres', q{SELECT coalesce(write_iops::text, 'none') FROM walpressure.iops_cap}), 'none',
	'and iops_cap reads no write limit back');

# a capped sweep: each step's cap, then the limits found before put back
write_file("$cg/io.max", "$dev riops=max wiops=4000\n");
my $id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('iops_cap', ARRAY['300', '600'], clients => 1, duration => '2 s',
                             warmup => '0 s', prewarm => false, wait => false)});
wait_window($node, step => 2);
like(slurp_file("$cg/io.max"), qr/\Q$dev\E riops=max wiops=600\n$/, 'a v2 iops_cap sweep sets each step\'s cap');
wait_sweep($node, $id);
is(sweep_field($node, $id, 'status'), 'done', 'the sweep ends');
like(slurp_file("$cg/io.max"), qr/\Q$dev\E riops=max wiops=4000\n$/, 'and puts back the limit it found (4000)');

# a crash in a capped sweep: the recovery puts the limit back
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '30 s',
                             warmup => '0 s', prewarm => false, iops_cap => 700, wait => false)});
wait_window($node);
like(slurp_file("$cg/io.max"), qr/wiops=700\n$/, 'a capped sweep on v2');
$node->stop('immediate');
$node->start;
sweep_reaches($node, $id, "status = 'aborted'") or die "sweep $id was not marked aborted";
ok(wait_until(sub { !-e $node->data_dir . '/walpressure.sweep' }), 'after a crash the recovery closes the sweep');
like(slurp_file("$cg/io.max"), qr/\Q$dev\E riops=max wiops=4000\n$/, 'and puts the v2 limit back');
done_testing();
