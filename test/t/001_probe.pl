# The commit probe against pgbench: commits, WAL fsyncs, grouping, latency.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use WalPressure::Test;

my $node = new_node('probe', conf => [ fsync => 'on', track_wal_io_timing => 'on', autovacuum => 'off',
	'walpressure.sample_interval' => 500 ]);
$node->command_ok([ 'pgbench', '-i', '-s', '5', '-q', 'postgres' ], 'pgbench -i');

# The server's own count of WAL fsyncs: pg_stat_wal up to 17, pg_stat_io's
# wal rows on 18 (which moved them there).
my $wal_sync_sql = $node->pg_version >= 18
  ? q{(SELECT sum(fsyncs)::bigint FROM pg_stat_io WHERE object = 'wal' AND context = 'normal')}
  : q{(SELECT wal_sync FROM pg_stat_wal)};
note 'PostgreSQL ' . $node->pg_version . ": WAL fsyncs from $wal_sync_sql";

# The baseline and the figure it is compared with come from the same
# statistics snapshot (one transaction).
my $before = $node->safe_psql('postgres', qq{
BEGIN;
SELECT walpressure.reset();
SELECT $wal_sync_sql;
COMMIT;
});
$before = (split /\n/, $before)[-1];

# the sessions ask the probe to tell leaders (on 18 and later it costs a
# flush of their I/O statistics a commit, and is off by default)
my ($out, $err);
my $ok;
{
	local $ENV{PGOPTIONS} = '-c walpressure.exact_leaders=on';
	$ok = $node->run_log(
		[ 'pgbench', '-n', '-b', 'simple-update', '-c', '8', '-j', '2', '-T', '10', 'postgres' ],
		'>', \$out, '2>', \$err);
}
ok($ok, 'pgbench simple-update ran');
my ($processed) = $out =~ /number of transactions actually processed: (\d+)/;
ok(defined $processed && $processed > 0, "pgbench processed transactions ($processed)");

# pgbench's backends flushed their statistics when they exited; wait until
# pg_stat_wal no longer moves before comparing with it.
my $last = -1;
for my $try (1 .. 50)
{
	my $now = $node->safe_psql('postgres', "SELECT $wal_sync_sql");
	last if $now == $last;
	$last = $now;
	sleep 1;
}

my $row = $node->safe_psql('postgres', qq{
SELECT l.commits, l.wal_fsyncs, $wal_sync_sql, l.leader_fsyncs, l.commits_per_fsync,
       l.fsync_avg_ms, l.fsync_p50_ms, l.fsync_p99_ms,
       l.commit_avg_ms, l.commit_p50_ms, l.commit_p99_ms, l.leader_pct
FROM walpressure.live l
WHERE l.period = 'since reset'
});
my ($commits, $fsyncs, $wal_sync, $leader_fsyncs, $per_fsync,
	$fsync_avg, $fsync_p50, $fsync_p99,
	$commit_avg, $commit_p50, $commit_p99, $leader_pct) = split /\|/, $row;
note "probe: $row; pgbench processed $processed";

# pgbench counts the transactions it saw complete; a client cut off at the
# end may have committed one more.  Nothing else commits (autovacuum off).
cmp_ok($commits, '>=', $processed, 'probe counted every pgbench commit');
cmp_ok($commits, '<=', $processed + 8, 'probe counted nothing else');

is($fsyncs, $wal_sync - $before, 'live wal_fsyncs equals the server\'s own WAL fsync delta');
# Committing backends do nearly all fsyncs; the walwriter and checkpointer
# the rest.
cmp_ok($leader_fsyncs, '<=', $fsyncs, 'leaders did no more fsyncs than the server');
cmp_ok($leader_fsyncs, '>=', 0.9 * $fsyncs, 'leaders did at least 90% of the fsyncs');
cmp_ok($per_fsync, '>', 1, 'commits share fsyncs (commits per fsync > 1)');
cmp_ok($leader_pct, '>', 0, 'some commits led a flush');
cmp_ok($leader_pct, '<', 100, 'some commits rode on another flush');

cmp_ok($fsync_avg, '>', 0, 'fsync latency measured');
cmp_ok($fsync_p50, '>', 0, 'fsync p50 non-zero');
cmp_ok($fsync_p50, '<=', $fsync_p99, 'fsync p50 <= p99');
cmp_ok($commit_avg, '>', 0, 'commit latency measured');
cmp_ok($commit_p50, '>', 0, 'commit p50 non-zero');
cmp_ok($commit_p50, '<=', $commit_p99, 'commit p50 <= p99');
cmp_ok($fsync_p50, '<=', $commit_p99, 'an fsync is part of a commit');

# The last-minute row covers the run too (the reset is less than a minute
# old, so both rows start there).
my $minute = $node->safe_psql('postgres',
	q{SELECT commits FROM walpressure.live WHERE period = 'last 60 s'});
is($minute, $commits, 'last 60 s row agrees within a minute of the reset');

# The samples cover the run: their commits add up to the probe's.
ok(poll($node, qq{SELECT sum(commits) = $commits FROM walpressure.samples}), 'the samples add up to the commits');
my $waits = $node->safe_psql('postgres',
	q{SELECT max(waiting_walwrite_lock + waiting_wal_sync) > 0 FROM walpressure.samples});
is($waits, 't', 'the sampler saw backends waiting on the WAL flush');

# Sessions that do not ask: on 18 and later their commits are counted and
# timed but not told (no leader, no flush of their statistics); before 18
# telling costs nothing and is always done.
$node->safe_psql('postgres', 'SELECT walpressure.reset()');
$node->command_ok([ 'pgbench', '-n', '-b', 'simple-update', '-c', '4', '-j', '2', '-T', '3', 'postgres' ],
	'pgbench without exact_leaders');
ok(poll($node, q{SELECT commits > 0 FROM walpressure.live WHERE period = 'since reset'}), 'its commits are counted');
is($node->safe_psql('postgres', q{
SELECT CASE WHEN leader_pct IS NULL THEN 'not told' ELSE 'told' END || ' ' || (commit_avg_ms > 0)
FROM walpressure.live WHERE period = 'since reset'}),
	$node->pg_version >= 18 ? 'not told true' : 'told true',
	$node->pg_version >= 18 ? 'on 18 and later they are timed, not told leader or follower'
	  : 'before 18 they are told leader or follower all the same');

$node->stop;
done_testing();
