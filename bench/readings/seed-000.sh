# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/seed-000 sets before it calls these (cap, id, ...)
# bench/readings/seed-000.sh: how bench/seed-000 reads its figures (sourced
# by it, which declares its sweep and runs by hand and runs them): the table,
# one line a value, from the staged CSV tables (seed000_table) and the text
# results with their reading (seed000_text).  Every statistic is
# bench/lib/stats.awk's or the extension's (results, best).

# seed000_table: table.csv, from article.csv, results.csv and runs.csv.
seed000_table() {
	# the table, one line a value: the article's figures; run_sweep's (tps and
	# write IOPS: means over the repeats; the gain against 0 us: results', the
	# paired ratio per repeat with its 95% interval; write IOPS over the cap:
	# the mean and 95% interval over the repeats); by hand's (the gain: the
	# geometric mean of its rounds' ratios against 0 us)
	wb_awk -v cap="$cap" '
		FILENAME ~ /article.csv$/ && row() { art[col("value")] = col("tps"); aio[col("value")] = col("write_iops"); next }
		FILENAME ~ /results.csv$/ && row() { if (num("value_pos") > 0) { v = col("value"); rg[v] = col("speedup"); rlo[v] = col("speedup_ci_low"); rhi[v] = col("speedup_ci_high"); rv[v] = col("verdict") } next }
		FILENAME ~ /runs.csv$/ && row() {
			m = col("measurer"); v = col("value"); r = col("round"); vs[v] = 1
			t[m, v, r] = num("tps"); k = ++n_[m, v]; x[m, v, k] = num("tps"); io[m, v, k] = num("write_iops") / cap
			cf[m, v, k] = num("commits_per_fsync"); ws[m, v, k] = num("wal_share"); ck[m, v] += num("checkpoints")
		}
		END {
			printf "value,article_tps,article_gain,article_iops_share"
			printf ",sweep_tps,sweep_gain,sweep_gain_lo,sweep_gain_hi,sweep_verdict,sweep_iops_share,sweep_iops_lo,sweep_iops_hi,sweep_cf,sweep_wal,sweep_checkpoints,sweep_steps"
			printf ",hand_tps,hand_gain,hand_rounds,hand_iops_share,hand_cf,hand_wal,hand_checkpoints\n"
			for (v in vs) {
				printf "%s,%s,%.4f,%.3f", v, art[v], art[v] / art[0], aio[v] / 1000
				m = "run_sweep"; nn = n_[m, v]
				delete a; delete y; delete z; delete w
				for (j = 1; j <= nn; j++) { a[j] = x[m, v, j]; y[j] = io[m, v, j]; z[j] = cf[m, v, j]; w[j] = ws[m, v, j] }
				summary(y, nn, S)
				printf ",%.1f,%s,%s,%s,%s,%.4f,%s,%s,%.2f,%.2f,%d,%d", mean(a, nn), rg[v], rlo[v], rhi[v], rv[v], S["mean"], S["lo"], S["hi"], mean(z, nn), mean(w, nn), ck[m, v], nn
				m = "hand"; nn = n_[m, v]
				delete a; delete b; delete c; delete y; delete z; delete w
				for (key in t) { split(key, q, SUBSEP); if (q[1] == m && q[2] == v) a[q[3]] = t[key]; if (q[1] == m && q[2] == 0) b[q[3]] = t[key] }
				for (j = 1; j <= nn; j++) { c[j] = x[m, v, j]; y[j] = io[m, v, j]; z[j] = cf[m, v, j]; w[j] = ws[m, v, j] }
				paired(a, b, H)
				printf ",%.1f,%s,%d,%.4f,%.2f,%.2f,%d\n", mean(c, nn), H["gm"], H["n"], mean(y, nn), mean(z, nn), mean(w, nn), ck[m, v]
			}
		}' "$(wb_csvf article)" "$(wb_csvf results)" "$(wb_csvf runs)" | { IFS= read -r h; echo "$h"; sort -t, -k1,1n; } >"$(wb_csvf table)"
}

# seed000_text: the text results, on stdout (the sweep's call from calls.csv).
seed000_text() {
	wb_header "seed 000 (commit_delay sweep at the article's flush rate) against the article"
	echo "# the sweep: $(wb_sweep_call "$id")"
	echo "# simple-update, $clients clients, scale $scale prewarmed, shared_buffers 3GB, max_wal_size 100GB,"
	echo "# checkpoint_timeout 15min (the article's); pg_wal's disk capped at $cap write IOPS: the article's 1000"
	echo "# flushes a second at two write IOs each here.  run_sweep: the default engine (pgbench), one sweep,"
	echo "# $rounds interleaved repeats, checkpoint => false (no CHECKPOINT before a step), $warm s of warm-up and"
	echo "# ${seconds} s measured per step.  pgbench by hand: -j $jobs, per value set_iops_cap($cap), a $warm s warm-up and"
	echo "# ${seconds} s, no CHECKPOINT before it, $hand_rounds round(s); its commits per fsync from walpressure.live, its"
	echo "# write IOPS from walpressure.samples (the cgroup's counters).  The article: 8 cores, NVMe,"
	echo "# PostgreSQL 17, 1200 s per value, capped at 1000 write IOPS."
	echo
	printf '%8s | %14s %5s | %-34s %6s %5s %5s %3s | %-15s %5s %5s %3s\n' "" "the article" "" \
		"run_sweep" "" "" "" "" "pgbench by hand" "" "" ""
	printf '%8s | %6s %7s %5s | %7s %-26s %6s %5s %5s %3s | %7s %7s %5s %5s %3s\n' \
		"delay us" "tps" "(gain)" "IOPS" "tps" "gain (95%)" "IOPS" "c/f" "WAL" "ck" "tps" "gain" "IOPS" "c/f" "ck"
	wb_awk -v cap="$cap" 'row() {
			g = (col("sweep_gain_lo") == "") ? sprintf("%.3f", num("sweep_gain")) : sprintf("%.3f (%.3f-%.3f)", num("sweep_gain"), num("sweep_gain_lo"), num("sweep_gain_hi"))
			printf "%8s | %6s (%5.2f) %5.0f | %7.1f %-26s %6.0f %5.2f %5.2f %3d | %7.1f %6.3fx %5.0f %5.2f %3d\n",
				col("value"), col("article_tps"), num("article_gain"), 1000 * num("article_iops_share"),
				num("sweep_tps"), g, cap * num("sweep_iops_share"), num("sweep_cf"), num("sweep_wal"), num("sweep_checkpoints"),
				num("hand_tps"), num("hand_gain"), cap * num("hand_iops_share"), num("hand_cf"), num("hand_checkpoints")
		}' "$(wb_csvf table)"
	echo
	echo "tps, IOPS, c/f, WAL: means over the rounds.  gain: tps against commit_delay 0; run_sweep's from"
	echo "walpressure.results (the geometric mean of the per-repeat ratios and its 95% interval); by hand's"
	echo "per round against 0 us of the same round (with one round: that round's ratio).  The article's IOPS"
	echo "are of its 1000 cap; here of $cap.  c/f: commits per WAL fsync.  WAL: 2 x WAL fsyncs/s over write"
	echo "IOPS, the share of the write IOs that were WAL fsyncs at two IOs each (above 1.00 some fsyncs"
	echo "cost one).  ck: checkpoints that started inside the windows of that value (all rounds)."
	echo "walpressure.best: $(wb_awk 'row() { print col("answer") }' "$(wb_csvf best)")"
	echo
	echo "reading (computed from the figures above):"
	wb_awk -v cap="$cap" 'row() {
			i = ++n; v[i] = col("value"); art[i] = num("article_gain"); ais[i] = num("article_iops_share")
			sg[i] = num("sweep_gain"); slo[i] = col("sweep_gain_lo"); shi[i] = col("sweep_gain_hi"); sv[i] = col("sweep_verdict")
			sis[i] = num("sweep_iops_share"); silo[i] = col("sweep_iops_lo"); sihi[i] = col("sweep_iops_hi")
			hg[i] = col("hand_gain"); his[i] = num("hand_iops_share"); ck += num("sweep_checkpoints"); hck += num("hand_checkpoints"); st += num("sweep_steps")
		}
		END {
			ab = sb = hb = 1
			for (i = 1; i <= n; i++) { if (art[i] > art[ab]) ab = i; if (sg[i] > sg[sb]) sb = i; if (hg[i] > hg[hb]) hb = i }
			printf "- the peak: the article %.2fx at %s us; run_sweep %.3fx at %s us (%s against 0); by hand %.3fx at %s us\n",
				art[ab], v[ab], sg[sb], v[sb], sv[sb], hg[hb], v[hb]
			printf "- at the article'"'"'s optimum, %s us: the article %.2fx; run_sweep %.3fx (95%% interval %s-%s); by hand %.3fx\n",
				v[ab], art[ab], sg[ab], or_dash(slo[ab]), or_dash(shi[ab]), hg[ab]
			printf "- write IOPS at %s us: the article %.0f%% of its cap; run_sweep %.0f%% of %d (95%% interval %s-%s%%), by hand %.0f%%\n",
				v[ab], 100 * ais[ab], 100 * sis[ab], cap, pc(silo[ab]), pc(sihi[ab]), 100 * his[ab]
			below = ""
			for (i = 1; i <= n; i++) if (sihi[i] != "" && sihi[i] < 0.95) below = below (below == "" ? "" : ", ") v[i]
			printf "- values whose write IOPS stayed below 95%% of the cap (the whole 95%% interval): %s\n", (below == "" ? "none" : below " us")
			printf "- checkpoints inside the measured windows: run_sweep %d in %d steps, by hand %d\n", ck, st, hck
			# the status, by bench/lib'"'"'s rule: the gain at each value against 0 us
			for (i = 2; i <= n; i++) {
				R["gm"] = sg[i]; R["lo"] = slo[i]; R["hi"] = shi[i]
				fid_effect(G, "gain at " v[i] " us", art[i], R, hg[i], 1)
			}
			# the order: the peak within one value of the article'"'"'s (750-1250 us), and the gain falls after it
			for (i = 1; i <= n; i++) if (v[i] == 750) lo_i = i; else if (v[i] == 1250) hi_i = i
			fid_order(G, sb >= lo_i && sb <= hi_i && sg[n] < sg[sb], "run_sweep peaks at " v[sb] " us (the article " v[ab] "), " sprintf("%.3fx", sg[n]) " at " v[n] " us")
			fid_order(G, hb >= lo_i && hb <= hi_i && hg[n] < hg[hb], "by hand peaks at " v[hb] " us, " sprintf("%.3fx", hg[n]) " at " v[n] " us")
			printf "- the commit_delay table (the gains, by bench/lib'"'"'s rule): %s: %s\n", fid_status(G), fid_why(G)
			# the headline: write IOPS below the cap at and after the optimum (the article: 600, 510, 480, 430 of 1000)
			for (i = 1; i <= n; i++) if (v[i] >= v[ab]) {
				R["gm"] = sis[i]; R["lo"] = silo[i]; R["hi"] = sihi[i]
				fid_effect(I, "write IOPS at " v[i] " us (share of the cap)", ais[i], R, his[i], 1)
			}
			printf "- the headline, write IOPS below the cap at the optimum (by bench/lib'"'"'s rule): %s: %s\n", fid_status(I), fid_why(I)
			fid_line(G, "000", "commit_delay 0 to 2000 us, 10 clients, the article'"'"'s flush rate", \
				sprintf("peak %.2fx at %s us (95%% interval %s-%s), by hand %.2fx at %s us; the article %.2fx at %s us; %d checkpoints in %d windows", \
					sg[sb], v[sb], or_dash(slo[sb]), or_dash(shi[sb]), hg[hb], v[hb], art[ab], v[ab], ck, st))
			fid_line(I, "000", "headline: write IOPS below the cap at the optimum", \
				sprintf("at %s us %.0f%% of the cap (95%% interval %s-%s%%), by hand %.0f%%; the article %.0f%%; below 95%% of the cap: %s", \
					v[ab], 100 * sis[ab], pc(silo[ab]), pc(sihi[ab]), 100 * his[ab], 100 * ais[ab], (below == "" ? "no value" : below " us")))
		}
		function pc(x) { return (x == "") ? "-" : sprintf("%.0f", 100 * x) }' "$(wb_csvf table)"
}
