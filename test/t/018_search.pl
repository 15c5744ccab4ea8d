# A search end to end (run_sweep with range =>): its plan, its rounds (the
# baseline in a pair's first round, the pair alternating, 2 to 4 rounds a
# pair), the golden-section pairs, its record (search_rounds, search_stop,
# search_found), results, best and report reading it, its progress, its
# budget of steps and a budget of time, a cancel, a search of the load and
# of a server-wide setting (put back after), and the refusals before any
# step.  (The rule after each round is unit-tested: search_rule_test.c.)
#
# Majors: one (test/run runs it on one major only: the search's rounds are the
# coordinator's and the rule's, the same on every major)
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
# are active: 4 clients need commit_siblings below 4.  Its budget: 10
# steps (two pairs' fewest rounds, more than the range's 5 values).
my ($out, $err) = ('', '');
$node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', range => '[0, 2000]', resolution => 500, clients => 4,
                             duration => '1 s', warmup => '0.5 s', label => 'search',
                             settings => '{"commit_siblings": 2}', engine => 'backend')},
	stdout => \$out, stderr => \$err, on_error_die => 1);
my $id = $out;
like($id, qr/^\d+$/, 'a search returns its sweep id');
like($err, qr/NOTICE:  sweep $id searches commit_delay in \[0, 2000\] by 500 \(5 values\) for the most tps: golden section, a pair of values at a time, each pair's first round with the current value 0 as the baseline: 5 to 10 steps/,
	'the plan NOTICE says what the search does and the steps it can take');
like($err, qr/DETAIL:  A pair gets 2 rounds, and up to 4 while the rule.*a pair still undecided after its rounds goes by the point estimate.*or when the next round would pass its 10 steps \(as many as the range has values, at least two pairs' fewest rounds/,
	'and how a pair gets its rounds, moves and stops');
like($err, qr/NOTICE:  sweep $id step 3\/5: commit_delay = \d+ \(round 1\): [\d.]+ tps.*; pair 1, round 1: \d+ against \d+: .*: another round/,
	'the last step of a round tells what the rule said and what the search does');
like($err, qr/the search stops: (resolution|flat|budget): .*; found \d+/, 'and the last one why it stopped');

is(sweep_field($node, $id, q{status || ' ' || search || ' ' || search_range || ' ' || search_resolution
                             || ' ' || (steps_done = steps_total)}),
	'done golden [0, 2000] 500 true', 'the sweep row: the search, its range and resolution, every step planned done');
is(sweep_field($node, $id, q{array_to_string(vals, ',')}), '0,500,1000,1500,2000',
	'vals: the baseline (the current value) first, then the range by the resolution');

# a pair's first round: the baseline first, then the pair; its later
# rounds the pair alone, its order alternating
my $rounds = $node->safe_psql('postgres', qq{
SELECT string_agg(r, ' ' ORDER BY repeat) FROM (
    SELECT repeat, string_agg(value, ',' ORDER BY step) AS r FROM walpressure.steps
    WHERE sweep_id = $id GROUP BY repeat) x});
my @rounds = split / /, $rounds;
ok(@rounds >= 2, "at least the fewest rounds of the first pair ran ($rounds)");
like($rounds[0], qr/^0,500,1500$/, 'the first pair is at 0.382 and 0.618 of the range: 500 and 1500, after the baseline');
is($rounds[1], '1500,500', 'its second round runs the pair alone, the other way round');
my (%first, @wrong);
for my $row (split /\n/, $node->safe_psql('postgres', qq{
SELECT pair || '|' || array_to_string(vals, ',') FROM walpressure.search_rounds WHERE sweep_id = $id ORDER BY round}))
{
	my ($p, $v) = split /\|/, $row;
	my @v = split /,/, $v;
	if (!exists $first{$p})
	{
		$first{$p} = [@v];
		push @wrong, "pair $p first: $v" unless $v[0] eq '0' && @v >= 2;
		next;
	}
	my @want = @{ $first{$p} };
	@want = @want[ 1 .. $#want ] if @want == 3;    # 0, c, d: then c, d
	push @wrong, "pair $p later: $v" unless join(',', sort @v) eq join(',', sort @want);
}
is("@wrong", '', "each pair's first round ran the baseline 0 then the pair, its later rounds the pair alone (once a value when one of them is the baseline)");

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
SELECT search_stop LIKE '%found ' || vals[search_found] || '%' AND walpressure._top($id) = search_found
       AND vals[search_found] = ANY ((SELECT q.vals FROM walpressure.search_rounds q
                                      WHERE q.sweep_id = $id ORDER BY q.round DESC LIMIT 1)::text[])
FROM walpressure.sweeps WHERE sweep_id = $id}),
	't', 'search_found: a value of the last round, named by search_stop, and what best starts from');

# read like any sweep
is($node->safe_psql('postgres', qq{
SELECT bool_and(verdict IS NOT NULL) AND bool_or(verdict = 'baseline') AND count(*) >= 3
       AND bool_and(repeats >= 2 OR verdict = 'baseline')
FROM walpressure.results WHERE sweep_id = $id}),
	't', 'results: a row per value it ran, each against the baseline, each value of a pair in 2 rounds at least (the baseline runs once a pair)');
like($node->safe_psql('postgres', "SELECT answer FROM walpressure.best WHERE sweep_id = $id"),
	qr/^(keep|change|found) commit_delay/, 'best answers');
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
       AND (SELECT (search_stop, search_found) FROM walpressure.sweeps WHERE sweep_id = $copy)
       = (SELECT (search_stop, search_found) FROM walpressure.sweeps WHERE sweep_id = $id)}),
	't', 'export and import carry the rounds, why it stopped and what it found');

# its budget of steps, by default: as many as the range has values (21)
($out, $err) = ('', '');
$node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', range => '[0, 2000]', clients => 4,
                             duration => '1 s', warmup => '0.5 s',
                             settings => '{"commit_siblings": 2}', engine => 'backend')},
	stdout => \$out, stderr => \$err, on_error_die => 1);
like($err, qr/\(21 values\) for the most tps: .*: 5 to 21 steps .*or when the next round would pass its 21 steps \(as many as the range has values/s,
	'the plan NOTICE says the search takes at most as many steps as the range has values');
is(sweep_field($node, $out, q{status || ' ' || (steps_done <= 21) || ' ' || (steps_done = steps_total)
                              || ' ' || (search_stop ~ '^(budget: .* would pass the 21 steps of the search|flat: )')
                              || ' ' || (search_found IS NOT NULL)}),
	'done true true true true', 'it stops before a round that would pass them, and says what it found');

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
# is the baseline, outside the range's values
$out = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('clients', range => '[1, 7]', resolution => 2, clients => 4,
                             duration => '1 s', warmup => '0.5 s', engine => 'backend')});
is(sweep_field($node, $out, q{status || ' ' || array_to_string(vals, ',')}), 'done 4,1,3,5,7',
	'a search of clients: the clients argument is the baseline');
is($node->safe_psql('postgres', qq{
SELECT bool_and(x.value = '4') AND bool_and(x.clients = 4) FROM walpressure.steps x
JOIN walpressure.search_rounds q ON q.sweep_id = x.sweep_id AND q.round = x.repeat
WHERE x.sweep_id = $out AND q.round = (SELECT min(round) FROM walpressure.search_rounds p
                                       WHERE p.sweep_id = $out AND p.pair = q.pair)
  AND x.step = (SELECT min(step) FROM walpressure.steps y WHERE y.sweep_id = $out AND y.repeat = x.repeat)}),
	't', "each pair's first round starts with 4 clients");
is($node->safe_psql('postgres', qq{
SELECT bool_and(clients = value::int) FROM walpressure.steps WHERE sweep_id = $out}),
	't', 'each step ran as many clients as its value');

# a server-wide setting, its current value outside the range: each pair's
# first round measures it, and it is put back after
($out, $err) = ('', '');
$node->psql('postgres', q{
SELECT walpressure.run_sweep('wal_writer_delay', range => '[10ms, 110ms]', resolution => '50ms', clients => 2,
                             duration => '1 s', warmup => '0.5 s', engine => 'backend')},
	stdout => \$out, stderr => \$err, on_error_die => 1);
like($err, qr/The current value 200 is outside the range: each pair's first round measures it all the same/,
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
