# Open-loop sweeps: run_sweep(..., rate => N) starts transactions on pgbench's
# Poisson schedule; each step records the rate asked and achieved, latency
# percentiles counted from each transaction's scheduled start (the schedule
# lag included), the lag itself, the transactions late and skipped; a rate
# beyond what the server can do is marked not sustained; a bad rate is
# refused, with its SQLSTATE and a HINT, before any step runs; the flush
# cost F0 and the threshold lambda* = 2/F0 come before the first step.
#
# Majors: one (test/run runs it on one major only: pgbench's --rate and its
# per-transaction log, whose format is the same from 15 to 19 (009 reads each
# major's pgbench))
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use WalPressure::Test;

my $node = new_node('open_loop',
	conf => [ max_worker_processes => 16, fsync => 'on', max_connections => 40 ], pgbench => 1);

sub sweeps { $node->safe_psql('postgres', 'SELECT count(*) FROM walpressure.sweeps') }

# ---------- refused before anything starts ----------
my $before = sweeps();
for my $case (
	[ q{rate => 0}, '22023', 'a rate of 0' ],
	[ q{rate => -5}, '22023', 'a negative rate' ],
	[ q{rate => 'NaN'}, '22023', 'a rate that is NaN' ],
	[ q{rate => 'Infinity'}, '22023', 'an infinite rate' ],
	[ q{clients => 1, rate => 1e6}, '22023', 'a rate above what the clients can offer' ],
	[ q{rate => 100, engine => 'backend'}, '0A000', 'a rate with the backend engine' ],
	[ q{latency_limit => 5, engine => 'backend'}, '0A000', 'a latency limit with the backend engine' ],
	[ q{rate => 100, latency_limit => 0}, '22023', 'a latency limit of 0' ],
	[ q{rate => 100, latency_limit => 'NaN'}, '22023', 'a latency limit that is NaN' ])
{
	my ($args, $state, $what) = @$case;
	my ($ret, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT walpressure.run_sweep('commit_delay', ARRAY[0], duration => 1, $args)");
	isnt($ret, 0, "refused: $what");
	like($err, qr/ERROR:  $state:/, "$what: SQLSTATE $state") or diag($err);
	like($err, qr/HINT:  \S/, "$what: a HINT says what to do");
}
for my $case (
	[ q{'rate', ARRAY['100', '0']}, 'a rate sweep with a rate of 0' ],
	[ q{'rate', ARRAY['100', 'fast']}, 'a rate sweep with a value that is no number' ],
	[ q{'rate', ARRAY['100', '-1']}, 'a rate sweep with a negative rate' ],
	[ q{'rate', ARRAY['100', 'NaN']}, 'a rate sweep with NaN' ],
	[ q{'rate', ARRAY['100', '100000']}, 'a rate sweep beyond what 2 clients can offer' ])
{
	my ($args, $what) = @$case;
	my ($ret, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT walpressure.run_sweep($args, clients => 2, duration => 1)");
	isnt($ret, 0, "refused: $what");
	like($err, qr/ERROR:  22023:.*\n(?:.*\n)*HINT:  \S/, "$what: SQLSTATE 22023 and a HINT") or diag($err);
}
my (undef, undef, $err) = $node->psql('postgres',
	q{SELECT walpressure.run_sweep('commit_delay', ARRAY[0], clients => 1, rate => 1e6, duration => 1)});
like($err, qr/HINT:  Give clients => 50 or more/, 'the HINT names the clients a rate needs');
is(sweeps(), $before, 'no refused call recorded a sweep');

# ---------- an open loop the server sustains ----------
# a machine loaded by others can honestly fall short of the rate (the step
# then reads not sustained): three runs at most
my ($id, $ret, $out);
($id, $ret, $err) = sweep_again($node, q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '1000'], clients => 8,
                             duration => '10 s', warmup => '2 s', rate => 200, latency_limit => 200,
                             settings => '{"commit_siblings": 1}', label => 'open loop')},
	sub {
		my $short = $node->safe_psql('postgres', qq{
SELECT string_agg(format('step %s: %s of %s tps', step, round(rate_achieved::numeric, 1), rate), ', ')
FROM walpressure.steps WHERE sweep_id = $_[0] AND NOT (abs(rate_achieved - 200) <= 20 AND rate_sustained)});
		return $short ne '' && "the rate was not sustained ($short)";
	});
is($ret, 0, 'an open-loop sweep runs') or diag($err);
like($err, qr/NOTICE:  one WAL flush takes F0 = [0-9.]+ ms here \(median\), so lambda\* = 2\/F0 = \d+ commits\/s; the rate asked, 200\/s, is (above|below) it/,
	'the plan NOTICE gives F0, lambda* and the side of it the rate is on') or diag($err);
like($err, qr/NOTICE:  sweep $id step 1\/2: commit_delay = 0: [0-9.]+ tps of 200 asked, p99/,
	'each step NOTICE gives the rate achieved against the one asked');
is($node->safe_psql('postgres', qq{
SELECT f0_ms > 0 AND f0_p50_ms > 0 AND f0_p99_ms >= f0_p50_ms AND f0_source LIKE 'probe_fsync%'
       AND rate = 200 AND latency_limit_ms = 200
FROM walpressure.sweeps WHERE sweep_id = $id}), 't', 'the sweep row has F0, its distribution, the rate and the limit');
is($node->safe_psql('postgres', qq{
SELECT bool_and(rate = 200 AND abs(rate_achieved - 200) <= 20 AND rate_sustained
                AND abs(rate_achieved - tps) < 1e-9)
FROM walpressure.steps WHERE sweep_id = $id}), 't',
	'each step sustained its rate (2000 Poisson arrivals in its window: within 10%, 4.5 standard deviations)')
  or diag($node->safe_psql('postgres', qq{SELECT step, rate, rate_achieved, rate_sustained, lag_p99_ms, latency_p99_ms
                                           FROM walpressure.steps WHERE sweep_id = $id}));
is($node->safe_psql('postgres', qq{
SELECT bool_and(latency_p50_ms > 0 AND latency_p50_ms <= latency_p95_ms AND latency_p95_ms <= latency_p99_ms
                AND latency_p99_ms <= latency_p999_ms
                AND lag_avg_ms >= 0 AND lag_p50_ms <= lag_p99_ms
                AND lag_p99_ms <= latency_p99_ms AND lag_avg_ms <= latency_avg_ms
                AND transactions_late >= 0 AND transactions_skipped >= 0)
FROM walpressure.steps WHERE sweep_id = $id}), 't',
	'latency p50 <= p95 <= p99 <= p99.9, each counted with its schedule lag; the lag, late and skipped recorded')
  or diag($node->safe_psql('postgres', qq{SELECT latency_p50_ms, latency_p95_ms, latency_p99_ms, latency_p999_ms,
    lag_avg_ms, lag_p50_ms, lag_p99_ms, latency_avg_ms, transactions_late, transactions_skipped
    FROM walpressure.steps WHERE sweep_id = $id}));
is($node->safe_psql('postgres', qq{
SELECT count(*) FROM walpressure.effects($id) WHERE metric IN ('latency_p50', 'latency_p99', 'latency_p999')}),
	'3', 'effects() gives the paired p50, p99 and p99.9 effects of the open loop');
my $best = $node->safe_psql('postgres', qq{SELECT answer || E'\\n' || diagnoses FROM walpressure.best WHERE sweep_id = $id});
like($best, qr/^(keep commit_delay = 0: no value kept 200\/s with a lower p99 \([0-9.]+ ms\) beyond its interval|change commit_delay to 1000: p99 [0-9.]+x lower \([0-9.]+-[0-9.]+\) at 200\/s)/,
	'best reads the open loop by p99 latency') or diag($best);
like($best, qr/^(confirmed|contradicted|not contradicted \(undecided\)|confirmed \(the same within its margin\)): lambda\* \d+\/s, load 200-200\/s \((above|below)\); predicted (0 best|a timer of \d+ us), measured .+$/m,
	"best's findings set the measured optimum against the threshold's prediction, in one line") or diag($best);
my $report = $node->safe_psql('postgres', qq{SELECT string_agg(r, E'\\n') FROM walpressure.report($id) r});
note($best);
note($report);
like($report, qr/open loop at 200 transactions\/s(.*\n){1,3}.*p99\.9.*lag p99/, 'report shows the open-loop latencies') or diag($report);
like($node->safe_psql('postgres', qq{SELECT walpressure.plot($id)}), qr/>p99 latency, ms</,
	'plot draws the p99 latency of an open loop');

# export and import keep the open loop's figures
my $iid = $node->safe_psql('postgres', qq{SELECT walpressure.import(walpressure.export($id))});
is($node->safe_psql('postgres', qq{
SELECT (SELECT array_agg(ROW(rate, rate_achieved, rate_sustained, lag_p99_ms, latency_p999_ms,
                             transactions_late, transactions_skipped)::text ORDER BY step)
        FROM walpressure.steps WHERE sweep_id = $iid)
     = (SELECT array_agg(ROW(rate, rate_achieved, rate_sustained, lag_p99_ms, latency_p999_ms,
                             transactions_late, transactions_skipped)::text ORDER BY step)
        FROM walpressure.steps WHERE sweep_id = $id)
   AND (SELECT rate = 200 AND f0_ms > 0 FROM walpressure.sweeps WHERE sweep_id = $iid)}),
	't', 'export() and import() carry the open-loop columns');

# ---------- a rate sweep: one sustained, one beyond capacity ----------
# each transaction sleeps 2 ms: 6 clients start at most about 3000 a second, so
# 1000 a second is sustained (25000 Poisson arrivals in the window: 2% is 3.2
# standard deviations of their count) and 8000 is not
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('rate', ARRAY[1000, 8000], clients => 6, duration => '25 s', warmup => '2 s',
                             workload => 'custom', prewarm => false,
                             settings => '{"sql": "SELECT pg_sleep(0.002)"}')});
is($ret, 0, 'a rate sweep runs') or diag($err);
my $rid = $out;
like($err, qr/NOTICE:  .*at the rates swept above it the paper predicts commit_delay = 0 best/, 'its plan NOTICE sets the rates against lambda*') or diag($err);
like($err, qr/8000 asked \(NOT SUSTAINED: a closed loop in disguise\)/, 'the step beyond capacity says so as it ends');
is($node->safe_psql('postgres', qq{
SELECT string_agg(format('%s %s', value, rate_sustained), ', ' ORDER BY value_pos)
FROM walpressure.steps WHERE sweep_id = $rid}), '1000 t, 8000 f',
	'the rate within capacity is sustained; the one beyond it is marked not sustained');
is($node->safe_psql('postgres', qq{
SELECT abs(rate_achieved - 1000) <= 20 FROM walpressure.steps WHERE sweep_id = $rid AND value = '1000'}),
	't', 'the sustained rate is achieved within 2%')
  or diag($node->safe_psql('postgres', qq{SELECT rate_achieved FROM walpressure.steps WHERE sweep_id = $rid}));
is($node->safe_psql('postgres', qq{
SELECT rate_achieved < 0.5 * rate AND lag_p99_ms > 1000 FROM walpressure.steps WHERE sweep_id = $rid AND value = '8000'}),
	't', 'beyond capacity: achieved far below asked, and the schedule lag grows to seconds');
$best = $node->safe_psql('postgres', qq{SELECT answer || E'\\n' || diagnoses FROM walpressure.best WHERE sweep_id = $rid});
like($best, qr/^kept up to 1000\/s \(p99 [0-9.]+ ms, schedule lag p99 [0-9.]+ ms\); not 8000\/s: [0-9.]+ tps, a closed loop$/m,
	"best's answer for a rate sweep: the highest rate kept, and the first not kept") or diag($best);
like($best, qr/the rate was not kept at 8000 \([0-9.]+ of 8000(\.0)?\/s\): those steps ran a closed loop/, 'the findings name the step not kept')
  or diag($best);
is($node->safe_psql('postgres', qq{SELECT rate_sustained FROM walpressure.results WHERE sweep_id = $rid AND value = '8000'}),
	'f', 'results says so too');
like($node->safe_psql('postgres', qq{SELECT walpressure.plot($rid)}), qr/fill="#c0392b"><title>rate = 8000: .*NOT SUSTAINED/,
	'plot marks the rate not sustained');

# ---------- a closed loop is untouched ----------
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY[5], clients => 2, duration => 2, warmup => 1)});
is($ret, 0, 'a closed-loop sweep runs') or diag($err);
is($node->safe_psql('postgres', qq{
SELECT bool_and(rate IS NULL AND rate_achieved IS NULL AND rate_sustained IS NULL AND lag_avg_ms IS NULL
                AND transactions_late IS NULL AND transactions_skipped IS NULL AND latency_p999_ms > 0)
FROM walpressure.steps WHERE sweep_id = $out}), 't', 'a closed loop has no open-loop figures, and its p99.9');

done_testing();
