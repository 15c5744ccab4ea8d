# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/seed-002 sets before it calls these (tables, ids, ...)
# bench/readings/seed-002.sh: how bench/seed-002 reads its figures (sourced
# by it, which declares its sweeps and runs by hand and runs them): each
# table's figures from the staged CSV tables, t1.csv ... t7.csv
# (seed002_tables), and the text results with the reading under each table
# (seed002_text).  Every statistic is bench/lib/stats.awk's.

# shared by the programs below: hand.csv's runs (H_), hmed(key, column) their
# median, hpair(a, b, R, m) the paired ratio m x tps(a) / tps(b) per round;
# results.csv's rows (RES_[sweep, value, column]); steps.csv's tps (steps_row)
read -r -d '' lib002 <<'AWK' || true
function hand_row(   c) { if (col("tps") == "") return; K_[col("key"), col("round")] = 1; for (c in HC_) H_[col("key"), col("round"), c] = col(c) }
function hmed(k, c,   x, n, kr, y) { n = 0; for (kr in K_) { split(kr, y, SUBSEP); if (y[1] == k) x[++n] = H_[k, y[2], c] } return median(x, n) }
function hpair(ka, kb, R, m,   kr, y, a, b) {
	for (kr in K_) { split(kr, y, SUBSEP); if (y[1] == ka) a[y[2]] = m * H_[ka, y[2], "tps"]; if (y[1] == kb) b[y[2]] = H_[kb, y[2], "tps"] }
	return paired(a, b, R)
}
function res_row(   c) { for (c in RC_) RES_[col("sweep_id"), col("value"), c] = col(c) }
function res(s, v, c) { return RES_[s, v, c] }
# run_sweep's paired ratio of value v against the sweep's baseline, as
# walpressure.results gives it (effects(): the geometric mean of the
# per-repeat ratios, its 95% interval)
function from_results(R, s, v) { delete R; R["gm"] = res(s, v, "speedup"); R["lo"] = res(s, v, "speedup_ci_low"); R["hi"] = res(s, v, "speedup_ci_high"); R["n"] = res(s, v, "repeats") }
function scaled(R, m) { if (R["n"]) { R["gm"] *= m; if (R["lo"] != "") { R["lo"] *= m; R["hi"] *= m } } }
BEGIN {
	split("tps transactions commits_per_fsync wal_bytes fpi_pct wal_buffers_full_per_s write_iops checkpoints", t_, " ")
	for (i_ in t_) HC_[t_[i_]] = 1
	split("value_pos tps tps_ci_low tps_ci_high rows_per_s speedup speedup_ci_low speedup_ci_high commits_per_fsync fsync_avg_ms write_iops verdict fpi_pct fpi_bytes_pct checkpoints_timed checkpoints_requested repeats", t_, " ")
	for (i_ in t_) RC_[t_[i_]] = 1
}
FILENAME ~ /\/hand.csv$/ { if (row()) hand_row(); next }
FILENAME ~ /results.csv$/ { if (row()) res_row(); next }
AWK
# the reading of one figure (judge NAME ARTICLE SWEEP LO HI HAND FORMAT): run_sweep's value and
# 95% interval, pgbench by hand's and the article's against it ("-" for none)
read -r -d '' judge002 <<'AWK' || true
function judge(n, a, s, lo, hi, h, f) {
	if (s == "" || lo == "" || hi == "") {
		printf "- %s: run_sweep has no interval", n
		if (s != "") printf " (" f ")", s
		if (h != "-" && h != "") printf "; pgbench by hand " f, h
		if (a != "-") printf "; the article " f, a
		printf "\n"; return
	}
	printf "- %s: run_sweep " f " (95%% interval " f "-" f ")", n, s, lo, hi
	if (h != "-" && h != "") {
		printf "; pgbench by hand " f " %s", h, (h >= lo && h <= hi) ? "inside it" : "OUTSIDE it"
		if (h > 0) printf " (run_sweep %+.1f%% from by hand)", 100 * (s / h - 1)
	}
	if (a != "-") {
		if (a >= lo && a <= hi)
			printf "; the article " f " agrees (inside the interval)", a
		else
			printf "; the article " f " differs: %s the interval, run_sweep %+.1f%% from it (%.2f times the article's)",
				a, (a < lo ? "below" : "above"), 100 * (s / a - 1), s / a
	}
	printf "\n"
}
AWK

# seed002_tables: t1.csv ... t7.csv, from the CSV tables the run staged.
seed002_tables() {
	steps=$(wb_csvf steps)
	results=$(wb_csvf results)
	handf=$(wb_csvf hand)

	if has 1; then
		wb_awk -v id="$id1" -v batches="$batches" "$lib002"'
			FILENAME ~ /steps.csv$/ { if (row()) { steps_row("tps")
				if (col("sweep_id") == id && col("discarded") == "") { v = col("value"); lsn[v] += num("wal_lsn_bytes"); com[v] += num("commits"); ld[v] += num("leaders") } }
				next }
			END {
				split("1 704 312|10 3571 305|50 6250 299|100 7143 298|500 9091 296|1000 10000 295|5000 10753 294|10000 10989 293", al, "|")
				print "n,article_rows_per_s,article_kb_per_row,article_speedup,sweep_rows_per_s,sweep_rows_lo,sweep_rows_hi,sweep_b_per_row,sweep_cf,sweep_speedup,sweep_speedup_lo,sweep_speedup_hi,hand_rows_per_s,hand_b_per_row,hand_cf,hand_speedup,hand_speedup_lo,hand_speedup_hi,sweep_leaders_per_commit,run"
				nb = split(batches, b, " ")
				for (i = 1; i <= 8; i++) {
					split(al[i], x, " "); n = x[1]; run = 0
					for (j = 1; j <= nb; j++) if (b[j] == n) run = 1
					printf "%s,%s,%.1f,%.4f", n, x[2], x[3] / 10, x[2] / 704
					if (!run) { printf ",,,,,,,,,,,,,,,,0\n"; continue }
					from_results(S, id, n); scaled(S, n)
					hpair("batch:" n, "batch:1", H, n)
					delete y; k = 0
					for (kr in K_) { split(kr, z, SUBSEP); if (z[1] == "batch:" n && H_[z[1], z[2], "transactions"] > 0) y[++k] = H_[z[1], z[2], "wal_bytes"] / (H_[z[1], z[2], "transactions"] * n) }
					printf ",%s,%s,%s,%s,%s,%s,%s,%s,%.1f,%s,%s,%s,%s,%s,%s,1\n",
						res(id, n, "rows_per_s"), res(id, n, "tps_ci_low") * n, res(id, n, "tps_ci_high") * n,
						(com[n] > 0 ? lsn[n] / (com[n] * n) : ""), res(id, n, "commits_per_fsync"), S["gm"], S["lo"], S["hi"],
						hmed("batch:" n, "tps") * n, median(y, k), hmed("batch:" n, "commits_per_fsync"), H["gm"], H["lo"], H["hi"],
						(com[n] > 0 ? ld[n] / com[n] : "")
				}
			}
			function pos1(v) { return res(id, v, "value_pos") }' "$handf" "$results" "$steps" >"$(wb_csvf t1)"
	fi
	if has 2; then
		wb_awk -v id="$id2" "$lib002"'
			FILENAME ~ /steps.csv$/ { if (row()) steps_row("tps"); next }
			END {
				print "value,article_rows_per_s,sweep_rows_per_s,sweep_lo,sweep_hi,sweep_fsync_ms,sweep_cf,hand_rows_per_s,hand_cf,sweep_verdict"
				split("on off", v, " "); split("704 8333", a, " ")
				for (i = 1; i <= 2; i++)
					printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", v[i], a[i], res(id, v[i], "rows_per_s"), res(id, v[i], "tps_ci_low"), res(id, v[i], "tps_ci_high"),
						res(id, v[i], "fsync_avg_ms"), res(id, v[i], "commits_per_fsync"), hmed("sc:" v[i], "tps"), hmed("sc:" v[i], "commits_per_fsync"), res(id, v[i], "verdict")
				from_results(S, id, "off"); hpair("sc:off", "sc:on", H, 1)
				printf "off/on,11.84,%s,%s,%s,,,%s,,%s\n", S["gm"], S["lo"], S["hi"], H["gm"], res(id, "off", "verdict")
			}' "$handf" "$results" "$steps" >"$(wb_csvf t2)"
	fi
	if has 3; then
		wb_awk -v id="$id3" "$lib002"'
			FILENAME ~ /steps.csv$/ { if (row()) steps_row("tps"); next }
			END {
				print "value,article_fsyncs,article_rows_per_s,sweep_cf,sweep_rows_per_s,sweep_lo,sweep_hi,sweep_write_iops,hand_cf,hand_rows_per_s,sweep_verdict"
				split("0 10", v, " "); split("8000 2847", af, " "); split("5128 7692", ar, " ")
				for (i = 1; i <= 2; i++)
					printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", v[i], af[i], ar[i], res(id, v[i], "commits_per_fsync"), res(id, v[i], "rows_per_s"),
						res(id, v[i], "tps_ci_low"), res(id, v[i], "tps_ci_high"), res(id, v[i], "write_iops"), hmed("cd:" v[i], "commits_per_fsync"),
						hmed("cd:" v[i], "tps"), res(id, v[i], "verdict")
				from_results(S, id, "10"); hpair("cd:10", "cd:0", H, 1)
				printf "10/0,,1.50,,%s,%s,%s,,,%s,%s\n", S["gm"], S["lo"], S["hi"], H["gm"], res(id, "10", "verdict")
			}' "$handf" "$results" "$steps" >"$(wb_csvf t3)"
	fi
	if has 4; then
		wb_awk -v id="$id4" "$lib002"'
			FILENAME ~ /probe.csv$/ { if (row()) { c = col("cap"); for (k = 1; k <= 7; k++) P[c, k] = ROW_[k] } next }
			END {
				print "cap,storage,article_fsync_ms,article_fsyncs_per_s,probe_ops_per_s,probe_avg_ms,probe_p99_ms,budget_per_s,test_fsync_ops_per_s,sweep_tps,sweep_lo,sweep_hi,hand_tps,sweep_write_iops"
				printf "0,uncapped,,,%s,%s,%s,%s,%s,,,,,\n", P[0, 2], P[0, 3], P[0, 4], P[0, 5], P[0, 6]
				split("28570 NVMe 0.070 14285|8000 SATA-SSD 0.250 4000|952 SAS-15K 2.1 476|476 SATA-7200 4.2 238", al, "|")
				for (i = 1; i <= 4; i++) {
					split(al[i], x, " "); c = x[1]
					printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", c, x[2], x[3], x[4], P[c, 2], P[c, 3], P[c, 4], P[c, 5], P[c, 6],
						res(id, c, "tps"), res(id, c, "tps_ci_low"), res(id, c, "tps_ci_high"), hmed("cap:" c, "tps"), res(id, c, "write_iops")
				}
			}' "$handf" "$results" "$(wb_csvf probe)" >"$(wb_csvf t4)"
	fi
	if has 5; then
		wb_awk -v id="$id5" -v sizes="$sizes" -v secs="$seconds" "$lib002"'
			FILENAME ~ /steps.csv$/ { if (row()) { steps_row("tps")
				if (col("sweep_id") == id && col("discarded") == "") { val = col("value"); fb[val] += num("fpi_bytes"); lsn[val] += num("wal_lsn_bytes")
					wb[val] += num("wal_bytes"); ss[val] += num("server_seconds") } }
				next }
			FILENAME ~ /fpi_hand.csv$/ { if (row() && col("fpi_bytes_pct") != "") { val = col("value"); hf[val, ++nh[val]] = num("fpi_bytes_pct") } next }
			END {
				print "value,sweep_ckpts,sweep_fpi_pct,sweep_fpi_bytes_pct,results_fpi_bytes_pct,sweep_wal_mb_s,sweep_tps,sweep_lo,sweep_hi,sweep_verdict,hand_ckpts,hand_fpi_pct,hand_fpi_bytes_pct,hand_wal_mb_s,hand_tps,wal_bytes_over_lsn,baseline,tps_ratio_gm,tps_ratio_lo,tps_ratio_hi,hand_tps_ratio"
				n = split(sizes, v, " ")
				for (i = 1; i <= n; i++) if (res(id, v[i], "verdict") == "baseline") base = v[i]
				for (i = 1; i <= n; i++) {
					s = v[i]; delete x; delete y; k = 0
					for (j = 1; j <= nh[s]; j++) x[j] = hf[s, j]
					for (kr in K_) { split(kr, z, SUBSEP); if (z[1] == "fpi:" s) y[++k] = H_[z[1], z[2], "wal_bytes"] / 1048576 / secs }
					sweep_paired("tps", id, res(id, s, "value_pos"), res(id, base, "value_pos"), S); hpair("fpi:" s, "fpi:" base, H, 1)
					printf "%s,%.1f,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", s,
						(res(id, s, "checkpoints_timed") + res(id, s, "checkpoints_requested")) / res(id, s, "repeats"),
						res(id, s, "fpi_pct"), (lsn[s] > 0 ? 100 * fb[s] / lsn[s] : ""), res(id, s, "fpi_bytes_pct"),
						(ss[s] > 0 ? lsn[s] / 1048576 / ss[s] : ""), res(id, s, "tps"), res(id, s, "tps_ci_low"), res(id, s, "tps_ci_high"), res(id, s, "verdict"),
						hmed("fpi:" s, "checkpoints"), hmed("fpi:" s, "fpi_pct"), median(x, nh[s] + 0), median(y, k), hmed("fpi:" s, "tps"),
						(lsn[s] > 0 ? wb[s] / lsn[s] : ""), base, S["gm"], S["lo"], S["hi"], H["gm"]
				}
			}' "$handf" "$results" "$steps" "$(wb_csvf fpi_hand)" >"$(wb_csvf t5)"
	fi
	if has 6; then
		wb_awk "$lib002"'
			FILENAME ~ /wal_buffers.csv$/ { if (row()) { sw[col("sweep_id")] = col("value"); sr[col("sweep_id")] = col("round") } next }
			FILENAME ~ /steps.csv$/ { if (row() && (col("sweep_id") in sw) && col("discarded") == "") { s = col("sweep_id"); val = sw[s]
				rows[val, sr[s]] = 1000 * num("tps"); full[val, ++nf[val]] = num("wal_buffers_full") / num("server_seconds") } next }
			END {
				print "value,sweep_rows_per_s,sweep_full_per_s,hand_rows_per_s,hand_full_per_s,rows_ratio_gm,rows_ratio_lo,rows_ratio_hi,rows_ratio_min,rows_ratio_max,hand_rows_ratio"
				split("64kB -1", v, " ")
				for (k in rows) { split(k, z, SUBSEP); if (z[1] == "64kB") a[z[2]] = rows[k]; else b[z[2]] = rows[k] }
				paired(a, b, S); hpair("wb:64kB", "wb:-1", H, 1)
				for (i = 1; i <= 2; i++) {
					delete x; delete y; n = 0
					for (k in rows) { split(k, z, SUBSEP); if (z[1] == v[i]) x[++n] = rows[k] }
					for (j = 1; j <= nf[v[i]]; j++) y[j] = full[v[i], j]
					printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", v[i], median(x, n), median(y, nf[v[i]] + 0), 1000 * hmed("wb:" v[i], "tps"),
						hmed("wb:" v[i], "wal_buffers_full_per_s"), S["gm"], S["lo"], S["hi"], S["min"], S["max"], H["gm"]
				}
			}' "$handf" "$(wb_csvf wal_buffers)" "$steps" >"$(wb_csvf t6)"
	fi
	if has 7; then
		wb_awk -v acts="$activities" '
			row() { a = col("activity"); k = ++n[a]; s[a, k] = num("sampler_MBps"); l[a, k] = num("lsn_MBps"); d[a, k] = num("seconds") }
			END {
				print "activity,label,article_MBps,sampler_MBps,lsn_MBps,seconds"
				split("idle (Idle)|select-only, 4 clients (Normal read traffic)|tpcb-like, 4 clients (View count updates)|bulk load, 4 clients (Article ingestion)|REINDEX loop (Bulk reindex)|VACUUM (none)", lab, "|")
				split("0.1 0.3 4.7 1.2 28.4 -", art, " ")
				m = split(acts, ac, " ")
				for (i = 1; i <= m; i++) printf "%s,\"%s\",%s,%s,%s,%s\n", ac[i], lab[i], art[i], median_at(s, ac[i], n[ac[i]]), median_at(l, ac[i], n[ac[i]]), median_at(d, ac[i], n[ac[i]])
			}' "$(wb_csvf rate)" >"$(wb_csvf t7)"
	fi
}

# seed002_text: the text results, on stdout.
seed002_text() {
	wb_header "seed 002 (WAL pressure, commit frequency, fsync costs) against the article"
	echo "# scale $scale prewarmed, shared_buffers 512MB, max_wal_size 8GB (table 5 sweeps it),"
	echo "# checkpoint_timeout 1h.  Every run_sweep: the pgbench engine, $rounds interleaved repeats, a"
	echo "# CHECKPOINT, $warm s of warm-up and $seconds s measured per step; figures are results' means"
	echo "# with their 95% intervals.  pgbench by hand: the same statements (the engine's scripts), the"
	echo "# same clients, cap and settings, each run as a step (a CHECKPOINT, the cap, $warm s of warm-up,"
	echo "# $seconds s), $rounds rounds interleaved like the repeats; medians over the rounds.  A ratio of two"
	echo "# values: paired per round (run_sweep: per repeat, walpressure.results' speedup from effects()),"
	echo "# the geometric mean of the rounds' ratios with its 95% interval."
	echo "# The article (\"WAL Pressure, Commit Frequency, and fsync Costs\", fast by design, chapter 57):"
	echo "# a JDBC client inserting 'articles' rows (~31 kB of WAL each) on NVMe."
	echo "# The readings below each table are computed from its figures (tN.csv) by this script; the"
	echo "# status of each table by bench/lib's fidelity rule at the end."
	if has 1; then
		echo
		echo "## 1. Commit every N rows, one client, pg_wal capped at $t1cap write IOPS"
		echo "# $(wb_sweep_call "$id1")"
		echo
		printf '%6s | %-23s | %-48s | %-28s\n' "" "the article" "run_sweep" "pgbench by hand"
		printf '%6s | %7s %6s %8s | %7s %15s %5s %5s %7s %-11s | %7s %5s %5s %7s\n' "N" "rows/s" "kB/row" "speedup" \
			"rows/s" "(95%)" "B/row" "c/f" "speedup" "(95%)" "rows/s" "B/row" "c/f" "speedup"
		wb_awk 'row() {
				printf "%6s | %7s %6.1f %7.2fx |", col("n"), col("article_rows_per_s"), num("article_kb_per_row"), num("article_speedup")
				if (!num("run")) { printf " (not run)\n"; next }
				printf " %7.0f %15s %5.0f %5s %6.2fx %-11s | %7.0f %5.0f %5.2f %6.2fx\n", num("sweep_rows_per_s"),
					sprintf("(%.0f-%.0f)", num("sweep_rows_lo"), num("sweep_rows_hi")), num("sweep_b_per_row"), or_dash(col("sweep_cf")),
					num("sweep_speedup"), (col("sweep_speedup_lo") == "" ? "" : sprintf("(%.2f-%.2f)", num("sweep_speedup_lo"), num("sweep_speedup_hi"))),
					num("hand_rows_per_s"), num("hand_b_per_row"), num("hand_cf"), num("hand_speedup")
			}' "$(wb_csvf t1)"
		echo
		echo "rows/s: rows committed per second (run_sweep: results.rows_per_s, tps x N, its interval likewise);"
		echo "kB/row: the article's WAL MB for its 10,000 rows over 10,000; B/row: WAL bytes per row committed"
		echo "(run_sweep: wal_lsn_start to wal_lsn_end over commits x N; by hand: its two WAL positions over"
		echo "transactions x N; a pgbench_history row is ~400 times smaller than the article's); c/f: commits"
		echo "per WAL fsync (run_sweep: results', from steps.wal_fsyncs; by hand: walpressure.live since a"
		echo "reset() after the warm-up); speedup: rows/s against N = 1, paired per round."
		echo "N stops at 1000: pgbench parses the engine's script of N rows (5 lines a row) before its clock"
		echo "starts, in $(wb_awk 'row() { printf "%s%.2f s at N = %s", (k++ ? ", " : ""), num("ms") / 1000, col("rows") }' "$(wb_csvf parse)") here, as N squared:"
		wb_awk 'row() { t = num("ms") / 1000; n = num("rows") } END { printf "about %.0f s at N = 5000 and %.0f s at N = 10000, more than a step'"'"'s warm-up and window\n", t * (5000 / n) ^ 2, t * (10000 / n) ^ 2 }' "$(wb_csvf parse)"
		echo "($warm s and $seconds s): their steps would be discarded, pgbench killed before its first transaction."
		echo
		echo "reading (computed from the figures above):"
		wb_awk "$judge002"'
			row() && num("run") {
				i = ++m; n[i] = col("n"); ar[i] = num("article_rows_per_s"); aw[i] = num("article_kb_per_row"); s[i] = num("sweep_rows_per_s"); h[i] = num("hand_rows_per_s")
				sw[i] = num("sweep_b_per_row"); hw[i] = num("hand_b_per_row"); cf[i] = num("sweep_cf"); hcf[i] = num("hand_cf"); ldr[i] = num("sweep_leaders_per_commit")
				if (n[i] == 1) judge("rows/s at N = 1 (the fsync cost: 1 / rows/s)", 704, col("sweep_rows_per_s"), col("sweep_rows_lo"), col("sweep_rows_hi"), h[i], "%.0f")
				else judge("rows/s at N = " n[i] " against N = 1", sprintf("%.2f", num("article_speedup")), col("sweep_speedup"), col("sweep_speedup_lo"),
					col("sweep_speedup_hi"), num("hand_speedup"), "%.2fx")
			}
			row() { na++; an[na] = col("n"); anr[na] = num("article_rows_per_s"); anw[na] = num("article_kb_per_row") }
			END {
				for (i = 1; i <= na; i++) if (an[i] == n[m]) am = i
				printf "- where rows/s flattens (the first N at 90%% of the rows/s at N = %s): the article N = %s, run_sweep N = %s, by hand N = %s\n",
					n[m], aflat(), flat(s), flat(h)
				printf "- the article beyond N = %s: %s rows/s at N = %s, %.2f times its N = %s\n", n[m], anr[na], an[na], anr[na] / anr[am], n[m]
				printf "- WAL per row from N = 1 to N = %s: the article %+.1f%%, run_sweep %+.1f%%, by hand %+.1f%%\n",
					n[m], 100 * (anw[am] / anw[1] - 1), 100 * (sw[m] / sw[1] - 1), 100 * (hw[m] / hw[1] - 1)
				printf "- commits per fsync at N = 1: the article 1.00 (fsync calls = commits), run_sweep %.2f, by hand %.2f; run_sweep'"'"'s leaders per commit there %.2f (a commit that flushed the WAL itself): %s\n",
					cf[1], hcf[1], ldr[1], (ldr[1] >= 0.99 && cf[1] < 0.95) ? "its steps count " sprintf("%.0f%%", 100 * (1 / cf[1] - 1)) " more WAL fsyncs than commits that each did one (steps.wal_fsyncs is pg_stat_wal'"'"'s, which can hold up to a second from before the window)" : "no gap"
			}
			function flat(x,   i) { for (i = 1; i <= m; i++) if (x[i] >= 0.9 * x[m]) return n[i]; return "-" }
			function aflat(   i) { for (i = 1; i <= am; i++) if (anr[i] >= 0.9 * anr[am]) return an[i]; return "-" }' "$(wb_csvf t1)"
	fi
	if has 2; then
		echo
		echo "## 2. synchronous_commit, one client committing each row (autocommit), $t2cap write IOPS"
		echo "# $(wb_sweep_call "$id2")"
		echo
		printf '%-9s | %-8s | %-48s | %-16s\n' "" "article" "run_sweep" "pgbench by hand"
		printf '%-9s | %8s | %8s %19s %8s %9s | %8s %7s\n' "" "rows/s" "rows/s" "(95%)" "fsync ms" "c/f" "rows/s" "c/f"
		wb_awk 'row() && col("value") != "off/on" {
				printf "%-9s | %8s | %8.0f %19s %8s %9s | %8.0f %7.2f\n", col("value"), col("article_rows_per_s"), num("sweep_rows_per_s"),
					sprintf("(%.0f-%.0f)", num("sweep_lo"), num("sweep_hi")), or_dash(col("sweep_fsync_ms")), or_dash(col("sweep_cf")),
					num("hand_rows_per_s"), num("hand_cf") }
			row() && col("value") == "off/on" {
				printf "%-9s | %7sx | %7.2fx %19s %8s %9s | %7.2fx\n", "off / on", col("article_rows_per_s"), num("sweep_rows_per_s"),
					(col("sweep_lo") == "" ? "" : sprintf("(%.2f-%.2f)", num("sweep_lo"), num("sweep_hi"))), "", col("sweep_verdict"), num("hand_rows_per_s") }' \
			"$(wb_csvf t2)"
		echo
		echo "fsync ms: results' mean WAL fsync time (track_wal_io_timing); c/f: commits per WAL fsync"
		echo "(with synchronous_commit off the WAL writer's fsyncs carry the commits); off / on: rows/s,"
		echo "paired per round (run_sweep: per repeat, with results' verdict; by hand: per round)."
		echo
		echo "reading (computed from the figures above):"
		wb_awk "$judge002"'
			row() && col("value") == "on" { judge("synchronous_commit on, rows/s (the article'"'"'s fsync cost)", 704, col("sweep_rows_per_s"), col("sweep_lo"), col("sweep_hi"), num("hand_rows_per_s"), "%.0f") }
			row() && col("value") == "off" { judge("synchronous_commit off, rows/s", 8333, col("sweep_rows_per_s"), col("sweep_lo"), col("sweep_hi"), num("hand_rows_per_s"), "%.0f") }
			row() && col("value") == "off/on" { judge("off against on", 11.84, col("sweep_rows_per_s"), col("sweep_lo"), col("sweep_hi"), num("hand_rows_per_s"), "%.2fx") }' \
			"$(wb_csvf t2)"
	fi
	if has 3; then
		echo
		echo "## 3. commit_delay, 8 writers committing each row (commit_siblings 5), $t3cap write IOPS"
		echo "# $(wb_sweep_call "$id3")"
		echo
		printf '%-12s | %-15s | %-52s | %-22s\n' "" "the article" "run_sweep" "pgbench by hand"
		printf '%-12s | %6s %8s | %6s %6s %8s %19s %9s | %6s %6s %8s\n' "commit_delay" "fsyncs" "rows/s" \
			"fsyncs" "c/f" "rows/s" "(95%)" "write IOPS" "fsyncs" "c/f" "rows/s"
		wb_awk 'row() && col("value") != "10/0" {
				cf = num("sweep_cf"); hcf = num("hand_cf")
				printf "%-12s | %6s %8s | %6.0f %6.2f %8.0f %19s %9s | %6.0f %6.2f %8.0f\n", col("value") " us", col("article_fsyncs"), col("article_rows_per_s"),
					(cf > 0 ? 8000 / cf : 0), cf, num("sweep_rows_per_s"), sprintf("(%.0f-%.0f)", num("sweep_lo"), num("sweep_hi")), col("sweep_write_iops"),
					(hcf > 0 ? 8000 / hcf : 0), hcf, num("hand_rows_per_s") }
			row() && col("value") == "10/0" {
				printf "%-12s | %14sx | %21.2fx %19s %9s | %21.2fx\n", "10 us / 0", col("article_rows_per_s"), num("sweep_rows_per_s"),
					(col("sweep_lo") == "" ? "" : sprintf("(%.2f-%.2f)", num("sweep_lo"), num("sweep_hi"))), col("sweep_verdict"), num("hand_rows_per_s") }' \
			"$(wb_csvf t3)"
		echo
		echo "fsyncs: WAL fsyncs per 8,000 commits (the article's 8 writers x 1000 rows), 8000 / c/f;"
		echo "c/f: commits per WAL fsync.  probe_fsync at $t3cap write IOPS: ${t3probe% *} fsyncs/s, ${t3probe#* } ms each"
		echo "(the article's baseline needs 5128 a second).  10 us / 0: rows/s paired per round."
		echo
		echo "reading (computed from the figures above):"
		wb_awk "$judge002"'
			row() && col("value") == "10/0" { judge("rows/s at 10 us against 0", 1.50, col("sweep_rows_per_s"), col("sweep_lo"), col("sweep_hi"), num("hand_rows_per_s"), "%.2fx") }
			row() && col("value") == "0" { judge("rows/s at 0 us", 5128, col("sweep_rows_per_s"), col("sweep_lo"), col("sweep_hi"), num("hand_rows_per_s"), "%.0f")
				s0 = num("sweep_cf"); h0 = num("hand_cf") }
			row() && col("value") == "10" { s1 = num("sweep_cf"); h1 = num("hand_cf") }
			END {
				printf "- commits per fsync at 0 us: the article 1.00 (no grouping), run_sweep %.2f, by hand %.2f: %s\n", s0, h0,
					(s0 <= 1.1 && h0 <= 1.1) ? "agrees" : "differs: commits already share WAL flushes without a delay"
				printf "- commits per fsync at 10 us: the article 2.81, run_sweep %.2f (%+.0f%% on its 0 us), by hand %.2f (%+.0f%%)\n",
					s1, 100 * (s1 / s0 - 1), h1, 100 * (h1 / h0 - 1)
			}' "$(wb_csvf t3)"
		echo "- best: $(wb_awk -v id="$id3" 'row() && col("sweep_id") == id { print col("answer") }' "$(wb_csvf best)")"
	fi
	if has 4; then
		echo
		echo "## 4. The fsync budget: max commits/s = 1 / fsync latency (one client committing each row)"
		echo "# $(wb_sweep_call "$id4")"
		echo
		printf '%-28s | %-29s | %-14s | %-33s | %-15s\n' "the article: storage" "probe_fsync" "pg_test_fsync" \
			"run_sweep" "pgbench by hand"
		printf '%-28s | %6s %6s %7s %7s | %14s | %5s %7s %13s %5s | %7s %6s\n' "(cap)  fsync ms, fsyncs/s" \
			"ops/s" "avg ms" "p99 ms" "budget" "fdatasync/s" "IOPS" "tps" "(95%)" "of b." "tps" "of b."
		wb_awk 'row() && col("cap") == "0" { printf "%-28s | %6s %6s %7s %7s | %14s |\n", "(uncapped)", col("probe_ops_per_s"), col("probe_avg_ms"),
				col("probe_p99_ms"), col("budget_per_s"), col("test_fsync_ops_per_s"); next }
			row() { b = num("budget_per_s"); t = num("sweep_tps"); h = num("hand_tps")
				printf "%-28s | %6s %6s %7s %7s | %14s | %5s %7.0f %13s %4.0f%% | %7.0f %5.0f%%\n",
					col("storage") " (" col("cap") ")  " col("article_fsync_ms") ", " col("article_fsyncs_per_s"), col("probe_ops_per_s"), col("probe_avg_ms"),
					col("probe_p99_ms"), col("budget_per_s"), col("test_fsync_ops_per_s"), or_dash(col("sweep_write_iops")), t,
					sprintf("(%.0f-%.0f)", num("sweep_lo"), num("sweep_hi")), (b > 0 ? 100 * t / b : 0), h, (b > 0 ? 100 * h / b : 0) }' "$(wb_csvf t4)"
		echo
		echo "cap: pg_wal's disk capped at twice the article's fsyncs/s (an fdatasync is two write IOs"
		echo "under the cap).  probe_fsync('$probe_s s'): walpressure's 8 kB write + fdatasync loop in pg_wal under"
		echo "the cap; budget = its commit_budget_per_s, 1 / avg.  pg_test_fsync -s 1: its fdatasync line,"
		echo "in the same cgroup.  IOPS: the steps' write IOPS.  tps: commits/s of one client in autocommit;"
		echo "of b.: as a share of the budget."
		echo
		echo "reading (computed from the figures above):"
		wb_awk 'row() && col("cap") != "0" {
			c = col("cap"); n = col("storage"); aops = num("article_fsyncs_per_s"); ops = num("probe_ops_per_s"); b = num("budget_per_s")
			tops = num("test_fsync_ops_per_s"); tps = col("sweep_tps"); lo = col("sweep_lo"); hi = col("sweep_hi"); h = num("hand_tps")
			printf "- %s (cap %s): probe_fsync %s fsyncs/s against the article'"'"'s %s (%+.0f%%); pg_test_fsync %.0f (%+.0f%% from the probe)\n",
				n, c, ops, aops, 100 * (ops / aops - 1), tops, 100 * (tops / ops - 1)
			if (tps == "" || lo == "") { printf "  run_sweep has no figure; by hand %.0f commits/s\n", h; next }
			if (b >= lo + 0 && b <= hi + 0) v = "inside the interval: the bound is reached"
			else if (b > hi + 0) v = "above the interval: the bound holds and is not reached"
			else v = "BELOW the interval: the bound does not hold"
			printf "  run_sweep %.0f commits/s (95%% interval %.0f-%.0f), %.0f%% of the probe'"'"'s budget %s, which is %s; by hand %.0f (%.0f%%), %s the interval; the article'"'"'s max commits/s %s is %s the interval\n",
				tps, lo, hi, (b > 0 ? 100 * tps / b : 0), b, v, h, (b > 0 ? 100 * h / b : 0),
				((h >= lo + 0 && h <= hi + 0) ? "inside" : "OUTSIDE"), aops, ((aops >= lo + 0 && aops <= hi + 0) ? "inside" : ((aops > hi + 0) ? "above" : "below"))
		}' "$(wb_csvf t4)"
	fi
	if has 5; then
		echo
		echo "## 5. Full-page images against checkpoint distance (tpcb-like, 4 clients, scale $scale)"
		echo "# $(wb_sweep_call "$id5")"
		echo
		printf '%-12s | %-66s | %-34s\n' "" "run_sweep" "pgbench by hand"
		printf '%-12s | %5s %6s %7s %7s %6s %7s %13s %9s | %5s %6s %7s %6s %6s\n' "max_wal_size" "ckpts" "FPI %" "FPI B %" \
			"(res.)" "WAL/s" "tps" "(95%)" "verdict" "ckpts" "FPI %" "FPI B %" "WAL/s" "tps"
		wb_awk 'row() { printf "%-12s | %5.1f %6.2f %7.1f %7.1f %6.1f %7.0f %13s %9s | %5.1f %6.2f %7.1f %6.1f %6.0f\n",
				col("value"), num("sweep_ckpts"), num("sweep_fpi_pct"), num("sweep_fpi_bytes_pct"), num("results_fpi_bytes_pct"), num("sweep_wal_mb_s"),
				num("sweep_tps"), sprintf("(%.0f-%.0f)", num("sweep_lo"), num("sweep_hi")), col("sweep_verdict"), num("hand_ckpts"), num("hand_fpi_pct"),
				num("hand_fpi_bytes_pct"), num("hand_wal_mb_s"), num("hand_tps") }' "$(wb_csvf t5)"
		echo "the article (its ingestion):      6.47     7.0    (18,423 of 284,729 records; 287 MB of 4.1 GB)"
		echo
		echo "ckpts: checkpoints in the window after the step's own (run_sweep: per step; by hand: median);"
		echo "FPI %: full-page images per 100 WAL records (the window's WAL); FPI B %: their share of the WAL"
		echo "bytes of the window (run_sweep: steps.fpi_bytes, the server's WAL reader over wal_lsn_start to"
		echo "wal_lsn_end, over those positions' difference; by hand: pg_waldump --stats over its own"
		echo "window); (res.): results.fpi_bytes_pct, the same images over the window's WAL positions;"
		echo "WAL/s: MB of WAL per second between the WAL positions; verdict: tps against max_wal_size"
		echo "$(wb_awk 'row() { b = col("baseline") } END { print b }' "$(wb_csvf t5)") (results' baseline)."
		echo
		echo "reading (computed from the figures above):"
		wb_awk "$judge002"'row() { i = ++m; v[i] = col("value"); fb[i] = num("sweep_fpi_bytes_pct"); fr[i] = num("results_fpi_bytes_pct")
				hfb[i] = num("hand_fpi_bytes_pct"); fp[i] = num("sweep_fpi_pct"); wr[i] = num("wal_bytes_over_lsn"); base = col("baseline")
				g[i] = col("tps_ratio_gm"); lo[i] = col("tps_ratio_lo"); hi[i] = col("tps_ratio_hi"); hg[i] = col("hand_tps_ratio") }
			END {
				sd = 1; hd = 1
				for (i = 2; i <= m; i++) { if (fb[i] > fb[i - 1]) sd = 0; if (hfb[i] > hfb[i - 1]) hd = 0 }
				printf "- the FPI share of WAL bytes with more checkpoint distance (%s to %s): run_sweep %.1f%% to %.1f%% (%s), by hand %.1f%% to %.1f%% (%s); the article: fewer images with more distance\n",
					v[1], v[m], fb[1], fb[m], sd ? "falls, agrees" : "does not fall throughout, differs",
					hfb[1], hfb[m], hd ? "falls, agrees" : "does not fall throughout, differs"
				for (i = 1; i <= m; i++)
					printf "- at %s: run_sweep %.1f%% of the bytes, by hand %.1f%% (%+.1f points); the images are %.2f%% of the records and weigh %.1f times their share (the article 7.0 / 6.47 = 1.08)\n",
						v[i], fb[i], hfb[i], fb[i] - hfb[i], fp[i], (fp[i] > 0 ? fb[i] / fp[i] : 0)
				for (i = 1; i <= m; i++)
					printf "- results.fpi_bytes_pct at %s: %.1f%% against %.1f%% of the window'"'"'s bytes (%+.1f points): its steps.wal_bytes are %.2f times the WAL between wal_lsn_start and wal_lsn_end (the records'"'"' own bytes, the pages'"'"' headers and alignment left out; pg_stat_wal'"'"'s, which lag, in runs before 29516bd)\n",
						v[i], fr[i], fb[i], fr[i] - fb[i], wr[i]
				for (i = 1; i <= m; i++) if (v[i] != base)
					judge("tps at max_wal_size " v[i] " against " base, "-", g[i], lo[i], hi[i], hg[i], "%.2fx")
			}' "$(wb_csvf t5)"
	fi
	if has 6; then
		echo
		echo "## 6. wal_buffers_full (4 clients, INSERT ... SELECT of 1000 rows per commit)"
		echo "# $(wb_sweep_call "$id6" | sed 's/, round [0-9]*/, round <r>/')"
		echo "# wal_buffers needs a restart: one sweep per round and value.  run_sweep('wal_buffers', ...):"
		echo "# ${wb_refusal:-(no error)}"
		echo
		printf '%-16s | %-25s | %-25s\n' "" "run_sweep (one step each)" "pgbench by hand"
		printf '%-16s | %10s %14s | %10s %14s\n' "wal_buffers" "rows/s" "buffers full/s" "rows/s" "buffers full/s"
		wb_awk -v auto="$wal_buffers_auto" 'row() { printf "%-16s | %10.0f %14.1f | %10.0f %14.1f\n", (col("value") == "-1" ? "-1 (" auto ")" : col("value")),
				num("sweep_rows_per_s"), num("sweep_full_per_s"), num("hand_rows_per_s"), num("hand_full_per_s") }' "$(wb_csvf t6)"
		echo "the article       wal_buffers_full 0 ('even during bulk loads', at 16GB of shared_buffers)"
		echo
		echo "rows/s: medians over the rounds; buffers full/s: pg_stat_wal.wal_buffers_full per second, the"
		echo "times a backend had to write WAL out itself because wal_buffers had no free page."
		echo
		echo "reading (computed from the figures above):"
		wb_awk 'row() && col("value") == "64kB" { f64 = num("sweep_full_per_s"); h64 = num("hand_full_per_s")
				R["n"] = 2; R["gm"] = num("rows_ratio_gm"); R["lo"] = col("rows_ratio_lo"); R["hi"] = col("rows_ratio_hi")
				lo = num("rows_ratio_min"); hi = num("rows_ratio_max"); h = num("hand_rows_ratio") }
			row() && col("value") == "-1" { fdf = num("sweep_full_per_s"); hdf = num("hand_full_per_s") }
			END {
				printf "- at the default: wal_buffers_full/s run_sweep %.1f, by hand %.1f; the article 0: %s\n", fdf, hdf,
					(fdf == 0 && hdf == 0) ? "agrees" : "differs"
				printf "- at 64kB: run_sweep %.1f/s, by hand %.1f/s: %s\n", f64, h64,
					(f64 > 0 && h64 > 0) ? "an undersized wal_buffers fills, as the article says it would" : "it did not fill"
				printf "- rows/s at 64kB against the default, paired per round: run_sweep %s (per round %.2f-%.2f), by hand %.2fx\n", iv(R, "gm", "%.2fx"), lo, hi, h
			}' "$(wb_csvf t6)"
	fi
	if has 7; then
		echo
		echo "## 7. WAL rate per activity (by hand, $rounds rounds of $t7s s; walpressure.samples every 100ms)"
		echo
		printf '%-46s | %8s | %9s %9s %7s | %s\n' "activity (the article's row)" "article" "sampler" "WAL LSN" "diff" "seconds"
		wb_awk 'row() { s = num("sampler_MBps"); l = num("lsn_MBps")
			printf "%-46s | %8s | %9.3f %9.3f %7s | %5.1f\n", col("label"), col("article_MBps"), s, l, (l > 0 ? sprintf("%+.0f%%", 100 * (s / l - 1)) : "-"), num("seconds") }' \
			"$(wb_csvf t7)"
		echo
		echo "sampler: MB/s from walpressure.samples: the wal_bytes (pg_stat_wal's) of the samples that ended"
		echo "in the interval or in the 1.5 s after it (the backends publish their WAL statistics up to a"
		echo "second late), over the interval; WAL LSN: pg_current_wal_insert_lsn() at its two ends;"
		echo "diff: sampler against LSN.  Medians over the rounds.  Activities: pgbench -T $t7s -c 4 -j 2"
		echo "(select-only; tpcb-like; the bulk INSERT ... SELECT of 1000 rows per commit of table 6); REINDEX"
		echo "INDEX pgbench_accounts_pkey back to back for $t7s s; VACUUM of accounts, tellers and branches once,"
		echo "after an UPDATE of every tenth account (outside the interval), over its own run.  No checkpoint"
		echo "inside the table (one before it): images come with the first change to a page after it.  The"
		echo "article's ingestion is paced (10k articles an hour); the bulk load here is not."
		echo
		echo "reading (computed from the figures above):"
		wb_awk 'row() && col("article_MBps") != "-" { n++; a[n] = col("activity"); art[n] = num("article_MBps"); s[n] = num("sampler_MBps"); l[n] = num("lsn_MBps") }
			row() && col("activity") == "vacuum" { vs = num("sampler_MBps") }
			END {
				printf "- the order, lowest first: the article %s; the sampler %s; WAL LSN %s\n", ord(art), ord(s), ord(l)
				sw = 0; pairs = ""
				for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
					if ((art[i] - art[j]) * (s[i] - s[j]) <= 0) { sw++; pairs = pairs (sw > 1 ? ", " : "") a[i] " / " a[j] }
				if (sw == 0) print "- the sampler'"'"'s order agrees with the article'"'"'s"
				else printf "- the sampler'"'"'s order differs from the article'"'"'s in %d of %d pairs: %s\n", sw, n * (n - 1) / 2, pairs
				for (i = 1; i <= n; i++) printf "%s%s %.3g MB/s (%.3g times the article'"'"'s)", (i == 1 ? "- here against the article: " : ", "), a[i], s[i], (art[i] > 0 ? s[i] / art[i] : 0)
				printf "\n- VACUUM (not in the article): %.3g MB/s while it ran\n", vs
				md = 0; mw = "-"
				for (i = 1; i <= n; i++) if (l[i] > 0.05) { d = 100 * (s[i] / l[i] - 1); if (abs(d) > abs(md)) { md = d; mw = a[i] } }
				printf "- the sampler against the WAL positions: largest difference %+.1f%% (%s; rates under 0.05 MB/s left out)\n", md, mw
			}
			function ord(x,   i, j, k, t, idx, o) {
				for (i = 1; i <= n; i++) idx[i] = i
				for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[idx[j]] < x[idx[i]]) { t = idx[i]; idx[i] = idx[j]; idx[j] = t }
				o = a[idx[1]]
				for (k = 2; k <= n; k++) o = o (x[idx[k]] == x[idx[k - 1]] ? " = " : " < ") a[idx[k]]
				return o
			}' "$(wb_csvf t7)"
	fi
	echo
	echo "## Fidelity to the article, per table (bench/lib's rule: stats.awk fid_*; docs/benchmarks/fidelity.md)"
	echo
	if has 1; then
		wb_awk 'row() && num("run") && num("n") != 1 {
				R["gm"] = num("sweep_speedup"); R["lo"] = col("sweep_speedup_lo"); R["hi"] = col("sweep_speedup_hi")
				fid_effect(F, "N = " col("n"), num("article_speedup"), R, col("hand_speedup"), 1)
				i++; n[i] = col("n"); s[i] = num("sweep_speedup"); h[i] = num("hand_speedup"); a[i] = num("article_speedup")
			}
			row() && num("n") == 1 { r1 = num("sweep_rows_per_s"); b1 = num("sweep_b_per_row") }
			END {
				up = hup = 1
				for (j = 2; j <= i; j++) { if (s[j] <= s[j - 1]) up = 0; if (h[j] <= h[j - 1]) hup = 0 }
				fid_order(F, up, "run_sweep'"'"'s rows/s do not rise with N throughout")
				fid_order(F, hup, "by hand'"'"'s rows/s do not rise with N throughout")
				for (j = 1; j <= i; j++) { t = t sprintf("%s%.1fx", (j > 1 ? ", " : ""), s[j]); th = th sprintf("%s%.1fx", (j > 1 ? ", " : ""), h[j]); ta = ta sprintf("%s%.1fx", (j > 1 ? ", " : ""), a[j]); tn = tn (j > 1 ? ", " : "") n[j] }
				printf "1. commit every N rows: %s: %s\n", fid_status(F), fid_why(F)
				fid_line(F, "002", "commit every N rows, one client, at the article'"'"'s fsync cost", \
					sprintf("rows/s against N = 1 at N = %s: %s (run_sweep), by hand %s, the article %s; N = 1: %.0f rows/s (the article 704); a row %.0f B of WAL here, the article'"'"'s 31 kB (its rows not met); N above 1000 not run", \
						tn, t, th, ta, r1, b1))
			}' "$(wb_csvf t1)"
	fi
	if has 2; then
		wb_awk 'row() && col("value") == "off/on" {
				R["gm"] = num("sweep_rows_per_s"); R["lo"] = col("sweep_lo"); R["hi"] = col("sweep_hi")
				fid_effect(F, "off against on", 11.84, R, col("hand_rows_per_s"), 1); g = R["gm"]; lo = R["lo"]; hi = R["hi"]; h = num("hand_rows_per_s") }
			row() && col("value") == "on" { on = num("sweep_rows_per_s") }
			END {
				printf "2. synchronous_commit off: %s: %s\n", fid_status(F), fid_why(F)
				fid_line(F, "002", "synchronous_commit off, one client, at the article'"'"'s fsync cost", \
					sprintf("off against on %.1fx (95%% interval %s-%s), by hand %.1fx, the article 11.8x; on: %.0f rows/s (the article 704)", g, fid_num(lo), fid_num(hi), h, on))
			}' "$(wb_csvf t2)"
	fi
	if has 3; then
		wb_awk 'row() && col("value") == "10/0" {
				R["gm"] = num("sweep_rows_per_s"); R["lo"] = col("sweep_lo"); R["hi"] = col("sweep_hi")
				fid_effect(F, "10 us against 0", 1.50, R, col("hand_rows_per_s"), 1); g = R["gm"]; lo = R["lo"]; hi = R["hi"]; h = num("hand_rows_per_s") }
			row() && col("value") == "0" { cf0 = num("sweep_cf") }
			END {
				printf "3. commit_delay with 8 writers: %s: %s\n", fid_status(F), fid_why(F)
				fid_line(F, "002", "commit_delay 10 us with 8 writers, at the article'"'"'s fsync rate", \
					sprintf("10 us against 0 %.2fx (95%% interval %s-%s), by hand %.2fx, the article 1.50x; %.1f commits per fsync at 0 us (the article 1.0)", g, fid_num(lo), fid_num(hi), h, cf0))
			}' "$(wb_csvf t3)"
	fi
	if has 4; then
		wb_awk 'row() && col("cap") != "0" {
				i++; st[i] = col("storage"); t[i] = num("sweep_tps"); h[i] = num("hand_tps"); a[i] = num("article_fsyncs_per_s")
				if (col("storage") == "NVMe") { nv = sprintf("NVMe not judged: this disk does %s fsyncs/s uncapped, fewer than its %s", un, col("article_fsyncs_per_s")); next }
				R["gm"] = t[i]; R["lo"] = col("sweep_lo"); R["hi"] = col("sweep_hi")
				fid_effect(F, col("storage") " commits/s", a[i], R, h[i], "")
				s = s sprintf("%s%s %.0f (%s-%s, by hand %.0f; the article %.0f)", (s == "" ? "" : ", "), col("storage"), t[i], fid_num(R["lo"]), fid_num(R["hi"]), h[i], a[i])
			}
			row() && col("cap") == "0" { un = col("probe_ops_per_s") }
			END {
				dn = hdn = 1
				for (j = 2; j <= i; j++) { if (t[j] >= t[j - 1]) dn = 0; if (h[j] >= h[j - 1]) hdn = 0 }
				fid_order(F, dn, "run_sweep'"'"'s commits/s do not fall with the slower devices")
				fid_order(F, hdn, "by hand'"'"'s commits/s do not fall with the slower devices")
				printf "4. the fsync budget: %s: %s\n", fid_status(F), fid_why(F)
				fid_line(F, "002", "fsync cost per storage type: max commits/s = 1 / fsync latency, one client", \
					sprintf("commits/s under caps of twice the article'"'"'s fsyncs/s (its devices emulated): %s; %s", s, nv))
			}' "$(wb_csvf t4)"
	fi
	if has 5; then
		wb_awk -v id="$id5" '
			FILENAME ~ /t5.csv$/ { if (row()) { i++; v[i] = col("value"); fb[i] = num("sweep_fpi_bytes_pct"); hfb[i] = num("hand_fpi_bytes_pct") } next }
			FILENAME ~ /steps.csv$/ { if (row() && col("sweep_id") == id && col("discarded") == "" && num("wal_lsn_bytes") > 0 && col("fpi_bytes") != "") {
					k = col("value"); x[k, ++nx[k]] = 100 * num("fpi_bytes") / num("wal_lsn_bytes") } next }
			END {
				for (j = 1; j <= nx[v[i]]; j++) y[j] = x[v[i], j]
				summary(y, nx[v[i]], S); R["gm"] = S["mean"]; R["lo"] = S["lo"]; R["hi"] = S["hi"]
				fid_effect(F, "full-page images'"'"' share of the WAL bytes at " v[i] " (%)", 7.0, R, hfb[i], "")
				fid_order(F, fb[i] < fb[1], sprintf("run_sweep %.1f%% at %s, %.1f%% at %s", fb[1], v[1], fb[i], v[i]))
				fid_order(F, hfb[i] < hfb[1], sprintf("by hand %.1f%% at %s, %.1f%% at %s", hfb[1], v[1], hfb[i], v[i]))
				printf "5. full-page images against checkpoint distance: %s: %s\n", fid_status(F), fid_why(F)
				fid_line(F, "002", "full-page images against checkpoint distance", \
					sprintf("their share of the WAL bytes %.1f%% at %s, %.1f%% at %s (by hand %.1f%% and %.1f%%); the article 7%% during its ingestion (its rows and distance not given: not met)", \
						fb[1], v[1], fb[i], v[i], hfb[1], hfb[i]))
			}' "$(wb_csvf t5)" "$steps"
	fi
	if has 6; then
		wb_awk '
			FILENAME ~ /wal_buffers.csv$/ { if (row()) sw[col("sweep_id")] = col("value"); next }
			FILENAME ~ /steps.csv$/ { if (row() && (col("sweep_id") in sw) && col("discarded") == "") { k = sw[col("sweep_id")]; x[k, ++nx[k]] = num("wal_buffers_full") / num("server_seconds") } next }
			FILENAME ~ /t6.csv$/ { if (row()) { hf[col("value")] = num("hand_full_per_s"); sf[col("value")] = num("sweep_full_per_s") } next }
			END {
				for (j = 1; j <= nx["-1"]; j++) y[j] = x["-1", j]
				summary(y, nx["-1"], S); R["gm"] = S["mean"]; R["lo"] = S["lo"]; R["hi"] = S["hi"]
				fid_effect(F, "wal_buffers_full/s at the default", 0, R, hf["-1"], "")
				fid_order(F, sf["64kB"] > 0 && hf["64kB"] > 0, sprintf("at 64kB run_sweep %.1f/s, by hand %.1f/s", sf["64kB"], hf["64kB"]))
				printf "6. wal_buffers_full: %s: %s\n", fid_status(F), fid_why(F)
				fid_line(F, "002", "wal_buffers_full at the default wal_buffers", \
					sprintf("%.1f/s at the default (run_sweep), %.1f/s by hand, the article 0; %.0f/s at 64kB (by hand %.0f/s); a restart per value: one run_sweep per round and value, not one sweep; the default here %s (shared_buffers 512MB), the article'"'"'s 512MB", \
						S["mean"], hf["-1"], sf["64kB"], hf["64kB"], AUTO))
			}' AUTO="$wal_buffers_auto" "$(wb_csvf wal_buffers)" "$steps" "$(wb_csvf t6)"
	fi
	if has 7; then
		wb_awk 'row() && col("article_MBps") != "-" { n++; a[n] = col("activity"); art[n] = num("article_MBps"); s[n] = num("sampler_MBps") }
			END {
				for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) { np++; if ((art[i] - art[j]) * (s[i] - s[j]) <= 0) sw++ }
				fid_not_run(F, "the article'"'"'s activities are its content platform'"'"'s (article ingestion at 10k an hour, its read traffic, a bulk reindex of 100k articles, view count updates), which do not exist here")
				printf "7. WAL rate per activity: %s: %s\n", fid_status(F), fid_why(F)
				fid_line(F, "002", "WAL rate per workload", \
					sprintf("its platform'"'"'s activities do not exist here; pgbench activities standing in for them order differently in %d of %d pairs", sw + 0, np))
			}' "$(wb_csvf t7)"
	fi
	echo
	echo "Sweeps: $(wb_awk 'row() { printf "%s%s %s: %s%s%s", (k++ ? "; " : ""), col("sweep_id"), (col("label") == "" ? col("setting") : col("label")), col("status"),
		(num("steps_done") < num("steps_total") ? " (" col("steps_done") "/" col("steps_total") " steps)" : ""), (col("error") == "" ? "" : " [" col("error") "]") }' "$(wb_csvf sweeps)")"
	echo "Steps discarded: $(wb_awk 'row() && col("discarded") != "" { n++; if (!(col("discarded") in w)) { w[col("discarded")] = 1; l = l (l == "" ? ": " : "; ") col("discarded") } } END { print n + 0 l }' "$steps")"
	echo "max_wal_size after the sweeps: $after_mws"
}
