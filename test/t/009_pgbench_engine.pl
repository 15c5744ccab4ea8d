# The pgbench engine: this server's pgbench runs each step's load over the
# Unix socket as the caller; its figures, its script, what it refuses before
# anything starts, and that it never outlives its step.
use strict;
use warnings;

use Time::HiRes qw(usleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use WalPressure::Test;

# some of its assertions measure the machine: those run where test/run
# measures, with no other major's suites beside it (WalPressure::Test);
# elsewhere their bounds are what a busy machine cannot break
my $measuring = quiet_machine();

my $node = new_node('pgbench_engine',
	conf => [ max_worker_processes => 16, fsync => 'on', restart_after_crash => 'on' ], pgbench => 1);

my $ncpu = () = (slurp_file('/proc/cpuinfo') =~ /^processor\s*:/mg);

sub sweeps { $node->safe_psql('postgres', 'SELECT count(*) FROM walpressure.sweeps') }

# pgbench processes: the children of the coordinator, by pid
sub coordinator_pid { return backend_pid($node, 'walpressure coordinator'); }
sub alive { my ($pid) = @_; return kill(0, $pid) ? 1 : 0; }

# a sweep end to end
my ($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '1000'], clients => 4,
                             duration => '4 s', warmup => '2 s', engine => 'pgbench',
                             settings => '{"commit_siblings": 2}', label => 'pgbench')});
is($ret, 0, 'a pgbench-engine sweep runs') or diag($err);
my $id = $out;
is($node->safe_psql('postgres', qq{SELECT engine || ' ' || status FROM walpressure.sweeps WHERE sweep_id = $id}),
	'pgbench done', 'the sweep row says which engine ran it');
is($node->safe_psql('postgres', qq{
SELECT bool_and(transactions > 0 AND tps > 0 AND seconds BETWEEN 3.9 AND @{[ $measuring ? 4.6 : 6 ]}
                AND abs(tps * seconds - transactions) < 1
                AND latency_avg_ms > 0 AND latency_p50_ms <= latency_p99_ms
                -- the server counts commits over the window, pgbench its transactions:
                -- a client's transaction at either edge may fall in one and not the other
                AND commits >= transactions - 4 AND wal_fsyncs > 0 AND fsync_avg_ms > 0)
FROM walpressure.steps WHERE sweep_id = $id}),
	't', 'each step: transactions, tps, latencies from pgbench; commits and fsyncs from the server')
  or diag($node->safe_psql('postgres', qq{SELECT transactions, tps, seconds, latency_avg_ms, latency_p50_ms,
    latency_p99_ms, commits, wal_fsyncs, fsync_avg_ms FROM walpressure.steps WHERE sweep_id = $id}));
# the window's transactions, not pgbench's whole run: the samples add up to them
is($node->safe_psql('postgres', qq{
SELECT bool_and(abs(s.sum - st.transactions) <= @{[ $measuring ? 0.15 : 0.5 ]} * st.transactions AND s.n >= 3)
FROM walpressure.steps st
JOIN (SELECT step, count(*) AS n, sum(tps * 1.0) AS sum FROM walpressure.step_samples
      WHERE sweep_id = $id AND latency_p50_ms IS NOT NULL GROUP BY step) s USING (step)
WHERE st.sweep_id = $id}),
	't', 'per-second samples with percentiles cover the window, warm-up excluded');

# CPU per step: pgbench's next to the server's
is($node->safe_psql('postgres', qq{
SELECT bool_and(client_cpu_s > 0 AND server_cpu_s > 0 AND client_cpu_s + server_cpu_s <= seconds * $ncpu * 1.1)
FROM walpressure.steps WHERE sweep_id = $id}),
	't', 'each step records pgbench\'s CPU time and the server\'s over the window')
  or diag($node->safe_psql('postgres', qq{SELECT client_cpu_s, server_cpu_s, seconds FROM walpressure.steps WHERE sweep_id = $id}));

# the server's private directory for pgbench's files: empty after the sweep,
# and kept, so that no other local user can take its name
my $private = private_dir($node);
my @mode = lstat($private);
ok(-d _ && !-l $private && ($mode[2] & 07777) == 0700 && $mode[4] == $>,
	'after the sweep, the private directory is a directory of the server\'s user, mode 0700');
is(scalar(dir_entries($private)), 0, 'and nothing is left in it');

# select-only: pgbench's built-in, no WAL flush per transaction
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 2, duration => '2 s', warmup => '0 s',
                             workload => 'select-only', prewarm => false)});
is($ret, 0, 'a select-only sweep runs (with the default engine)') or diag($err);
is($node->safe_psql('postgres', qq{
SELECT s.engine || ' ' || (st.transactions > 100) || ' ' || (st.wal_fsyncs < st.transactions / 10)
FROM walpressure.sweeps s JOIN walpressure.steps st USING (sweep_id) WHERE sweep_id = $out}),
	'pgbench true true', 'select-only: many transactions, next to no WAL fsyncs');

# under a disk cap the step's write IOs are the server's: pgbench and its
# per-transaction logs write nothing to a disk
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0'], clients => 4, duration => '4 s', warmup => '1 s',
                             iops_cap => 400, prewarm => false, wait => false)});
wait_window($node);
my ($bench) = children(coordinator_pid());
my %io;
while ($bench && open(my $io, '<', "/proc/$bench/io"))
{
	my %now = map { /^(\w+): (\d+)/ ? ($1 => $2) : () } <$io>;
	close $io;
	%io = %now if %now && ($now{wchar} // 0) >= ($io{wchar} // 0);
	usleep(200_000);
}
wait_sweep($node, $id);
ok(($io{wchar} // 0) > 0 && defined $io{write_bytes} && $io{write_bytes} == 0,
	"capped step: pgbench wrote its logs (wchar $io{wchar}) and nothing reached a disk (write_bytes $io{write_bytes})");
is($node->safe_psql('postgres', qq{
SELECT iops_cap || ' ' || (write_iops > @{[ $measuring ? 50 : 0 ]} AND write_iops <= 480)
FROM walpressure.steps WHERE sweep_id = $id}),
	'400 true', 'the step\'s write IOPS are the capped server\'s');

# the step's session settings reach pgbench's backends, one value each
$node->safe_psql('postgres', 'CREATE TABLE seen (delay text, siblings text, app text)');
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_delay', ARRAY['0', '77'], clients => 1,
                             duration => '1 s', warmup => '0 s', engine => 'pgbench',
                             prewarm => false, settings => '{"commit_siblings": 3}',
                             script => 'INSERT INTO seen SELECT current_setting(''commit_delay''), current_setting(''commit_siblings''), current_setting(''application_name'');')});
is($ret, 0, 'a script sweep runs') or diag($err);
is($node->safe_psql('postgres', q{SELECT string_agg(DISTINCT delay || '/' || siblings || '/' || app, ' ') FROM seen}),
	'0/3/walpressure pgbench 77/3/walpressure pgbench', 'PGOPTIONS carried each step\'s settings');

# settings' protocol is pgbench's --protocol: with prepared, each client's
# statement is a prepared one in its session; the default is simple
$node->safe_psql('postgres', 'CREATE TABLE protocol_seen (protocol text, prepared bigint)');
for my $p ('prepared', 'simple')
{
	($ret, $out, $err) = $node->psql('postgres', qq{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, duration => '1 s',
                             warmup => '0 s', engine => 'pgbench', prewarm => false,
                             settings => '{"protocol": "$p"}',
                             script => 'INSERT INTO protocol_seen SELECT ''$p'', count(*) FROM pg_prepared_statements;')});
	is($ret, 0, "a sweep with protocol $p runs") or diag($err);
}
is($node->safe_psql('postgres', q{
SELECT string_agg(DISTINCT protocol || ':' || (prepared > 0), ' ' ORDER BY protocol || ':' || (prepared > 0)) FROM protocol_seen}),
	'prepared:true simple:false', 'protocol prepared: the clients ran prepared statements; simple: none');

# a script with meta-commands
$node->safe_psql('postgres', 'CREATE TABLE picked (v int)');
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 2, duration => '1 s',
                             warmup => '0 s', engine => 'pgbench', prewarm => false,
                             script => $s$\set v random(1, 10)
INSERT INTO picked VALUES (:v);$s$)});
is($ret, 0, 'a script with \set runs') or diag($err);
is($node->safe_psql('postgres', 'SELECT count(*) > 0 AND min(v) >= 1 AND max(v) <= 10 FROM picked'), 't',
	'its \set values reached the statements');

# refused before anything starts: a script pgbench cannot parse
my $before = sweeps();
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, engine => 'pgbench',
                             duration => '1 s', warmup => '0 s', prewarm => false,
                             script => $s$\set v random(1,
SELECT 1;$s$)});
like($err, qr/ERROR:  pgbench refused the sweep's workload or settings before it started/,
	'a script with a syntax error is refused');
like($err, qr/DETAIL:  pgbench said: .*syntax error/s, 'with pgbench\'s own message');
is(sweeps(), $before, 'and nothing was recorded');

# a role that may not run programs
$node->safe_psql('postgres', q{
CREATE ROLE regress_nobench LOGIN;
GRANT USAGE ON SCHEMA walpressure TO regress_nobench;
GRANT EXECUTE ON FUNCTION walpressure.run_sweep(text, "any", int, "any", text, int, "any", "any", jsonb, bool, text, bool, bool, text, text, "any", bool, text, text, float8, float8, text, text, "any", text, float8) TO regress_nobench;
GRANT pg_checkpoint TO regress_nobench;
GRANT SELECT ON pgbench_branches TO regress_nobench;
});
($ret, $out, $err) = $node->psql('postgres', q{
SET ROLE regress_nobench;
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, engine => 'pgbench', prewarm => false)});
like($err, qr/ERROR:  permission denied to run pgbench on the server.*DETAIL:  .*equals superuser.*HINT:  .*grant_sweeper\('regress_nobench', engine => 'pgbench'\)/s,
	'a role without pg_execute_server_program is refused, with what it equals and the call that grants it');

# a role pg_hba.conf does not let in over the socket: the hint says which line would
$node->safe_psql('postgres', 'GRANT pg_execute_server_program TO regress_nobench');
my $hba = $node->data_dir . '/pg_hba.conf';
my $old_hba = slurp_file($hba);
write_file($hba, "local all regress_nobench peer\n$old_hba");
$node->reload;
($ret, $out, $err) = $node->psql('postgres', q{
SET ROLE regress_nobench;
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 1, engine => 'pgbench', prewarm => false)});
like($err, qr/ERROR:  pgbench refused the sweep's connection.*Peer authentication failed.*HINT:  .*local postgres regress_nobench trust/s,
	'peer authentication: refused before any step, with the pg_hba.conf line that would let it');
write_file($hba, $old_hba);
$node->reload;
is(sweeps(), $before, 'the refusals recorded nothing');

# cancel: pgbench is gone with its step
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5', '6'], clients => 2, duration => '30 s',
                             warmup => '0 s', engine => 'pgbench', prewarm => false, wait => false)});
my @kids;
wait_until(sub { @kids = children(coordinator_pid()) });
ok(scalar @kids == 1, "pgbench runs as the coordinator's child (pid @kids)");
$node->safe_psql('postgres', "SELECT walpressure.cancel_sweep($id)");
is(alive($kids[0]), 0, 'cancel_sweep: pgbench is gone');

# pgbench dying mid-window: the step is cut short and marked, kept out of
# the figures, and the sweep goes on
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5', '6'], clients => 2, duration => '4 s',
                             warmup => '1 s', engine => 'pgbench', prewarm => false, wait => false)});
wait_window($node);
@kids = children(coordinator_pid());
kill 'KILL', $kids[0];
wait_sweep($node, $id);
is($node->safe_psql('postgres', qq{SELECT status FROM walpressure.sweeps WHERE sweep_id = $id}),
	'done', 'the sweep goes on after a step whose pgbench died');
like($node->safe_psql('postgres', qq{SELECT discarded FROM walpressure.steps WHERE sweep_id = $id AND step = 1}),
	qr/^pgbench ended before the step did \(signal 9\)/, 'that step is marked with why');
is($node->safe_psql('postgres', qq{
SELECT (SELECT seconds < @{[ $measuring ? 3.5 : 4 ]} FROM walpressure.steps WHERE sweep_id = $id AND step = 1)
       || ' ' || (SELECT discarded IS NULL FROM walpressure.steps WHERE sweep_id = $id AND step = 2)}),
	'true true', 'its window was cut short; the next step ran clean');
is($node->safe_psql('postgres', qq{
SELECT string_agg(value || ':' || repeats || ':' || steps_discarded || ':' || verdict, ' ' ORDER BY value_pos)
FROM walpressure.results WHERE sweep_id = $id}),
	'5:0:1:discarded 6:1:0:no baseline', 'results leave the marked step out, and measure nothing against another baseline');
like($node->safe_psql('postgres', qq{SELECT diagnoses FROM walpressure.best WHERE sweep_id = $id}),
	qr/1 step left out of the figures \(steps.discarded says why\)/, 'best says so');

# pgbench losing one of its clients: the others run on, the step is marked
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 2, duration => '2 s',
                             warmup => '0 s', engine => 'pgbench', prewarm => false,
                             script => 'SELECT CASE WHEN :client_id = 1 AND random() < 0.01 THEN 1 / 0 ELSE 1 END;')});
like($node->safe_psql('postgres', qq{SELECT discarded FROM walpressure.steps WHERE sweep_id = $id}),
	qr/^pgbench lost clients during the step \(exit status 2\), 1 of 2 clients aborted: .*division by zero/s,
	'a step where pgbench lost a client is marked, with pgbench\'s words');
is($node->safe_psql('postgres', qq{SELECT status || ' ' || (transactions > 0) FROM walpressure.sweeps JOIN walpressure.steps USING (sweep_id) WHERE sweep_id = $id}),
	'done true', 'what the other client did is kept in its row');

# Ctrl-C on a waiting pgbench-engine sweep: pgbench is gone too
my $h = background($node, q{SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 2, duration => '30 s',
	                                 warmup => '0 s', engine => 'pgbench', prewarm => false, label => 'ctrl-c')});
@kids = ();
wait_until(sub { my $c = coordinator_pid(); @kids = $c ? children($c) : () });
ok(scalar @kids == 1 && alive($kids[0]), 'the Ctrl-C sweep runs pgbench');
$node->safe_psql('postgres', q{
SELECT pg_cancel_backend(pid) FROM pg_stat_activity
WHERE query LIKE '%ctrl-c%' AND backend_type = 'client backend' AND pid <> pg_backend_pid()});
my (undef, $cerr) = $h->finish;
like($cerr, qr/canceling statement due to user request/, 'Ctrl-C: run_sweep is cancelled');
# (within the 10 s it always had: its -T of 30 s would end it anyway)
ok(wait_until(sub { !alive($kids[0]) }, seconds => 10), 'Ctrl-C: pgbench is gone');

# kill -9 of the coordinator: the server restarts its backends, pgbench dies with it
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', ARRAY['5'], clients => 2, duration => '30 s',
                             warmup => '0 s', engine => 'pgbench', prewarm => false, wait => false)});
my $coord = wait_until(sub { coordinator_pid() });
@kids = ();
wait_until(sub { @kids = children($coord) });
kill 'KILL', $coord;
ok(wait_until(sub { !alive($kids[0]) }, seconds => 10), 'kill -9 of the coordinator: pgbench is gone within seconds');
wait_ready($node);
wait_sweep($node, $id);
my $dirs = sub { scalar(grep { -d $_ } glob($private . '/pgbench.*')) };
wait_until(sub { !$dirs->() });
is($dirs->(), 0, 'no pgbench log directory is left behind (the restore worker removes a dead one\'s)');
is(scalar(dir_entries($private)), 0, 'nothing else is left in the private directory');

done_testing();
