# What the Perl TAP files in test/t share: a cluster that preloads
# walpressure, waits that survive a crash-restart, sweeps, and sessions that
# reconnect when a crash killed their backend.  test/run puts this folder on
# PERL5LIB beside PGXS's src/test/perl.
#
# Every wait here polls until a deadline of PostgreSQL::Test::Utils'
# timeout_default (180 s unless PG_TEST_TIMEOUT_DEFAULT says otherwise), as
# PostgreSQL::Test::Cluster's own waits do, so that a busy machine makes a
# test slower, not red.  A wait whose deadline is what a test asserts takes
# that deadline as an argument.
#
# Why poll() and not poll_query_until: PostgreSQL::Test::Cluster runs psql
# with the query on its standard input.  While the server is not accepting
# connections (a crash-restart, a start), psql exits before reading it, and
# IPC::Run, writing the query to a closed pipe, dies with "ack Broken pipe"
# (SIGPIPE is ignored by PostgreSQL::Test::Utils): the test ends there, with
# no plan.  poll() gives the query with -c, so nothing is written to a psql
# that has gone, and counts any failure as one more attempt.
package WalPressure::Test;

use strict;
use warnings;

use Exporter ();
use Fcntl qw(:flock);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

# The cgroup of the IOPS cap the clusters use: test/run gives each run (each
# major, when majors run side by side) one of its own, delegated to postgres.
our $CGROUP = $ENV{WP_TEST_CGROUP} // 'walpressure';

our @EXPORT = qw(
  $CGROUP quiet_machine measuring new_node poll wait_sql wait_ready wait_until
  sweep_field sweep_reaches wait_sweep sweep_again wait_clients wait_window
  backend_pid children worker_count kill9 background session write_file
  private_dir dir_entries keep_node
);

# When test/run runs majors side by side it names a lock file
# (WP_TEST_LOCK): every TAP file holds it shared from its start, and a file
# that measures the machine (fsync rates, a cap's throughput, a standby's
# delay) calls quiet_machine() to hold it alone.  Both pass through a
# turnstile first (WP_TEST_LOCK.turn, held only while taking the lock): a
# file waiting to hold the machine alone keeps the turnstile, so no new
# file takes the lock shared before it.  Without it, with three majors side
# by side, the shared holds overlap and the one waiting alone could wait
# for a whole major.
my ($lock_fh, $turn_fh);

sub take_lock
{
	my ($mode) = @_;
	open($turn_fh, '>>', "$ENV{WP_TEST_LOCK}.turn") or die "open $ENV{WP_TEST_LOCK}.turn: $!";
	flock($turn_fh, LOCK_EX) or die "flock $ENV{WP_TEST_LOCK}.turn: $!";
	flock($lock_fh, $mode) or die "flock $ENV{WP_TEST_LOCK}: $!";
	close($turn_fh);
	return;
}

sub import
{
	if ($ENV{WP_TEST_LOCK} && !$lock_fh)
	{
		open($lock_fh, '>>', $ENV{WP_TEST_LOCK}) or die "open $ENV{WP_TEST_LOCK}: $!";
		take_lock(LOCK_SH);
	}
	goto &Exporter::import;
}

=pod

=head1 NAME

WalPressure::Test - what walpressure's TAP files share

=head1 SYNOPSIS

  use WalPressure::Test;

  my $node = new_node('sweep', conf => [ fsync => 'on', max_worker_processes => 16 ], pgbench => 1);
  my $id = $node->safe_psql('postgres', q{SELECT walpressure.run_sweep(..., wait => false)});
  wait_window($node, step => 1);                # its first step is measuring
  ok(kill9($node, backend_pid($node, 'walpressure client')), 'the server crash-restarted');
  ok(sweep_reaches($node, $id, "status = 'aborted'"), 'the sweep reads aborted');

  my $s = session($node);                       # one connection, kept
  $s->query('SELECT 1');                        # reconnects if a crash killed its backend

=head1 FUNCTIONS

=over

=item quiet_machine()

For a file whose assertions measure the machine itself (a flush's cost, a
rate, a window's length, a standby's delay): where it measures (see
measuring()), holds the machine alone for the rest of the file when test/run
runs majors side by side (WP_TEST_LOCK), and returns 1; on another major,
returns 0 and keeps the shared hold every file has: the file runs what it
checks of that major's code beside the other majors' files, and its
measured assertions (under C<if ($measuring)>, C<my $measuring =
quiet_machine();> at its top) are left to the major that measures.

=cut

sub quiet_machine
{
	return 0 unless measuring();
	return 1 unless $lock_fh;
	flock($lock_fh, LOCK_UN);
	take_lock(LOCK_EX);
	return 1;
}

=item measuring()

Does this run measure the machine?  test/run measures on one major,
WP_ONE_MAJOR (the one the files marked "# Majors: one" run on): true there,
false on the others; run by hand, with no WP_ONE_MAJOR, true.  The major is
the one whose pg_config is first on PATH, as PostgreSQL::Test::Cluster's.

=cut

my $this_major;

sub measuring
{
	return 1 unless $ENV{WP_ONE_MAJOR};
	if (!defined $this_major)
	{
		my ($v) = run_command([ 'pg_config', '--version' ]);
		($this_major) = $v =~ /^PostgreSQL (\d+)/ or die "pg_config --version: $v";
		# test/run's major (PG_MAJOR) and the binaries' must agree: a
		# pg_config of another major first on PATH would silently take the
		# measured assertions away from the major that measures
		die "pg_config on PATH is PostgreSQL ${this_major}'s, and test/run runs $ENV{PG_MAJOR}"
		  if defined $ENV{PG_MAJOR} && $ENV{PG_MAJOR} ne $this_major;
	}
	return $this_major eq $ENV{WP_ONE_MAJOR} ? 1 : 0;
}

=item new_node($name, %options)

A started cluster whose postgresql.conf preloads walpressure, with the
extension created in database postgres.  Options: C<conf>, a list of
setting => value pairs appended after shared_preload_libraries (values as
they are written in postgresql.conf); C<preload>, the
shared_preload_libraries list ('walpressure'); C<init>, a hash of
PostgreSQL::Test::Cluster::init's parameters; C<extension> (1), 0 for none;
C<pgbench>, a scale for walpressure.init_pgbench; C<env>, environment
variables the server starts with (for its first start only).
walpressure.cgroup is C<$CGROUP>: WP_TEST_CGROUP, else 'walpressure'.

=cut

my @nodes;    # what new_node made and keep_node was given, for END

sub new_node
{
	my ($name, %o) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(%{ $o{init} // {} });
	my $preload = $o{preload} // 'walpressure';
	my @conf = @{ $o{conf} // [] };
	my $text = "\nshared_preload_libraries = '$preload'\nwalpressure.cgroup = '$CGROUP'\n";
	while (my ($k, $v) = splice(@conf, 0, 2))
	{
		$text .= "$k = $v\n";
	}
	$node->append_conf('postgresql.conf', $text);
	{
		local @ENV{ keys %{ $o{env} // {} } } = values %{ $o{env} // {} };
		$node->start;
	}
	$node->safe_psql('postgres', 'CREATE EXTENSION walpressure CASCADE')
	  if $o{extension} // 1;
	$node->safe_psql('postgres', "SELECT walpressure.init_pgbench($o{pgbench})")
	  if defined $o{pgbench};
	keep_node($node);
	return $node;
}

=item keep_node($node)

A node made another way (a standby from a backup, a server in a network
namespace): at the end of the file it is stopped and its private directory
removed when empty, as new_node's are (see private_dir).  Returns it.

=cut

sub keep_node
{
	my ($node) = @_;
	push @nodes, $node;
	return $node;
}

=item poll($node, $sql, %options)

Runs C<$sql> in a new connection until it returns C<expected> ('t'), as
poll_query_until does (as many attempts, 0.1 s apart), but safe while the
server restarts (see the top of this file).  Options: C<db> ('postgres'),
C<expected>.  Returns 1, or 0 after a diag with the last answer.

=cut

sub poll
{
	my ($node, $sql, %o) = @_;
	my $expected = $o{expected} // 't';
	my $cmd = [ 'psql', '-XAtq', '-d', $node->connstr($o{db} // 'postgres'), '-c', $sql ];
	my ($out, $err) = ('', '');
	for (1 .. 10 * $PostgreSQL::Test::Utils::timeout_default)
	{
		($out, $err) = ('', '');
		eval { IPC::Run::run($cmd, '<', '/dev/null', '>', \$out, '2>', \$err); 1 }
		  or $err .= $@;
		chomp($out);
		return 1 if $out eq $expected && $err eq '';
		usleep(100_000);
	}
	diag("poll timed out on:\n$sql\nexpecting: $expected\nlast output: $out\nstderr: $err");
	return 0;
}

=item wait_sql($node, $sql, $what, %options)

poll(), or die "timed out waiting for $what".

=cut

sub wait_sql
{
	my ($node, $sql, $what, %o) = @_;
	poll($node, $sql, %o) or die "timed out waiting for $what";
	return;
}

=item wait_ready($node)

Waits until the server takes connections again (after a crash-restart).

=cut

sub wait_ready
{
	my ($node) = @_;
	wait_sql($node, 'SELECT true', 'the server to accept connections');
	return;
}

=item wait_until($code, %options)

Calls C<$code> every 0.1 s until it returns true; returns its last value.
Option C<seconds>: the deadline (timeout_default); give the one a test
asserts, when it asserts one.

=cut

sub wait_until
{
	my ($code, %o) = @_;
	my $deadline = Time::HiRes::time() + ($o{seconds} // $PostgreSQL::Test::Utils::timeout_default);
	my $got;
	while (1)
	{
		$got = $code->();
		return $got if $got || Time::HiRes::time() >= $deadline;
		usleep(100_000);
	}
}

=item sweep_field($node, $id, $expression, $db)

C<$expression> read from sweep C<$id>'s row of walpressure.sweeps.

=cut

sub sweep_field
{
	my ($node, $id, $expr, $db) = @_;
	return $node->safe_psql($db // 'postgres', "SELECT $expr FROM walpressure.sweeps WHERE sweep_id = $id");
}

=item sweep_reaches($node, $id, $condition)

Polls until sweep C<$id>'s row meets C<$condition> (SQL on its columns);
1 or 0, for ok().

=cut

sub sweep_reaches
{
	my ($node, $id, $cond) = @_;
	return poll($node, "SELECT $cond FROM walpressure.sweeps WHERE sweep_id = $id");
}

=item wait_sweep($node, $id)

Waits until sweep C<$id> is no longer running.

=cut

sub wait_sweep
{
	my ($node, $id) = @_;
	sweep_reaches($node, $id, "status <> 'running'") or die "sweep $id did not end";
	return;
}

=item sweep_again($node, $sql, $again)

Runs the sweep C<$sql> returns the id of, and again while
C<< $again->($id) >> gives a reason (a verdict a loaded machine may
honestly give, such as "undecided", or a rate it fell short of): three runs
at most.  The reason goes to the TAP log.  In list context it gives the last
run's C<($id, $ret, $stderr)> (psql's exit status and messages, a failed
run not made again); in scalar context its id, dying if it failed.

=cut

sub sweep_again
{
	my ($node, $sql, $again) = @_;
	my ($id, $ret, $err);
	for my $try (1 .. 3)
	{
		($ret, $id, $err) = $node->psql('postgres', $sql);
		last if $ret != 0;
		my $why = $again->($id) or last;
		Test::More::note("run $try: $why; again") if $try < 3;
	}
	return ($id, $ret, $err) if wantarray;
	die "sweep_again: psql exited $ret:\n$err" if $ret != 0;
	return $id;
}

=item wait_clients($node)

Waits until a walpressure client worker runs (the backend engine's load).

=cut

sub wait_clients
{
	my ($node) = @_;
	wait_sql($node, q{SELECT count(*) > 0 FROM pg_stat_activity WHERE backend_type = 'walpressure client'},
		'the client workers');
	return;
}

=item wait_window($node, %options)

Waits until the running sweep is in a measured window: of step C<step> if
given, C<seconds> into it if given.

=cut

sub wait_window
{
	my ($node, %o) = @_;
	my $cond = q{phase = 'measured window'};
	$cond .= " AND step = $o{step}" if defined $o{step};
	$cond .= " AND phase_seconds >= $o{seconds}" if defined $o{seconds};
	wait_sql($node, "SELECT $cond FROM walpressure.progress", "a measured window ($cond)");
	return;
}

=item backend_pid($node, $backend_type)

The pid of a process of that type in pg_stat_activity (one of them).

=cut

sub backend_pid
{
	my ($node, $type) = @_;
	return $node->safe_psql('postgres',
		"SELECT pid FROM pg_stat_activity WHERE backend_type = '$type' LIMIT 1");
}

=item children($pid)

The pids of a process's children, as /proc lists them for each of its
threads.

=cut

sub children
{
	my ($pid) = @_;
	my @kids;
	for my $t (glob("/proc/$pid/task/*/children"))
	{
		open(my $fh, '<', $t) or next;
		push @kids, split(' ', <$fh> // '');
		close $fh;
	}
	return @kids;
}

=item worker_count($node)

How many walpressure client and coordinator workers run.

=cut

sub worker_count
{
	my ($node) = @_;
	return $node->safe_psql('postgres', q{
SELECT count(*) FROM pg_stat_activity
WHERE backend_type IN ('walpressure client', 'walpressure coordinator')});
}

=item kill9($node, $pid)

kill -9 of a server process, which makes the postmaster crash-restart:
returns once the log says it reinitialized and the server takes
connections again (true, for ok()); dies if the log never says so.

=cut

sub kill9
{
	my ($node, $pid) = @_;
	my $offset = -s $node->logfile;
	kill 'KILL', $pid;
	my $logged = $node->wait_for_log(qr/all server processes terminated; reinitializing/, $offset);
	wait_ready($node);
	return $logged;
}

=item background($node, $sql, %options)

Starts C<$sql> in psql -c, in the background: a statement a test cancels,
or waits for.  C<< ->finish >> waits for it and returns (stdout, stderr);
C<< ->out >> and C<< ->err >> read them so far.  Options: C<db>
('postgres'), C<psql>, more psql arguments (e.g. ['-A', '-t']).

=cut

sub background
{
	my ($node, $sql, %o) = @_;
	my $bg = bless { out => '', err => '' }, 'WalPressure::Test::Background';
	$bg->{run} = IPC::Run::start(
		[ 'psql', '-X', @{ $o{psql} // [] }, '-d', $node->connstr($o{db} // 'postgres'), '-c', $sql ],
		'<', '/dev/null', '>', \$bg->{out}, '2>', \$bg->{err});
	return $bg;
}

=item session($node, $db)

A psql session kept open (a WalPressure::Test::Session, below).

=cut

sub session
{
	my ($node, $db) = @_;
	return WalPressure::Test::Session->new($node, $db);
}

=item write_file($path, $text)

Writes C<$text> to C<$path>, replacing what was there.

=cut

sub write_file
{
	my ($path, $text) = @_;
	open(my $fh, '>', $path) or die "$path: $!";
	print $fh $text;
	close $fh or die "$path: $!";
	return;
}

=item private_dir($node)

The server's private directory for the pgbench engine's files,
/dev/shm/walpressure.UID.PORT (src/engine/pgbench_engine.c): kept while the
server runs, so that no other local user can take its name.  At the end of
the file, each node new_node made is stopped (as PostgreSQL::Test::Cluster
would) and its directory removed when it is empty (one left with something
in it stays, for the test that should have caught it).

=item dir_entries($dir)

The names in directory C<$dir> but . and .., sorted; dies when it cannot be
read.

=cut

sub private_dir
{
	my ($node) = @_;
	return '/dev/shm/walpressure.' . $> . '.' . $node->port;
}

sub dir_entries
{
	my ($dir) = @_;
	opendir(my $dh, $dir) or die "opendir $dir: $!";
	my @e = sort grep { !/^\.\.?$/ } readdir($dh);
	closedir($dh);
	return @e;
}

# (this runs before PostgreSQL::Test::Cluster's END, which would stop the
# nodes still running: they are stopped here, as it would)
END
{
	my $exit_code = $?;    # the file's, kept
	for my $node (@nodes)
	{
		my $dir = private_dir($node);
		$node->stop('immediate', fail_ok => 1);
		my @st = lstat($dir);
		rmdir($dir) if @st && -d _ && $st[4] == $>;
	}
	$? = $exit_code;
}

=back

=cut

package WalPressure::Test::Background;

sub finish
{
	my ($self) = @_;
	$self->{run}->finish;
	return ($self->{out}, $self->{err});
}

sub out { return $_[0]->{out}; }
sub err { return $_[0]->{err}; }

=pod

=head1 WalPressure::Test::Session

One psql connection kept open across queries.  Before each query it checks
that its psql and its backend are still there; a crash-restart (or
pg_terminate_backend) that killed the backend makes it wait until the
server takes connections again and connect anew, so no query is written to
a psql whose connection is gone.  A backend that dies during a query is
not hidden: that query dies, saying so, and the next one reconnects.

=over

=item $s->query($sql)

The rows, as safe_psql gives them (-XAt); dies on an error.

=item $s->start($sql), $s->finish

Sends C<$sql> without waiting for it (a run_sweep that waits, for one);
finish() waits for it to end and returns (stdout, stderr).

=item $s->pid, $s->quit

Its backend's pid; closing it.

=back

=cut

package WalPressure::Test::Session;

use IPC::Run;

sub new
{
	my ($class, $node, $db) = @_;
	my $self = bless { node => $node, db => $db // 'postgres', n => 0 }, $class;
	$self->_connect;
	return $self;
}

sub _connect
{
	my ($self) = @_;
	WalPressure::Test::wait_ready($self->{node});
	@$self{qw(in out err pid)} = ('', '', '', undef);
	$self->{timer} = IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default);
	$self->{run} = IPC::Run::start(
		[ 'psql', '-XAtq', '-d', $self->{node}->connstr($self->{db}) ],
		'<', \$self->{in}, '>', \$self->{out}, '2>', \$self->{err}, $self->{timer});
	$self->{pid} = $self->query('SELECT pg_backend_pid()');
	return;
}

# psql still running, and its backend too
sub alive
{
	my ($self) = @_;
	my $run = $self->{run};
	return 0 unless $run;
	eval { $run->pump_nb if $run->pumpable; 1 } or return 0;
	return $run->pumpable && (!defined $self->{pid} || kill(0, $self->{pid}));
}

sub _close
{
	my ($self) = @_;
	my $run = delete $self->{run} or return;
	# a psql still running reads \q; one that is gone is only reaped
	eval { $self->{in} .= "\\q\n" if $run->pumpable; $run->finish; 1 } or eval { $run->kill_kill; 1 };
	return;
}

sub start
{
	my ($self, $sql) = @_;
	die "the session is still running: $self->{pending}" if $self->{pending};
	unless ($self->alive)
	{
		$self->_close;
		$self->_connect;
	}
	my $banner = 'walpressure session ' . ++$self->{n};
	@$self{qw(out err)} = ('', '');
	$self->{timer}->start($PostgreSQL::Test::Utils::timeout_default);
	$self->{in} .= "$sql\n;\n\\echo '$banner'\n\\warn '$banner'\n";
	$self->{pending} = $banner;
	eval { $self->{run}->pump_nb; 1 } or $self->_lost($sql, $@);
	return;
}

sub finish
{
	my ($self) = @_;
	my $banner = delete $self->{pending} or die 'nothing sent';
	my $done = qr/\Q$banner\E\n/;
	eval {
		$self->{run}->pump until $self->{out} =~ $done && $self->{err} =~ $done;
		1;
	} or $self->_lost($banner, $@);
	my ($out, $err) = @$self{qw(out err)};
	s/\n?\Q$banner\E\n// for $out, $err;
	return ($out, $err);
}

sub _lost
{
	my ($self, $what, $why) = @_;
	delete $self->{pending};
	my $err = $self->{err};
	$self->_close;
	die "the session's psql ended during \"$what\" ($why): $err";
}

sub query
{
	my ($self, $sql) = @_;
	$self->start($sql);
	my ($out, $err) = $self->finish;
	die "query failed in the session: $sql\n$err" if $err =~ /^(psql:\S+ )?(ERROR|FATAL|PANIC):/m;
	return $out;
}

sub pid { return $_[0]->{pid}; }

sub quit
{
	my ($self) = @_;
	$self->_close;
	return;
}

1;
