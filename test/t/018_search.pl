# A search end to end (run_sweep with range =>): its plan, its rounds (the
# baseline every round, the pair alternating, 2 to 4 rounds a pair), the
# golden-section pairs, its record (search_rounds, search_stop), results,
# best and report reading it, its progress, a budget, a cancel, a search of
# the load and of a server-wide setting (put back after), and the refusals
# before any step.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use WalPressure::Test;

my $node = new_node('search', conf => [ fsync => 'on', max_worker_processes => 16, shared_buffers => '128MB' ],
	pgbench => 1);

# commit_delay over [0, 2000] by 500: 5 values, the current value 0 one of
# them.  commit_delay waits only when commit_siblings other transactions
# are active: 4 clients need commit_siblings below 4.
my ($out, $err) = ('', '');
$node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', range => '[0, 2000]', resolution => 500, clients => 4,
                             duration => '1 s', warmup => '0.5 s', label => 'search',
                             settings => '{"commit_siblings": 2}', engine => 'backend')},
	stdout => \$out, stderr => \$err, on_error_die => 1);
my $id = $out;
like($id, qr/^\d+$/, 'a search returns its sweep id');
like($err, qr/NOTICE:  sweep $id searches commit_delay in \[0, 2000\] by 500 \(5 values\) for the most tps: golden section, a pair of values at a time, each round with the current value 0 as the baseline: 6 to 36 steps/,
	'the plan NOTICE says what the search does and the steps it can take');
like($err, qr/DETAIL:  A pair gets 2 rounds, and up to 4 while the rule/, 'and how a pair gets its rounds');
like($err, qr/NOTICE:  sweep $id step 3\/6: commit_delay = \d+ \(round 1\): [\d.]+ tps.*; pair 1, round 1: \d+ against \d+: .*: another round/,
	'the last step of a round tells what the rule said and what the search does');
like($err, qr/the search stops: (resolution|flat|flat within the noise): .*; found \d+/, 'and the last one why it stopped');

is(sweep_field($node, $id, q{status || ' ' || search || ' ' || search_range || ' ' || search_resolution
                             || ' ' || (steps_done = steps_total)}),
	'done golden [0, 2000] 500 true', 'the sweep row: the search, its range and resolution, every step planned done');
is(sweep_field($node, $id, q{array_to_string(vals, ',')}), '0,500,1000,1500,2000',
	'vals: the baseline (the current value) first, then the range by the resolution');

# every round: the baseline first, then the pair, its order alternating
my $rounds = $node->safe_psql('postgres', qq{
SELECT string_agg(r, ' ' ORDER BY repeat) FROM (
    SELECT repeat, string_agg(value, ',' ORDER BY step) AS r FROM walpressure.steps
    WHERE sweep_id = $id GROUP BY repeat) x});
my @rounds = split / /, $rounds;
ok(@rounds >= 2, "at least the fewest rounds of the first pair ran ($rounds)");
is(scalar(grep { !/^0(,\d+){1,2}$/ } @rounds), 0,
	'each round ran the baseline 0, then the values of its pair (once when one of them is the baseline)');
like($rounds[0], qr/^0,500,1500$/, 'the first pair is at 0.382 and 0.618 of the range: 500 and 1500');
is($rounds[1], '0,1500,500', 'its second round runs the pair the other way round');

# the record matches the steps, and each pair got 2 to 4 rounds
is($node->safe_psql('postgres', qq{
SELECT bool_and(q.vals = (SELECT array_agg(x.value ORDER BY x.step) FROM walpressure.steps x
                          WHERE x.sweep_id = q.sweep_id AND x.repeat = q.round))
       AND count(*) = (SELECT max(repeat) FROM walpressure.steps WHERE sweep_id = $id)
FROM walpressure.search_rounds q WHERE q.sweep_id = $id}),
	't', 'search_rounds has one row a round, with the values its steps ran');

# each round's NOTICE numbers it within its pair, as search_rounds counts them
my @told;
while ($err =~ /; pair (\d+), round (\d+): /g) { push @told, "$1.$2"; }
my (%n, @want);
push @want, map { $_ . '.' . ++$n{$_} } split /,/, $node->safe_psql('postgres', qq{
SELECT string_agg(pair::text, ',' ORDER BY round) FROM walpressure.search_rounds WHERE sweep_id = $id});
is("@told", "@want", 'each round\'s NOTICE says its pair and its round in that pair (from 1)');
is($node->safe_psql('postgres', qq{
SELECT bool_and(n BETWEEN 2 AND 4) FROM (SELECT count(*) AS n FROM walpressure.search_rounds
                                         WHERE sweep_id = $id GROUP BY pair) p}),
	't', 'each pair got 2 to 4 rounds');
is($node->safe_psql('postgres', qq{
SELECT bool_and(decision = 'another round') FROM walpressure.search_rounds
WHERE sweep_id = $id AND round = (SELECT min(round) FROM walpressure.search_rounds q
                                  WHERE q.sweep_id = $id AND q.pair = search_rounds.pair)}),
	't', 'the first round of a pair never decides it (one round has no interval)');
is($node->safe_psql('postgres', qq{
SELECT bool_and(why <> '' AND verdict LIKE '% against %') FROM walpressure.search_rounds WHERE sweep_id = $id}),
	't', 'each round says why it ran and what the rule said after it');
# a pair after the first keeps the better value of the one before (its why
# names it), which that pair ran
is($node->safe_psql('postgres', qq{
WITH p AS (SELECT q.pair, min(substring(q.why FROM '(\\d+) \\(kept\\)')) AS kept,
                  array_agg(DISTINCT v) AS ran
           FROM walpressure.search_rounds q, unnest(q.vals) v
           WHERE q.sweep_id = $id GROUP BY q.pair)
SELECT coalesce(bool_and(b.kept IS NOT NULL AND b.kept = ANY (a.ran)), true)
FROM p a JOIN p b ON b.pair = a.pair + 1}),
	't', 'each next pair keeps a value the pair before ran (golden section)');
is($node->safe_psql('postgres', qq{
SELECT search_stop LIKE '%found ' || (SELECT value FROM walpressure.results r
                                      WHERE r.sweep_id = $id AND r.value_pos = walpressure._top($id)) || '%'
FROM walpressure.sweeps WHERE sweep_id = $id}),
	't', 'search_stop names the value with the most tps against the baseline (what best starts from)');

# read like any sweep
is($node->safe_psql('postgres', qq{
SELECT bool_and(verdict IS NOT NULL) AND bool_or(verdict = 'baseline') AND count(*) >= 3
       AND bool_and(repeats >= 2)
FROM walpressure.results WHERE sweep_id = $id}),
	't', 'results: a row per value it ran, each against the baseline');
like($node->safe_psql('postgres', "SELECT answer FROM walpressure.best WHERE sweep_id = $id"),
	qr/^(keep|change) commit_delay/, 'best answers');
like($node->safe_psql('postgres', "SELECT diagnoses FROM walpressure.best WHERE sweep_id = $id"),
	qr/the search over \[0, 2000\] by 500 stopped/, 'best says why the search stopped');
my $report = $node->safe_psql('postgres', "SELECT string_agg(r, E'\\n') FROM walpressure.report($id) r");
like($report, qr/a search over \[0, 2000\] by 500 \(\d+ rounds\)/, 'report: the search in its title');
like($report, qr/round 1, pair 1, peak in \[0, 2000\]: 0, 500, 1500: another round/, 'report: the rounds');
like($report, qr/it stopped: /, 'report: why it stopped');
is($node->safe_psql('postgres', qq{
SELECT xml_is_well_formed_document(walpressure.plot($id))}), 't', 'plot draws it');
my $copy = $node->safe_psql('postgres', "SELECT walpressure.import(walpressure.export($id))");
is($node->safe_psql('postgres', qq{
SELECT (SELECT count(*) FROM walpressure.search_rounds WHERE sweep_id = $copy)
       = (SELECT count(*) FROM walpressure.search_rounds WHERE sweep_id = $id)
       AND (SELECT search_stop FROM walpressure.sweeps WHERE sweep_id = $copy)
       = (SELECT search_stop FROM walpressure.sweeps WHERE sweep_id = $id)}),
	't', 'export and import carry the rounds and why it stopped');

# a budget shorter than a pair's rounds: it stops at the budget, recorded
$out = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', range => '[0, 2000]', resolution => 500, clients => 4,
                             duration => '1 s', warmup => '0.5 s', budget => '2 s',
                             settings => '{"commit_siblings": 2}', engine => 'backend')});
is(sweep_field($node, $out, q{status || ' ' || (search_stop LIKE 'budget: %') || ' ' || steps_done}),
	'done true 3', 'a budget: the search stops before a round that would pass it, and says so');

# cancelled mid-search: status cancelled, its steps kept
my $h = background($node, q{
SELECT walpressure.run_sweep('commit_delay', range => '[0, 2000]', resolution => 500, clients => 4,
                             duration => '2 s', warmup => '0.5 s', wait => false,
                             settings => '{"commit_siblings": 2}', engine => 'backend')},
	psql => [ '-A', '-t' ]);
my ($cid) = $h->finish;
chomp $cid;
ok(sweep_reaches($node, $cid, 'steps_done >= 1'), 'the search runs its steps');
is($node->safe_psql('postgres', "SELECT walpressure.cancel_sweep($cid)"), 't', 'cancel_sweep stops it');
is(sweep_field($node, $cid, q{status || ' ' || (search_stop IS NULL)}), 'cancelled true',
	'a cancelled search reads cancelled, and no search_stop');

# the load: clients over [1, 7] by 2 (1, 3, 5, 7); the clients argument, 4,
# is the baseline every round, outside the range's values
$out = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('clients', range => '[1, 7]', resolution => 2, clients => 4,
                             duration => '1 s', warmup => '0.5 s', engine => 'backend')});
is(sweep_field($node, $out, q{status || ' ' || array_to_string(vals, ',')}), 'done 4,1,3,5,7',
	'a search of clients: the clients argument is the baseline');
is($node->safe_psql('postgres', qq{
SELECT bool_and(value = '4') AND bool_and(clients = 4) FROM walpressure.steps x
WHERE sweep_id = $out AND step = (SELECT min(step) FROM walpressure.steps y WHERE y.sweep_id = $out AND y.repeat = x.repeat)}),
	't', 'each round starts with 4 clients');
is($node->safe_psql('postgres', qq{
SELECT bool_and(clients = value::int) FROM walpressure.steps WHERE sweep_id = $out}),
	't', 'each step ran as many clients as its value');

# a server-wide setting, its current value outside the range: every round
# measures it, and it is put back after
($out, $err) = ('', '');
$node->psql('postgres', q{
SELECT walpressure.run_sweep('wal_writer_delay', range => '[10ms, 110ms]', resolution => '50ms', clients => 2,
                             duration => '1 s', warmup => '0.5 s', engine => 'backend')},
	stdout => \$out, stderr => \$err, on_error_die => 1);
like($err, qr/The current value 200 is outside the range: every round measures it all the same/,
	'the plan says the current value is outside the range');
is(sweep_field($node, $out, q{status || ' ' || search_range || ' ' || array_to_string(vals, ',')}),
	'done [10, 110] 200,10,60,110', 'a range given with units is held in the setting\'s unit');
is($node->safe_psql('postgres', q{SHOW wal_writer_delay}), '200ms', 'wal_writer_delay is put back');

# refused before any step: no sweep row, nothing run
my $before = $node->safe_psql('postgres', 'SELECT count(*) FROM walpressure.sweeps');
my @refused = (
	[ q{'commit_delay', ARRAY[0, 1000], range => '[0, 2000]'}, qr/give vals or range, not both/ ],
	[ q{'synchronous_commit', range => '[0, 2]'}, qr/synchronous_commit has no order a search could follow/ ],
	[ q{'commit_delay', range => '[2000, 0]'}, qr/range \[2000, 0\] of commit_delay is reversed/ ],
	[ q{'commit_delay', range => '[100, 100]'}, qr/range \[100, 100\] of commit_delay is empty/ ],
	[ q{'commit_delay', range => '[0, 200000]'}, qr/range \[0, 200000\] is outside the limits of commit_delay/ ],
	[ q{'commit_delay', resolution => 100}, qr/resolution needs a range to search/ ]);
for my $r (@refused)
{
	my ($rc, $o, $e) = $node->psql('postgres', "SELECT walpressure.run_sweep($r->[0], engine => 'backend')");
	like($e, $r->[1], "refused: $r->[0]");
}
is($node->safe_psql('postgres', 'SELECT count(*) FROM walpressure.sweeps'), $before,
	'nothing was recorded for a refused search');

$node->stop;
done_testing();
