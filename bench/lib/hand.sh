# shellcheck shell=bash
# bench/lib/hand.sh: pgbench by hand as a run_sweep step, in interleaved
# rounds; run_sweep itself; the engine's workload scripts.  Sourced by
# bench/lib/bench.sh.

WB_PGBENCH_WRAP=() # a command pgbench runs under, as postgres (cgexec -g memory:/group)

# wb_pgbench ARGS: pgbench as postgres on the bench cluster (its database
# last); PGOPTIONS passes through.
wb_pgbench() {
	wp_as_postgres "${WB_PGBENCH_WRAP[@]}" pgbench -h "$dir" -p "$port" "$@" postgres
}

# wb_pgbench_figures FILE: pgbench's own figures from its output FILE:
# WB_TPS (tps without the initial connection time), WB_TXNS (transactions
# processed), WB_LAT_MS (latency average); empty when it printed none.
wb_pgbench_figures() {
	WB_TPS=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$1")
	WB_TXNS=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$1")
	WB_LAT_MS=$(sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p' "$1")
}

# wb_hand [-c CAP] [-d DISK] [-F FLOOR_MS] [-w WARMUP] [-T WINDOW] [-o PGOPTIONS]
#         [-b BEFORE] [-a AFTER] [-m "ARGS"] [-N] [--] PGBENCH_ARGS...
# pgbench by hand as run_sweep runs a step, on the same cluster: a
# CHECKPOINT without the cap (-N: none), the cap of CAP write IOPS (none by
# default) on DISK with FLOOR_MS (wb_cap: 'paced' or 'throttle'; without
# -d the extension's default), a warm-up run of WARMUP s (default 2; 0: none), BEFORE (a
# command, eval'd: reset counters, read a WAL position), the measured run of
# WINDOW s (default 10) with ARGS added, AFTER (eval'd), the cap cleared.
# Both runs get PGOPTIONS and PGBENCH_ARGS (-n -b simple-update -c 10 -j 2 ...).
# Sets WB_TPS, WB_TXNS, WB_LAT_MS (wb_pgbench_figures; WB_TPS empty when
# pgbench failed, its output on stderr) and leaves the output in
# $dir/hand.out.
wb_hand() {
	local cap=0 disk="" floor="" warm=2 win=10 opts="" before="" after="" more="" ckpt=1 o
	local OPTIND=1 OPTARG
	while getopts c:d:F:w:T:o:b:a:m:N o; do
		case $o in
		c) cap=${OPTARG:-0} ;;
		d) disk=$OPTARG ;;
		F) floor=$OPTARG ;;
		w) warm=$OPTARG ;;
		T) win=$OPTARG ;;
		o) opts=$OPTARG ;;
		b) before=$OPTARG ;;
		a) after=$OPTARG ;;
		m) more=$OPTARG ;;
		N) ckpt=0 ;;
		*) wp_die "wb_hand: unknown option" ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ "$ckpt" = 1 ]; then
		[ "$cap" -gt 0 ] && wb_uncap
		q -c CHECKPOINT
	fi
	[ "$cap" -gt 0 ] && wb_cap "$cap" "$disk" "$floor"
	if [ "$warm" != 0 ]; then
		PGOPTIONS="$opts" wb_pgbench -T "$warm" "$@" >/dev/null 2>&1 || true
	fi
	[ -n "$before" ] && eval "$before"
	# shellcheck disable=SC2086 # ARGS are words
	PGOPTIONS="$opts" wb_pgbench -T "$win" "$@" $more >"$dir/hand.out" 2>&1 || true
	[ -n "$after" ] && eval "$after"
	[ "$cap" -gt 0 ] && wb_uncap
	wb_pgbench_figures "$dir/hand.out"
	[ -n "$WB_TPS" ] || { echo "pgbench by hand failed:" >&2; cat "$dir/hand.out" >&2; }
	return 0
}

# wb_rounds [-r] ROUNDS "V1 V2 ..." COMMAND [ARGS]: COMMAND ARGS ROUND VALUE for
# every round 1..ROUNDS and every value, the values in their order within a
# round (-r: the order rotates by one from round to round).  Interleaved
# rounds: each round measures every value minutes apart from the others, so
# the drift of a shared machine falls on every value alike.
wb_rounds() {
	local rot=0 r k i n vs
	[ "$1" = -r ] && { rot=1; shift; }
	n=$1
	read -ra vs <<<"$2"
	shift 2
	for r in $(seq 1 "$n"); do
		for k in "${!vs[@]}"; do
			i=$k
			[ "$rot" = 1 ] && i=$(((r - 1 + k) % ${#vs[@]}))
			"$@" "$r" "${vs[$i]}"
		done
	done
}

# wb_sweep ARGS: SELECT walpressure.run_sweep(ARGS) on the bench cluster, its
# NOTICEs on stderr and in $dir/sweeps.log; prints the sweep id (the script
# dies when there is none) and keeps the call, one line, in the staged
# table calls.csv (sweep_id, call).
wb_sweep() {
	local call id
	call=$(printf 'SELECT walpressure.run_sweep(%s)' "$1" | tr -s ' \t\n' ' ')
	id=$(q -c "$call" 2>&1 | tee -a "$dir/sweeps.log" /dev/stderr | tail -n 1)
	case $id in '' | *[!0-9]*) wp_die "run_sweep did not return a sweep id: $id" ;; esac
	[ -f "$(wb_csvf calls)" ] || wb_csv calls sweep_id call
	wb_csv_add calls "$id" "$call"
	echo "$id"
}

# wb_sweep_call ID: the call that made sweep ID, as wb_sweep kept it (the
# staged table calls.csv, published with the others, so that --report
# names it too); wb_sweep_calls: every call, in the order they ran.
wb_sweep_call() {
	wb_awk -v id="$1" 'row() && col("sweep_id") == id { print col("call") }' "$(wb_csvf calls)"
}

wb_sweep_calls() {
	wb_awk 'row() { print col("call") }' "$(wb_csvf calls)"
}

# wb_script insert-only | batch-insert N | custom SQL: the pgbench script of
# one of the engine's workloads, the statements and random values of
# src/pgbench_engine.c's wp_script (one pgbench_history row per INSERT;
# batch-insert wraps N in BEGIN and END), written in $dir for postgres to
# read; prints its path.
wb_script() {
	local f i row='\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);'
	case $1 in
	insert-only)
		f=$dir/insert-only.sql
		printf '%s\n' "$row" >"$f"
		;;
	batch-insert)
		f=$dir/batch-insert-$2.sql
		{
			echo 'BEGIN;'
			for ((i = 0; i < $2; i++)); do printf '%s\n' "$row"; done
			echo 'END;'
		} >"$f"
		;;
	custom)
		f=$dir/custom-$(printf '%s' "$2" | md5sum | cut -c 1-8).sql
		printf '%s\n' "$2" >"$f"
		;;
	*) wp_die "wb_script: no workload $1" ;;
	esac
	chmod 644 "$f"
	echo "$f"
}
