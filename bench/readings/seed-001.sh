# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/seed-001 sets before it calls these (seconds, seconds1, ...)
# bench/readings/seed-001.sh: how bench/seed-001 reads its figures (sourced
# by it, which declares its two tests' sweeps and runs by hand and runs
# them): every window's checkpoints, buffers and writeback (seed001_windows),
# the table of each test and value (seed001_table) and the text results with
# their reading (seed001_text).  Every statistic is bench/lib/stats.awk's or
# the extension's (results, best).

# seed001_windows: windows.csv, from conditions.csv, writeback.csv, steps.csv
# and hand.csv.
seed001_windows() {
	# every window: run_sweep's steps (from steps.csv) and the runs by hand,
	# with the kernel's writeback over it (writeback.csv)
	wb_awk '
		FILENAME ~ /conditions.csv$/ { if (row() && col("name") == "sweep_id") test_of[col("value")] = col("test"); next }
		FILENAME ~ /writeback.csv$/ { if (row()) { n++; e[n] = num("epoch"); sw[n] = num("sectors_written"); dm[n] = num("dirty_mb"); wm[n] = num("writeback_mb") } next }
		FILENAME ~ /steps.csv$/ { if (row()) { k++; W[k] = "sweep," test_of[col("sweep_id")] "," col("repeat") "," col("value") "," col("tps") ","
				W[k] = W[k] (num("checkpoints_timed") + num("checkpoints_requested")) "," col("buffers_checkpoint") "," col("buffers_clean") "," col("buffers_backend") ","
				a[k] = epoch(col("started_at")); b[k] = a[k] + num("server_seconds"); st[k] = (col("discarded") == "" ? "clean" : "discarded") } next }
		FILENAME ~ /hand.csv$/ { if (row()) { k++; W[k] = "hand," col("test") "," col("round") "," col("value") "," col("tps") "," col("ckpts") "," col("buffers_checkpoint") "," col("buffers_clean") "," col("buffers_backend") ","
				a[k] = num("t0"); b[k] = num("t1"); st[k] = (col("tps") == "" ? "failed" : "clean") } next }
		END {
			print "who,test,round,value,tps,ckpts,buffers_checkpoint,buffers_clean,buffers_backend,seconds,write_mb_s,dirty_mb,writeback_mb,state"
			for (i = 1; i <= k; i++) {
				# the log samples inside the window (their dirty and writeback MB,
				# averaged); the sectors between the first and the last
				f = l = m = 0; delete D; delete B
				for (j = 1; j <= n; j++) if (e[j] >= a[i] && e[j] <= b[i]) { if (!f) f = j; l = j; m++; D[m] = dm[j]; B[m] = wm[j] }
				printf "%s%.0f,%s,%s,%s,%s\n", W[i], b[i] - a[i], (l > f ? sprintf("%.2f", (sw[l] - sw[f]) * 512 / 1048576 / (e[l] - e[f])) : ""),
					(m ? sprintf("%.1f", mean(D, m)) : ""), (m ? sprintf("%.1f", mean(B, m)) : ""), st[i]
			}
		}
		# "2026-11-25 21:22:00.3735+00" -> seconds since 1970 (UTC)
		function epoch(t,   d, x, y) {
			split(t, x, /[- :+]/)
			y = x[1] - 1970; d = y * 365 + int((y + 1) / 4)
			split("0 31 59 90 120 151 181 212 243 273 304 334", cm, " ")
			d += cm[x[2] + 0] + x[3] - 1 + ((x[1] % 4 == 0 && x[2] + 0 > 2) ? 1 : 0)
			return d * 86400 + x[4] * 3600 + x[5] * 60 + x[6]
		}' "$(wb_csvf conditions)" "$(wb_csvf writeback)" "$(wb_csvf steps)" "$(wb_csvf hand)" >"$(wb_csvf windows)"
}

# seed001_table: table.csv, from conditions.csv, step_statements.csv,
# results.csv and hand.csv.
seed001_table() {
	# the table, one line a test and value: the article's; run_sweep's (the
	# UPDATE's mean and stddev over each value's calls, paired against 0 per
	# repeat from each step's figures; results' tps); by hand's (the means of
	# its rounds; paired per round against 0)
	wb_awk '
		function keep(m, t, p, r, mn_, sd_) { M[m, t, p, r] = mn_; D[m, t, p, r] = sd_ }
		function mean_of(x, t, p, n,   i, y) { for (i = 1; i <= n; i++) y[i] = x[t, p, i]; return mean(y, n) }
		function pair(m, t, p, arr, R,   k, x, a, b) {
			delete a; delete b
			for (k in arr) { split(k, x, SUBSEP); if (x[1] == m && x[2] == t && x[3] == p) a[x[4]] = arr[k]; if (x[1] == m && x[2] == t && x[3] == 1) b[x[4]] = arr[k] }
			return paired(a, b, R)
		}
		FILENAME ~ /conditions.csv$/ { if (row() && col("name") == "sweep_id") test_of[col("value")] = col("test"); next }
		FILENAME ~ /step_statements.csv$/ { if (row() && col("discarded") == "") { t = test_of[col("sweep_id")]; p = num("value_pos"); val[p] = col("value")
				keep("sweep", t, p, col("repeat"), num("mean_ms"), num("stddev_ms"))
				# every call of the value: its mean and its stddev
				pool_add(P, t SUBSEP p, num("calls"), num("mean_ms"), num("stddev_ms")) } next }
		FILENAME ~ /results.csv$/ { if (row() && num("value_pos") > 0) tps[test_of[col("sweep_id")], num("value_pos")] = col("tps"); next }
		FILENAME ~ /hand.csv$/ { if (row() && col("tps") != "") { t = col("test"); v = col("value"); p = (v == "0") ? 1 : (v == "512kB") ? 2 : 3
				keep("hand", t, p, col("round"), num("mean_ms"), num("stddev_ms")); n = ++hn[t, p]
				ht[t, p, n] = num("tps"); hm[t, p, n] = num("mean_ms"); hs[t, p, n] = num("stddev_ms") } next }
		END {
			split("0.637 0.632 0.609", am, " "); split("0.758 0.606 0.552", asd, " ")
			print "test,value,value_pos,article_mean_ms,article_mean_ratio,article_stddev_ms,article_stddev_ratio,sweep_mean_ms,sweep_stddev_ms,sweep_tps,sweep_mean_ratio_gm,sweep_mean_ratio_lo,sweep_mean_ratio_hi,sweep_stddev_ratio_gm,sweep_stddev_ratio_lo,sweep_stddev_ratio_hi,hand_tps,hand_mean_ms,hand_stddev_ms,hand_mean_ratio_gm,hand_mean_ratio_lo,hand_mean_ratio_hi,hand_stddev_ratio_gm,hand_stddev_ratio_lo,hand_stddev_ratio_hi"
			for (t = 2; t >= 1; t--) for (p = 1; p <= 3; p++) {
				pair("sweep", t, p, M, SM); pair("sweep", t, p, D, SD); pair("hand", t, p, M, HM); pair("hand", t, p, D, HD)
				mu = pool_mean(P, t SUBSEP p); sdv = pool_sd(P, t SUBSEP p)
				printf "%d,%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", t, val[p], p,
					(t == 2 ? am[p] : ""), (t == 2 ? am[p] / am[1] : 1), (t == 2 ? asd[p] : ""), (t == 2 ? asd[p] / asd[1] : 1),
					mu, sdv, tps[t, p], SM["gm"], SM["lo"], SM["hi"], SD["gm"], SD["lo"], SD["hi"],
					mean_of(ht, t, p, hn[t, p]), mean_of(hm, t, p, hn[t, p]), mean_of(hs, t, p, hn[t, p]),
					HM["gm"], HM["lo"], HM["hi"], HD["gm"], HD["lo"], HD["hi"]
			}
		}' "$(wb_csvf conditions)" "$(wb_csvf step_statements)" "$(wb_csvf results)" "$(wb_csvf hand)" >"$(wb_csvf table)"
}

# cond TEST NAME: the value of NAME for Test TEST in conditions.csv
cond() { wb_awk -v t="$1" -v n="$2" 'row() && col("test") == t && col("name") == n { print col("value") }' "$(wb_csvf conditions)"; }

# seed001_text: the text results, on stdout.
seed001_text() {
	wb_header "seed 001 (backend_flush_after: the data 4x the memory, and inside shared_buffers) against the article"
	echo "# the sweeps: $(wb_sweep_call "$(cond 2 sweep_id)")"
	echo "#   and the same for Test 1 with duration => '$seconds1 s'"
	echo "# tpcb-like, $clients clients ($(awk -v c="$clients" -v n="$cpus" 'BEGIN { printf "%g", c / n }') per core; the article: 8 on 4 vCPUs), -M prepared (settings' protocol);"
	echo "# checkpoint_completion_target 0.9, max_wal_size 1GB, checkpoint_timeout 5min (the article's); the disk"
	echo "# uncapped; each run after a CHECKPOINT and $warm s of warm-up, $rounds interleaved rounds.  The server in"
	echo "# cgroup v1 memory:/$cg (its processes and the page cache of what they read and write)."
	echo "# Test 2: the group limited to $(cond 2 memory_limit_mb)MB, shared_buffers $(cond 2 shared_buffers), data $(cond 2 data_mb)MB (scale $scale):"
	echo "#   $(awk -v d="$(cond 2 data_mb)" -v m="$(cond 2 memory_limit_mb)" 'BEGIN { printf "%.1f", d / m }')x the limit (the article: 4x); the group's peak $(cond 2 memory_peak_mb)MB; read from disk over the sweep:"
	echo "#   $(cond 2 sweep_read_mb_per_s) MB/s ($(cond 2 read_device)); ${seconds} s windows."
	echo "# Test 1: the group at $(cond 1 memory_limit_mb)MB, shared_buffers $(cond 1 shared_buffers), data $(cond 1 data_mb)MB (scale $scale1) prewarmed; read"
	echo "#   from disk over the sweep: $(cond 1 sweep_read_mb_per_s) MB/s; ${seconds1} s windows."
	echo "# The UPDATE pgbench_accounts' mean and stddev from pg_stat_statements: run_sweep over each"
	echo "# step's window (step_statements: per step, and over all the value's calls); pgbench by hand"
	echo "# (-j 2, in the same memory group): pg_stat_statements reset after the warm-up; means of its rounds."
	echo "# The article: 4 vCPU, 8GB, local SSD, PostgreSQL 11, 2 h per run."
	for t in 2 1; do
		echo
		echo "## Test $t: $([ "$t" = 2 ] && echo "the data 4x the memory" || echo "the data inside shared_buffers (the control)")"
		printf '%-12s | %-24s | %-60s | %-44s\n' "" "the article (UPDATE)" "run_sweep (UPDATE; against 0: paired, 95%)" "pgbench by hand (UPDATE; against 0)"
		printf '%-12s | %6s %-5s %6s %-5s | %6s %6s %-22s %-22s | %6s %6s %7s %7s %7s\n' "flush_after" \
			"mean" "" "stddev" "" "mean" "stddev" "mean ratio" "stddev ratio" "tps" "mean" "stddev" "mean r" "sd r"
		wb_awk -v t="$t" 'row() && col("test") == t {
				printf "%-12s | %6s %5s %6s %5s | %6.3f %6.3f %-22s %-22s | %6.0f %6.3f %7.3f %7.3f %7.3f\n", col("value"),
					or_dash(col("article_mean_ms")), (col("article_mean_ms") == "" ? "" : sprintf("%.3f", num("article_mean_ratio"))),
					or_dash(col("article_stddev_ms")), (col("article_stddev_ms") == "" ? "" : sprintf("%.3f", num("article_stddev_ratio"))),
					num("sweep_mean_ms"), num("sweep_stddev_ms"), r3("sweep_mean_ratio"), r3("sweep_stddev_ratio"),
					num("hand_tps"), num("hand_mean_ms"), num("hand_stddev_ms"), num("hand_mean_ratio_gm"), num("hand_stddev_ratio_gm")
			}
			function r3(p) { return (col(p "_lo") == "") ? sprintf("%.3f", num(p "_gm")) : sprintf("%.3f (%.3f-%.3f)", num(p "_gm"), num(p "_lo"), num(p "_hi")) }' "$(wb_csvf table)"
		echo "run_sweep's tps (walpressure.results, against 0: paired per repeat):"
		wb_awk -v id="$(cond "$t" sweep_id)" 'row() && col("sweep_id") == id && num("value_pos") > 0 {
				printf "  %s: %s tps, %s%s\n", col("value"), col("tps"), col("verdict"), (col("speedup_ci_low") == "" ? "" : sprintf(" %.3fx (%.3f-%.3f)", num("speedup"), num("speedup_ci_low"), num("speedup_ci_high"))) }' \
			"$(wb_csvf results)"
		echo "every window (who round value: tps, checkpoints started, MB written by the checkpointer / bgwriter /"
		echo "backends, the data device's MB/s written by every process on it, the group's dirty and writeback MB,"
		echo "means over the window):"
		wb_awk -v t="$t" 'row() && col("test") == t {
				printf "  %-5s %s %-5s: %6.0f tps, %s ckpt, %4.0f / %4.0f / %4.0f MB, %6s MB/s, dirty %6s, wb %5s%s\n", col("who"), col("round"), col("value"), num("tps"),
					col("ckpts"), num("buffers_checkpoint") / 128, num("buffers_clean") / 128, num("buffers_backend") / 128,
					or_dash(col("write_mb_s")), or_dash(col("dirty_mb")), or_dash(col("writeback_mb")), (col("state") == "clean" ? "" : " (" col("state") ")") }' \
			"$(wb_csvf windows)"
	done
	echo
	echo "mean, stddev: ms of one UPDATE pgbench_accounts; ratio: against backend_flush_after = 0, paired per"
	echo "round (run_sweep: per repeat, from each step's own mean and stddev; its 95% interval); by hand: the"
	echo "geometric mean of its rounds' ratios.  The article's stddev and mean ratios from its table."
	echo "after the sweeps: backend_flush_after = $flush_after"
	echo
	echo "reading (computed from the figures above):"
	wb_awk '
		FILENAME ~ /windows.csv$/ { if (row() && col("state") == "clean") { t = col("test"); w = col("who")
				nw[t, w]++; ck[t, w] += num("ckpts"); if (num("ckpts") < 1) none[t, w]++; wb[t, w] += num("write_mb_s") } next }
		FILENAME ~ /table.csv$/ && row() {
			t = col("test"); p = num("value_pos"); v = col("value")
			if (p == 1) next
			get(SM, "sweep_mean_ratio"); get(SD, "sweep_stddev_ratio")
			hm = col("hand_mean_ratio_gm"); hs = col("hand_stddev_ratio_gm")
			printf "- Test %s, %s: UPDATE mean %s, stddev %s (run_sweep, paired); by hand %.3f and %.3f; the article %.3f and %.3f\n",
				t, v, iv(SM, "gm", "%.3f"), iv(SD, "gm", "%.3f"), hm, hs, num("article_mean_ratio"), num("article_stddev_ratio")
			if (t == 2) { fid_effect(F2, "mean at " v, num("article_mean_ratio"), SM, hm, 1); fid_effect(F2, "stddev at " v, num("article_stddev_ratio"), SD, hs, 1)
				sdr[v] = SD["gm"]; hsd[v] = hs }
			else { fid_effect(F1, "mean at " v, 1, SM, hm, 1); fid_effect(F1, "stddev at " v, 1, SD, hs, 1) }
		}
		function get(R, p) { R["n"] = 2; R["gm"] = num(p "_gm"); R["lo"] = col(p "_lo"); R["hi"] = col(p "_hi") }
		END {
			for (t = 2; t >= 1; t--)
				printf "- Test %s windows: checkpoints started %.1f a window (run_sweep; %d of %d windows without one), by hand %.1f (%d of %d); the device written %.1f and %.1f MB/s\n",
					t, ck[t, "sweep"] / nw[t, "sweep"], none[t, "sweep"], nw[t, "sweep"], ck[t, "hand"] / nw[t, "hand"], none[t, "hand"], nw[t, "hand"],
					wb[t, "sweep"] / nw[t, "sweep"], wb[t, "hand"] / nw[t, "hand"]
			# the order: the article'"'"'s stddev falls more at 2MB than at 512kB
			fid_order(F2, sdr["2MB"] < sdr["512kB"], sprintf("run_sweep stddev ratio 2MB %.3f, 512kB %.3f", sdr["2MB"], sdr["512kB"]))
			fid_order(F2, hsd["2MB"] < hsd["512kB"], sprintf("by hand 2MB %.3f, 512kB %.3f", hsd["2MB"], hsd["512kB"]))
			printf "- Test 2, by bench/lib'"'"'s fidelity rule: %s: %s\n", fid_status(F2), fid_why(F2)
			printf "- Test 1, by bench/lib'"'"'s fidelity rule (the article: no difference): %s: %s\n", fid_status(F1), fid_why(F1)
			fid_line(F2, "001", "backend_flush_after 0 / 512kB / 2MB, data 4x the memory (Test 2)", \
				sprintf("UPDATE stddev 2MB/0 %.3f (the article 0.728), 512kB/0 %.3f (0.800), by hand %.3f and %.3f; %.1f checkpoints a window; %d s windows, the article 2 h", \
					sdr["2MB"], sdr["512kB"], hsd["2MB"], hsd["512kB"], ck[2, "sweep"] / nw[2, "sweep"], WIN2))
			fid_line(F1, "001", "backend_flush_after, data inside shared_buffers (Test 1, the control)", \
				sprintf("the article: no difference; %.1f checkpoints a window; %d s windows, the article 2 h", ck[1, "sweep"] / nw[1, "sweep"], WIN1))
		}' WIN2="$seconds" WIN1="$seconds1" "$(wb_csvf windows)" "$(wb_csvf table)"
	echo "- best: $(wb_awk 'row() { printf "%s%s", (n++ ? " | " : ""), col("answer") }' "$(wb_csvf best)")"
}
