# Hostile callers: what a sweeper with CREATE on a schema, a database named
# like a connection string, a search_path with a tab, a revoked right, a
# stale-directory symlink or a huge array can do to the server.  Each ends in
# a clean error or a stopped sweep, with its settings restored, no process
# left and no crash-restart.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep time);
use WalPressure::Test;

my $node = new_node('hostile', conf => [ max_worker_processes => 16, wal_writer_delay => '200ms' ], pgbench => 1);
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);

# the checkpointer's pid: a new one after a crash-restart (the postmaster's
# start time stays the same across one)
sub checkpointer
{
	return $node->safe_psql('postgres', q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'});
}
my $started = checkpointer();

# poll until $sql returns t, at most $secs; returns the seconds it took, or undef
sub within
{
	my ($db, $sql, $secs) = @_;
	my $t0 = time;
	return wait_until(sub { $node->safe_psql($db, $sql) eq 't' }, seconds => $secs) ? time - $t0 : undef;
}

# how many times the sweeper's functions were called
sub calls
{
	return $node->safe_psql('postgres', q{SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM evil.called});
}

# nothing of a sweep left, and the server did not crash-restart
sub nothing_left
{
	my ($what) = @_;
	ok( defined within('postgres', q{
SELECT count(*) = 0 FROM pg_stat_activity
WHERE backend_type IN ('walpressure coordinator', 'walpressure client')
   OR application_name IN ('walpressure pgbench', 'walpressure client')}, 15),
		"$what: no coordinator, client or pgbench connection left");
	is(checkpointer(), $started, "$what: no crash-restart");
}

# --- a sweeper whose search_path holds its own functions
$node->safe_psql('postgres', q{
CREATE ROLE mallory LOGIN;
SELECT walpressure.grant_sweeper('mallory');
GRANT ALTER SYSTEM ON PARAMETER wal_writer_delay TO mallory;
GRANT EXECUTE ON FUNCTION pg_reload_conf() TO mallory;
CREATE SCHEMA evil AUTHORIZATION mallory;
GRANT CREATE ON SCHEMA public TO mallory;
});
# each of its functions counts its call, then will not stop on a cancel
$node->safe_psql('postgres', q{
SET ROLE mallory;
CREATE SEQUENCE evil.called;
CREATE FUNCTION evil.stubborn(who text) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
    PERFORM nextval('evil.called');   -- seen at once, whatever happens next
    FOR i IN 1..600 LOOP
        BEGIN
            PERFORM pg_sleep(1);
        EXCEPTION WHEN query_canceled THEN NULL;
        END;
    END LOOP;
    RETURN 1;
END $$;
CREATE FUNCTION evil.to_regclass(t text) RETURNS regclass LANGUAGE plpgsql AS $$
BEGIN PERFORM evil.stubborn(current_setting('application_name') || ' to_regclass'); RETURN NULL; END $$;
CREATE FUNCTION evil.format(f text, VARIADIC a text[]) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM evil.stubborn(current_setting('application_name') || ' format'); RETURN f; END $$;
CREATE FUNCTION evil.unnest(a anyarray) RETURNS SETOF anyelement LANGUAGE plpgsql AS $$
BEGIN PERFORM evil.stubborn(current_setting('application_name') || ' unnest'); END $$;
CREATE FUNCTION evil.eq(a name, b text) RETURNS bool LANGUAGE plpgsql AS $$
BEGIN PERFORM evil.stubborn(current_setting('application_name') || ' ='); RETURN a::text = b; END $$;
CREATE OPERATOR evil.= (LEFTARG = name, RIGHTARG = text, FUNCTION = evil.eq);
});

# a sweep with a server-wide setting, started with that search_path
my $id = $node->safe_psql('postgres', q{
SET ROLE mallory;
SET search_path = evil, public;
SELECT walpressure.run_sweep('commit_siblings', '{5,6,7}', engine => 'backend', clients => 1,
                             duration => '20 s', warmup => '0 s',
                             settings => '{"wal_writer_delay": "777ms"}', wait => false)});
ok(defined within('postgres', q{SELECT current_setting('wal_writer_delay') = '777ms'}, 30),
	'the sweep holds wal_writer_delay = 777ms');
ok(defined within('postgres', qq{SELECT steps_done >= 0 AND phase = 'measured window' FROM walpressure.progress
                                 UNION ALL SELECT false LIMIT 1}, 60),
	'its first step runs (prewarm and checkpoint done)');
is(calls(), '0',
	'none of the caller\'s functions ran in the coordinator (prewarm, settings lookups)');
my $t0 = time;
$node->safe_psql('postgres', "SELECT walpressure.cancel_sweep($id)");
my $took = time - $t0;
cmp_ok($took, '<', 10, sprintf('cancel_sweep stopped it in %.1f s', $took));
is($node->safe_psql('postgres', "SELECT status FROM walpressure.sweeps WHERE sweep_id = $id"), 'cancelled',
	'the sweep reads cancelled');
is($node->safe_psql('postgres', q{SELECT current_setting('wal_writer_delay')}), '200ms',
	'wal_writer_delay is back to 200ms');
nothing_left('cancel_sweep');

# pg_terminate_backend of the coordinator ends it the same way
$id = $node->safe_psql('postgres', q{
SET ROLE mallory;
SET search_path = evil, public;
SELECT walpressure.run_sweep('commit_siblings', '{5,6}', engine => 'backend', clients => 1,
                             duration => '20 s', warmup => '0 s',
                             settings => '{"wal_writer_delay": "777ms"}', wait => false)});
ok(defined within('postgres', q{SELECT current_setting('wal_writer_delay') = '777ms'}, 30),
	'a second sweep holds wal_writer_delay');
$t0 = time;
$node->safe_psql('postgres', q{
SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'walpressure coordinator'});
ok(defined within('postgres', qq{SELECT status <> 'running' FROM walpressure.sweeps WHERE sweep_id = $id}, 15),
	sprintf('pg_terminate_backend ended it in %.1f s', time - $t0));
is($node->safe_psql('postgres', "SELECT status FROM walpressure.sweeps WHERE sweep_id = $id"), 'cancelled',
	'terminated: the sweep reads cancelled');
ok(defined within('postgres', q{SELECT current_setting('wal_writer_delay') = '200ms'}, 10),
	'terminated: wal_writer_delay is back');
nothing_left('pg_terminate_backend');

# the load is the caller's own code: a statement that swallows cancels does
# not keep either engine's clients alive past a cancel
for my $engine ('backend', 'pgbench')
{
	$node->safe_psql('postgres', 'GRANT pg_execute_server_program TO mallory') if $engine eq 'pgbench';
	$node->safe_psql('postgres', q{SELECT setval('evil.called', 1, false)});
	$id = $node->safe_psql('postgres', qq{
SET ROLE mallory;
SELECT walpressure.run_sweep('commit_siblings', '{5}', engine => '$engine', clients => 2,
                             duration => '60 s', warmup => '0 s', prewarm => false, checkpoint => false,
                             workload => 'custom',
                             settings => '{"sql": "SELECT evil.stubborn(''load'')"}', wait => false)});
	ok(defined within('postgres', q{SELECT CASE WHEN is_called THEN last_value ELSE 0 END = 2 FROM evil.called}, 30),
		"$engine engine: both clients run the stubborn statement");
	$t0 = time;
	$node->safe_psql('postgres', "SELECT walpressure.cancel_sweep($id)");
	$took = time - $t0;
	cmp_ok($took, '<', 15, sprintf('%s engine: cancel_sweep returned in %.1f s', $engine, $took));
	nothing_left("$engine engine, a stubborn load");
}

# the caller's code runs only with settings the caller could set itself:
# track_wal_io_timing (a superuser's) is on in its clients only when it may
$node->safe_psql('postgres', q{
REVOKE SET ON PARAMETER track_wal_io_timing FROM mallory;
SET ROLE mallory;
CREATE TABLE evil.seen (setting text);
GRANT INSERT ON evil.seen TO mallory;});
$node->safe_psql('postgres', q{
SET ROLE mallory;
SELECT walpressure.run_sweep('commit_siblings', '{5}', engine => 'backend', clients => 1,
                             duration => '1 s', warmup => '0 s', prewarm => false, checkpoint => false,
                             workload => 'custom',
                             settings => '{"sql": "INSERT INTO evil.seen SELECT current_setting(''track_wal_io_timing'')"}')});
is($node->safe_psql('postgres', q{SELECT string_agg(DISTINCT setting, ',') FROM evil.seen}), 'off',
	'a role that may not set track_wal_io_timing runs its load with it off');

# --- pg_ctl stop -m fast during a stubborn sweep stops the server
$node->safe_psql('postgres', q{SELECT setval('evil.called', 1, false)});
$node->safe_psql('postgres', q{
SET ROLE mallory;
SET search_path = evil, public;
SELECT walpressure.run_sweep('commit_siblings', '{5}', engine => 'backend', clients => 1,
                             duration => '60 s', warmup => '0 s', workload => 'custom',
                             settings => '{"sql": "SELECT evil.stubborn(''load'')", "wal_writer_delay": "777ms"}',
                             wait => false)});
ok(defined within('postgres', q{SELECT CASE WHEN is_called THEN last_value ELSE 0 END = 1 FROM evil.called}, 30),
	'a stubborn sweep runs');
$t0 = time;
my $stopped = eval { $node->stop('fast'); 1 };
ok($stopped, sprintf('pg_ctl stop -m fast stopped the server in %.1f s', time - $t0));
cmp_ok(time - $t0, '<', 30, '... within 30 s');
$node->start;
$started = checkpointer();
ok(defined within('postgres', q{SELECT current_setting('wal_writer_delay') = '200ms'}, 30),
	'after the stop, wal_writer_delay is 200ms again');

# --- rights revoked during a sweep
$id = $node->safe_psql('postgres', q{
SET ROLE mallory;
SELECT walpressure.run_sweep('commit_siblings', '{5}', engine => 'backend', clients => 1,
                             duration => '60 s', warmup => '0 s', prewarm => false, wait => false)});
ok(defined within('postgres', q{SELECT count(*) = 1 FROM walpressure.progress WHERE phase = 'measured window'}, 30),
	'a sweep of mallory\'s runs');
$t0 = time;
my $revoked = $node->safe_psql('postgres', q{SELECT string_agg(r, E'\n') FROM walpressure.revoke_sweeper('mallory') r});
like($revoked, qr/^-- cancelled sweep $id, which ran as mallory$/m, 'revoke_sweeper cancels the role\'s running sweep first');
cmp_ok(time - $t0, '<', 15, sprintf('... in %.1f s', time - $t0));
is($node->safe_psql('postgres', "SELECT status FROM walpressure.sweeps WHERE sweep_id = $id"), 'cancelled',
	'the revoked role\'s sweep reads cancelled');
nothing_left('revoke_sweeper');

# a right revoked by hand ends the sweep at its next step, marked so
$node->safe_psql('postgres', q{SELECT walpressure.grant_sweeper('mallory')});
$id = $node->safe_psql('postgres', q{
SET ROLE mallory;
SELECT walpressure.run_sweep('commit_delay', '{0,10,20}', engine => 'backend', clients => 1,
                             duration => '3 s', warmup => '0 s', prewarm => false, wait => false)});
ok(defined within('postgres', q{SELECT count(*) = 1 FROM walpressure.progress WHERE phase = 'measured window'}, 30),
	'a commit_delay sweep of mallory\'s runs');
$node->safe_psql('postgres', 'REVOKE SET ON PARAMETER commit_delay FROM mallory');
ok(defined within('postgres', qq{SELECT status = 'failed' FROM walpressure.sweeps WHERE sweep_id = $id}, 30),
	'REVOKE SET ON PARAMETER commit_delay: the sweep fails at its next step');
like($node->safe_psql('postgres', "SELECT error FROM walpressure.sweeps WHERE sweep_id = $id"),
	qr/lost a right the sweep needs: permission denied to set parameter "commit_delay"/,
	'... saying which right it lost');
cmp_ok($node->safe_psql('postgres', "SELECT count(*) FROM walpressure.steps WHERE sweep_id = $id"), '<', 3,
	'... before its last step');
nothing_left('a right revoked by hand');
$node->safe_psql('postgres', q{SELECT walpressure.revoke_sweeper('mallory')});

# --- a search whose count of values would overflow (issue 43: the count
# wrapped past INT_MAX, passed the check of 63 values and the value loop
# wrote past the request: backends and the checkpointer killed by SIGSEGV),
# asked by a sweeper with the one grant the security guide gives for a
# server-wide setting; every variant refused before anything starts
$node->safe_psql('postgres', q{
SELECT walpressure.grant_sweeper('mallory');
GRANT ALTER SYSTEM ON PARAMETER checkpoint_completion_target TO mallory;
GRANT ALTER SYSTEM ON PARAMETER wal_writer_flush_after TO mallory;
GRANT ALTER SYSTEM ON PARAMETER max_wal_size TO mallory;
});
for my $call (q{'checkpoint_completion_target', range => '[0, 1]', resolution => '1e-10'},
	q{'checkpoint_completion_target', range => '[0, 1]', resolution => '1e-300'},
	q{'checkpoint_completion_target', range => '[0, 1]', resolution => '4.9e-324'},
	q{'wal_writer_flush_after', range => '[0, 2147483647]', resolution => 1},
	q{'wal_writer_flush_after', range => '[0, 2147483647]', resolution => '0.5'},
	q{'max_wal_size', range => '[2, 2147483647]', resolution => 1},
	q{'commit_delay', range => '[0, 100000]', resolution => '1e-6'})
{
	my ($r, $o, $e) = $node->psql('postgres', qq{SET ROLE mallory;
SELECT walpressure.run_sweep($call, duration => '1 s', warmup => '0 s', prewarm => false, checkpoint => false)});
	like($e, qr/ERROR:  .*(more than 63|resolution|values)/s, "a search of $call is refused with an error");
}
is($node->safe_psql('postgres', q{SELECT count(*) FROM walpressure.sweeps WHERE setting IN
    ('checkpoint_completion_target', 'wal_writer_flush_after', 'max_wal_size') OR search_resolution = '1e-6'}), '0',
	'... none of them recorded a sweep');
nothing_left('searches whose count would overflow');
$node->safe_psql('postgres', q{SELECT walpressure.revoke_sweeper('mallory')});

# --- DROP EXTENSION while a sweep runs is refused
$id = $node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', '{5}', engine => 'backend', clients => 1,
                             duration => '60 s', warmup => '0 s', prewarm => false, wait => false)});
ok(defined within('postgres', q{SELECT count(*) = 1 FROM walpressure.progress WHERE sweep_id > 0}, 30),
	'a sweep runs');
my ($ret, $out, $err) = $node->psql('postgres', 'DROP EXTENSION walpressure CASCADE');
like($err, qr/walpressure cannot be dropped while sweep $id runs in this database/, 'DROP EXTENSION is refused');
($ret, $out, $err) = $node->psql('postgres', 'DROP SCHEMA walpressure CASCADE');
like($err, qr/walpressure cannot be dropped while sweep $id runs/, 'DROP SCHEMA walpressure is refused');
$node->safe_psql('postgres', "SELECT walpressure.cancel_sweep($id)");
is($node->safe_psql('postgres', "SELECT status FROM walpressure.sweeps WHERE sweep_id = $id"), 'cancelled',
	'the sweep ran on, then was cancelled and recorded');

# --- a database named like a connection string: the load goes to it
my $weird = 'dbname=postgres port=1';
$node->safe_psql('postgres', qq{CREATE DATABASE "$weird"});
$node->safe_psql($weird, 'CREATE EXTENSION walpressure CASCADE');
$node->safe_psql($weird, 'SELECT walpressure.init_pgbench(1)');
my $history_before = $node->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history');
$id = $node->safe_psql($weird, q{
SELECT walpressure.run_sweep('commit_siblings', '{5}', engine => 'pgbench', clients => 1,
                             duration => '2 s', warmup => '0 s', prewarm => false)});
is($node->safe_psql($weird, "SELECT status FROM walpressure.sweeps WHERE sweep_id = $id"), 'done',
	'a pgbench sweep in database "dbname=postgres port=1" runs');
cmp_ok($node->safe_psql($weird, 'SELECT count(*) FROM pgbench_history'), '>', 0,
	'... and its load writes that database\'s tables');
is($node->safe_psql('postgres', 'SELECT count(*) FROM pgbench_history'), $history_before,
	'... not database postgres\'s');

# --- a search_path with a tab and a vertical tab reaches pgbench's sessions whole
$node->safe_psql('postgres', qq{CREATE SCHEMA "a\tb"; CREATE SCHEMA "c\x0bd -c work_mem=1"});
($ret, $out, $err) = $node->psql('postgres', qq{
SET search_path = "a\tb", "c\x0bd -c work_mem=1", public;
SELECT walpressure.run_sweep('commit_siblings', '{5}', engine => 'pgbench', clients => 1,
                             duration => '1 s', warmup => '0 s', prewarm => false, checkpoint => false)});
is($ret, 0, 'a pgbench sweep with a tab and a vertical tab in search_path runs') or diag($err);
nothing_left('white space in search_path');

# --- stale pgbench directories: no link is followed, nothing of another's removed
my $victim = PostgreSQL::Test::Utils::tempdir();
for my $f (1 .. 3) { open(my $fh, '>', "$victim/keep$f") or die; print $fh "x\n"; close $fh; }
# (named for this test process: two majors' suites may run this at once)
my $legacy = sprintf('/dev/shm/walpressure-pgbench.1.A%05d', $$ % 100000);
symlink($victim, $legacy) or die "symlink $legacy: $!";
my $parent = private_dir($node);
mkdir($parent, 0700);
symlink($victim, "$parent/pgbench.1.BBBBBB") or die "symlink: $!";
$node->safe_psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', '{5}', engine => 'pgbench', clients => 1,
                             duration => '1 s', warmup => '0 s', prewarm => false, checkpoint => false)});
is(scalar(grep { -f $_ } glob("$victim/keep*")), 3,
	'a symlink named like a stale pgbench directory: the files it points to are still there');
ok(!-l "$parent/pgbench.1.BBBBBB" || -l $legacy,
	'the links themselves: the one in the private directory may go, nothing else');
unlink($legacy, "$parent/pgbench.1.BBBBBB");
# a private directory that is not private is refused, not used
chmod(0777, $parent);
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', '{5}', engine => 'pgbench', clients => 1,
                             duration => '1 s', warmup => '0 s', prewarm => false, checkpoint => false)});
like($err, qr/is not a private directory of this server's user/, 'a world-writable pgbench directory parent is refused');
chmod(0700, $parent);
# once private again it is used, and left empty
($ret, $out, $err) = $node->psql('postgres', q{
SELECT walpressure.run_sweep('commit_siblings', '{5}', engine => 'pgbench', clients => 1,
                             duration => '1 s', warmup => '0 s', prewarm => false, checkpoint => false)});
is($ret, 0, 'the private directory made private again is used') or diag($err);
is_deeply([ dir_entries($parent) ], [], 'and the run leaves nothing in it');

# --- vals: its size is refused before its 4 million values become text
my $growth = $node->safe_psql('postgres', q{
SELECT substring(pg_read_file('/proc/self/status') from 'VmHWM:\s+(\d+)')::int AS before \gset
DO $$ BEGIN
    PERFORM walpressure.run_sweep('commit_delay', array_fill(0, ARRAY[4000000]));
EXCEPTION WHEN program_limit_exceeded THEN NULL;
END $$;
SELECT substring(pg_read_file('/proc/self/status') from 'VmHWM:\s+(\d+)')::int - :before});
cmp_ok($growth, '<', 65536, "4 million values are refused with the backend's peak memory up $growth kB (under 64 MB)");

# --- a superuser whose search_path puts a sweeper's schema before
# pg_catalog: functions and an operator of the exact types walpressure's SQL
# calls, or of pg_catalog's own signatures, win every unqualified call of a
# function that did not pin search_path first.  None runs in what
# walpressure does for that superuser (the regression's pinned_path checks
# every function and procedure of the schema for the pin itself)
$node->safe_psql('postgres', q{
CREATE SCHEMA trojan AUTHORIZATION mallory;
SET ROLE mallory;
CREATE SEQUENCE trojan.ran;      -- (not undone with the caller's transaction)
CREATE FUNCTION trojan.cardinality(a text[]) RETURNS int LANGUAGE plpgsql AS
    $$BEGIN PERFORM pg_catalog.nextval('trojan.ran'); RETURN pg_catalog.cardinality(a); END$$;
CREATE FUNCTION trojan.format(f text, a bigint) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM pg_catalog.nextval('trojan.ran'); RETURN pg_catalog.format(f, a); END$$;
CREATE FUNCTION trojan.array_to_string(a text[], d text) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM pg_catalog.nextval('trojan.ran'); RETURN pg_catalog.array_to_string(a, d); END$$;
CREATE FUNCTION trojan.jsonb_build_object(k text, v text) RETURNS jsonb LANGUAGE plpgsql AS
    $$BEGIN PERFORM pg_catalog.nextval('trojan.ran'); RETURN pg_catalog.jsonb_build_object(k, v); END$$;
CREATE FUNCTION trojan.round(v numeric, d int) RETURNS numeric LANGUAGE plpgsql AS
    $$BEGIN PERFORM pg_catalog.nextval('trojan.ran'); RETURN pg_catalog.round(v, d); END$$;
CREATE FUNCTION trojan.ln(v double precision) RETURNS double precision LANGUAGE plpgsql AS
    $$BEGIN PERFORM pg_catalog.nextval('trojan.ran'); RETURN pg_catalog.ln(v); END$$;
CREATE FUNCTION trojan.cat(a text, b bigint) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM pg_catalog.nextval('trojan.ran'); RETURN a OPERATOR(pg_catalog.||) b::text; END$$;
CREATE OPERATOR trojan.|| (LEFTARG = text, RIGHTARG = bigint, FUNCTION = trojan.cat);
CREATE FUNCTION trojan.eq(a bigint, b bigint) RETURNS bool LANGUAGE plpgsql AS
    $$BEGIN PERFORM pg_catalog.nextval('trojan.ran'); RETURN a OPERATOR(pg_catalog.=) b; END$$;
CREATE OPERATOR trojan.= (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = trojan.eq);
RESET ROLE;
});
my ($one, $two) = split /\|/, $node->safe_psql('postgres', q{
SELECT min(sweep_id) || '|' || max(sweep_id) FROM walpressure.sweeps WHERE status = 'done'});
for my $sql ('SELECT count(*) FROM walpressure.results', 'SELECT count(*) FROM walpressure.best',
	"SELECT count(*) FROM walpressure.effects($one)", "SELECT count(*) FROM walpressure.report($one)",
	"SELECT length(walpressure.plot($one))", "SELECT count(*) FROM walpressure.compare($one, $two)",
	"SELECT walpressure.import(walpressure.export($one)) > 0", "SELECT count(*) FROM walpressure.predict($one, iops_cap => 500)",
	'SELECT count(*) FROM walpressure.live', 'SELECT count(*) FROM walpressure.samples',
	'SELECT count(*) FROM walpressure.progress', 'SELECT count(*) FROM walpressure.iops_cap',
	'SELECT count(*) FROM walpressure.sweepable_settings()', 'SELECT count(*) FROM walpressure.fleet_progress',
	'SELECT count(*) FROM walpressure.fleet_reading', "SELECT walpressure.cancel_sweep($one)",
	q{SELECT count(*) FROM walpressure.run_sweep('commit_siblings', '{5}', engine => 'backend', clients => 1,
	    duration => '1 s', warmup => '0 s', prewarm => false, checkpoint => false)},
	q{SELECT count(*) FROM walpressure.delete_sweeps(older_than => '100 years')})
{
	# (an error a call would give anyway is not this test's)
	$node->psql('postgres', "SET search_path = trojan, pg_catalog, public; $sql");
}
is($node->safe_psql('postgres', q{SELECT is_called FROM trojan.ran}), 'f',
	'a superuser with a sweeper\'s schema before pg_catalog on its path: none of its exact-type functions (cardinality(text[]), format(text, bigint), array_to_string(text[], text), jsonb_build_object(text, text), round(numeric, int), ln(float8)) or operators (text || bigint, bigint = bigint) ran');
nothing_left('a superuser with a trojan path');

# --- the commit probe under resets of the backend's own statistics (18 on)
if ($major >= 18)
{
	$node->safe_psql('postgres', 'CREATE TABLE churn (i int)');
	my $a = $node->background_psql('postgres');
	$a->query_safe('SET track_wal_io_timing = on');
	my $apid = $a->query_safe('SELECT pg_backend_pid()');
	$a->query_until(qr/started/, q{
\echo started
DO $$ BEGIN FOR i IN 1..200000 LOOP INSERT INTO churn VALUES (i); COMMIT; END LOOP; END $$;
});
	my $before = $node->safe_psql('postgres', 'SELECT count(*) FROM churn');
	for (1 .. 200)
	{
		$node->safe_psql('postgres', "SELECT pg_stat_reset_backend_stats($apid)");
		usleep(10_000);
	}
	my $after = $node->safe_psql('postgres', 'SELECT count(*) FROM churn');
	cmp_ok($after, '>', $before, "commits go on under 200 resets of their backend's statistics ($before -> $after)");
	$node->safe_psql('postgres', "SELECT pg_terminate_backend($apid)");
	ok(defined within('postgres', "SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = $apid", 10),
		'the committing backend ends when terminated');
	$a->quit;
	is(checkpointer(), $started, 'no crash-restart after the resets');
}

done_testing();
