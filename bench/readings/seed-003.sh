# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/seed-003 sets before it calls these (id, cap, ...)
# bench/readings/seed-003.sh: how bench/seed-003 reads its figures (sourced
# by it, which declares its sweep and runs by hand and runs them): each
# configuration's figures from the staged CSV tables (seed003_gains) and the
# text results with their reading (seed003_text).  Every statistic is
# bench/lib/stats.awk's or the extension's (results, best).

# seed003_gains: gains.csv, from steps.csv, results.csv and hand.csv.
seed003_gains() {
	# the figures of each configuration, one CSV row each: the article's gain,
	# run_sweep's (results: tps, speedup and its interval as results computes
	# them; steps: the paired gain per repeat), by hand's (the paired gain per round)
	wb_awk -v id="$id" '
		FILENAME ~ /steps.csv$/ && row() { steps_row("tps"); next }
		FILENAME ~ /results.csv$/ && row() && num("value_pos") > 0 {
			p = num("value_pos"); rt[p] = col("tps"); rs[p] = col("speedup"); rl[p] = col("speedup_ci_low"); rh[p] = col("speedup_ci_high"); rv[p] = col("verdict")
			cf[p] = col("commits_per_fsync"); dl[p] = col("data_loss"); next }
		FILENAME ~ /hand.csv$/ && row() { h[col("config"), col("round")] = num("tps") }
		END {
			split("on fsync_off sync_commit_off", cn, " "); split("fsync on, sync on|fsync off|synchronous_commit off", lab, "|")
			split("1.00 2.50 2.28", art, " ")
			print "pos,config,label,article_gain,sweep_tps,sweep_speedup,sweep_speedup_lo,sweep_speedup_hi,sweep_verdict,sweep_gain_gm,sweep_gain_lo,sweep_gain_hi,commits_per_fsync,data_loss,hand_tps_median,hand_gain_gm,hand_gain_lo,hand_gain_hi,hand_rounds"
			for (p = 1; p <= 3; p++) {
				sweep_paired("tps", id, p, 1, S)
				delete a; delete b; delete t; n = 0
				for (k in h) { split(k, x, SUBSEP); if (x[1] == cn[p]) { a[x[2]] = h[k]; t[++n] = h[k] } if (x[1] == "on") b[x[2]] = h[k] }
				paired(a, b, H)
				printf "%d,%s,\"%s\",%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d\n", p, cn[p], lab[p], art[p], rt[p], rs[p], rl[p], rh[p], rv[p],
					S["gm"], S["lo"], S["hi"], cf[p], dl[p], median(t, n), H["gm"], H["lo"], H["hi"], H["n"]
			}
		}' "$(wb_csvf steps)" "$(wb_csvf results)" "$(wb_csvf hand)" >"$(wb_csvf gains)"
}

# seed003_text: the text results, on stdout (the sweep's call from calls.csv).
seed003_text() {
	wb_header "seed 003 (fsync off vs synchronous_commit off, pgbench 4 clients) against the article"
	echo "# the sweep: $(wb_sweep_call "$id")"
	echo "# tpcb-like, $clients clients, scale $scale prewarmed, shared_buffers 3GB, max_wal_size 8GB;"
	if [ "$cap" -gt 0 ]; then
		echo "# pg_wal's disk capped at $cap write IOPS (run_sweep iops_cap, pgbench set_iops_cap);"
	else
		echo "# pg_wal's disk uncapped;"
	fi
	echo "# ${seconds} s per run after a CHECKPOINT and $warm s warm-up, $rounds interleaved rounds."
	echo "# run_sweep: one settings sweep, the pgbench engine; tps: means over the repeats."
	echo "# pgbench by hand: -j 2, fsync by ALTER SYSTEM + reload, synchronous_commit by PGOPTIONS; tps: medians."
	echo "# gain: tps against 'on' of the same round (run_sweep: repeat), paired: the geometric mean of the"
	echo "# rounds' ratios and its 95% t interval on their logarithms.  run_sweep's: walpressure.results'"
	echo "# speedup (effects(), the extension's rule), with this script's own from steps.csv beside it as a"
	echo "# check; by hand's from hand.csv (gains.csv)."
	echo "# The article: small EC2 instance, PostgreSQL 9.3.5, scale 100."
	echo
	printf '%-22s | %7s | %8s %-19s %-12s %-19s %6s  %-24s | %8s %-19s\n' "configuration" "article" \
		"tps" "results' speedup" "verdict" "steps, recomputed" "c/f" "data_loss label" "by hand" "gain, paired (95%)"
	wb_awk 'row() {
			S["n"] = 1; S["gm"] = num("sweep_gain_gm"); S["lo"] = col("sweep_gain_lo"); S["hi"] = col("sweep_gain_hi")
			H["n"] = 1; H["gm"] = num("hand_gain_gm"); H["lo"] = col("hand_gain_lo"); H["hi"] = col("hand_gain_hi")
			printf "%-22s | %6.2fx | %8.1f %-19s %-12s %-19s %6s  %-24s | %8.1f %-19s\n", col("label"), num("article_gain"), num("sweep_tps"),
				sprintf("%.2f (%s-%s)", num("sweep_speedup"), or_dash(col("sweep_speedup_lo")), or_dash(col("sweep_speedup_hi"))), or_dash(col("sweep_verdict")),
				iv(S, "gm", "%.2f"), or_dash(col("commits_per_fsync")), or_dash(col("data_loss")),
				num("hand_tps_median"), iv(H, "gm", "%.2f")
		}' "$(wb_csvf gains)"
	echo
	echo "the article's +150% and +128% as ratios; results' speedup: walpressure.results.speedup with its 95%"
	echo "interval (paired per repeat) and verdict; steps, recomputed: the same from steps.csv by"
	echo "bench/lib's paired(); c/f: commits per WAL fsync ('-': no fsync at all)."
	echo "every step of the sweep: $(wb_awk 'row() { printf "%s%s %.0f", (n++ ? ", " : ""), col("value"), num("tps") }' "$(wb_csvf steps)")"
	echo "every run by hand:       $(wb_awk 'row() { printf "%s%s %.0f", (n++ ? ", " : ""), col("config"), num("tps") }' "$(wb_csvf hand)")"
	echo "after the sweep and the runs by hand: fsync = $fsync_after; the sweep's server_settings_restored:" \
		"$(wb_awk 'row() { print (col("server_settings_restored") == "" ? "-" : col("server_settings_restored")) }' "$(wb_csvf sweeps)")"
	echo
	echo "reading (computed from the figures above):"
	wb_awk 'row() && num("pos") > 1 {
			S["n"] = 2; S["gm"] = num("sweep_speedup"); S["lo"] = col("sweep_speedup_lo"); S["hi"] = col("sweep_speedup_hi")
			a = num("article_gain"); h = num("hand_gain_gm"); s = S["gm"]
			printf "- %s: run_sweep %s (%s), pgbench by hand %.2fx: ", col("label"), iv(S, "gm", "%.2fx"), col("sweep_verdict"), h
			if (S["lo"] == "") printf "run_sweep has no interval (one repeat), off by %+.1f%% from by hand", (s / h - 1) * 100
			else if (inside(h, S)) printf "by hand is inside the interval (error %+.1f%%)", (s / h - 1) * 100
			else printf "by hand is OUTSIDE the interval (run_sweep off by %+.1f%%)", (s / h - 1) * 100
			printf "; the article %.2fx is %s\n", a, (S["lo"] == "") ? "not comparable (no interval)" : inside(a, S) ? "inside the interval" : (a < S["lo"] ? "below the interval" : "above the interval")
			sg[col("config")] = s; hg[col("config")] = h; lab[col("config")] = col("label")
			fid_effect(F, col("label"), a, S, h, 1)
		}
		END {
			printf "- the order: the article fsync off > synchronous_commit off; run_sweep %s; by hand %s\n",
				(sg["fsync_off"] > sg["sync_commit_off"]) ? "fsync off > synchronous_commit off (agrees)" : "synchronous_commit off >= fsync off (differs)",
				(hg["fsync_off"] > hg["sync_commit_off"]) ? "fsync off > synchronous_commit off (agrees)" : "synchronous_commit off >= fsync off (differs)"
			fid_order(F, sg["fsync_off"] > sg["sync_commit_off"], sprintf("run_sweep fsync off %.2fx, synchronous_commit off %.2fx", sg["fsync_off"], sg["sync_commit_off"]))
			fid_order(F, hg["fsync_off"] > hg["sync_commit_off"], sprintf("by hand fsync off %.2fx, synchronous_commit off %.2fx", hg["fsync_off"], hg["sync_commit_off"]))
			printf "- the table, by bench/lib'"'"'s fidelity rule: %s: %s\n", fid_status(F), fid_why(F)
			fid_line(F, "003", "fsync off and synchronous_commit off against both on, 4 clients", \
				sprintf("fsync off %.2fx, synchronous_commit off %.2fx (run_sweep, paired, 95%% intervals in the file); by hand %.2fx and %.2fx; the article 2.50x and 2.28x; one run_sweep of the three configurations", \
					sg["fsync_off"], sg["sync_commit_off"], hg["fsync_off"], hg["sync_commit_off"]))
		}' "$(wb_csvf gains)"
	echo "- best: $(wb_awk 'row() { print col("answer") }' "$(wb_csvf best)")"
}
