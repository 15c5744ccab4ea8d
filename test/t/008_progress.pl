# walpressure.progress while a sweep runs, and the NOTICEs a waiting
# run_sweep sends during a long step.
#
# Majors: one (test/run runs it on one major only: the job slot and its
# NOTICEs, the same on every major)
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use WalPressure::Test;

my $node = new_node('progress', conf => [ max_worker_processes => 16 ], pgbench => 1);

is($node->safe_psql('postgres', 'SELECT count(*) FROM walpressure.progress'), '0',
	'no row while nothing runs');

# Once the running sweep is in its measured window: does its waiting caller
# hold an xmin?  't' or 'f'.
sub xmin_held_in_window
{
	return wait_until(sub {
		$node->safe_psql('postgres', q{
SELECT backend_xmin IS NOT NULL FROM pg_stat_activity
WHERE pid = (SELECT pid FROM walpressure.progress WHERE phase = 'measured window')});
	});
}

# two steps whose window (12 s) is longer than the 10 s between NOTICEs
my $window = 12;
my $h = background($node, q{SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '100'], clients => 2,
		      duration => '12 s', warmup => '1 s', prewarm => false, label => 'progress')}, psql => [ '-A', '-t' ]);

my $row = wait_until(sub {
	$node->safe_psql('postgres', q{
SELECT job || ' ' || step || '/' || steps_total || ' ' || setting || '=' || value || ' #' || repeat
       || ' ' || (sweep_id IS NOT NULL) || ' ' || (estimated_end > now())
FROM walpressure.progress WHERE phase = 'measured window'});
});
is($row, 'sweep 1/2 commit_delay=0 #1 true true',
	'progress: the first step in its measured window, with an estimated end');
my $phase_s = $node->safe_psql('postgres',
	q{SELECT phase_seconds FROM walpressure.progress WHERE phase = 'measured window'});
ok($phase_s ne '' && $phase_s >= 0 && $phase_s < 13, "progress: seconds into the phase ($phase_s)");
is($node->safe_psql('postgres', q{
SELECT pid = (SELECT pid FROM pg_stat_activity WHERE query LIKE '%run_sweep(%' AND pid <> pg_backend_pid())
FROM walpressure.progress}),
	't', 'progress: the pid is the waiting run_sweep');

# called on its own, the waiting run_sweep holds no snapshot back
is($node->safe_psql('postgres', q{
SELECT backend_xmin IS NULL FROM pg_stat_activity WHERE pid = (SELECT pid FROM walpressure.progress)}),
	't', 'run_sweep on its own: no xmin held while it waits');

my ($out, $err) = $h->finish;
like($out, qr/^\d+$/m, 'the sweep finished');
my @long = $err =~ /NOTICE:  (sweep \d+ step \d\/2: commit_delay = \d+, measured window: (\d+) s of (\d+) s)/g;
ok(scalar @long >= 3, 'a long step sends a NOTICE before it ends: ' . ($long[0] // 'none'));
ok(@long >= 3 && $long[2] == $window && $long[1] <= $long[2],
	"which says how far into the window it is, of the window's $window s");
my @done = $err =~ /NOTICE:  (sweep \d+ step \d\/2: commit_delay = \d+: [\d.]+ tps)/g;
is(scalar @done, 2, 'and one NOTICE per finished step');
is($node->safe_psql('postgres', 'SELECT count(*) FROM walpressure.progress'), '0',
	'no row once the sweep ended');

# in a transaction block an open cursor could still read: the horizon is
# held, and the cursor reads what it should
$node->safe_psql('postgres', 'CREATE TABLE kept AS SELECT 1 AS i');
$h = background($node, q{BEGIN;
		  DECLARE c CURSOR FOR SELECT i FROM kept;
		  SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1,
		      duration => '3 s', warmup => '0 s', prewarm => false, label => 'in a block');
		  FETCH ALL FROM c;
		  COMMIT;}, psql => [ '-A', '-t' ]);
my $held = xmin_held_in_window();
$node->safe_psql('postgres', 'DELETE FROM kept; VACUUM kept');
is($held, 't', 'run_sweep in a transaction block: its xmin is held while it waits');
($out, $err) = $h->finish;
like($out, qr/^1$/m, 'the cursor opened before the sweep still reads its row after VACUUM');

# called from a query with FROM (it could still read after the call), the
# horizon is held too
$h = background($node, q{SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 1,
		      duration => '3 s', warmup => '0 s', prewarm => false, label => 'from')
		  FROM generate_series(1, 1)}, psql => [ '-A', '-t' ]);
$held = xmin_held_in_window();
is($held, 't', 'run_sweep called in a query with FROM: its xmin is held while it waits');
$h->finish;

done_testing();
