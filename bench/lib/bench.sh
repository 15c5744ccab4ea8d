# shellcheck shell=bash
# bench/lib/bench.sh: what every bench script shares.  A script starts with
#
#   . "$(dirname "$0")/lib/bench.sh" NAME PORT "$@"
#
# (set -euo pipefail, then wb_init NAME PORT "$@") and is then run as root:
# bash bench/NAME [arguments].  The functions live by
# concern in the files sourced below; bench/lib/README.md lists them and the
# settings.  Everything here runs as root; the servers run as postgres.
#
# Settings (environment):
#   PG_CONFIG            the PostgreSQL to build for and run (its bindir has
#                        initdb, pg_ctl, pgbench, psql); default Debian's 15
#   WP_BENCH_QUICK=1     smoke mode: each script shrinks its durations, rounds
#                        and data (wb_size), and the results go to a scratch
#                        directory, never over bench/results
#   WP_BENCH_NO_BUILD=1  use the walpressure installed, do not build this tree
#   WP_BENCH_CGROUP      the cgroup of the IOPS cap (blkio on v1, io on v2),
#                        set as walpressure.cgroup in every bench cluster;
#                        default walpressure_bench (removed at exit when
#                        the run created it, left when it was there).
#                        Groups a bench needs beside it are named after it
#                        (_cpu, _mem, _standby)
#   WP_BENCH_TMP         where the bench clusters live (default /tmp): bench
#                        NAME's is $WP_BENCH_TMP/walpressure-bench-NAME
#   WP_BENCH_KEEP_DATA=1 keep the bench's data directories at exit (by
#                        default a run that made a cluster removes the
#                        PostgreSQL data directories in its
#                        walpressure-bench-NAME once its servers stop;
#                        results/, which --report reads, server.log and the
#                        other figures stay)
#   WP_BENCH_RESULTS     where results are written (default bench/results;
#                        with WP_BENCH_QUICK=1, $WP_BENCH_TMP/walpressure-bench-quick)
#   PG_MAJORS            a script that takes it (wb_major): its first major,
#                        got by test/pg-major (WP_PG_CACHE: where it caches
#                        them), instead of PG_CONFIG's; one that lives in a
#                        chroot (17, 19) runs the script there (wb_chroot_run)

set -euo pipefail
WB_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WB_TOP=$(cd "$WB_LIB/../.." && pwd)
# PG_CONFIG as the caller gave it: test/setup.sh's wp_install_deps picks 15's
WB_PG_CONFIG_GIVEN=${PG_CONFIG:-}

# shellcheck source=test/setup.sh
. "$WB_TOP/test/setup.sh"
# shellcheck source=bench/lib/cluster.sh
. "$WB_LIB/cluster.sh"
# shellcheck source=bench/lib/hand.sh
. "$WB_LIB/hand.sh"
# shellcheck source=bench/lib/sweeps.sh
. "$WB_LIB/sweeps.sh"
# shellcheck source=bench/lib/stats.sh
. "$WB_LIB/stats.sh"
# shellcheck source=bench/lib/provenance.sh
. "$WB_LIB/provenance.sh"
# shellcheck source=bench/lib/report.sh
. "$WB_LIB/report.sh"

# wb_init NAME PORT ARGS...: the bench's name, its cluster's directory ($dir,
# $data) and port, its command line as run, its results' paths, and the exit
# handler that undoes what the lib set up.  WB_REPORT_ONLY=1 when ARGS start
# with --report (a script that has one then shifts it off its own arguments:
# [ "$WB_REPORT_ONLY" = 1 ] && shift).
wb_init() {
	WB_NAME=$1
	port=$2
	shift 2
	WB_REPORT_ONLY=0
	[ "${1:-}" = --report ] && WB_REPORT_ONLY=1
	top=$WB_TOP
	WB_QUICK=${WP_BENCH_QUICK:-0}
	WB_TMP=${WP_BENCH_TMP:-/tmp}
	WB_CGROUP=${WP_BENCH_CGROUP:-walpressure_bench}
	if [ -n "${WP_BENCH_RESULTS:-}" ]; then
		WB_RESULTS=$WP_BENCH_RESULTS
	elif [ "$WB_QUICK" = 1 ]; then
		WB_RESULTS=$WB_TMP/walpressure-bench-quick
	else
		WB_RESULTS=$WB_TOP/bench/results
	fi
	WB_OUT=$WB_NAME # the results' base name (bench/overhead on 18: overhead-18)
	dir=$WB_TMP/walpressure-bench-$WB_NAME
	data=$dir/data
	WB_STAGE=$dir/results
	WB_REPORT=$WB_STAGE/report.txt
	WB_STARTED=$(date +%s)
	WB_LOAD=$(cut -d ' ' -f 1-3 /proc/loadavg)
	WB_ARGS=("$@")
	# the command line: the knobs that change what runs, then the script and its arguments
	local v knobs=""
	for v in WP_BENCH_QUICK WP_BENCH_NO_BUILD WP_BENCH_CGROUP PG_CONFIG PG_MAJORS WP_PG_CACHE; do
		[ -n "${!v:-}" ] && knobs="$knobs$v=$(printf '%q' "${!v}") "
	done
	WB_CMD="${knobs}bash bench/$WB_NAME"
	[ $# -gt 0 ] && WB_CMD="$WB_CMD$(printf ' %q' "$@")"
	# in a major's chroot, run by the same script outside (wb_chroot_run): its
	# command line, start and load, what it read of the tree and the major
	if [ -n "${WP_CHROOTED:-}" ] && [ -n "${WB_OUTER_CMD:-}" ]; then
		WB_CMD=$WB_OUTER_CMD
		WB_STARTED=$WB_OUTER_STARTED
		WB_LOAD=$WB_OUTER_LOAD
	fi
	WB_AT_EXIT=()
	trap wb_exit EXIT
	trap 'exit 130' INT TERM
}

# wb_size FULL QUICK: FULL, or QUICK in smoke mode (WP_BENCH_QUICK=1).
#   rounds=${1:-$(wb_size 3 2)}
wb_size() {
	if [ "${WB_QUICK:-0}" = 1 ]; then echo "$2"; else echo "$1"; fi
}

# wb_at_exit COMMAND: run COMMAND (a string, eval'd) when the script exits,
# the last registered first.
wb_at_exit() {
	WB_AT_EXIT+=("$*")
}

wb_exit() {
	local rc=$? i
	set +e
	for ((i = ${#WB_AT_EXIT[@]} - 1; i >= 0; i--)); do
		eval "${WB_AT_EXIT[$i]}"
	done
	[ "${WB_DROP_DATA:-0}" = 1 ] && wb_drop_data
	exit "$rc"
}

# wb_setup [build] [cap] [pkg=NAME...]: root, the Debian packages (and the
# extra ones named), the PostgreSQL of PG_CONFIG; with build, walpressure
# built from this tree and installed (unless WP_BENCH_NO_BUILD=1); with cap,
# the cap's cgroup created and delegated to postgres.
wb_setup() {
	local w extra=""
	wp_need_root
	for w in "$@"; do
		case $w in pkg=*) extra="$extra ${w#pkg=}" ;; esac
	done
	if [ -n "${WP_CHROOTED:-}" ]; then
		# shellcheck disable=SC2086
		wb_chroot_deps $extra
	else
		WP_PACKAGES="$WP_PACKAGES$extra"
		wp_install_deps
		[ -n "$WB_PG_CONFIG_GIVEN" ] && wb_use_pg_config "$WB_PG_CONFIG_GIVEN"
	fi
	WB_BUILT="not built by this bench (it does not load walpressure)"
	for w in "$@"; do
		case $w in
		build) wb_build ;;
		cap) wb_cgroup_delegate ;;
		esac
	done
}

# wb_use_pg_config PATH: run the PostgreSQL of that pg_config.
wb_use_pg_config() {
	PG_CONFIG=$1
	[ -x "$PG_CONFIG" ] || wp_die "no pg_config at $PG_CONFIG"
	PGBIN=$("$PG_CONFIG" --bindir)
	PG_MAJOR=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
	export PG_CONFIG PGBIN PG_MAJOR
}

# wb_build: walpressure built from this tree and installed into PG_CONFIG's
# PostgreSQL, unless WP_BENCH_NO_BUILD=1; $WB_BUILT says which, for the
# provenance.
wb_build() {
	if [ -n "${WP_BENCH_NO_BUILD:-}" ]; then
		WB_BUILT="not built by this run (WP_BENCH_NO_BUILD=1): the build installed before it"
	else
		wp_build_install "$WB_TOP"
		WB_BUILT="built from this tree and installed by this run"
	fi
}

# wb_major: in a script that takes PG_MAJORS (after wb_setup, before
# wb_build), PostgreSQL ${PG_MAJORS%% *} instead of PG_CONFIG's, got by
# test/pg-major.  A major that lives in a chroot (17, 19: test/pg-chroot)
# runs this bench there (wb_chroot_run), and the script ends with it.
wb_major() {
	local m
	[ -n "${PG_MAJORS:-}" ] || return 0
	[ -z "${WP_CHROOTED:-}" ] || return 0 # inside: wb_setup took the chroot's
	wp_majors
	m=${PG_MAJORS%% *}
	wp_get_major "$m"
	if [ -n "$WP_CHROOT" ]; then
		wb_chroot_run "$m"
		exit 0
	fi
	wp_use_major "$m"
}

# wb_chroot_run MAJOR: this bench, with its arguments, run again inside the
# chroot of MAJOR ($WP_CHROOT, from wp_get_major) on a copy of the tree in
# the chroot's /tmp, as test/run's run_chroot runs the suites: /proc, /sys
# (the cgroup hierarchy) and /dev mounted while it runs, the packages it
# needs from the chroot's own apt (wb_chroot_deps), walpressure built and
# installed there; its results copied out to $WB_RESULTS.  Its provenance
# takes from this side what the chroot has not: the command line, the time
# the run began and the load then, the git commit of the tree copied, the
# device under the chroot's /tmp (where its cluster is), where the major
# came from.  (WB_TRACE=1: the run inside traced, bash -x.)
wb_chroot_run() {
	local m=$1 root=$WP_CHROOT inner k pass=()
	inner=$(mktemp -d "$root/tmp/walpressure-bench-src.XXXXXX")
	chmod 755 "$inner"
	wb_at_exit "rm -rf '$inner'"
	cp -r "$WB_TOP/Makefile" "$WB_TOP/walpressure.control" "$WB_TOP/README.md" "$WB_TOP/src" \
		"$WB_TOP/sql" "$WB_TOP/test" "$WB_TOP/bench" "$inner/"
	rm -rf "$inner/bench/results"
	for k in WP_BENCH_QUICK WP_BENCH_NO_BUILD WP_BENCH_CGROUP; do
		[ -z "${!k:-}" ] || pass+=("$k=${!k}")
	done
	wp_chroot_mount "$root"
	wb_at_exit "wp_chroot_umount '$root'"
	echo "== bench/$WB_NAME on PostgreSQL $m, in the chroot $root"
	chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
		WP_CHROOTED=1 PG_MAJORS="$m" "${pass[@]}" WP_BENCH_RESULTS="${inner#"$root"}/results" \
		WB_OUTER_CMD="$WB_CMD" WB_OUTER_STARTED="$WB_STARTED" WB_OUTER_LOAD="$WB_LOAD" \
		WB_OUTER_GIT="$(wb_git_line)" WB_OUTER_WAL="$(wb_wal_device "$root/tmp")" \
		WB_OUTER_PG_FROM="the chroot $root (test/pg-chroot): $(head -n 1 "$root/.complete")" \
		bash ${WB_TRACE:+-x} "${inner#"$root"}/bench/$WB_NAME" "${WB_ARGS[@]}" ||
		wp_die "bench/$WB_NAME failed in the chroot of PostgreSQL $m"
	install -d "$WB_RESULTS"
	cp -r "$inner/results/." "$WB_RESULTS/"
	echo "copied out of the chroot to $WB_RESULTS: $(cd "$inner/results" && find . -type f | sed 's,^\./,,' | sort | paste -sd ' ' -)"
}

# wb_chroot_deps [PACKAGE...]: inside a major's chroot, the packages named
# that it lacks, from the chroot's own apt (its own sources, never the
# machine's); then its one PostgreSQL, PG_MAJORS's.
wb_chroot_deps() {
	local p missing=""
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		echo "== installing in the chroot:$missing"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq || wp_die "apt-get update failed in the chroot"
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
			wp_die "apt-get install$missing failed in the chroot"
	fi
	id postgres >/dev/null 2>&1 || wp_die "no postgres OS user in the chroot"
	wp_use_major "${PG_MAJORS%% *}"
}

# sourced with arguments (the script's first line): set up the bench at once
if [ $# -ge 2 ]; then
	wb_init "$@"
fi
