# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/statistics sets before it calls this (aa, rounds, ...)
# bench/readings/statistics.sh: how bench/statistics reads its figures
# (sourced by it, which declares its A/A sweeps, coverage sets and seed
# sweep and runs them): the text results with their reading
# (statistics_text).  Every statistic is bench/lib/stats.awk's or the
# extension's (effects(), _decide, best).

# statistics_text: the text results, on stdout.
statistics_text() {
	wb_header "walpressure's decision rule on this machine: A/A sweeps, coverage, repeats => 'auto'"
	echo "# cluster: shared_buffers 3GB, max_wal_size 100GB, checkpoint_timeout 15min; pgbench's tables at"
	echo "# scale $scale prewarmed; $clients clients, simple-update, the default engine (pgbench); each step a"
	echo "# CHECKPOINT, then the warm-up and the window.  The new rule: walpressure.effects / _decide /"
	echo "# _rounds_decided with walpressure.equivalence_margin $margin%.  The old rule: 0.6.0's, recomputed in"
	echo "# SQL by this script (bench.old_results, bench.old_auto)."
	echo
	echo "## 1. A/A: $aa sweeps of two values that cannot differ"
	echo "# each: $(wb_sweep_calls | head -n 1 | sed "s/'A\/A 1'/'A\/A i'/")"
	echo "# (commit_delay 0: commit_siblings changes nothing); $warm s warm-up + $seconds s a step, 3 rounds."
	echo "# The verdict on 6 against 5, per sweep (aa.csv); 95% intervals of the shares: Clopper-Pearson."
	echo
	printf '%-34s | %-22s %-22s %-22s | %-22s\n' "verdict on value 6 against 5" "new rule, tps" "new, latency p50" "new, latency p99" "old rule, tps"
	wb_awk '
		row() {
			n++; t[col("verdict")]++; p5[col("p50_verdict")]++; p9[col("p99_verdict")]++; o[col("old_verdict")]++
		}
		function cell(c, x,    B) { binom_ci(x, n, B); return sprintf("%3d (%4.1f%%, %4.1f-%4.1f)", x, 100 * x / n, 100 * B["lo"], 100 * B["hi"]) }
		END {
			printf "%-34s | %-22s %-22s %-22s | %-22s\n", "faster (p50, p99: lower)", cell(0, t["faster"]), cell(0, p5["lower"]), cell(0, p9["lower"]), cell(0, o["faster"])
			printf "%-34s | %-22s %-22s %-22s | %-22s\n", "slower (p50, p99: higher)", cell(0, t["slower"]), cell(0, p5["higher"]), cell(0, p9["higher"]), cell(0, o["slower"])
			printf "%-34s | %-22s %-22s %-22s | %-22s\n", "wrong: faster or slower", cell(0, t["faster"] + t["slower"]), cell(0, p5["lower"] + p5["higher"]),
				cell(0, p9["lower"] + p9["higher"]), cell(0, o["faster"] + o["slower"])
			printf "%-34s | %-22s %-22s %-22s | %-22s\n", "equivalent (within the margin)", cell(0, t["equivalent"]), cell(0, p5["equivalent"]), cell(0, p9["equivalent"]), "-"
			printf "%-34s | %-22s %-22s %-22s | %-22s\n", "undecided / within noise", cell(0, t["undecided"]), cell(0, p5["undecided"]), cell(0, p9["undecided"]), cell(0, o["within noise"])
		}' "$(wb_csvf aa)"
	echo "(count (share, its 95% interval in %) of the $aa sweeps)"
	echo
	echo "every sweep's ratio and 95% interval, new rule (paired) | old rule (extremes of the two intervals):"
	wb_awk 'row() {
			printf "  %s: %.3f (%.3f-%.3f) %-10s | %.3f (%.3f-%s) %s\n", col("sweep_id"), num("ratio"), num("ratio_ci_low"), num("ratio_ci_high"),
				col("verdict"), num("old_ratio"), num("old_lo"), (col("old_hi") == "" ? "unbounded" : sprintf("%.3f", num("old_hi"))), col("old_verdict")
		}' "$(wb_csvf aa)" | paste -d ' ' - - | sed 's/^  /  /'
	echo
	echo "reading (computed from the figures above):"
	wb_awk -v margin="$margin" '
		FILENAME ~ /aa.csv$/ && row() {
			n++; v = col("verdict"); o = col("old_verdict")
			if (v == "faster" || v == "slower") wrong++
			if (v == "equivalent") eq++
			if (v == "undecided") und++
			if (o == "faster" || o == "slower") owrong++
			if (col("p99_verdict") == "lower" || col("p99_verdict") == "higher") w99++
			if (col("auto_new") != "") { stopn++; if (col("auto_new") ~ /^equivalent/) stopeq++ }
			if (col("auto_old") != "") { stopo++; if (col("auto_old") ~ /^narrow/) stopnar++ }
			nw[n] = num("ratio_ci_high") / num("ratio_ci_low")
			if (col("old_hi") != "" && num("old_lo") > 0) ow[++nob] = num("old_hi") / num("old_lo")
			next
		}
		FILENAME ~ /rounds.csv$/ && row() { k++; a[k] = num("tps_6"); b[k] = num("tps_5") }
		END {
			binom_ci(wrong, n, B)
			printf "- the new rule called value 6 faster or slower than 5 in %d of %d A/A sweeps: %.1f%% (95%% interval %.1f-%.1f%%); the goal is at most 5%%: %s\n",
				wrong, n, 100 * wrong / n, 100 * B["lo"], 100 * B["hi"],
				(B["hi"] <= 0.05) ? "met, the whole interval at or below 5%" : (wrong / n <= 0.05) ? "the share is at or below 5%, but " n " sweeps cannot show it below 5% (the interval reaches " sprintf("%.1f%%", 100 * B["hi"]) ")" : (B["lo"] > 0.05) ? "NOT met: the whole interval is above 5%" : "NOT met by the share, though the interval reaches below 5%"
			binom_ci(eq, n, B)
			printf "- equivalent (the whole interval within +-%s%%): %d of %d (%.1f%%, %.1f-%.1f%%); undecided: %d\n", margin, eq, n, 100 * eq / n, 100 * B["lo"], 100 * B["hi"], und
			binom_ci(owrong, n, B)
			printf "- the old rule (non-overlap of the two values'"'"' own intervals) on the same sweeps: faster or slower in %d of %d (%.1f%%, %.1f-%.1f%%)\n",
				owrong, n, 100 * owrong / n, 100 * B["lo"], 100 * B["hi"]
			printf "- the intervals of the ratio, geometric mean of their widths (high over low): new %.3f, old %.3f%s\n",
				gmean(nw, n), (nob ? gmean(ow, nob) : 0), (nob < n ? sprintf(" (%d old intervals without an upper bound left out)", n - nob) : "")
			binom_ci(w99, n, B)
			printf "- latency p99 called lower or higher: %d of %d (%.1f%%, %.1f-%.1f%%)\n", w99, n, 100 * w99 / n, 100 * B["lo"], 100 * B["hi"]
			printf "- repeats => '"'"'auto'"'"' after these 3 rounds: the new rule stops in %d of %d sweeps (%d of them equivalent), the old in %d (%d of them narrow); the rest would run another round\n",
				stopn, n, stopeq, stopo, stopnar
			paired(a, b, R)
			out = paired_verdict(R) ~ /^(above|below) 1$/
			printf "- all %d rounds pooled, 6 (always second in its round) against 5: %s, %s: %s\n", R["n"], iv(R, "gm", "%.4f"),
				out ? "1 outside the interval" : "1 inside the interval",
				out ? "the second step of a round differs from the first (an order effect the rounds cannot cancel)" : "no order effect shows"
		}' "$(wb_csvf aa)" "$(wb_csvf rounds)"
	echo
	echo "## 2. Coverage: sets of n rounds drawn from the A/A rounds"
	echo "# the pool: rounds.csv, each round's tps of 6 and 5; 6's divided by the pool's geometric-mean ratio (the"
	echo "# true ratio then 1), times 1.05 for x1.05; $sets sets a case and n, drawn with replacement by md5 of"
	echo "# ($seed, n, set, round), the same rounds in every case; the rounds come from different sweeps, so"
	echo "# their levels differ as the sweeps' did.  drift: both values of the set's k-th round times"
	echo "# 1, 2, 1.5, 0.8, 1.9, 1.1, 1.6, 1 (k = 1..8, then again).  new: walpressure._decide, paired; old:"
	echo "# 0.6.0's interval (each value's t interval, low over high to high over low; unbounded when the"
	echo "# baseline's reaches 0) and its verdict (no overlap).  width: the median of high over low."
	echo
	printf '%-13s %3s | %8s %8s | %7s %7s %5s | %-31s | %-15s\n' "case" "n" "covered:" "old" "width:" "old" "unbd" "new: faster slower equiv undec" "old: fast slow"
	wb_awk 'row() {
			s = num("sets")
			printf "%-13s %3d | %7.1f%% %7.1f%% | %7.3f %7s %5d | %6.1f%% %6.1f%% %5.1f%% %5.1f%% | %6.1f%% %5.1f%%\n", col("case"), num("n"),
				100 * num("new_covered") / s, 100 * num("old_covered") / s, num("new_width"),
				(col("old_width") == "Infinity" ? "inf" : sprintf("%.3f", num("old_width"))), num("old_unbounded"),
				100 * num("new_faster") / s, 100 * num("new_slower") / s, 100 * num("new_equivalent") / s, 100 * num("new_undecided") / s,
				100 * num("old_faster") / s, 100 * num("old_slower") / s
		}' "$(wb_csvf coverage)"
	echo "(unbd: old intervals with no upper bound; shares of the sets)"
	echo
	echo "reading (computed from the figures above):"
	wb_awk '
		FILENAME ~ /rounds.csv$/ && row() { k++; l[k] = log(num("ratio")) }
		FILENAME ~ /coverage.csv$/ && row() {
			c = col("case"); nn = num("n"); s = num("sets")
			cov[c, nn] = num("new_covered") / s; ocov[c, nn] = num("old_covered") / s; ncov[c, nn] = num("new_covered"); nsets[c, nn] = s
			wd[c, nn] = num("new_width"); owd[c, nn] = col("old_width")
			fs[c, nn] = (num("new_faster") + num("new_slower")) / s; ofs[c, nn] = (num("old_faster") + num("old_slower")) / s
			fa[c, nn] = num("new_faster") / s; ofa[c, nn] = num("old_faster") / s
			if (!(c in seen)) { seen[c] = 1; cs[++ncs] = c }
			ns[nn] = 1
		}
		END {
			printf "- the pool: %d rounds, the log ratios'"'"' spread (stddev) %.4f, i.e. a round'"'"'s ratio is typically within x%.3f of the mean\n", k, stddev(l, k), exp(stddev(l, k))
			for (i = 1; i <= ncs; i++) {
				c = cs[i]; lo = 1; hi = 0; olo = 1; ohi = 0; below = ""
				for (nn in ns) {
					if (cov[c, nn] < lo) lo = cov[c, nn]; if (cov[c, nn] > hi) hi = cov[c, nn]; if (ocov[c, nn] < olo) olo = ocov[c, nn]; if (ocov[c, nn] > ohi) ohi = ocov[c, nn]
					binom_ci(ncov[c, nn], nsets[c, nn], B)
					if (B["hi"] < 0.95) below = below (below == "" ? "" : ", ") nn " (" sprintf("%.1f%%", 100 * cov[c, nn]) ")"
				}
				printf "- %s: the new interval held the true ratio in %.1f-%.1f%% of the sets (n = 2 to 10), %s; the old in %.1f-%.1f%%\n",
					c, 100 * lo, 100 * hi, (below == "") ? "at every n 95% lies inside the 95% interval of that share (Clopper-Pearson over the sets)" : "BELOW 95%, beyond the 95% interval of that share, at n = " below, 100 * olo, 100 * ohi
			}
			printf "- power at x1.05, n = 3, 5, 10: the new rule says faster in %.1f%%, %.1f%%, %.1f%% of the sets, the old in %.1f%%, %.1f%%, %.1f%%\n",
				100 * fa["x1.05", 3], 100 * fa["x1.05", 5], 100 * fa["x1.05", 10], 100 * ofa["x1.05", 3], 100 * ofa["x1.05", 5], 100 * ofa["x1.05", 10]
			printf "- with drift, x1.05, n = 5: new interval width %.3f (the same sets without drift %.3f), old %s (without drift %s); faster: new %.1f%%, old %.1f%%\n",
				wd["x1.05, drift", 5], wd["x1.05", 5], owd["x1.05, drift", 5], owd["x1.05", 5], 100 * fa["x1.05, drift", 5], 100 * ofa["x1.05, drift", 5]
			printf "- A/A false verdicts at n = 3, 5, 10: new %.1f%%, %.1f%%, %.1f%%; old %.1f%%, %.1f%%, %.1f%%\n",
				100 * fs["A/A", 3], 100 * fs["A/A", 5], 100 * fs["A/A", 10], 100 * ofs["A/A", 3], 100 * ofs["A/A", 5], 100 * ofs["A/A", 10]
		}' "$(wb_csvf rounds)" "$(wb_csvf coverage)"
	echo
	echo "## 3. repeats => 'auto' on seed 000's table"
	echo "# the sweep: $(wb_sweep_call "$sid")"
	echo "# scale $scale prewarmed, pg_wal's disk capped at $cap write IOPS, $seed_warm s warm-up + $seed_seconds s a step; then"
	echo "# copies of it holding its first k rounds (bench.prefix), on which each rule decides as 'auto' would"
	echo "# after round k (it runs 3 rounds first, then one at a time, at most 20)."
	echo
	echo "after all $rounds rounds (effects.csv): tps, and against 0 us the new paired ratio | the old interval"
	printf '%8s | %8s %6s | %-26s %-10s | %-20s %s\n' "delay us" "tps" "IOPS" "new: ratio (95%)" "verdict" "old: interval" "verdict"
	wb_awk 'row() {
			printf "%8s | %8.1f %6.0f | %-26s %-10s | %-20s %s\n", col("value"), num("tps"), num("write_iops"),
				(col("speedup_ci_low") == "" ? sprintf("%.3f", num("speedup")) : sprintf("%.3f (%.3f-%.3f)", num("speedup"), num("speedup_ci_low"), num("speedup_ci_high"))),
				col("verdict"), (col("old_lo") == "" ? "-" : sprintf("%.3f-%s", num("old_lo"), (col("old_hi") == "" ? "unbounded" : sprintf("%.3f", num("old_hi"))))), col("old_verdict")
		}' "$(wb_csvf effects)"
	echo
	echo "after round k: the fastest value (top), then per rule whether 'auto' stops and why, and its answer"
	printf '%6s | %-8s | %-11s %-7s | %-11s %-7s\n' "rounds" "top" "new rule" "answer" "old rule" "answer"
	wb_awk 'row() {
			split(col("new_stop"), a, ":"); split(col("old_stop"), b, ":")
			printf "%6s | %-8s | %-11s %-7s | %-11s %-7s\n", col("rounds"), col("top"),
				(col("new_stop") == "" ? "go on" : "stop, " a[1]), col("new_answer"),
				(col("old_stop") == "" ? "go on" : "stop, " b[1]), col("old_answer")
		}' "$(wb_csvf prefix)"
	echo
	echo "reading (computed from the figures above):"
	wb_awk -v rounds="$rounds" '
		FILENAME ~ /prefix.csv$/ && row() {
			k = num("rounds")
			if (col("new_stop") != "" && !nk) { nk = k; nans = col("new_answer"); ntext = col("new_answer_text"); nwhy = col("new_stop") }
			if (col("old_stop") != "" && !ok) { ok = k; oans = col("old_answer"); owhy = col("old_stop") }
			last_new = col("new_answer"); last_old = col("old_answer"); last_top = col("top")
			next
		}
		END {
			if (nk) printf "- repeats => '"'"'auto'"'"' with the new rule stops after %d rounds (%s), answering %s us: %s\n", nk, nwhy, nans, ntext
			else printf "- repeats => '"'"'auto'"'"' with the new rule does not stop within the %d rounds recorded; after them best answers %s us\n", rounds, last_new
			if (ok) printf "- with the old rule it stops after %d rounds (%s), answering %s us\n", ok, owhy, oans
			else printf "- with the old rule it does not stop within the %d rounds recorded; after them it answers %s us\n", rounds, last_old
			if (nk && ok) printf "- rounds: new %d, old %d (%s)\n", nk, ok, (nk < ok) ? "the new rule stops sooner" : (nk > ok) ? "the old rule stops sooner" : "the same"
			printf "- the fastest value after all %d rounds: %s us; new answer %s us, old answer %s us\n", rounds, last_top, last_new, last_old
		}' "$(wb_csvf prefix)"
}
