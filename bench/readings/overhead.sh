# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/overhead sets before it calls this (scale, seconds, ...)
# bench/readings/overhead.sh: how bench/overhead reads its figures (sourced
# by it, which declares its pairs and callgrind runs and runs them): the
# text results with their reading (overhead_text), from pairs.csv,
# sampler.csv, instructions.csv, pacer.csv and pacer_instructions.csv.
# Every statistic is bench/lib/stats.awk's.

# overhead_text: the text results, on stdout.
overhead_text() {
	wb_header "bench/overhead: cost of preloading walpressure, per committed transaction"
	echo
	echo "## 1. Server CPU time per transaction (pgbench)"
	echo "# pgbench -b simple-update, scale $scale, $clients clients, synchronous_commit = off, unthrottled;"
	echo "# ${seconds} s per run after a $warm s warm-up, each run on a fresh copy of the same data;"
	echo "# pairs interleaved A/B, B/A, ... (A = with walpressure)."
	echo "# CPU time of the server's cgroup ($cg_controller): every server process, pgbench excluded."
	echo "# load: the machine's 1-minute load average as the pair began (other work on it included)."
	echo
	printf '%-5s %-6s %12s %12s %9s %10s %10s %6s\n' pair order "with ns" "without ns" ratio "with txns" "w/o txns" load
	wb_awk 'row() { printf "%-5s %-6s %12s %12s %9s %10s %10s %6s\n", col("pair"), col("order"), col("with_ns"), col("without_ns"),
		col("ratio"), col("with_txns"), col("without_txns"), col("load1") }' "$(wb_csvf pairs)"
	echo
	wb_awk -v cpus="$cpus" 'row() { l[++n] = num("load1") }
		END { printf "load average (1 min) as the pairs began: median %.2f, %.2f .. %.2f, on %d CPUs\n", median(l, n), minv(l, n), maxv(l, n), cpus }' \
		"$(wb_csvf pairs)"
	wb_awk 'row() { r[++n] = num("ratio"); a[n] = num("with_ns"); b[n] = num("without_ns") }
		END {
			m = median(r, n); lo = minv(r, n); hi = maxv(r, n); paired(a, b, R)
			printf "median ratio with/without: %.4f (overhead %+.2f %%); pair ratios range %.4f .. %.4f\n", m, (m - 1) * 100, lo, hi
			printf "paired ratio with/without (geometric mean, 95%% interval): %s: %s\n", iv(R, "gm", "%.4f"), paired_verdict(R)
			v = paired_verdict(R)
			if (v == "1 inside the interval" || R["lo"] == "")
				printf "reading: the paired interval holds 1 (or there is none): on this machine the CPU-time method\ncannot tell the library from run-to-run noise; part 2 resolves its cost.\n"
			else
				printf "reading: the paired interval is %s: the library changes the server'"'"'s CPU time per transaction by\n%+.1f%% to %+.1f%%.\n", v, (R["lo"] - 1) * 100, (R["hi"] - 1) * 100
		}' "$(wb_csvf pairs)"
	wb_awk 'row() { t = num("sampler_ticks"); s = num("load_seconds"); hz = num("clock_ticks_per_s"); i = col("sample_interval") }
		END {
			if (t > 0) printf "sampler process: %.3f ms of CPU per second of load (sample_interval %s)\n", t * 1000 / hz / s, i
			else printf "sampler process: less than one clock tick (%d ms) of CPU in %d s of load (sample_interval %s)\n", 1000 / hz, s, i
		}' "$(wb_csvf sampler)"
	echo
	echo "## 2. Instructions per transaction (callgrind)"
	echo "# one single-user backend replays the same $short and $long simple-update transactions"
	echo "# (synchronous_commit = off); per transaction = difference / $((long - short))."
	echo "# whole: a transaction's instructions without the library; inner: those inside statement"
	echo "# execution and commits (PortalRun, CommitTransactionCommand), where walpressure's hooks run;"
	echo "# delta: inner with it - inner without it; overhead: delta / whole."
	echo "# with: a session as any; exact: walpressure.exact_leaders = on, as a sweep's clients"
	echo
	printf '%-5s %9s %11s %11s %7s %9s %11s %7s %9s\n' run whole "inner with" "inner w/o" delta overhead "inner exact" delta overhead
	wb_awk 'row() { printf "%-5s %9s %11s %11s %+7d %+8.3f%% %11s %+7d %+8.3f%%\n", col("run"), col("whole"), col("inner_with"),
		col("inner_without"), num("delta"), num("overhead_pct"), col("inner_exact"), num("exact_delta"), num("exact_pct") }' "$(wb_csvf instructions)"
	echo
	wb_awk 'row() { d[++n] = num("delta"); p[n] = num("overhead_pct"); ed[n] = num("exact_delta"); ep[n] = num("exact_pct") }
		END {
			printf "median, a session as any: %+d instructions per transaction (%+.3f %%): %s the 0.1 %% goal\n",
				median(d, n), median(p, n), median(p, n) <= 0.1 ? "within" : "above"
			printf "median, exact_leaders on: %+d instructions per transaction (%+.3f %%): %s the 0.1 %% goal\n",
				median(ed, n), median(ep, n), median(ep, n) <= 0.1 ? "within" : "above"
		}' "$(wb_csvf instructions)"
	echo
	echo "## 3. The paced disk's library loaded, no cap (pgbench)"
	echo "# as 1, both servers with walpressure preloaded: P, started with walpressure_pacer.so in LD_PRELOAD"
	echo "# (attached, no cap: every call passes through it), against B, started without it; pairs"
	echo "# interleaved P/B, B/P, ...  tps: pgbench's; ns: server CPU time per transaction."
	echo
	printf '%-5s %-6s %10s %10s %9s %12s %12s %9s %6s\n' pair order "P tps" "B tps" ratio "P ns" "B ns" ratio load
	wb_awk 'row() { printf "%-5s %-6s %10.1f %10.1f %9.4f %12s %12s %9.4f %6s\n", col("pair"), col("order"), num("pacer_tps"), num("base_tps"),
		num("pacer_tps") / num("base_tps"), col("pacer_ns"), col("base_ns"), num("pacer_ns") / num("base_ns"), col("load1") }' "$(wb_csvf pacer)"
	echo
	wb_awk 'row() { k = col("pair"); a[k] = num("pacer_tps"); b[k] = num("base_tps"); c[k] = num("pacer_ns"); d[k] = num("base_ns") }
		END {
			paired(a, b, T); paired(c, d, N)
			printf "paired ratio of tps with/without the pacer (geometric mean, 95%% interval): %s: %s\n", iv(T, "gm", "%.4f"), paired_verdict(T)
			printf "paired ratio of CPU time per transaction with/without it: %s: %s\n", iv(N, "gm", "%.4f"), paired_verdict(N)
			if (T["lo"] == "")
				printf "reading: with one pair there is no interval: whether the pacer costs less than 1%% of tps is not shown.\n"
			else if (T["lo"] >= 0.99)
				printf "reading: the bound holds: loaded and uncapped, the pacer costs less than 1%% of tps (the whole 95%% interval,\n%.4f-%.4f, lies above 0.99).\n", T["lo"], T["hi"]
			else if (T["hi"] < 0.99)
				printf "reading: the bound does NOT hold: loaded and uncapped, the pacer costs more than 1%% of tps (the whole 95%%\ninterval, %.4f-%.4f, lies below 0.99).\n", T["lo"], T["hi"]
			else
				printf "reading: the bound is not shown: the 95%% interval, %.4f-%.4f, reaches below 0.99 (%d pairs on this\nmachine cannot tell a cost under 1%% from the noise; more pairs would).\n", T["lo"], T["hi"], T["n"]
		}' "$(wb_csvf pacer)"
	echo
	echo "## 4. The pacer's instructions per transaction (callgrind)"
	echo "# as 2, over the whole backend, walpressure preloaded in both, synchronous_commit = on (every"
	echo "# commit writes and flushes the WAL through the library); base: without the pacer; pacer: with"
	echo "# walpressure_pacer.so in LD_PRELOAD, attached at start, no cap; delta: pacer - base."
	echo
	printf '%-5s %11s %11s %7s %9s\n' run base pacer delta share
	wb_awk 'row() { printf "%-5s %11s %11s %+7d %+8.4f%%\n", col("run"), col("whole_base"), col("whole_pacer"), num("delta"), num("pct") }' \
		"$(wb_csvf pacer_instructions)"
	echo
	wb_awk 'row() { d[++n] = num("delta"); p[n] = num("pct"); b[n] = num("whole_base") }
		END {
			printf "median: %+d instructions per transaction (%+.4f %% of a transaction'"'"'s %d), over %d runs (%+d .. %+d)\n",
				median(d, n), median(p, n), median(b, n), n, minv(d, n), maxv(d, n)
			if (maxv(p, n) < 1)
				printf "reading: the bound holds in instructions: in every run the pacer, loaded and uncapped, adds less than 1%% to a\ntransaction'"'"'s CPU instructions (at most %+.4f %%); uncapped its path is loads and tests, no lock, sleep or\nsystem call of its own, so this share bounds what it can take from tps where CPU is the bound (part 3).\n", maxv(p, n)
			else
				printf "reading: the bound does NOT hold in instructions: the pacer, loaded and uncapped, adds up to %+.4f %% to a\ntransaction'"'"'s CPU instructions.\n", maxv(p, n)
		}' "$(wb_csvf pacer_instructions)"
}
