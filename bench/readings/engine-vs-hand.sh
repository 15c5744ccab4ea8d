# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/engine-vs-hand sets before it calls this (scale, cap, ...)
# bench/readings/engine-vs-hand.sh: how bench/engine-vs-hand reads its
# figures (sourced by it, which declares its measurers and runs them): the
# text results with their reading (engine_vs_hand_text).  Every statistic
# is bench/lib/stats.awk's (paired, paired_margin).

# engine_vs_hand_text: the text results, on stdout.
engine_vs_hand_text() {
	wb_header "bench/engine-vs-hand: the pgbench engine against pgbench by hand, one client, synchronous_commit off"
	echo "# scale $scale prewarmed, simple-update, 1 client, pg_wal capped at $cap write IOPS, $warm s warm-up + $seconds s;"
	echo "# each round: plain pgbench, pgbench --log (on /dev/shm), pgbench with track_wal_io_timing, the engine."
	echo
	echo "tps per round (round plain log timing engine):"
	wb_awk 'row() { t[col("round"), col("measurer")] = col("tps"); if (num("round") > n) n = num("round") }
		END { for (r = 1; r <= n; r++) printf "  %d %s %s %s %s\n", r, t[r, "plain"], t[r, "log"], t[r, "timing"], t[r, "engine"] }' \
		"$(wb_csvf runs)"
	echo
	printf '%-22s %24s %8s %18s\n' "against plain pgbench" "per round: geo. mean (95%)" median "range over rounds"
	wb_awk 'row() { t[col("measurer"), col("round")] = num("tps") }
		END {
			split("log timing engine", ms, " ")
			for (i = 1; i <= 3; i++) {
				delete a; delete b
				for (k in t) { split(k, x, SUBSEP); if (x[1] == ms[i]) a[x[2]] = t[k]; if (x[1] == "plain") b[x[2]] = t[k] }
				paired(a, b, R)
				printf "%-22s %24s %7.3fx %8.3f-%.3f\n", ms[i], iv(R, "gm", "%.3f"), R["median"], R["min"], R["max"]
			}
		}' "$(wb_csvf runs)"
	echo
	echo "reading (computed from the figures above):"
	wb_awk 'row() { t[col("measurer"), col("round")] = num("tps"); if (col("measurer") == "plain") p[++n] = num("tps") }
		END {
			for (k in t) { split(k, x, SUBSEP); if (x[1] == "engine") a[x[2]] = t[k]; if (x[1] == "plain") b[x[2]] = t[k] }
			paired(a, b, R)
			lo = minv(p, n); hi = maxv(p, n)
			printf "- the engine ran at %s of plain pgbench (paired per round, geometric mean and 95%% interval; median %.2fx,\n", iv(R, "gm", "%.3fx"), R["median"]
			printf "  %.2fx to %.2fx over the rounds), while plain pgbench itself ranged from %.0f to %.0f tps (%.0f%% of its lowest)\n",
				R["min"], R["max"], lo, hi, 100 * (hi / lo - 1)
			# 5% each way as _decide reads a margin (1 / 1.05 to 1.05)
			m = paired_margin(R, 5)
			if (m == "within") v = "the whole interval is within 5%: the engine costs no throughput here beyond 5%"
			else if (m == "beyond") v = "the whole interval is beyond 5%: the engine differs from pgbench by hand by more than 5% here"
			else if (m == "across") v = "the interval reaches beyond 5%: undecided at 5% with these rounds"
			else v = "one round gives no interval: undecided"
			printf "- %s\n", v
		}' "$(wb_csvf runs)"
}
