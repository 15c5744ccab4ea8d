# A real sweep end to end: steps interleaved, figures recorded, results,
# pseudo-parameters, every workload.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use WalPressure::Test;

# init_pgbench builds what pgbench -i -s 2 builds
my $node = new_node('sweep', conf => [ fsync => 'on', max_worker_processes => 16, shared_buffers => '256MB' ],
	pgbench => 2);
is($node->safe_psql('postgres', q{
SELECT (SELECT count(*) FROM pgbench_branches) || ' ' || (SELECT count(*) FROM pgbench_tellers)
    || ' ' || (SELECT count(*) FROM pgbench_accounts) || ' ' || (SELECT count(*) FROM pgbench_history)
    || ' ' || (SELECT sum(abalance) FROM pgbench_accounts)}),
	'2 20 200000 0 0', 'init_pgbench: pgbench rows for scale 2');
is($node->safe_psql('postgres', q{
SELECT string_agg(c.relname || ':' || coalesce(array_to_string(c.reloptions, ','), '-'), ' ' ORDER BY c.relname)
FROM pg_class c WHERE c.relname LIKE 'pgbench_%' AND c.relkind = 'r'}),
	'pgbench_accounts:fillfactor=100 pgbench_branches:fillfactor=100 pgbench_history:- pgbench_tellers:fillfactor=100',
	'init_pgbench: pgbench tables and fillfactor');
is($node->safe_psql('postgres', q{
SELECT string_agg(indexrelid::regclass::text, ' ' ORDER BY indexrelid::regclass::text) FROM pg_index
WHERE indrelid::regclass::text LIKE 'pgbench_%'}),
	'pgbench_accounts_pkey pgbench_branches_pkey pgbench_tellers_pkey', 'init_pgbench: primary keys');
is($node->safe_psql('postgres', q{
SELECT count(*) FROM pg_stat_user_tables WHERE relname LIKE 'pgbench_%' AND last_vacuum IS NOT NULL}),
	'4', 'init_pgbench: vacuumed');

# commit_delay 0 and 1000, two repeats, interleaved; commit_delay waits
# only when commit_siblings other transactions are active, so with 4 clients
# it needs commit_siblings below 4.  The backend engine: its clients flush
# their statistics at the window's start, so pg_stat_wal's figures match the
# WAL positions (pgbench's backends flush theirs at most once a second: 009)
my ($out, $err) = ('', '');
$node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '1000'], clients => 4,
                             duration => '3 s', warmup => '1 s', repeats => 2, label => 'tap',
                             settings => '{"commit_siblings": 2}', engine => 'backend')},
	stdout => \$out, stderr => \$err, on_error_die => 1);
my $id = $out;
like($id, qr/^\d+$/, 'run_sweep returns the sweep id');
my @notices = $err =~ /NOTICE:  (sweep \d+ step \d\/4: commit_delay = \d+.*)/g;
is(scalar @notices, 4, 'one NOTICE per step');
like($notices[0], qr/step 1\/4: commit_delay = 0 \(repeat 1\): [\d.]+ tps, [\d.]+ commits per fsync/,
	'the NOTICE gives tps and commits per fsync');

is(sweep_field($node, $id, q{status || ' ' || steps_done || '/' || steps_total}), 'done 4/4', 'the sweep is done');
is($node->safe_psql('postgres', qq{
SELECT string_agg(value || '#' || repeat, ' ' ORDER BY step) FROM walpressure.steps WHERE sweep_id = $id}),
	'0#1 1000#1 0#2 1000#2', 'repeats interleaved');
# A client counts its transaction after its commit: one whose commit the
# probe counted just before the window opened can be counted in it by the
# client, so commits may fall short of transactions by one a client.  The
# steps that break a rule are named, as step:commits/transactions.
is($node->safe_psql('postgres', qq{
SELECT coalesce(string_agg(step || ':' || commits || '/' || transactions, ' '), '')
FROM walpressure.steps WHERE sweep_id = $id
 AND (tps > 0 AND transactions > 0 AND seconds BETWEEN 2.9 AND 3.5
      AND commits >= transactions - clients AND wal_fsyncs > 0 AND commits_per_fsync >= 1
      AND latency_p50_ms <= latency_p95_ms AND latency_p95_ms <= latency_p99_ms
      AND latency_avg_ms > 0 AND latency_stddev_ms >= 0 AND wal_bytes > 0
      AND fsync_avg_ms > 0 AND retries = 0) IS NOT TRUE}),
	'', 'every step has consistent figures');
# each step's WAL window, as pg_waldump reads it, is the WAL the step
# counted: its records' bytes, read from that WAL, each record aligned to 8
# bytes, and the pages' headers (24 bytes a page, 40 at a segment's start).
# pg_stat_wal's bytes were not: processes report them late (a window on 16:
# 5.97 MB counted, 8.66 MB of WAL in 115341 records)
is($node->safe_psql('postgres', qq{
SELECT coalesce(string_agg(step || ':' || wal_bytes || '/' || (wal_lsn_end - wal_lsn_start), ' '), '')
FROM walpressure.steps, (SELECT current_setting('wal_block_size')::int AS page) AS w
WHERE sweep_id = $id
 AND (wal_lsn_start IS NOT NULL AND wal_lsn_end > wal_lsn_start
      AND wal_lsn_end - wal_lsn_start BETWEEN wal_bytes
              AND (wal_bytes + 7 * wal_records) * (1 + 40.0 / w.page) + 2 * 40) IS NOT TRUE}),
	'', 'each step\'s WAL window (wal_lsn_start .. wal_lsn_end) is its wal_bytes, aligned, and the pages\' headers');
my ($lsn0, $lsn1, $records) = split /\|/, $node->safe_psql('postgres', qq{
SELECT wal_lsn_start, wal_lsn_end, wal_records FROM walpressure.steps WHERE sweep_id = $id AND step = 4});
my ($dump, $dump_err) = run_command([ 'pg_waldump', '--stats', '-p', $node->data_dir . '/pg_wal',
	'-s', $lsn0, '-e', $lsn1 ]);
my ($dumped) = $dump =~ /^Total\s+(\d+)/m;
diag("pg_waldump: $dump_err") unless defined $dumped;
ok(defined $dumped && $dumped >= 0.8 * $records && $dumped <= 1.25 * $records + 100,
	"pg_waldump --stats over the last step's window counts its WAL records ($records; pg_waldump "
	  . ($dumped // 'none') . ')');
# the probe counted the clients' commits: the server may add a few of its own
is($node->safe_psql('postgres', qq{
SELECT bool_and(commits <= transactions * 1.02 + 50 + tps * (server_seconds - seconds) * 1.5)
FROM walpressure.steps WHERE sweep_id = $id}),
	't', 'probe commits match the clients\' transactions');
is($node->safe_psql('postgres', qq{
SELECT count(*) FROM walpressure.step_samples WHERE sweep_id = $id}),
	'12', 'one sample a second of each measured window');
is($node->safe_psql('postgres', qq{
SELECT string_agg(value || ':' || repeats || ':' || speedup, ' ') FROM walpressure.results WHERE sweep_id = $id}),
	"0:2:1.000 1000:2:" . $node->safe_psql('postgres', qq{
SELECT round(exp(avg(ln(a.tps / b.tps)))::numeric, 3)
FROM walpressure.steps a JOIN walpressure.steps b USING (sweep_id, repeat)
WHERE sweep_id = $id AND a.value = '1000' AND b.value = '0'}),
	'results: one row per value, means over repeats, speedup against the first: the geometric mean of the rounds\' ratios');
# commit_delay makes the leader wait for followers: more commits per fsync
is($node->safe_psql('postgres', qq{
SELECT (SELECT commits_per_fsync FROM walpressure.results WHERE sweep_id = $id AND value = '1000')
     > (SELECT commits_per_fsync FROM walpressure.results WHERE sweep_id = $id AND value = '0')}),
	't', 'commit_delay 1000 groups more commits per fsync than 0');

# the load as the swept parameter
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('clients', ARRAY['1', '3'], duration => '2 s', warmup => '0 s',
                             prewarm => false)});
is($node->safe_psql('postgres', qq{
SELECT string_agg(clients::text, ' ' ORDER BY step) FROM walpressure.steps WHERE sweep_id = $id}),
	'1 3', 'clients swept');

my $history = $node->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history');
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('batch_size', ARRAY['1', '20'], clients => 2, duration => '2 s',
                             warmup => '0 s', workload => 'batch-insert')});
is($node->safe_psql('postgres', qq{
SELECT string_agg(batch_size || ':' || (abs(rows_per_s - tps * batch_size) < 0.01)::text, ' ' ORDER BY step)
FROM walpressure.steps WHERE sweep_id = $id}),
	'1:true 20:true', 'batch_size swept: rows per second = tps x batch size');
cmp_ok($node->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history'), '>', $history,
	'batch-insert inserted rows');
is($node->safe_psql('postgres', qq{
SELECT (SELECT commits_per_fsync FROM walpressure.steps WHERE sweep_id = $id AND value = '20') IS NOT NULL}),
	't', 'batch steps recorded their fsync grouping');

for my $workload ('tpcb-like', 'insert-only')
{
	$id = $node->safe_psql('postgres', qq{
SELECT walpressure.run_sweep('synchronous_commit', ARRAY['on', 'off'], clients => 2,
                             duration => '2 s', warmup => '0 s', workload => '$workload',
                             settings => '{"commit_siblings": 2}')});
	is($node->safe_psql('postgres', qq{
SELECT string_agg(status, '') || ':' || (SELECT count(*) FROM walpressure.steps WHERE sweep_id = $id AND tps > 0)
FROM walpressure.sweeps WHERE sweep_id = $id}),
		'done:2', "workload $workload runs");
	# synchronous_commit off: commits no longer wait for (or do) the fsync
	is($node->safe_psql('postgres', qq{
SELECT leaders = 0 FROM walpressure.steps WHERE sweep_id = $id AND value = 'off'}),
		't', "$workload with synchronous_commit off: no commit led a flush");
}
is($node->safe_psql('postgres', q{SELECT sum(tbalance) <> 0 FROM pgbench_tellers}),
	't', 'tpcb-like updated the tellers');

# custom SQL
$node->safe_psql('postgres', 'CREATE TABLE custom_target (i int)');
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 2, duration => '2 s',
                             warmup => '0 s', workload => 'custom',
                             settings => '{"sql": "INSERT INTO custom_target VALUES (1)"}')});
is($node->safe_psql('postgres', qq{
SELECT (SELECT count(*) FROM custom_target) >= (SELECT transactions FROM walpressure.steps WHERE sweep_id = $id)}),
	't', 'custom workload ran its SQL');

# the settings a step ran with are the ones asked for
$node->safe_psql('postgres', q{
CREATE TABLE seen (commit_delay text, commit_siblings text);
GRANT INSERT ON seen TO PUBLIC});
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['300'], clients => 1, duration => '1 s',
                             warmup => '0 s', workload => 'custom',
                             settings => '{"commit_siblings": 7, "sql": "INSERT INTO seen SELECT current_setting(''commit_delay''), current_setting(''commit_siblings'')"}')});
is($node->safe_psql('postgres', q{SELECT DISTINCT commit_delay || ' ' || commit_siblings FROM seen}),
	'300 7', 'clients run with the step\'s value and the fixed settings');

# a value is recorded as the server holds it: commit_delay is an integer,
# so 0.5 runs as 0 and 1e1 as 10, and the steps say so
$node->safe_psql('postgres', 'TRUNCATE seen');
my (undef, $rounded, $rounded_err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY[0.5, 1e1], clients => 1, duration => '1 s',
                             warmup => '0 s', workload => 'custom',
                             settings => '{"sql": "INSERT INTO seen SELECT current_setting(''commit_delay''), NULL"}')});
is($node->safe_psql('postgres', qq{
SELECT (SELECT vals::text FROM walpressure.sweeps WHERE sweep_id = $rounded)
       || ' ' || (SELECT string_agg(DISTINCT value, ',' ORDER BY value) FROM walpressure.steps WHERE sweep_id = $rounded)
       || ' ' || (SELECT string_agg(DISTINCT commit_delay, ',' ORDER BY commit_delay) FROM seen)}),
	'{0,10} 0,10 0,10', 'a number the server rounds is recorded as it ran');
like($rounded_err, qr/NOTICE:  commit_delay = 0.5 is 0 to the server \(an integer setting\): the sweep records it as 0/,
	'and a NOTICE says so');

is(worker_count($node), '0', 'no worker outlives its sweep');

# a waiting run_sweep holds back no VACUUM: its backend has no xmin
my $bg = session($node);
$bg->start(q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '0'], engine => 'backend', clients => 2, duration => '2 s',
                             warmup => '0 s', label => 'xmin')});
wait_clients($node);
is($node->safe_psql('postgres', q{
SELECT backend_xmin IS NULL FROM pg_stat_activity
WHERE query LIKE '%label => ''xmin''%' AND pid <> pg_backend_pid()}),
	't', 'the waiting run_sweep holds no snapshot back');
$bg->finish;
$bg->quit;
wait_sql($node, q{SELECT status = 'done' FROM walpressure.sweeps WHERE label = 'xmin'}, 'the xmin sweep');

$node->stop;
done_testing();
