# Per-statement figures: with pg_stat_statements loaded and installed, each
# step records the load's statements over its window (differences of
# pg_stat_statements' counters, not the counters since their reset); without
# it installed in the sweep's database, none, and the sweep runs as before.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use WalPressure::Test;

# some of its assertions measure the machine: those run where test/run
# measures, with no other major's suites beside it (WalPressure::Test)
my $measuring = quiet_machine();

# PostgreSQL 18 here is built without contrib: no pg_stat_statements at all
my ($pkglibdir) = run_command([ 'pg_config', '--pkglibdir' ]);
chomp($pkglibdir);
my $pgss_lib = -e "$pkglibdir/pg_stat_statements.so";
my $node = new_node('statements', preload => $pgss_lib ? 'walpressure, pg_stat_statements' : 'walpressure',
	conf => [ max_worker_processes => 16 ], pgbench => 1);

my $have_pgss = $pgss_lib && $node->safe_psql('postgres',
	q{SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_stat_statements'});

if ($have_pgss)
{
	$node->safe_psql('postgres', 'CREATE EXTENSION pg_stat_statements');

	# a history for the load's statement before the sweep: 40 calls of 50 ms
	# (the same normalized statement as the load's 5 ms calls)
	$node->safe_psql('postgres', join('', map { "SELECT pg_sleep(0.05);\n" } 1 .. 40));

	my ($ret, $id, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '10'], clients => 2,
                             duration => '3 s', warmup => '1 s',
                             script => 'SELECT pg_sleep(0.005);', label => 'statements')});
	is($ret, 0, 'a sweep with pg_stat_statements installed runs') or diag($err);

	# each step: the load's statement, its calls those of the window
	my $rows = $node->safe_psql('postgres', qq{
SELECT st.step, st.transactions, q.calls, q.rows, round(q.mean_ms::numeric, 3), round(q.stddev_ms::numeric, 3)
FROM walpressure.steps st
LEFT JOIN walpressure.step_statements q
       ON q.sweep_id = st.sweep_id AND q.step = st.step AND q.query LIKE 'SELECT pg_sleep(\$1)%'
WHERE st.sweep_id = $id ORDER BY st.step});
	my @steps = map { [ split /\|/ ] } split /\n/, $rows;
	is(scalar(@steps), 2, 'two steps');
	for my $s (@steps)
	{
		my ($step, $txns, $calls, $nrows, $mean, $sd) = @$s;
		ok(defined $calls && $calls ne '', "step $step: the load's statement is recorded") or next;
		is($nrows, $calls, "step $step: one row a call");
		# the window's own: the history's 50 ms calls are not in it (with
		# them the stddev would be some 9 ms): measured where the machine is
		# quiet; elsewhere, where a busy machine stretches a 5 ms sleep, the
		# mean is at least the 5 ms
		if ($measuring)
		{
			ok(abs($calls - $txns) <= 0.05 * $txns + 3,
				"step $step: its calls are the window's ($calls calls, $txns transactions)");
			ok($mean >= 5.0 && $mean < 8.0, "step $step: mean $mean ms of the window's 5 ms calls");
			ok($sd < 1.5, "step $step: stddev $sd ms over the window's calls, not since the reset");
		}
		else
		{
			# (the end's snapshot comes a little after the window's end)
			ok($calls > 0 && $calls <= 1.2 * $txns + 3,
				"step $step: its calls are about the window's ($calls calls, $txns transactions)");
			ok($mean >= 5.0, "step $step: mean $mean ms of the window's 5 ms calls");
		}
	}

	# what pg_stat_statements says since its reset, for contrast: the history is in it
	my $cum = $node->safe_psql('postgres',
		q{SELECT round(stddev_exec_time::numeric, 1) FROM pg_stat_statements WHERE query LIKE 'SELECT pg_sleep($1)%' AND toplevel});
	ok($cum > 3, "pg_stat_statements' own stddev includes the history ($cum ms)");

	is($node->safe_psql('postgres', qq{
SELECT count(*) FROM walpressure.step_statements
WHERE sweep_id = $id AND query ~* '(walpressure|pg_stat_statements|pg_catalog)'}),
		'0', "the coordinator's own SQL is not among the load's statements");

	is($node->safe_psql('postgres', qq{
SELECT string_agg(value || ':' || steps || ':' || (mean_change_pct IS NOT NULL), ',' ORDER BY value_pos)
FROM walpressure.statements WHERE sweep_id = $id AND query LIKE 'SELECT pg_sleep(\$1)%'}),
		'0:1:true,10:1:true', 'the statements view: each value, against the baseline');
	like($node->safe_psql('postgres', "SELECT string_agg(r, E'\\n') FROM walpressure.report($id) r"),
		qr/statements \(pg_stat_statements.*\nSELECT pg_sleep\(\$1\)\n  0  \| .* calls\/s \| mean /s,
		'report shows the statement, value by value');
}
else
{
	note('no pg_stat_statements in this installation: its half is not run here');
}

# loaded but not installed in the sweep's database (or, without the
# library, not loaded at all): no figures, the sweep as before
$node->safe_psql('postgres', 'CREATE DATABASE other');
$node->safe_psql('other', q{
CREATE EXTENSION walpressure CASCADE;
SELECT walpressure.init_pgbench(1);
});
my $offset = -s $node->logfile;
my ($ret, $id, $err) = $node->psql('other', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '10'], clients => 2,
                             duration => '2 s', warmup => '1 s')});
is($ret, 0, 'a sweep where pg_stat_statements is not installed runs') or diag($err);
is(sweep_field($node, $id, qq{status || ' ' || (SELECT count(*) FROM walpressure.steps WHERE sweep_id = $id)
       || ' ' || (SELECT count(*) FROM walpressure.step_statements WHERE sweep_id = $id)}, 'other'),
	'done 2 0', 'its steps, and no statements');
if ($pgss_lib)
{
	ok($node->wait_for_log(qr/records no per-statement figures: pg_stat_statements is loaded but not installed in database "other"/, $offset),
		'the server log says why');
}

$node->stop;
done_testing();
