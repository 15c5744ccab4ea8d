# shellcheck shell=bash
# bench/lib/cluster.sh: the bench's throwaway cluster ($data, socket in
# $dir, $port), run as postgres; the IOPS cap and the cgroups.  Sourced by
# bench/lib/bench.sh.

# wb_cluster_new ['NAME = VALUE'...]: a fresh cluster in $data (after
# stopping the bench's own if it runs) with walpressure preloaded, the
# throwaway settings of test/setup.sh, walpressure.cgroup = the cap's group
# and the settings given; the script may append more with wb_conf, then
# calls wb_start (or wb_up).  The server is stopped at exit.
wb_cluster_new() {
	wb_stop
	rm -rf "$dir"
	install -d -o postgres -g postgres "$dir"
	install -d "$WB_STAGE"
	wp_as_postgres initdb -D "$data" -A trust --no-sync >/dev/null
	wp_cluster_conf "$data" "$dir" "$port"
	echo "walpressure.cgroup = '$WB_CGROUP'" >>"$data/postgresql.conf"
	[ $# -eq 0 ] || printf '%s\n' "$@" >>"$data/postgresql.conf"
	wb_at_exit 'wb_uncap_quiet; wb_stop'
	WB_DROP_DATA=1
}

# wb_drop_data: at exit, after everything registered with wb_at_exit (the
# servers stopped), every PostgreSQL data directory in $dir (one with a
# PG_VERSION: the cluster's, a standby's, a template) removed; the staged
# results --report reads, server.log and the other figures stay.  One a
# server still runs in (postmaster.pid) is left, and WP_BENCH_KEEP_DATA=1
# keeps them all.
wb_drop_data() {
	local d
	[ "${WP_BENCH_KEEP_DATA:-0}" = 1 ] && return 0
	for d in "$dir"/*/; do
		d=${d%/}
		[ -f "$d/PG_VERSION" ] && [ ! -f "$d/postmaster.pid" ] && rm -rf "$d"
	done
	return 0
}

# wb_conf [DATA]: append stdin to the cluster's postgresql.conf.
wb_conf() {
	cat >>"${1:-$data}/postgresql.conf"
}

# wb_start [COMMAND...]: start the cluster (pg_ctl -w), through COMMAND when
# given (cgexec -g memory:/group: run as postgres, so a group delegated to
# postgres); $WB_PM_PID is the postmaster's pid.
wb_start() {
	wp_as_postgres "$@" pg_ctl -D "$data" -l "$dir/server.log" -w start >/dev/null ||
		{ tail -n 20 "$dir/server.log" >&2; wp_die "the bench cluster did not start"; }
	WB_PM_PID=$(head -n 1 "$data/postmaster.pid")
}

# wb_stop [DATA]: stop the cluster of DATA ($data) if it runs, by the pid in
# its postmaster.pid: a fast shutdown, an immediate one if that takes more
# than 60 s.
wb_stop() {
	local d=${1:-$data}
	[ -f "$d/postmaster.pid" ] || return 0
	wp_as_postgres pg_ctl -D "$d" -m fast -w -t 60 stop >/dev/null 2>&1 ||
		wp_as_postgres pg_ctl -D "$d" -m immediate -w stop >/dev/null 2>&1
	return 0
}

# wb_restart [pg_ctl options]: restart the cluster (-o "-c name=value" to
# start it with a setting).
wb_restart() {
	wp_as_postgres pg_ctl -D "$data" -l "$dir/server.log" -w "$@" restart >/dev/null
	WB_PM_PID=$(head -n 1 "$data/postmaster.pid")
}

# q ARGS: psql on the bench cluster: unaligned, tuples only, quiet, stopping
# at the first error (q -c 'SQL', q -F ' ' -c 'SQL', q --csv -c 'SQL').
q() {
	wp_as_postgres psql -X -A -t -q -h "$dir" -p "$port" -d postgres -v ON_ERROR_STOP=1 "$@"
}

# wb_create_extension [OTHER...]: CREATE EXTENSION walpressure (CASCADE: its
# pg_prewarm), then each other extension named.  A walpressure build may be
# replaced under a long run: a CREATE that fails is tried again a minute
# later, after a restart that loads the new library, 4 times in all.
wb_create_extension() {
	local try e
	for try in 1 2 3 4; do
		q -c 'CREATE EXTENSION walpressure CASCADE' 2>"$dir/create.err" && break
		echo "== CREATE EXTENSION walpressure failed (try $try): $(cat "$dir/create.err")" >&2
		[ "$try" = 4 ] && wp_die "CREATE EXTENSION walpressure failed 4 times"
		sleep 60
		wb_restart
	done
	for e in "$@"; do
		q -c "CREATE EXTENSION $e"
	done
}

# wb_up [OTHER...]: the cluster started, walpressure created (and the other
# extensions named), the provenance read: where most benches begin.
wb_up() {
	wb_start
	wb_create_extension "$@"
	wb_provenance
}

# wb_pgbench_init SCALE [prewarm]: pgbench's tables at SCALE
# (walpressure.init_pgbench), read into shared_buffers with prewarm.
wb_pgbench_init() {
	echo "== init_pgbench($1)${2:+, $2}"
	q -c "SELECT walpressure.init_pgbench($1)" >/dev/null 2>"$dir/init.err" ||
		{ cat "$dir/init.err" >&2; wp_die "init_pgbench($1) failed"; }
	[ "${2:-}" = prewarm ] && q -c 'SELECT sum(blocks) FROM walpressure.prewarm()' >/dev/null
	return 0
}

# wb_cap N: pg_wal's disk capped at N write IOPS (set_iops_cap, in the
# cgroup $WB_CGROUP); 0 or empty clears the cap.  wb_uncap: clears it.
wb_cap() {
	if [ "${1:-0}" -gt 0 ]; then
		q -c "SELECT walpressure.set_iops_cap($1)" >/dev/null
	else
		wb_uncap
	fi
}

wb_uncap() {
	q -c 'SELECT walpressure.clear_iops_cap()' >/dev/null
}

# the cap cleared if the cluster runs and has walpressure, errors ignored (at exit)
wb_uncap_quiet() {
	[ -f "$data/postmaster.pid" ] && q -c 'SELECT walpressure.clear_iops_cap()' >/dev/null 2>&1
	return 0
}

# wb_cgroup_delegate: the cap's cgroup ($WB_CG_CONTROLLER: blkio on v1, io on
# v2, named $WB_CGROUP) created and delegated to postgres (wp_delegate_cgroup).
# A group this run created is removed at exit (after the clusters, which stop
# first); one that was there before (a WP_BENCH_CGROUP the user named) is
# left as it was.
wb_cgroup_delegate() {
	wp_delegate_cgroup "$WB_CGROUP"
	WB_CG_CONTROLLER=$WP_CG_CONTROLLER
	[ "$WP_CG_CREATED" = 0 ] || wb_at_exit "cgdelete -g '$WB_CG_CONTROLLER:/$WB_CGROUP' 2>/dev/null"
}

# wb_cgroup_new CONTROLLER NAME: a cgroup of the bench's own (an earlier
# run's removed first), delegated to postgres (who runs cgexec into it), and
# removed at exit.
wb_cgroup_new() {
	cgdelete -g "$1:/$2" 2>/dev/null || true
	wp_delegate_cgroup "$2" "$1"
	wb_at_exit "cgdelete -g '$1:/$2' 2>/dev/null"
}
