# shellcheck shell=bash
# bench/lib/cluster.sh: the bench's throwaway cluster ($data, socket in
# $dir, $port), run as postgres; the IOPS cap and the cgroups.  Sourced by
# bench/lib/bench.sh.

WB_PACER=0         # start the cluster with the paced disk's library (wb_cluster_new --pacer)
WB_START_WRAP=()   # the command wb_start started it through, which wb_restart uses again
WB_PACER_ENV=()

# wb_cluster_new [--pacer] ['NAME = VALUE'...]: a fresh cluster in $data
# (after stopping the bench's own if it runs) with walpressure preloaded, the
# throwaway settings of test/setup.sh, walpressure.cgroup = the cap's group
# and the settings given; the script may append more with wb_conf, then
# calls wb_start (or wb_up).  The server is stopped at exit.  --pacer: the
# server is started with the paced disk's library (WB_PACER=1, wb_start).
wb_cluster_new() {
	WB_PACER=0
	if [ "${1:-}" = --pacer ]; then
		WB_PACER=1
		shift
	fi
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
# results --report reads, server.log and the other figures stay; and the
# server's private directory, when empty.  One a server still runs in
# (postmaster.pid) is left, and WP_BENCH_KEEP_DATA=1 keeps them all.
wb_drop_data() {
	local d
	[ "${WP_BENCH_KEEP_DATA:-0}" = 1 ] && return 0
	for d in "$dir"/*/; do
		d=${d%/}
		[ -f "$d/PG_VERSION" ] && [ ! -f "$d/postmaster.pid" ] && rm -rf "$d"
	done
	# the cluster's private directory for the pgbench engine's files, which
	# its server keeps after it stops (src/common/program.c: in /dev/shm, or
	# /tmp without it), when empty
	if [ ! -f "$data/postmaster.pid" ]; then
		for d in /dev/shm /tmp; do
			rmdir "$d/walpressure.$(id -u postgres).$port" 2>/dev/null
		done
	fi
	return 0
}

# wb_conf [DATA]: append stdin to the cluster's postgresql.conf.
wb_conf() {
	cat >>"${1:-$data}/postgresql.conf"
}

# wb_start [COMMAND...]: start the cluster (pg_ctl -w), through COMMAND when
# given (cgexec -g memory:/group: run as postgres, so a group delegated to
# postgres); $WB_PM_PID is the postmaster's pid.  With WB_PACER=1
# (wb_cluster_new --pacer, or set by the script before a start) the
# postmaster is started with walpressure_pacer.so in LD_PRELOAD, so that a
# cap can be the paced disk (src/pacer/README.md), and it is checked to
# have loaded it; with WB_PACER=0 (the default), without it.  wb_restart
# starts it again the same way.
wb_start() {
	WB_START_WRAP=("$@")
	wb_pacer_env
	wp_as_postgres "$@" "${WB_PACER_ENV[@]}" pg_ctl -D "$data" -l "$dir/server.log" -w start >/dev/null ||
		{ tail -n 20 "$dir/server.log" >&2; wp_die "the bench cluster did not start"; }
	WB_PM_PID=$(head -n 1 "$data/postmaster.pid")
	wb_pacer_check
}

# wb_pacer_lib: the paced disk's library of PG_CONFIG's PostgreSQL (make
# install puts it beside walpressure.so).
wb_pacer_lib() {
	echo "$("$PG_CONFIG" --pkglibdir)/walpressure_pacer.so"
}

# wb_pacer_env: WB_PACER_ENV, the words that put the pacer in a command's
# environment (env LD_PRELOAD=...), or none, as WB_PACER says; the script
# dies when the library is not installed.
wb_pacer_env() {
	local lib
	WB_PACER_ENV=()
	[ "${WB_PACER:-0}" = 1 ] || return 0
	lib=$(wb_pacer_lib)
	[ -f "$lib" ] || wp_die "no $lib: walpressure's make install installs it (a build older than the paced disk?)"
	WB_PACER_ENV=(env "LD_PRELOAD=$lib")
}

# wb_pacer_loaded [PID]: does the postmaster ($WB_PM_PID) map the pacer?
wb_pacer_loaded() {
	grep -q '/walpressure_pacer\.so$' "/proc/${1:-$WB_PM_PID}/maps" 2>/dev/null
}

# the postmaster just started has the pacer exactly when WB_PACER asked for it
wb_pacer_check() {
	if [ "${WB_PACER:-0}" = 1 ] && ! wb_pacer_loaded; then
		wp_die "the bench cluster started without walpressure_pacer.so, though it was asked for"
	elif [ "${WB_PACER:-0}" != 1 ] && wb_pacer_loaded; then
		wp_die "the bench cluster started with walpressure_pacer.so, though it was not asked for (LD_PRELOAD in root's environment?)"
	fi
	return 0
}

# wb_stop [DATA]: stop the cluster of DATA ($data) if it runs, by the pid in
# its postmaster.pid: a fast shutdown, an immediate one if that takes more
# than 60 s.
wb_stop() {
	local d=${1:-$data}
	[ -f "$d/postmaster.pid" ] || return 0
	# (a pid file a dead server left: neither stop succeeds, and nothing runs)
	wp_as_postgres pg_ctl -D "$d" -m fast -w -t 60 stop >/dev/null 2>&1 ||
		wp_as_postgres pg_ctl -D "$d" -m immediate -w stop >/dev/null 2>&1 || true
	return 0
}

# wb_restart [pg_ctl options]: restart the cluster (-o "-c name=value" to
# start it with a setting).  pg_ctl starts the new postmaster in its own
# environment: so through wb_start's COMMAND, and with the pacer as WB_PACER
# says.
wb_restart() {
	wb_pacer_env
	wp_as_postgres "${WB_START_WRAP[@]}" "${WB_PACER_ENV[@]}" pg_ctl -D "$data" -l "$dir/server.log" -w "$@" restart >/dev/null
	WB_PM_PID=$(head -n 1 "$data/postmaster.pid")
	wb_pacer_check
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

# wb_cap N [DISK [FLOOR_MS]]: pg_wal's disk capped at N write IOPS
# (set_iops_cap) on DISK: 'paced' (the server started with the pacer:
# WB_PACER=1), with FLOOR_MS the least a flush takes, or 'throttle' (the
# cgroup $WB_CGROUP); without DISK, the extension's default: paced where the
# server has the pacer, else the throttle.  0 or empty clears the cap.
# wb_uncap: clears it.
wb_cap() {
	if [ "${1:-0}" -gt 0 ]; then
		q -c "SET client_min_messages = warning; SELECT walpressure.set_iops_cap($1$(wb_disk_args "${2:-}" "${3:-}"))" >/dev/null
	else
		wb_uncap
	fi
}

# wb_disk_args [DISK [FLOOR_MS]]: the arguments of set_iops_cap and
# run_sweep that name the disk model: ", disk => 'paced', flush_floor_ms =>
# 0.5"; none for no DISK (the extension's default), no floor for an empty
# or 0 FLOOR_MS under the throttle.
wb_disk_args() {
	[ -n "${1:-}" ] || return 0
	printf ", disk => '%s'" "$1"
	[ -n "${2:-}" ] && [ "$1" = paced ] && printf ", flush_floor_ms => %s" "$2"
	return 0
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
