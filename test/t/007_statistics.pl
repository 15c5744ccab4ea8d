# Results a reader can trust: an A/A sweep reads "within noise", a real
# effect reads "faster", and an inert commit_delay is diagnosed.  The
# backend engine: its steady load makes 2 s windows enough to tell.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('statistics');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'walpressure'
fsync = on
max_worker_processes = 16
});
$node->start;
$node->safe_psql('postgres', q{
CREATE EXTENSION walpressure CASCADE;
SELECT walpressure.init_pgbench(1);
});

# A/A: the same value three times, three interleaved repeats each
my $id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '0', '0'], engine => 'backend', clients => 4, duration => '2 s',
                             warmup => '1 s', repeats => 3, prewarm => false, label => 'A/A')});
my $aa = $node->safe_psql('postgres', qq{
SELECT string_agg(verdict, ' ' ORDER BY value_pos) FROM walpressure.results WHERE sweep_id = $id});
note $node->safe_psql('postgres', qq{
SELECT string_agg(value_pos || ': ' || tps || ' [' || tps_ci_low || ', ' || tps_ci_high || ']', '; ')
FROM walpressure.results WHERE sweep_id = $id});
is($aa, 'baseline within noise within noise', 'an A/A sweep reads within noise');
is($node->safe_psql('postgres', qq{SELECT ci_basis FROM walpressure.results WHERE sweep_id = $id LIMIT 1}),
	'repeats', 'with repeats the intervals come from the repeats');
is($node->safe_psql('postgres', qq{SELECT value FROM walpressure.best WHERE sweep_id = $id}), '0',
	'best keeps the first value when nothing beats it');
like($node->safe_psql('postgres', qq{SELECT diagnoses FROM walpressure.best WHERE sweep_id = $id}),
	qr/no value differs from the first beyond noise/, 'and says that nothing differs beyond noise');

# a real effect: synchronous_commit off against on
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('synchronous_commit', ARRAY['on', 'off'], engine => 'backend', clients => 4, duration => '2 s',
                             warmup => '1 s', repeats => 3, prewarm => false)});
note $node->safe_psql('postgres', qq{
SELECT string_agg(value || ': ' || tps || ' [' || tps_ci_low || ', ' || tps_ci_high || '] ' || verdict, '; ')
FROM walpressure.results WHERE sweep_id = $id});
is($node->safe_psql('postgres', qq{
SELECT verdict FROM walpressure.results WHERE sweep_id = $id AND value = 'off'}), 'faster',
	'synchronous_commit off reads faster');
is($node->safe_psql('postgres', qq{SELECT value || ' | ' || apply FROM walpressure.best WHERE sweep_id = $id}),
	q{off | ALTER SYSTEM SET synchronous_commit = 'off'; SELECT pg_reload_conf();},
	'best gives the value and the line that applies it');
is($node->safe_psql('postgres', qq{
SELECT gain_ci_low > 1 AND gain_ci_low <= gain AND gain <= gain_ci_high FROM walpressure.best WHERE sweep_id = $id}),
	't', 'its gain interval is above 1 and holds the gain');
like($node->safe_psql('postgres', qq{SELECT diagnoses FROM walpressure.best WHERE sweep_id = $id}),
	qr/a crash can lose data with off: synchronous_commit=off/, 'best says what the value risks');

# commit_delay with 4 clients and commit_siblings 5: no commit ever waits
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '1000'], engine => 'backend', clients => 4, duration => '2 s',
                             warmup => '0 s', prewarm => false)});
like($node->safe_psql('postgres', qq{SELECT diagnoses FROM walpressure.best WHERE sweep_id = $id}),
	qr/commit_delay is inert: with 4 clients at most 3 other transactions are active, fewer than commit_siblings = 5/,
	'commit_delay with 4 clients and commit_siblings 5 is diagnosed inert');

# the chart and the SVG of a real sweep
my $report = $node->safe_psql('postgres', qq{SELECT string_agg(r, E'\\n') FROM walpressure.report($id) r});
like($report, qr/^sweep $id: commit_delay, simple-update, 4 clients/, 'report has a header');
like($report, qr/^1000 +\| #+/m, 'and a bar per value');
is($node->safe_psql('postgres', qq{SELECT xml_is_well_formed_document(walpressure.plot($id))}), 't',
	'plot gives a well-formed SVG');

done_testing();
