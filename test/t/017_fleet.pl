# The fleet: a central database starts the same sweep on several servers
# over dblink, watches them in one view and gathers their sweeps; each
# server fails in each way the fleet must survive, one at a time, while the
# others complete.
#
# Clusters: central (dblink, no load), a and c (local), b in a network of
# its own: a user namespace (no root needed) holding two network
# namespaces joined by a veth pair, b listening on 10.213.7.2 in the far
# one, and in the near one a forwarder that adds a delay each way, reached
# by the central over a Unix socket.  "Cutting the network" is taking the
# veth down: both ends stay up and hear nothing, as in a real cut.  Where
# user namespaces cannot be made (a chroot), the forwarder runs here and
# its cut closes the server's side and leaves the central's silent; a diag
# says which.
#
# What is checked: one call starts a sweep on a, b and c; b's network is
# cut mid-sweep; a and c complete and are gathered; b is marked lost, and
# b, hearing nothing from the central, cancels its own sweep (nothing left
# running there); once the network is back, fleet_collect gathers b's
# cancelled sweep; the views show the three servers apart (three "sweep 1"
# under three keys), the stopped one marked; a second collection brings
# nothing.  Then, one at a time with a completing beside it: a server that
# cannot be reached, one without walpressure, one with an older one, one
# whose sweep cannot start, one whose sweep is cancelled there, one
# cancelled from the centre (fleet_cancel), the central call cancelled, the
# central session terminated (every server cancels its sweep), and the
# security rules: a reader of the views cannot start a sweep, a role
# starts one only with the rights its own mapping's role has there, and
# never through a PUBLIC mapping.
#
# Majors: oldest and newest (test/run runs it on the run's lowest and
# highest major: the fleet is SQL over dblink, the same on every major but
# for dblink's connect, PQconnectdb on 15 and libpqsrv_connect from 16 on,
# which _fleet_deadline bounds, 16 to 18 connecting as 19 does.  17 moved
# dblink's waits for a result to libpqsrv's, which a cancel ends; the fleet
# never waits in one: it asks dblink_get_result only once dblink_is_busy
# says the answer is there)
use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use WalPressure::Test;

my $delay_ms = 50;
my $lost_after = '8 s';
my $sweep = q({"setting": "commit_delay", "vals": [0, 200], "clients": 2, "duration": "3 s",
               "warmup": "1 s", "repeats": 3, "engine": "backend", "prewarm": false});
# a shorter one, for the runs that only need a sweep to be running
my $short = q({"setting": "commit_delay", "vals": [0, 200], "clients": 2, "duration": "2 s",
               "warmup": "1 s", "repeats": 2, "engine": "backend", "prewarm": false});

my $tmp = PostgreSQL::Test::Utils::tempdir_short;

# --- the network of b's own
my $forwarder = "$tmp/forward.pl";
write_file($forwarder, <<'PERL');
# forward.pl LISTEN UPSTREAM DELAY_MS: a Unix socket at LISTEN, each
# connection relayed to UPSTREAM (host:port, or a Unix socket path), each
# way DELAY_MS later.  SIGUSR1 cuts (the upstream sides closed, the
# downstream ones left open and silent); SIGUSR2 lets new connections
# through again.
use strict;
use warnings;
use IO::Select;
use IO::Socket::INET;
use IO::Socket::UNIX;
use Socket;
use Time::HiRes qw(time);

my ($listen, $up, $delay) = @ARGV;
my $cut = 0;
$SIG{USR1} = sub { $cut = 1 };
$SIG{USR2} = sub { $cut = 0 };
$SIG{PIPE} = 'IGNORE';
unlink $listen;
my $l = IO::Socket::UNIX->new(Type => SOCK_STREAM, Local => $listen, Listen => 64)
  or die "listen $listen: $!";
my $sel = IO::Select->new($l);
# by each socket's name: the socket, its peer's name, whether it is the
# upstream side, what waits to be written to it, whether it is frozen
my (%sock, %peer, %is_up, %queue, %frozen);

sub forget
{
	my ($k) = @_;
	my $s = delete $sock{$k} or return;
	$sel->remove($s);
	close $s;
	delete $_->{$k} for \%peer, \%is_up, \%queue, \%frozen;
}

while (1)
{
	if ($cut == 1)
	{
		for my $k (grep { $is_up{$_} } keys %sock)
		{
			my $down = $peer{$k};
			$frozen{$down} = 1 if defined $down;
			delete $peer{$down} if defined $down;
			forget($k);
		}
		$cut = 2;
	}
	my $wait = 0.5;
	for my $q (values %queue)
	{
		next unless @$q;
		my $w = $q->[0][0] - time;
		$wait = $w if $w < $wait;
	}
	$wait = 0 if $wait < 0;
	for my $s ($sel->can_read($wait))
	{
		if ($s == $l)
		{
			my $c = $l->accept or next;
			my $u = $up =~ m{^/}
			  ? IO::Socket::UNIX->new(Type => SOCK_STREAM, Peer => $up)
			  : IO::Socket::INET->new(PeerAddr => $up, Proto => 'tcp');
			if (!$u || $cut)
			{
				close $c;
				next;
			}
			@sock{ "$c", "$u" } = ($c, $u);
			@peer{ "$c", "$u" } = ("$u", "$c");
			$is_up{"$u"} = 1;
			$sel->add($c, $u);
			next;
		}
		my $k = "$s";
		next if $frozen{$k};
		my $n = sysread($s, my $buf, 65536);
		if (!$n)
		{
			my $p = $peer{$k};
			forget($k);
			forget($p) if defined $p;
			next;
		}
		my $to = $peer{$k};
		push @{ $queue{$to} }, [ time + $delay / 1000, $buf ] if defined $to;
	}
	for my $k (keys %queue)
	{
		my $q = $queue{$k};
		while (@$q && $q->[0][0] <= time)
		{
			my $buf = (shift @$q)->[1];
			while (length $buf)
			{
				my $w = syswrite($sock{$k}, $buf);
				last unless defined $w;
				substr($buf, 0, $w, '');
			}
		}
	}
}
PERL

my $fport = 7;                      # the forwarder's socket: $tmp/.s.PGSQL.7
my ($net, $net_in, $net_out, $net_err) = (undef, '', '', '');
my $netns = 0;

# Start the namespaces' controller: a shell, with capabilities in a user
# namespace of our own, in the near network namespace; the far one is a
# sleeping process's.  Returns whether it came up.
sub net_up
{
	my $script = q{
set -e
ip link set lo up
unshare --net sleep 100000 &
FAR=$!
while [ "$(readlink /proc/$FAR/ns/net 2>/dev/null)" = "$(readlink /proc/self/ns/net)" ]; do sleep 0.05; done
ip link add wpnear type veth peer name wpfar netns $FAR
ip addr add 10.213.7.1/30 dev wpnear
ip link set wpnear up
nsenter -t $FAR -n sh -c 'ip link set lo up && ip addr add 10.213.7.2/30 dev wpfar && ip link set wpfar up'
echo "far $FAR"
set +e
while read -r cmd; do
	bash -c "$cmd"
	echo "done $?"
done
};
	$net = IPC::Run::start(
		[ 'unshare', '--user', "--map-user=$>", '--map-group=' . (split ' ', $))[0],
		  '--keep-caps', '--net', '--', 'bash', '-c', $script ],
		'<', \$net_in, '>', \$net_out, '2>', \$net_err);
	my $ok = wait_until(sub { $net->pump_nb if $net->pumpable; $net_out =~ /^far \d+$/m || !$net->pumpable },
		seconds => 30);
	return $net_out =~ /^far (\d+)$/m ? $1 : undef;
}

# Run a command in the near namespace (with the controller's capabilities).
sub net_do
{
	my ($cmd) = @_;
	$net_out = '';
	$net_in .= "$cmd\n";
	wait_until(sub { $net->pump_nb; $net_out =~ /^done \d+$/m }, seconds => 60)
	  or die "no answer from the namespaces' controller to: $cmd\n$net_err";
	my ($rc) = $net_out =~ /^done (\d+)$/m;
	return $rc;
}

# (WP_TEST_NO_NETNS=1 takes the other way, to test it where namespaces work)
my $far = $ENV{WP_TEST_NO_NETNS} ? undef : net_up();
$netns = defined $far;
if ($netns)
{
	diag("b runs in a network namespace of its own (10.213.7.2), behind a ${delay_ms} ms forwarder");
}
else
{
	diag("no user namespaces here (" . ($net_err || 'WP_TEST_NO_NETNS') . "): b runs beside the others, behind the forwarder, "
		  . 'whose cut closes b\'s side of each connection');
}

# --- the clusters
my @load = (conf => [ fsync => 'on', max_worker_processes => 16 ], pgbench => 1);
my $central = new_node('central', conf => [ max_worker_processes => 16 ]);
my $a = new_node('a', @load);
my $c = new_node('c', @load);

my $b = keep_node(PostgreSQL::Test::Cluster->new('b'));
$b->init;
$b->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'walpressure'
fsync = on
max_worker_processes = 16
});
my $bup;
if ($netns)
{
	$b->append_conf('postgresql.conf', "listen_addresses = '10.213.7.2'\n");
	$b->append_conf('pg_hba.conf', "host all all 10.213.7.0/30 trust\n");
	my $cmd = join ' ', map { "'$_'" } ('nsenter', '-t', $far, '-n', '--', 'pg_ctl', '-w', '-D', $b->data_dir,
		'-l', $b->logfile, '-o', '--cluster-name=b', 'start');
	is(net_do($cmd), 0, 'b started in its own network namespace');
	$b->_update_pid(1);
	$bup = '10.213.7.2:' . $b->port;
	net_do("perl '$forwarder' '$tmp/.s.PGSQL.$fport' '$bup' $delay_ms >'$tmp/forward.log' 2>&1 & echo \$! >'$tmp/forward.pid'");
}
else
{
	$b->start;
	$bup = $b->host . '/.s.PGSQL.' . $b->port;
	system("perl '$forwarder' '$tmp/.s.PGSQL.$fport' '$bup' $delay_ms >'$tmp/forward.log' 2>&1 & echo \$! >'$tmp/forward.pid'");
}
wait_until(sub { -S "$tmp/.s.PGSQL.$fport" }, seconds => 30) or die 'the forwarder did not start';
my $fwd_pid = slurp_file("$tmp/forward.pid");
chomp $fwd_pid;
$b->safe_psql('postgres', 'CREATE EXTENSION walpressure CASCADE');
$b->safe_psql('postgres', 'SELECT walpressure.init_pgbench(1)');

# the central's servers: foreign servers and user mappings, as a DBA makes them
sub q0 { return $central->safe_psql('postgres', $_[0]); }
q0('CREATE EXTENSION dblink');
for my $s ([ 'a', $a->host, $a->port ], [ 'b', $tmp, $fport ], [ 'c', $c->host, $c->port ])
{
	my ($name, $host, $port) = @$s;
	q0(qq{CREATE SERVER $name FOREIGN DATA WRAPPER dblink_fdw
          OPTIONS (host '$host', port '$port', dbname 'postgres', connect_timeout '5')});
	q0("CREATE USER MAPPING FOR CURRENT_USER SERVER $name OPTIONS (user 'postgres')");
}

# --- registering
my ($out, $err);
q0(q{SELECT walpressure.fleet_register(s) FROM unnest(ARRAY['a', 'b', 'c']) s});
is(q0('SELECT count(DISTINCT system_identifier) FROM walpressure.fleet_servers'), '3',
	'three servers registered, three clusters');
is(q0("SELECT system_identifier FROM walpressure.fleet_servers WHERE server = 'b'"),
	$b->safe_psql('postgres', 'SELECT system_identifier FROM pg_control_system()'),
	'b is known by the cluster that answered');
$netns
  and is($b->safe_psql('postgres', q{SELECT count(*) FROM pg_stat_activity WHERE client_addr = '10.213.7.1'}), '0',
	'(its registration session is gone)');

# b is behind the delay: a connection and a query take several round trips
my $t0 = time;
q0(q{SELECT * FROM dblink('b', 'SELECT 1') AS t(x int)});
my $b_s = time - $t0;
cmp_ok($b_s, '>=', 4 * $delay_ms / 1000, "b answers through its ${delay_ms} ms each way (took ${b_s} s)");

# --- one call, three servers, b cut off mid-sweep
my $run = background($central, "CALL walpressure.fleet_run('$sweep', ARRAY['a', 'b', 'c'], lost_after => '$lost_after')",
	psql => [ '-At' ]);
wait_window($b, step => 2);
ok(poll($central, q{SELECT count(*) = 3 FROM walpressure.fleet_progress WHERE run_id = 1 AND state = 'running' AND step >= 1}),
	'the view shows the three servers running');
if ($netns)
{
	is($b->safe_psql('postgres', q{SELECT count(*) FROM pg_stat_activity WHERE client_addr = '10.213.7.1' AND application_name = 'walpressure fleet run 1'}),
		'2', 'b is reached over its own network, from the forwarder (two sessions: the sweep and its watch)');
	is(net_do('ip link set wpnear down'), 0, 'b\'s network cut mid-sweep');
}
else
{
	kill 'USR1', $fwd_pid;
	pass('b\'s connections cut by the forwarder mid-sweep');
}
my $cut_at = time;
ok(sweep_reaches($b, 1, q{status = 'cancelled' AND error LIKE '%connection%lost%'}),
	'b, hearing nothing from the central, cancelled its own sweep');
my $cancelled_in = time - $cut_at;
cmp_ok($cancelled_in, '<', 30, "b cancelled it ${cancelled_in} s after the cut (lost_after $lost_after)");
is($b->safe_psql('postgres', 'SELECT count(*) FROM walpressure.progress'), '0', 'nothing runs on b any more');
is(worker_count($b), '0', 'no coordinator or client of it left');
($out, $err) = $run->finish;
chomp $out;
is($out, '1', 'the call ended with its run id, the others not held up');
is($err, '', 'and no error');
my %st = map { split /\|/ } split /\n/,
  q0(q{SELECT server, state || ' ' || coalesce(sweep_status, '-') FROM walpressure.fleet_progress WHERE run_id = 1});
is($st{a}, 'collected done', 'a completed and was gathered');
is($st{c}, 'collected done', 'c completed and was gathered');
is($st{b}, 'lost -', 'b is marked lost');
like(q0(q{SELECT detail FROM walpressure.fleet_progress WHERE run_id = 1 AND server = 'b'}),
	qr/no answer for 00:00:08/, 'with why');

# the network back: b's sweep, cancelled, gathered
if ($netns)
{
	is(net_do('ip link set wpnear up'), 0, 'b\'s network back');
}
else
{
	kill 'USR2', $fwd_pid;
}
my @coll = split /\n/, q0(q{SELECT server || ' ' || state || ' ' || collected FROM walpressure.fleet_collect() ORDER BY 1});
is_deeply(\@coll, [ 'a collected 0', 'b collected 1', 'c collected 0' ], 'a collection gathers b\'s sweep only');
is(q0(q{SELECT state || ' ' || sweep_status FROM walpressure.fleet_progress WHERE run_id = 1 AND server = 'b'}),
	'lost cancelled', 'b stays lost, its sweep marked cancelled');
is(q0(q{SELECT count(*) || ' ' || count(DISTINCT sweep_id) || ' ' || string_agg(DISTINCT remote_sweep_id::text, ',')
        FROM walpressure.fleet_sweeps}), '3 3 1', 'three sweeps "1", three keys, three sweeps here');
is(q0(q{SELECT string_agg(f.server || ':' || s.status || ':' || (s.origin->>'system_identifier' = f.system_identifier), ' ' ORDER BY f.server)
        FROM walpressure.fleet_sweeps f JOIN walpressure.sweeps s USING (sweep_id)}),
	'a:done:true b:cancelled:true c:done:true', 'each with its fingerprint');
is(q0(q{SELECT count(*) FROM walpressure.steps WHERE sweep_id IN (SELECT sweep_id FROM walpressure.fleet_sweeps WHERE server IN ('a', 'c'))}),
	'12', 'with every step of a and c');
ok(q0(q{SELECT count(*) > 0 FROM walpressure.step_samples WHERE sweep_id IN (SELECT sweep_id FROM walpressure.fleet_sweeps WHERE server = 'b')}),
	'and the samples of b\'s steps done before the cut');
@coll = split /\n/, q0(q{SELECT server || ' ' || state || ' ' || collected FROM walpressure.fleet_collect() ORDER BY 1});
is_deeply(\@coll, [ 'a collected 0', 'b collected 0', 'c collected 0' ], 'a second collection brings nothing');
is(q0('SELECT count(*) FROM walpressure.sweeps'), '3', 'and makes no sweep twice');

# the reading: a row per server, the stopped one marked
is(q0(q{SELECT string_agg(server || ':' || status, ' ' ORDER BY server) FROM walpressure.fleet_reading WHERE run_id = 1}),
	'a:done b:cancelled c:done', 'fleet_reading shows the three servers, b cancelled');
ok(q0(q{SELECT bool_and(fsync_ms > 0 AND commits_per_fsync > 0) FROM walpressure.fleet_reading WHERE server IN ('a', 'c')}) eq 't',
	'with the fsync cost and commits per fsync of each');
ok(q0(q{SELECT bool_and(answered ~ '^(keep|change) commit_delay' AND gain > 0 AND group_servers >= 1)
        FROM walpressure.fleet_reading WHERE server IN ('a', 'c')}) eq 't', 'and what each answered, with its gain');

# compare() across servers, directly and by run
my $notice;
($out, $notice) = ('', '');
$central->psql('postgres', q{SELECT count(*) FROM walpressure.fleet_compare(1, 'a')}, stdout => \$out, stderr => \$notice);
is($out, '4', 'fleet_compare: b and c against a, value by value');
like($notice, qr/differ in more than the values: server a \/ b/, 'the NOTICE names the servers');

# the outliers: four copies of a's sweep as four servers of one run, one
# of them with WAL fsyncs five times slower
my $doc = q0(q{SELECT walpressure.export(sweep_id) FROM walpressure.fleet_sweeps WHERE server = 'a'});
$doc =~ s/'/''/g;
q0(q{INSERT INTO walpressure.fleet_runs (run_id, sweep, servers, lost_after, status)
     VALUES (99, '{}', '{x1,x2,x3,x4}', '60 s', 'done')});
for my $i (1 .. 4)
{
	my $k = $i == 4 ? 5 : 1 + $i / 100;
	q0(qq{WITH d AS (SELECT '$doc'::jsonb AS d),
          slow AS (SELECT jsonb_set(d.d, '{steps}', (SELECT jsonb_agg(CASE WHEN jsonb_typeof(e->'fsync_avg_ms') = 'number'
                                                                           THEN jsonb_set(e, '{fsync_avg_ms}', to_jsonb((e->>'fsync_avg_ms')::float8 * $k))
                                                                           ELSE e END)
                                                      FROM jsonb_array_elements(d.d->'steps') e)) ||
                        jsonb_build_object('exported_at', now() + interval '$i s') AS d FROM d),
          i AS (SELECT walpressure.import(d) AS id FROM slow)
          INSERT INTO walpressure.fleet_sweeps (server, remote_sweep_id, remote_started_at, system_identifier, sweep_id, run_id)
          SELECT 'x$i', 1, now(), 'x', id, 99 FROM i});
}
is(q0(q{SELECT string_agg(server || ':' || group_servers || ':' || (outlier IS NOT NULL), ' ' ORDER BY server)
        FROM walpressure.fleet_reading WHERE run_id = 99}),
	'x1:4:false x2:4:false x3:4:false x4:4:true', 'the server whose fsync cost lies far from its group\'s is named');
like(q0(q{SELECT outlier FROM walpressure.fleet_reading WHERE run_id = 99 AND server = 'x4'}),
	qr/^fsync [\d.]+ ms, 4\.\d+x the median of the 4 servers that answered/, 'with its figure against the median');
q0('DELETE FROM walpressure.sweeps WHERE sweep_id IN (SELECT sweep_id FROM walpressure.fleet_sweeps WHERE run_id = 99)');
q0('DELETE FROM walpressure.fleet_runs WHERE run_id = 99');

# --- each way a server fails, the others going on
# no walpressure (another database of b), an older one (b, made to say so),
# a sweep that cannot start (c without the pgbench tables), and one that
# cannot be reached (a foreign server where nothing listens)
$b->safe_psql('postgres', 'CREATE DATABASE nowp');
q0(qq{CREATE SERVER b_nowp FOREIGN DATA WRAPPER dblink_fdw OPTIONS (host '$tmp', port '$fport', dbname 'nowp', connect_timeout '5')});
q0(qq{CREATE SERVER dead FOREIGN DATA WRAPPER dblink_fdw OPTIONS (host '$tmp', port '9', dbname 'postgres', connect_timeout '5')});
q0(q{CREATE USER MAPPING FOR CURRENT_USER SERVER b_nowp OPTIONS (user 'postgres')});
q0(q{CREATE USER MAPPING FOR CURRENT_USER SERVER dead OPTIONS (user 'postgres')});
($out, $err) = ('', '');
$central->psql('postgres', q{SELECT server FROM walpressure.fleet_register('b_nowp')}, stdout => \$out, stderr => \$err);
like($err, qr/cannot run the fleet's sweeps yet: walpressure is not installed in database nowp there/,
	'registering a database without walpressure says so');
like($err, qr/answers as system \d+, as b does: the same cluster/, 'and that it is b\'s cluster');
q0(q{SELECT walpressure.fleet_register('dead', false)});
$b->safe_psql('postgres', q{UPDATE pg_extension SET extversion = '0.6.0' WHERE extname = 'walpressure'});
$c->safe_psql('postgres', 'ALTER TABLE pgbench_history RENAME TO pgbench_history_away');
($out, $err) = ('', '');
$central->psql('postgres',
	"CALL walpressure.fleet_run('$short', ARRAY['a', 'b', 'b_nowp', 'c', 'dead'], lost_after => '$lost_after')",
	stdout => \$out, stderr => \$err);
is($err, '', 'a run where four servers of five fail ends without an error');
%st = map { split /\|/, $_, 2 } split /\n/,
  q0(q{SELECT server, state || ' ' || coalesce(sweep_status, '-') || ' ' || coalesce(detail, '') FROM walpressure.fleet_progress WHERE run_id = 2});
like($st{a}, qr/^collected done/, 'a completed');
like($st{b}, qr/^refused - walpressure 0\.6\.0 there; the fleet needs 0\.7\.0 or later/, 'b: an older walpressure, refused');
like($st{b_nowp}, qr/^refused - walpressure is not installed in database nowp there/, 'b_nowp: no walpressure, refused');
like($st{c}, qr/^failed - workload simple-update needs the pgbench tables, and they are missing/,
	'c: its sweep could not start, in its own words');
like($st{dead}, qr/^unreachable - could not establish connection/, 'dead: unreachable');
$b->safe_psql('postgres', q{UPDATE pg_extension SET extversion = '0.7.0' WHERE extname = 'walpressure'});
$c->safe_psql('postgres', 'ALTER TABLE pgbench_history_away RENAME TO pgbench_history');

# a sweep cancelled on its server (by its DBA), and one from the centre
$run = background($central, "CALL walpressure.fleet_run('$short', ARRAY['a', 'b', 'c'], lost_after => '$lost_after')",
	psql => [ '-At' ]);
wait_window($c, step => 2);
wait_window($b, step => 2);
is($c->safe_psql('postgres', 'SELECT walpressure.cancel_sweep(sweep_id) FROM walpressure.progress'), 't',
	'c\'s sweep cancelled there mid-sweep');
is(q0('SELECT walpressure.fleet_cancel(3, ARRAY[\'b\'])'), '1', 'b\'s cancelled from the centre');
($out, $err) = $run->finish;
chomp $out;
is($out, '3', 'the run ended');
%st = map { split /\|/, $_, 2 } split /\n/,
  q0(q{SELECT server, state || ' ' || coalesce(sweep_status, '-') || ' ' || coalesce(detail, '') FROM walpressure.fleet_progress WHERE run_id = 3});
like($st{a}, qr/^collected done/, 'a completed beside them');
like($st{b}, qr/^collected cancelled cancelled by fleet_cancel\(\)/, 'b: cancelled from the centre, gathered, marked');
like($st{c}, qr/^collected cancelled/, 'c: cancelled there, gathered, marked');
ok(q0(q{SELECT bool_and(s.steps_done < s.steps_total) FROM walpressure.fleet_members m JOIN walpressure.sweeps s USING (sweep_id)
        WHERE m.run_id = 3 AND m.server IN ('b', 'c')}) eq 't', 'with the steps they finished');

# the central call cancelled (Ctrl-C): every server cancels its sweep
$run = background($central, "CALL walpressure.fleet_run('$short', ARRAY['a', 'c'])", psql => [ '-At' ]);
wait_window($a, step => 1);
wait_window($c, step => 1);
q0(q{SELECT pg_cancel_backend(pid) FROM walpressure.fleet_runs WHERE run_id = 4});
($out, $err) = $run->finish;
like($err, qr/ERROR:  canceling statement due to user request\nDETAIL:  Fleet run 4 was cancelled/, 'a cancelled call says so');
is(q0(q{SELECT string_agg(state, ' ' ORDER BY server) || ' ' || min(run_status) FROM walpressure.fleet_progress WHERE run_id = 4}),
	'cancelled cancelled cancelled', 'its servers and the run marked cancelled');
for my $n ([ 'a', $a ], [ 'c', $c ])
{
	my $id = $n->[1]->safe_psql('postgres', 'SELECT max(sweep_id) FROM walpressure.sweeps');
	ok(sweep_reaches($n->[1], $id, q{status = 'cancelled'}), "$n->[0] cancelled its sweep");
	ok(poll($n->[1], 'SELECT count(*) = 0 FROM walpressure.progress'), "nothing runs on $n->[0]");
}

# the central session ended (terminated): every server cancels its sweep
$run = background($central, "CALL walpressure.fleet_run('$short', ARRAY['a', 'c'])", psql => [ '-At' ]);
wait_window($a, step => 1);
wait_window($c, step => 1);
ok(poll($central, q{SELECT count(remote_sweep_id) = 2 FROM walpressure.fleet_members WHERE run_id = 5}),
	'the view knows both sweeps\' ids there');
q0(q{SELECT pg_terminate_backend(pid) FROM walpressure.fleet_runs WHERE run_id = 5});
($out, $err) = $run->finish;
like($err, qr/FATAL:  terminating connection due to administrator command/, 'the central session was terminated');
for my $n ([ 'a', $a ], [ 'c', $c ])
{
	my $id = $n->[1]->safe_psql('postgres', 'SELECT max(sweep_id) FROM walpressure.sweeps');
	ok(sweep_reaches($n->[1], $id, q{status = 'cancelled' AND error LIKE '%connection of the session that waited for it was lost%'}),
		"$n->[0] cancelled its sweep, and says why");
	ok(poll($n->[1], 'SELECT count(*) = 0 FROM walpressure.progress'), "nothing runs on $n->[0]");
}
is(q0(q{SELECT string_agg(state, ' ' ORDER BY server) || ' ' || min(run_status) FROM walpressure.fleet_progress WHERE run_id = 5}),
	'orphaned orphaned orphaned', 'the view says the run lost its session');
($out, $err) = ('', '');
$central->psql('postgres', 'SELECT walpressure.fleet_cancel(5)', stderr => \$err);
like($err, qr/fleet run 5 lost the session that ran it/, 'fleet_cancel of that run says it has nothing to cancel');
@coll = split /\n/, q0(q{SELECT server || ' ' || collected FROM walpressure.fleet_collect(ARRAY['a', 'c']) ORDER BY 1});
is_deeply(\@coll, [ 'a 2', 'c 2' ], 'fleet_collect gathers what the stopped runs did');
is(q0(q{SELECT string_agg(sweep_status, ' ' ORDER BY server) FROM walpressure.fleet_progress WHERE run_id = 5}),
	'cancelled cancelled', 'the lost run\'s sweeps marked cancelled');

# --- security
# a reader of the views cannot start sweeps
q0('CREATE ROLE regress_fleet_reader LOGIN IN ROLE pg_monitor');
($out, $err) = ('', '');
$central->psql('postgres', 'SELECT count(*) > 0 FROM walpressure.fleet_progress; SELECT count(*) > 0 FROM walpressure.fleet_reading',
	stdout => \$out, extra_params => [ '-U', 'regress_fleet_reader' ]);
is($out, "t\nt", 'pg_monitor reads the fleet\'s views');
for my $call ("CALL walpressure.fleet_run('$short', ARRAY['a'])", q{SELECT * FROM walpressure.fleet_collect()},
	q{SELECT walpressure.fleet_register('a')}, q{SELECT walpressure.fleet_cancel(1)})
{
	($out, $err) = ('', '');
	$central->psql('postgres', $call, stderr => \$err, extra_params => [ '-U', 'regress_fleet_reader' ]);
	like($err, qr/permission denied for (procedure|function) fleet_/, "a reader cannot: $call");
}

# a role that may run the fleet reaches a server only as its own mapping's
# role there, which run_sweep checks: a weak role there starts nothing
my $hba = $a->data_dir . '/pg_hba.conf';
write_file($hba, "local all regress_remote_weak scram-sha-256\n" . slurp_file($hba));
$a->reload;
$a->safe_psql('postgres', q{SET password_encryption = 'scram-sha-256'; CREATE ROLE regress_remote_weak LOGIN PASSWORD 'weak secret'});
$a->safe_psql('postgres', 'GRANT USAGE ON SCHEMA walpressure TO regress_remote_weak');
# the grants docs/guide/fleet.md gives an operator: EXECUTE, reading, no table write
sub grant_operator
{
	my ($role) = @_;
	q0(qq{GRANT USAGE ON SCHEMA walpressure TO $role;
          GRANT EXECUTE ON PROCEDURE walpressure.fleet_run(jsonb, text[], interval, bigint),
                                     walpressure._fleet_run(bigint, text[], jsonb, text, interval) TO $role;
          GRANT EXECUTE ON FUNCTION walpressure.fleet_register(text, bool), walpressure.fleet_collect(text[]),
                                    walpressure._fleet_collect(text[]), walpressure.fleet_cancel(bigint, text[]) TO $role;
          GRANT SELECT ON walpressure.fleet_servers, walpressure.fleet_runs, walpressure.fleet_members,
                          walpressure.fleet_sweeps, walpressure.fleet_progress TO $role});
}
q0(q{CREATE ROLE regress_fleet_runner LOGIN});
grant_operator('regress_fleet_runner');
q0(q{GRANT USAGE ON FOREIGN SERVER a, c TO regress_fleet_runner;
     CREATE USER MAPPING FOR regress_fleet_runner SERVER a OPTIONS (user 'regress_remote_weak', password 'weak secret');
     CREATE USER MAPPING FOR PUBLIC SERVER c OPTIONS (user 'postgres')});
($out, $err) = ('', '');
$central->psql('postgres', "CALL walpressure.fleet_run('$short', ARRAY['a'])", stdout => \$out, stderr => \$err,
	extra_params => [ '-U', 'regress_fleet_runner' ]);
is($err, '', 'a fleet runner\'s call runs');
like(q0(q{SELECT state || ' ' || detail FROM walpressure.fleet_progress WHERE run_by = 'regress_fleet_runner'}),
	qr/^failed permission denied for function run_sweep/, 'but its mapping\'s role on a may not sweep: a refused it');
is($a->safe_psql('postgres', q{SELECT count(*) FROM walpressure.sweeps WHERE run_by = 'regress_remote_weak'}), '0',
	'and started nothing');
($out, $err) = ('', '');
$central->psql('postgres', "CALL walpressure.fleet_run('$short', ARRAY['c'])", stderr => \$err,
	extra_params => [ '-U', 'regress_fleet_runner' ]);
like($err, qr/no user mapping for role "regress_fleet_runner" on foreign server "c"\nDETAIL:  The fleet does not use the PUBLIC mapping/,
	'the PUBLIC mapping (to a superuser there) is not used');
($out, $err) = ('', '');
$central->psql('postgres', "CALL walpressure.fleet_run('$short', ARRAY['b'])", stderr => \$err,
	extra_params => [ '-U', 'regress_fleet_runner' ]);
like($err, qr/permission denied for foreign server b/, 'a server it may not use is refused before anything starts');
($out, $err) = ('', '');
$central->psql('postgres', q{BEGIN; CALL walpressure.fleet_run('{"setting": "commit_delay", "vals": [0]}', ARRAY['a']); COMMIT},
	stderr => \$err);
like($err, qr/fleet_run cannot run inside a transaction block/, 'fleet_run refuses a transaction block');
for my $bad (
	[ q({"setting": "commit_delay"}), qr/sweep's "vals" is missing/ ],
	[ q({"setting": "commit_delay", "vals": [0], "wait": false}), qr/sweep cannot set "wait"/ ],
	[ q({"setting": "commit_delay", "vals": [0], "standby_conninfo": "host=x"}), qr/sweep cannot set "standby_conninfo"/ ],
	[ q({"setting": "commit_delay", "vals": [0], "clientz": 2}), qr/sweep's "clientz" is not an argument of run_sweep/ ],
	[ q({"setting": "commit_delay", "vals": [0], "clients": 2.5}), qr/sweep's "clients" must be a whole number/ ],
	[ q({"setting": "commit_delay", "vals": [0], "duration": "3 parsecs"}), qr/invalid input syntax for type interval/ ],
	[ q({"setting": "commit_delay", "vals": []}), qr/sweep's "vals" is empty/ ],
	[ q({"setting": "commit_delay", "vals": [0], "rate": "fast"}), qr/sweep's "rate" must be a number/ ],
	[ q({"setting": "commit_delay", "vals": [0], "resolution": [10]}), qr/sweep's "resolution" must be a number or text with a unit/ ])
{
	($out, $err) = ('', '');
	$central->psql('postgres', "CALL walpressure.fleet_run('$bad->[0]', ARRAY['a'])", stderr => \$err);
	like($err, $bad->[1], "refused before any server is contacted: $bad->[0]");
}
($out, $err) = ('', '');
$central->psql('postgres', q{CALL walpressure.fleet_run('{"setting": "commit_delay", "vals": [0]}', ARRAY['a', 'nosuch'])},
	stderr => \$err);
like($err, qr/server "nosuch" is not registered in the fleet/, 'a server not registered is named');
is(q0(q{SELECT max(run_id) FROM walpressure.fleet_runs}), '6', 'no refused call left a run behind');

# --- a connection that cannot hold the centre: connect_timeout required and
# bounded (on 15 dblink_connect waits in PQconnectdb, which no cancel ends)
q0(qq{CREATE SERVER notimeout FOREIGN DATA WRAPPER dblink_fdw OPTIONS (host '$tmp', port '9', dbname 'postgres')});
q0(q{CREATE USER MAPPING FOR CURRENT_USER SERVER notimeout OPTIONS (user 'postgres')});
($out, $err) = ('', '');
$central->psql('postgres', q{SELECT walpressure.fleet_register('notimeout', false)}, stderr => \$err);
like($err, qr/ERROR:  foreign server "notimeout" has no connect_timeout\n.*\nHINT:  ALTER SERVER notimeout OPTIONS \(ADD connect_timeout '10'\);/s,
	'a server without connect_timeout is refused at registration, with the line that adds it');
q0(q{ALTER SERVER notimeout OPTIONS (ADD connect_timeout '300')});
($out, $err) = ('', '');
$central->psql('postgres', q{SELECT walpressure.fleet_register('notimeout', false)}, stderr => \$err);
like($err, qr/ERROR:  foreign server "notimeout" has a connect_timeout the fleet cannot use\nDETAIL:  It is "300"; the fleet needs a whole number of seconds from 1 to 30/,
	'and one whose connect_timeout is longer than 30 s');
# a service: the hosts it names are in a file the fleet does not read
q0(q{ALTER SERVER notimeout OPTIONS (SET connect_timeout '5', ADD service 'elsewhere')});
($out, $err) = ('', '');
$central->psql('postgres', q{SELECT walpressure.fleet_register('notimeout', false)}, stderr => \$err);
like($err, qr/ERROR:  foreign server "notimeout" names a service, which the fleet cannot use\n.*\nHINT:  ALTER SERVER notimeout OPTIONS \(DROP service, /s,
	'and one that names a service, with the line that drops it');
q0(q{ALTER SERVER notimeout OPTIONS (DROP service)});
# hosts enough that libpq's connect_timeout for each (30 s) outlasts the
# fleet's longest wait, 3600 s (a list long enough to wrap an int once
# armed no deadline at all)
my $hosts = join(',', ($tmp) x 121);
q0(qq{ALTER SERVER notimeout OPTIONS (SET connect_timeout '30', SET host '$hosts')});
($out, $err) = ('', '');
$central->psql('postgres', q{SELECT walpressure.fleet_register('notimeout', false)}, stderr => \$err);
like($err, qr/ERROR:  foreign server "notimeout" names 121 hosts: with a connect_timeout of 30 s a connection may wait 3630 s, more than the fleet waits \(3600 s\)/,
	'and one whose hosts, each waited for, outlast the fleet\'s longest wait');
q0(qq{ALTER SERVER notimeout OPTIONS (SET connect_timeout '5', SET host '$tmp')});
is(q0(q{SELECT count(*) FROM walpressure.fleet_servers WHERE server = 'notimeout'}), '0', 'none is registered');
# a registered server whose connect_timeout was taken away: refused by name before anything starts
q0(q{ALTER SERVER dead OPTIONS (DROP connect_timeout)});
for my $call ("CALL walpressure.fleet_run('$short', ARRAY['a', 'dead'])", q{SELECT * FROM walpressure.fleet_collect(ARRAY['a', 'dead'])})
{
	($out, $err) = ('', '');
	$central->psql('postgres', $call, stderr => \$err);
	like($err, qr/ERROR:  foreign server "dead" has no connect_timeout/, "refused: $call");
}
q0(q{ALTER SERVER dead OPTIONS (ADD connect_timeout '5')});
# over TCP, registering says how the mapped role's password could be taken
q0(q{CREATE SERVER tcp1 FOREIGN DATA WRAPPER dblink_fdw OPTIONS (host '127.0.0.1', port '9', dbname 'postgres', connect_timeout '2')});
q0(q{CREATE USER MAPPING FOR CURRENT_USER SERVER tcp1 OPTIONS (user 'postgres')});
($out, $err) = ('', '');
$central->psql('postgres', q{SELECT walpressure.fleet_register('tcp1', false)}, stderr => \$err);
like($err, qr/NOTICE:  foreign server "tcp1" is reached over TCP without sslmode 'verify-full' and channel_binding 'require'\n.*\nHINT:  ALTER SERVER tcp1 OPTIONS \(ADD sslmode 'verify-full', ADD channel_binding 'require'\);/s,
	'a server reached over TCP without sslmode verify-full and channel_binding require: a NOTICE, with the line that adds them');
q0(q{ALTER SERVER tcp1 OPTIONS (ADD sslmode 'verify-full', ADD channel_binding 'require')});
($out, $err) = ('', '');
$central->psql('postgres', q{SELECT walpressure.fleet_register('tcp1', false)}, stderr => \$err);
is($err, '', 'with both, none');
is(q0(q{SELECT max(run_id) FROM walpressure.fleet_runs}), '6', 'no refused call left a run behind');

# --- members that would hold the centre, or speak to its readers in
# controls: fake servers (member.pl, below), each on a TCP port of its own,
# and an attacker's exact-type functions on the search_path of the
# superuser who calls the fleet
my $member = "$tmp/member.pl";
write_file($member, <<'MEMBER');
# member.pl PORT MODE ENCODING SYSID: a fake server of the fleet, listening
# on 127.0.0.1:PORT, each connection served by a process of its own (the
# group's leader is this one: kill its group to end them all).
#   silent   accepts connections and says nothing
#   norfq    speaks just enough of the protocol to be connected to
#            (AuthenticationOk, ParameterStatus, BackendKeyData,
#            ReadyForQuery), then answers each query with a result
#            (RowDescription, DataRow, CommandComplete) and never with
#            ReadyForQuery
#   hostile  answers as a server would, with controls in every text: who it
#            is (no walpressure there, its database named with ESC, BEL and
#            U+202E)
#   encoding speaks the protocol up to ReadyForQuery, reporting another
#            client_encoding than ENCODING, then answers no query (dblink's
#            connect sets the client_encoding with a query it waits for
#            with no deadline)
#   hostrun  who it is with walpressure 0.7.0; the watch says where its
#            sweep is with controls in its value and phase; run_sweep fails
#            after 6 s with controls in its error, and SQLSTATE 57014; its
#            list of sweeps holds one without an id and one whose document
#            says another cluster (hostile's) ran it
use strict;
use warnings;
use IO::Socket::INET;

my ($port, $mode, $enc, $sysid) = @ARGV;
$SIG{PIPE} = 'IGNORE';
$SIG{CHLD} = 'IGNORE';
setpgrp(0, 0);
my $l = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => $port, Listen => 64,
	ReuseAddr => 1, Proto => 'tcp') or die "listen 127.0.0.1:$port: $!";
# C0 controls escaped as JSON wants them; U+009B (CSI) and U+202E (RLO) as UTF-8
my ($ESC, $BEL, $CSI, $RLO) = ('\u001b', '\u0007', "\xc2\x9b", "\xe2\x80\xae");

while (1)
{
	my $c = $l->accept or next;
	my $pid = fork;
	if (defined $pid && $pid == 0)
	{
		close $l;
		serve($c);
		exit 0;
	}
	close $c;
}

sub readn
{
	my ($c, $n) = @_;
	my $buf = '';
	while (length($buf) < $n)
	{
		my $r = sysread($c, $buf, $n - length($buf), length($buf));
		return undef unless $r;
	}
	return $buf;
}

sub msg
{
	my ($c, $type, $body) = @_;
	syswrite($c, $type . pack('N', 4 + length($body)) . $body);
}

sub result
{
	my ($c, $value, $ready) = @_;
	msg($c, 'T', pack('n', 1) . pack('Z*NnNnNn', 'j', 0, 0, 25, 0xFFFF, 0xFFFFFFFF, 0));
	msg($c, 'D', pack('n', 1) . pack('N', length($value)) . $value);
	msg($c, 'C', "SELECT 1\0");
	msg($c, 'Z', 'I') if $ready;
}

sub error
{
	my ($c, $state, $message, $detail) = @_;
	msg($c, 'E', "SERROR\0VERROR\0C$state\0M$message\0D$detail\0\0");
	msg($c, 'Z', 'I');
}

sub serve
{
	my ($c) = @_;
	if ($mode eq 'silent')
	{
		1 while sysread($c, my $buf, 4096);
		return;
	}
	while (1)
	{
		my $head = readn($c, 8) // return;
		my ($len, $code) = unpack('NN', $head);
		readn($c, $len - 8) // return if $len > 8;
		if ($code == 80877103 || $code == 80877104)
		{
			syswrite($c, 'N');    # no SSL, no GSS encryption
			next;
		}
		last if $code == 196608;
		return;
	}
	msg($c, 'R', pack('N', 0));
	my $client_enc = $mode eq 'encoding' ? ($enc eq 'LATIN1' ? 'UTF8' : 'LATIN1') : $enc;
	for my $p ([ 'server_version', '15.99' ], [ 'server_encoding', $enc ], [ 'client_encoding', $client_enc ],
		[ 'DateStyle', 'ISO, MDY' ], [ 'integer_datetimes', 'on' ], [ 'standard_conforming_strings', 'on' ],
		[ 'TimeZone', 'UTC' ])
	{
		msg($c, 'S', "$p->[0]\0$p->[1]\0");
	}
	msg($c, 'K', pack('NN', $$, 4242));
	msg($c, 'Z', 'I');
	if ($mode eq 'encoding')
	{
		1 while sysread($c, my $buf, 4096);
		return;
	}
	while (1)
	{
		my $type = readn($c, 1) // return;
		my $len = unpack('N', readn($c, 4) // return);
		my $body = $len > 4 ? readn($c, $len - 4) // return : '';
		return if $type eq 'X';
		next unless $type eq 'Q';
		$body =~ s/\0$//;
		answer($c, $body);
	}
}

sub answer
{
	my ($c, $q) = @_;
	my $wp = $mode eq 'hostile' ? 'null' : '"0.7.0"';
	my $who = qq({"pid": $$, "role": "r$ESC\[0m", "database": "db$ESC]0;pwned$BEL${RLO}evil", )
	  . qq("server_version": "15.99${CSI}2J", "system_identifier": "$sysid", "walpressure": $wp, "progress": true});
	if ($mode eq 'norfq')
	{
		result($c, $who, 0);
	}
	elsif ($q =~ /'system_identifier'/)
	{
		result($c, $who, 1);
	}
	elsif ($q =~ /'statement_timeout'/)
	{
		result($c, '["0"]', 1);
	}
	elsif ($q =~ /walpressure\.progress/)
	{
		result($c, qq({"step": 1, "steps_done": 0, "steps_total": 2, "value": "0$ESC\[31m$CSI", )
			  . qq("phase": "measured${BEL} window$RLO"}), 1);
	}
	elsif ($q =~ /s\.origin IS NULL/)
	{
		# its sweeps: one without an id, one whose document says another
		# cluster ran it, 100 more (ids 100 to 199) than a call tries, each
		# named twice, and 9950 more entries without an id (10052 in all:
		# more than a call reads)
		result($c, '[{"id": "x"}, {"id": 5, "started_at": "2026-11-01T00:00:00+00:00", "label": "fleet run 1"}, '
			  . join(', ', map { qq({"id": $_, "started_at": "2026-11-01T00:00:00+00:00"}) } (100 .. 199, 100 .. 199))
			  . ', ' . join(', ', map { '{"id": null}' } 1 .. 9950) . ']', 1);
	}
	elsif ($q =~ /walpressure\.export\(5\)/)
	{
		result($c, '{"format": "walpressure sweep", "format_version": 1, "server": {"system_identifier": "7000000000000000001"}, '
			  . '"sweep": {"sweep_id": 5, "status": "done"}, "steps": [], "step_samples": []}', 1);
	}
	elsif ($q =~ /walpressure\.run_sweep/)
	{
		sleep 6;
		error($c, '57014', "canceling statement due to user request\x1b[2J", "by ${RLO}the member\x07");
	}
	else
	{
		error($c, '42883', 'not a fake member\'s question', '');
	}
}
MEMBER
my $enc = q0('SHOW server_encoding');
my %fake;
for my $m ([ 'silent', 0 ], [ 'encoding', 0 ], [ 'norfq', 0 ], [ 'hostile', 7000000000000000001 ], [ 'hostrun', 7000000000000000002 ])
{
	my $port = PostgreSQL::Test::Cluster::get_free_port();
	system("perl '$member' $port $m->[0] $enc $m->[1] >'$tmp/member-$m->[0].log' 2>&1 & echo \$! >'$tmp/member-$m->[0].pid'");
	my $pid = slurp_file("$tmp/member-$m->[0].pid");
	chomp $pid;
	$fake{ $m->[0] } = $pid;
	q0(qq{CREATE SERVER $m->[0] FOREIGN DATA WRAPPER dblink_fdw
          OPTIONS (host '127.0.0.1', port '$port', dbname 'postgres', connect_timeout '2')});
	q0("CREATE USER MAPPING FOR CURRENT_USER SERVER $m->[0] OPTIONS (user 'postgres')");
}
# the attacker: a role that may create in a schema on the caller's path,
# whose functions and operator match exactly the types of what the fleet's
# SQL calls (beating pg_catalog's polymorphic or variadic ones, whatever the
# order of the path); each records its call and makes its author superuser
q0(q{CREATE ROLE regress_trojan LOGIN;
     CREATE SCHEMA trojan AUTHORIZATION regress_trojan;
     SET ROLE regress_trojan;
     CREATE TABLE trojan.ran (what text, who name DEFAULT current_user, at timestamptz DEFAULT clock_timestamp());
     CREATE SEQUENCE trojan.calls;     -- (not undone when the caller's transaction is)
     CREATE FUNCTION trojan.cardinality(a text[]) RETURNS int LANGUAGE plpgsql AS $$
     BEGIN PERFORM pg_catalog.nextval('trojan.calls'); INSERT INTO trojan.ran (what) VALUES ('cardinality(text[])'); ALTER ROLE regress_trojan SUPERUSER;
           RETURN pg_catalog.cardinality(a); END $$;
     CREATE FUNCTION trojan.format(f text, a bigint) RETURNS text LANGUAGE plpgsql AS $$
     BEGIN PERFORM pg_catalog.nextval('trojan.calls'); INSERT INTO trojan.ran (what) VALUES ('format(text, bigint)'); ALTER ROLE regress_trojan SUPERUSER;
           RETURN pg_catalog.format(f, a); END $$;
     CREATE FUNCTION trojan.unnest(a text[]) RETURNS SETOF text LANGUAGE plpgsql AS $$
     BEGIN PERFORM pg_catalog.nextval('trojan.calls'); INSERT INTO trojan.ran (what) VALUES ('unnest(text[])'); ALTER ROLE regress_trojan SUPERUSER;
           RETURN QUERY SELECT pg_catalog.unnest(a); END $$;
     CREATE FUNCTION trojan.array_to_string(a text[], d text) RETURNS text LANGUAGE plpgsql AS $$
     BEGIN PERFORM pg_catalog.nextval('trojan.calls'); INSERT INTO trojan.ran (what) VALUES ('array_to_string(text[], text)'); ALTER ROLE regress_trojan SUPERUSER;
           RETURN pg_catalog.array_to_string(a, d); END $$;
     CREATE FUNCTION trojan.jsonb_build_object(k text, v text) RETURNS jsonb LANGUAGE plpgsql AS $$
     BEGIN PERFORM pg_catalog.nextval('trojan.calls'); INSERT INTO trojan.ran (what) VALUES ('jsonb_build_object(text, text)'); ALTER ROLE regress_trojan SUPERUSER;
           RETURN pg_catalog.jsonb_build_object(k, v); END $$;
     CREATE FUNCTION trojan.cat(a text, b bigint) RETURNS text LANGUAGE plpgsql AS $$
     BEGIN PERFORM pg_catalog.nextval('trojan.calls'); INSERT INTO trojan.ran (what) VALUES ('text || bigint'); ALTER ROLE regress_trojan SUPERUSER;
           RETURN a OPERATOR(pg_catalog.||) b::text; END $$;
     CREATE OPERATOR trojan.|| (LEFTARG = text, RIGHTARG = bigint, FUNCTION = trojan.cat);
     RESET ROLE});
# the superuser calls the fleet with trojan first on its path
my $path = '-c search_path=trojan,public';
sub as_trojan_path
{
	my ($sql, %o) = @_;
	local $ENV{PGOPTIONS} = $path;
	my ($o, $e) = ('', '');
	my $t0 = time;
	$central->psql('postgres', $sql, stdout => \$o, stderr => \$e, %o);
	return ($o, $e, time - $t0);
}

# a member that accepts and says nothing: registering ends when its
# connect_timeout (2 s) does; from 16 on dblink's connect keeps no
# connect_timeout (libpqsrv_connect waits with no limit), and walpressure's
# own deadline ends it a second later (it hung there until a cancel)
my $took;
($out, $err, $took) = as_trojan_path(q{SELECT walpressure.fleet_register('silent')});
like($err, qr/ERROR:  could not establish connection/, 'a member that accepts and says nothing: registering fails');
cmp_ok($took, '<', 8, sprintf('within its connect_timeout of 2 s, and a second (%.1f s)', $took));
($out, $err) = as_trojan_path(q{SELECT walpressure.fleet_register('silent', false)});
# the same member through a wrapper with no validator, its connect_timeout
# on the caller's user mapping only: dblink takes connect_timeout from the
# server's options alone, so that connection has none (on 15 it would wait
# for the member in PQconnectdb, past every cancel): refused at once, as
# the server with none is, and the DETAIL says why the mapping's is not one
my $silent_port = q0(q{SELECT option_value FROM pg_foreign_server, pg_options_to_table(srvoptions)
                       WHERE srvname = 'silent' AND option_name = 'port'});
q0(qq{CREATE FOREIGN DATA WRAPPER regress_noval;
      CREATE SERVER silent_um FOREIGN DATA WRAPPER regress_noval OPTIONS (host '127.0.0.1', port '$silent_port', dbname 'postgres');
      CREATE USER MAPPING FOR CURRENT_USER SERVER silent_um OPTIONS (user 'postgres', connect_timeout '2')});
my $timed_out = 0;
{
	local $ENV{PGOPTIONS} = $path;
	my $t0 = time;
	$central->psql('postgres', q{SELECT walpressure.fleet_register('silent_um')},
		stdout => \$out, stderr => \$err, timeout => 20, timed_out => \$timed_out);
	$took = time - $t0;
}
ok(!$timed_out, 'connect_timeout on the user mapping only: registering does not wait for the member');
like($err, qr/ERROR:  foreign server "silent_um" has no connect_timeout\nDETAIL:  Its user mapping or its foreign-data wrapper has one, which dblink does not use/,
	'it is refused as a server with none, and says the mapping\'s is not used');
cmp_ok($took, '<', 3, sprintf('at once (%.1f s)', $took));
q0(q{DROP FOREIGN DATA WRAPPER regress_noval CASCADE});
# a fleet run that connects to it, cancelled meanwhile: on 15 the cancel
# waits for the connection attempt (2 s), no longer
my $before = q0(q{SELECT max(run_id) FROM walpressure.fleet_runs});
{
	local $ENV{PGOPTIONS} = $path;
	$run = background($central, "CALL walpressure.fleet_run('$short', ARRAY['silent'])", psql => [ '-At' ]);
}
ok(poll($central, qq{SELECT count(*) = 1 FROM walpressure.fleet_runs WHERE run_id > $before}), 'a fleet run connects to it');
my $silent_run = q0(qq{SELECT run_id FROM walpressure.fleet_runs WHERE run_id > $before});
$t0 = time;
q0(qq{SELECT pg_cancel_backend(pid) FROM walpressure.fleet_runs WHERE run_id = $silent_run});
($out, $err) = $run->finish;
$took = time - $t0;
like($err, qr/ERROR:  canceling statement due to user request\nDETAIL:  Fleet run $silent_run was cancelled/,
	'it is cancelled');
cmp_ok($took, '<', 6, sprintf('within the connect_timeout of 2 s (%.1f s)', $took));
is(q0(qq{SELECT state FROM walpressure.fleet_progress WHERE run_id = $silent_run}), 'cancelled', 'its member is marked so');

# a member that reports another client_encoding and never answers the SET
# dblink's connect sends for it (PQsetClientEncoding: a wait with no
# deadline, which a cancel does not end): registering ends at the deadline,
# a second past connect_timeout (2 s), its socket shut down (it held the
# backend past every cancel and termination)
($out, $err, $took) = as_trojan_path(q{SELECT walpressure.fleet_register('encoding')}, timeout => 30);
like($err, qr/ERROR:  could not establish connection to server "encoding": no answer within its connect_timeout \(2 s\)/,
	'a member that never answers the client_encoding dblink sets: registering fails at the deadline');
cmp_ok($took, '<', 8, sprintf('within its connect_timeout of 2 s, and a second (%.1f s)', $took));
is(q0(q{SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%fleet_register(''encoding'')%' AND pid <> pg_backend_pid()}),
	'0', 'and its backend is not left waiting');

# a member that sends a result and never ReadyForQuery: registering ends
# at its deadline (10 s), collecting too
($out, $err, $took) = as_trojan_path(q{SELECT walpressure.fleet_register('norfq')});
like($err, qr/ERROR:  no answer within 00:00:10/, 'a member that answers and never ends its answer: registering fails');
cmp_ok($took, '<', 18, sprintf('at its deadline of 10 s (%.1f s)', $took));
as_trojan_path(q{SELECT walpressure.fleet_register('norfq', false)});
($out, $err, $took) = as_trojan_path(q{SELECT state || ': ' || detail FROM walpressure.fleet_collect(ARRAY['norfq'])});
like($out, qr/^unreachable: no answer within 00:00:10/, 'collecting from it fails');
cmp_ok($took, '<', 18, sprintf('at the same deadline (%.1f s)', $took));

# a member whose texts hold controls: registering says so in clean words
($out, $err) = as_trojan_path(q{SELECT walpressure.fleet_register('hostile')});
like($err, qr/NOTICE:  server hostile cannot run the fleet's sweeps yet: walpressure is not installed in database db \]0;pwned evil there/,
	'a member whose database is named with ESC, BEL and U+202E: the NOTICE names it, cleaned');
unlike($err, qr/[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]/, 'and no control reaches it');
is(q0(q{SELECT server_version || ' ' || system_identifier FROM walpressure.fleet_servers WHERE server = 'hostile'}),
	'15.99 2J 7000000000000000001', 'its versions are recorded cleaned');
as_trojan_path(q{SELECT walpressure.fleet_register('hostrun')});

# one run: two servers that complete (c cancelled from the centre while
# the member that never ends its answer holds its question), that member,
# the hostile one, and one whose run_sweep fails with a cancel's SQLSTATE
{
	local $ENV{PGOPTIONS} = $path;
	$run = background($central, "CALL walpressure.fleet_run('$short', ARRAY['a', 'c', 'norfq', 'hostile', 'hostrun'], lost_after => '6 s')",
		psql => [ '-At' ]);
}
ok(poll($central, q{SELECT count(*) = 2 FROM walpressure.fleet_progress
                    WHERE run_status = 'running' AND server IN ('a', 'c') AND state = 'running' AND last_heard IS NOT NULL}),
	'a and c run beside the member that never ends its answer');
my $xrun = q0(q{SELECT max(run_id) FROM walpressure.fleet_runs});
my ($heard1, $waiting) = split /\|/, q0(qq{SELECT (SELECT last_heard FROM walpressure.fleet_members WHERE run_id = $xrun AND server = 'a'),
                                                  (SELECT state FROM walpressure.fleet_members WHERE run_id = $xrun AND server = 'norfq')});
is($waiting, 'connecting', 'that member holds its first question');
usleep(2_000_000);
$t0 = time;
is(q0(qq{SELECT walpressure.fleet_cancel($xrun, ARRAY['c'])}), '1', 'fleet_cancel of c meanwhile');
$took = time - $t0;
cmp_ok($took, '<', 1.5, sprintf('returns at once (%.2f s), not held by a row lock', $took));
my ($heard2, $still) = split /\|/, q0(qq{SELECT (SELECT last_heard FROM walpressure.fleet_members WHERE run_id = $xrun AND server = 'a'),
                                                (SELECT state FROM walpressure.fleet_members WHERE run_id = $xrun AND server = 'norfq')});
is($still, 'connecting', 'while that member still holds it');
cmp_ok($heard2, 'gt', $heard1, "fleet_progress keeps moving: a last heard at $heard1, then at $heard2");
ok(poll($central, qq{SELECT value IS NOT NULL FROM walpressure.fleet_progress WHERE run_id = $xrun AND server = 'hostrun'}),
	'the member with controls in its progress runs');
my $seen = q0(qq{SELECT value || '|' || phase || '|' || coalesce(estimated_end::text, 'none')
                 FROM walpressure.fleet_progress WHERE run_id = $xrun AND server = 'hostrun'});
is($seen, '0 [31m |measured  window |none', 'its value and phase reach fleet_progress cleaned');
($out, $err) = $run->finish;
chomp $out;
is($out, $xrun, 'the call ended with its run id');
is($err, '', 'and no error: a member\'s 57014 is not the call\'s cancel');
%st = map { split /\|/, $_, 2 } split /\n/,
  q0(qq{SELECT server, state || ' ' || coalesce(sweep_status, '-') || ' ' || coalesce(detail, '') FROM walpressure.fleet_progress WHERE run_id = $xrun});
like($st{a}, qr/^collected done/, 'a completed');
like($st{c}, qr/^collected cancelled cancelled by fleet_cancel\(\)/, 'c was cancelled from the centre, and gathered');
like($st{norfq}, qr/^lost - no answer for 00:00:06/, 'the member that never ends its answer is lost after lost_after');
my $held = q0(qq{SELECT extract(epoch FROM ended_at - started_at) FROM walpressure.fleet_members WHERE run_id = $xrun AND server = 'norfq'});
ok($held >= 6 && $held < 12, sprintf('... %.1f s after its start (lost_after 6 s)', $held));
like($st{hostile}, qr/^refused - walpressure is not installed in database db \]0;pwned evil there/, 'the hostile member is refused, cleaned');
like($st{hostrun}, qr/^failed - canceling statement due to user request \[2J \(by  the member \)/,
	'the member whose run_sweep failed with a cancel\'s SQLSTATE failed alone, its words cleaned');
unlike(q0(qq{SELECT string_agg(concat_ws(' ', detail, value, phase, system_identifier), ' ') FROM walpressure.fleet_members WHERE run_id = $xrun})
	  . q0(qq{SELECT string_agg(concat_ws(' ', detail, value, phase), ' ') FROM walpressure.fleet_progress WHERE run_id = $xrun}),
	qr/[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]/, 'no control reaches fleet_members or fleet_progress');
# what the member that runs answered the run, with controls in its
# version, written by the run itself (as the owner, in C), cleaned as
# registering cleaned it
is(q0(qq{SELECT server_version || ' ' || system_identifier FROM walpressure.fleet_servers
         WHERE server = 'hostrun' AND answered_at > (SELECT started_at FROM walpressure.fleet_runs WHERE run_id = $xrun)}),
	'15.99 2J 7000000000000000002', 'the run records what the member with controls answered it, cleaned');
unlike(q0(q{SELECT string_agg(concat_ws(' ', system_identifier, server_version, walpressure_version), ' ') FROM walpressure.fleet_servers}),
	qr/[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]/, 'no control reaches fleet_servers');

# a member writes no sweep but its own: a document that says another
# cluster ran it is refused, and nothing of it is kept
my $sweeps = q0('SELECT count(*) FROM walpressure.sweeps');
($out, $err) = as_trojan_path(q{SELECT state || ' ' || collected::text || ': ' || detail FROM walpressure.fleet_collect(ARRAY['hostrun'])});
like($out, qr/^collected 0: [^;]*; its list of sweeps holds one without an id; sweep 5: export\(5\) there returned another sweep than the one asked for/,
	'a member\'s sweep that says another cluster ran it is refused, and its list\'s entry without an id noted');
# a list longer than a call tries: 100 tried (5, then 100 to 198), each
# failing: the first 5 said, the others counted; the one more said, not tried
like($out, qr/^collected 0: its list holds 10152 sweeps: the first 10000 were read; /,
	'a list longer than a call reads: the first 10000 entries read, said');
like($out, qr/; sweep 103: [^;]*; 9798 more without an id; it named 100 sweeps twice \(each tried once\); 95 more sweeps there could not be gathered \(the first 5 said\); 1 more sweep there not tried: at most 100 a call, for at most 5 minutes; call fleet_collect again for them$/,
	'a member\'s list of more sweeps than a call tries: 100 tried, an id named twice tried once, 5 failures said and 95 counted, the entries without an id counted, the one more said');
unlike($out, qr/sweep 104:/, 'the 6th failure is counted, not said');
is(q0('SELECT count(*) FROM walpressure.sweeps') . ' ' . q0(q{SELECT count(*) FROM walpressure.fleet_sweeps WHERE server = 'hostrun'}),
	"$sweeps 0", 'nothing of it is kept');

# the attacker's functions never ran, in any of those calls, nor in these
($out, $err) = as_trojan_path(q{SELECT count(*) FROM walpressure.fleet_collect(ARRAY['a', 'c'])});
is($err, '', 'fleet_collect with the attacker\'s path');
($out, $err) = as_trojan_path(q{SELECT server FROM walpressure.fleet_register('a')});
is($out, 'a', 'fleet_register with it');
is(q0(q{SELECT count(*) || ' ' || (SELECT is_called FROM trojan.calls) FROM trojan.ran}), '0 false',
	'none of the attacker\'s exact-type functions ran (cardinality(text[]), format(text, bigint), unnest(text[]), array_to_string(text[], text), jsonb_build_object(text, text), text || bigint)');
is(q0(q{SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_trojan'}), 'f', 'and their author is no superuser');
kill 'TERM', -$_ for values %fake;

# --- operators: with the guide's grants (EXECUTE, reading) an operator
# runs the fleet end to end, writes no table of it but through its
# functions, and cannot cancel or take over another's run
my $chba = $c->data_dir . '/pg_hba.conf';
write_file($chba, "local all regress_remote_sweeper scram-sha-256\n" . slurp_file($chba));
$c->reload;
$c->safe_psql('postgres', q{SET password_encryption = 'scram-sha-256';
                            CREATE ROLE regress_remote_sweeper LOGIN PASSWORD 'sweeper secret';
                            SELECT walpressure.grant_sweeper('regress_remote_sweeper', engine => 'backend')});
q0(q{CREATE ROLE regress_fleet_op LOGIN; CREATE ROLE regress_fleet_other LOGIN});
grant_operator($_) for ('regress_fleet_op', 'regress_fleet_other');
q0(q{GRANT USAGE ON FOREIGN SERVER c TO regress_fleet_op, regress_fleet_other;
     CREATE USER MAPPING FOR regress_fleet_op SERVER c OPTIONS (user 'regress_remote_sweeper', password 'sweeper secret')});
sub as_role
{
	my ($role, $sql) = @_;
	my ($o, $e) = ('', '');
	$central->psql('postgres', $sql, stdout => \$o, stderr => \$e, extra_params => [ '-U', $role ]);
	return ($o, $e);
}
for my $w (q{UPDATE walpressure.fleet_members SET cancel_requested = true},
	q{UPDATE walpressure.fleet_runs SET run_by = current_user},
	q{UPDATE walpressure.fleet_servers SET system_identifier = '1'},
	q{INSERT INTO walpressure.fleet_sweeps VALUES ('c', 999, now(), '1', 1, NULL)},
	q{INSERT INTO walpressure.sweeps (sweep_id, setting, vals) VALUES (999, 'commit_delay', '{0}')},
	q{INSERT INTO walpressure.steps (sweep_id, step) VALUES (1, 999)},
	q{SELECT nextval('walpressure.fleet_runs_run_id_seq')})
{
	($out, $err) = as_role('regress_fleet_op', $w);
	like($err, qr/ERROR:  permission denied for (table|sequence)/, "an operator cannot: $w");
}
($out, $err) = as_role('regress_fleet_op', q{SELECT server FROM walpressure.fleet_register('c')});
is($out, 'c', 'an operator registers a server it may use');
$before = q0(q{SELECT max(run_id) FROM walpressure.fleet_runs});
$run = background($central, "CALL walpressure.fleet_run('$short', ARRAY['c'])", psql => [ '-At', '-U', 'regress_fleet_op' ]);
ok(poll($central, qq{SELECT count(*) = 1 FROM walpressure.fleet_progress WHERE run_id > $before AND state = 'running'}),
	'and runs a sweep there');
my $oprun = q0(qq{SELECT run_id FROM walpressure.fleet_runs WHERE run_id > $before});
# another operator, meanwhile
for my $try ([ "SELECT walpressure.fleet_cancel($oprun)", qr/permission denied to cancel fleet run $oprun/ ],
	[ "SELECT walpressure._fleet_member_set($oprun, 'c', '{\"state\": \"cancelled\"}')", qr/fleet run $oprun is not run by this call/ ],
	[ "SELECT walpressure._fleet_run_end($oprun, 'cancelled')", qr/fleet run $oprun is not run by this call/ ],
	[ "CALL walpressure._fleet_run($oprun, ARRAY['c'], '{}', 'SELECT 1', '5 s')", qr/fleet run $oprun is not run by this call/ ],
	[ "SELECT walpressure._fleet_gather('c', 1, $oprun, '{}')", qr/recorded only by fleet_run\(\) and fleet_collect\(\)/ ],
	[ "SELECT walpressure._fleet_answered('c', '{}')", qr/recorded only by fleet_run\(\) and fleet_collect\(\)/ ],
	[ "SELECT walpressure._fleet_write_server('c', '{}')", qr/permission denied for function _fleet_write_server/ ])
{
	($out, $err) = as_role('regress_fleet_other', $try->[0]);
	like($err, $try->[1], "another operator cannot cancel or take over its run: $try->[0]");
}
# the operator itself, from another session, no more
($out, $err) = as_role('regress_fleet_op', "SELECT walpressure._fleet_member_set($oprun, 'c', '{\"detail\": \"forged\"}')");
like($err, qr/fleet run $oprun is not run by this call/, 'nor the operator itself from another session');
($out, $err) = $run->finish;
chomp $out;
is("$out|$err", "$oprun|", 'the operator\'s run ends, untouched');
is(q0(qq{SELECT state || ' ' || sweep_status || ' ' || coalesce(detail, '') || ' ' || run_by FROM walpressure.fleet_progress WHERE run_id = $oprun}),
	'collected done  regress_fleet_op', 'its sweep gathered, done, as its operator\'s');
is(q0(qq{SELECT s.run_by || ' ' || (SELECT count(*) FROM walpressure.steps st WHERE st.sweep_id = s.sweep_id)
         FROM walpressure.fleet_sweeps f JOIN walpressure.sweeps s USING (sweep_id) WHERE f.run_id = $oprun}),
	'regress_remote_sweeper 4', 'with its steps here, run as the mapped role there');
($out, $err) = as_role('regress_fleet_op', q{SELECT state || ' ' || collected FROM walpressure.fleet_collect(ARRAY['c'])});
is("$out|$err", 'collected 0|', 'an operator collects, and nothing comes twice');

# dblink missing: said plainly
my $bare = new_node('bare');
($out, $err) = ('', '');
$bare->psql('postgres', q{SELECT * FROM walpressure.fleet_collect()}, stderr => \$err);
like($err, qr/ERROR:  the fleet needs the dblink extension in this database\n.*\nHINT:  CREATE EXTENSION dblink first/s,
	'without dblink: CREATE EXTENSION dblink first');
$bare->stop;

# --- the end: b and its network
$b->stop;
kill 'TERM', $fwd_pid;
if ($net)
{
	kill 'TERM', $far if defined $far;
	$net->kill_kill;
}
$a->stop;
$c->stop;
$central->stop;
done_testing();
