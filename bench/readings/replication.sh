# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/replication sets before it calls these (clients, repeats, ...)
# bench/readings/replication.sh: how bench/replication reads its figures
# (sourced by it, which declares its round trips, sweeps and runs by hand
# and runs them): one line a configuration (replication_table) and the text
# results with their reading (replication_text).  Every statistic is
# bench/lib/stats.awk's or the extension's (results).

# replication_table: table.csv, from rtt.csv, configs.csv, windows.csv,
# hand.csv, results.csv, pings.csv and lags.csv.
replication_table() {
	# --- the figures of each configuration, one line each (table.csv), from the
	# CSV tables above: results' tps and its interval, latency, fsync and c/f;
	# by hand's tps and latency; the idle ping median; the pings and lags that
	# fell in the configuration's clean windows (median; means); commit_delay
	# 1000 against 0 at the same level, paired per repeat
	wb_awk '
		FILENAME ~ /rtt.csv$/ { if (row()) { rs[col("sweep_id")] = col("rtt"); idle[col("rtt")] = col("ping_idle_median") } next }
		FILENAME ~ /configs.csv$/ { if (row()) { k = col("sweep_id") SUBSEP col("value_pos"); sc[k] = col("sc"); cd[k] = col("cd") } next }
		FILENAME ~ /windows.csv$/ { if (row() && col("state") == "clean") { key = col("rtt") SUBSEP col("sc") SUBSEP col("cd")
				r = col("rtt"); nw[r]++; w0[r, nw[r]] = num("t0"); w1[r, nw[r]] = num("t1"); wk[r, nw[r]] = key
				T[key, col("repeat")] = num("tps") } next }
		FILENAME ~ /hand.csv$/ { if (row()) { key = col("rtt") SUBSEP col("sc") SUBSEP col("cd"); ht[key] = col("tps"); hl[key] = col("latency_avg_ms") } next }
		FILENAME ~ /results.csv$/ { if (row() && num("value_pos") > 0) { k = col("sweep_id") SUBSEP col("value_pos"); res[++nr] = k
				f["tps", k] = col("tps"); f["lo", k] = col("tps_ci_low"); f["hi", k] = col("tps_ci_high"); f["lat", k] = col("latency_avg_ms")
				f["fs", k] = col("fsync_avg_ms"); f["cf", k] = col("commits_per_fsync"); f["rep", k] = col("repeats"); f["dis", k] = col("steps_discarded") } next }
		FILENAME ~ /pings.csv$/ { if (row()) { r = col("rtt"); t = num("t")
				for (i = 1; i <= nw[r]; i++) if (t >= w0[r, i] && t <= w1[r, i]) { key = wk[r, i]; pl[key, ++np[key]] = num("ms") } } next }
		FILENAME ~ /lags.csv$/ { if (row() && col("flush_ms") != "") { r = col("rtt"); t = num("t")
				for (i = 1; i <= nw[r]; i++) if (t >= w0[r, i] && t <= w1[r, i]) { key = wk[r, i]
					nl[key]++; lw[key, nl[key]] = num("write_ms"); lf[key, nl[key]] = num("flush_ms")
					if (col("replay_ms") != "") { nlr[key]++; lr[key, nlr[key]] = num("replay_ms") } } } next }
		# the mean of A[key, 1..n] to 3 decimals ("" when n is 0)
		function m3(A, key, n,    y, j) { if (!n) return ""; for (j = 1; j <= n; j++) y[j] = A[key, j]; return sprintf("%.3f", mean(y, n)) }
		END {
			print "rtt,sc,cd,tps,ci_low,ci_high,latency_avg_ms,fsync_avg_ms,commits_per_fsync,hand_tps,hand_latency_ms,ping_idle_ms,ping_load_ms,write_lag_ms,flush_lag_ms,replay_lag_ms,repeats,discarded,cd_ratio_gm,cd_ratio_lo,cd_ratio_hi,hand_cd_ratio"
			for (i = 1; i <= nr; i++) {
				k = res[i]; split(k, x, SUBSEP); r = rs[x[1]]; key = r SUBSEP sc[k] SUBSEP cd[k]
				delete y; for (j = 1; j <= np[key]; j++) y[j] = pl[key, j]
				delete R
				if (cd[k] == 1000) {
					base = r SUBSEP sc[k] SUBSEP "0"; delete a; delete b
					for (kk in T) { split(kk, z, SUBSEP); if (z[1] SUBSEP z[2] SUBSEP z[3] == key) a[z[4]] = T[kk]; if (z[1] SUBSEP z[2] SUBSEP z[3] == base) b[z[4]] = T[kk] }
					paired(a, b, R); hr = (ht[base] > 0) ? ht[key] / ht[base] : ""
				} else hr = ""
				printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", r, sc[k], cd[k], f["tps", k], f["lo", k], f["hi", k], f["lat", k],
					f["fs", k], f["cf", k], ht[key], hl[key], idle[r], median(y, np[key] + 0), m3(lw, key, nl[key]), m3(lf, key, nl[key]), m3(lr, key, nlr[key]),
					f["rep", k], f["dis", k], R["gm"], R["lo"], R["hi"], hr
			}
		}' "$(wb_csvf rtt)" "$(wb_csvf configs)" "$(wb_csvf windows)" "$(wb_csvf hand)" "$(wb_csvf results)" "$(wb_csvf pings)" "$(wb_csvf lags)" \
		>"$(wb_csvf table)"
}

# replication_text: the text results, on stdout (the standby's fdatasync
# from fsync.csv, the sweep's call from calls.csv).
replication_text() {
	# the standby's fdatasync, one 8kB write and two (pg_test_fsync's, read by the run)
	sfsync_us=$(wb_awk 'row() { print col("one_8kB_write_us") }' "$(wb_csvf fsync)")
	sfsync2_us=$(wb_awk 'row() { print col("two_8kB_writes_us") }' "$(wb_csvf fsync)")
	table=$(wb_csvf table)
	standby=$(wb_csvf standby)
	# the physical bound of a configuration's commit: RTT (the idle ping median)
	# + the standby's fdatasync (on, remote_apply), RTT (remote_write), 0 (local)
	read -r -d '' bound <<'AWK' || true
function bound(sc, rtt, sf) { return (sc == "on" || sc == "remote_apply") ? rtt + sf / 1000 : (sc == "remote_write") ? rtt : 0 }
AWK

	wb_header "bench/replication: a primary and one synchronous standby (s1) behind an emulated round trip"
	echo "# walpressure $version on the primary, standby: $sversion (preload: $spreload)"
	echo "# the sweep, per round trip: $(wb_sweep_calls | tail -n 1 | sed "s/RTT [0-9.]* ms/RTT <rtt> ms/")"
	echo "# $clients clients, simple-update, scale $scale, $repeats interleaved repeats of ${warmup} s warm-up + ${seconds} s; by hand:"
	echo "#   pgbench -n -c $clients -j $(( clients < cpus ? clients : cpus )) -T $seconds -M prepared -b simple-update, PGOPTIONS='-c synchronous_commit=X -c commit_delay=Y',"
	echo "#   one run per configuration after a CHECKPOINT, after the sweep at the same round trip"
	echo "# replication: $repl; standby in netns $ns ($sip), primary on $hip, synchronous_standby_names 'FIRST 1 (s1)'"
	echo "# the standby's disk: $([ -n "$iops_cap" ] && echo "capped at $iops_cap write IOPS (cgroup v1 blkio:/$cg)" || echo "uncapped") (the same disk as the primary's)"
	echo "# the round trip: NFQUEUE + wp-delay, built by this script (a fixed delay each way, in arrival order);"
	echo "#   the delayer's own round trip at 0: ping median $cal ms, taken off: one-way = (RTT - $cal) / 2"
	echo "# the standby's fdatasync (pg_test_fsync -s $fsync_s, its data directory$([ -n "$iops_cap" ] && echo ", its cgroup")): one 8kB write $sfsync_us us/op, two $sfsync2_us us/op"
	echo
	echo "round trips (ms; ping -U from the standby's namespace: 200 idle, and 5 a second during the sweep's windows;"
	echo "SELECT 1: pgbench's latency average from the namespace to the primary over TCP, 1 client, 2 s, idle):"
	printf '  %-6s %10s %11s %8s %8s %11s %9s\n' RTT "one-way us" "idle median" "min" "p90" "under load" "SELECT 1"
	wb_awk 'FILENAME ~ /table.csv$/ { if (row() && col("ping_load_ms") != "") lm[col("rtt"), ++n[col("rtt")]] = num("ping_load_ms"); next }
		row() { r = col("rtt"); delete x; for (i = 1; i <= n[r]; i++) x[i] = lm[r, i]
			printf "  %-6s %10s %11s %8s %8s %11s %9s\n", r, col("oneway_us"), col("ping_idle_median"), col("ping_idle_min"), col("ping_idle_p90"),
				or_dash(median(x, n[r] + 0)), or_dash(col("select1_ms")) }' "$table" "$(wb_csvf rtt)"
	echo
	echo "commit latency against the bound (ms).  bound: RTT (idle ping median) + the standby's fdatasync (on, remote_apply),"
	echo "RTT (remote_write), 0 (local); +fs: the bound + the primary's WAL fsync (steps.fsync_avg_ms, which precedes the send)"
	printf '%-5s %-12s %5s | %-22s %8s %8s | %8s %8s | %7s %7s %6s %6s | %7s %6s %6s | %6s %6s\n' \
		RTT sync_commit delay "tps (95% interval)" "1000c/tps" "lat avg" "hand tps" "hand lat" \
		"bound" "+fs" "ratio" "ratio+" "w lag" "f lag" "r lag" "p fs" "c/f"
	wb_awk -v sf="$sfsync_us" -v c="$clients" "$bound"'row() {
		b = bound(col("sc"), num("ping_idle_ms"), sf); bf = b + num("fsync_avg_ms"); little = 1000 * c / num("tps")
		printf "%-5s %-12s %5s | %8.1f (%6.1f-%6.1f) %8.3f %8.3f | %8.1f %8s | %7.3f %7.3f %6s %6.2f | %7s %6s %6s | %6s %6s\n",
			col("rtt"), col("sc"), col("cd"), num("tps"), num("ci_low"), num("ci_high"), little, num("latency_avg_ms"), num("hand_tps"), or_dash(col("hand_latency_ms")),
			b, bf, (b > 0 ? sprintf("%.2f", little / b) : "-"), little / bf,
			or_dash(col("write_lag_ms")), or_dash(col("flush_lag_ms")), or_dash(col("replay_lag_ms")), or_dash(col("fsync_avg_ms")), or_dash(col("commits_per_fsync"))
	}' "$table"
	echo
	echo "tps: run_sweep's mean over the repeats and its 95% interval (walpressure.results); 1000c/tps: the mean commit"
	echo "latency by Little's law ($clients clients); lat avg: run_sweep's latency_avg_ms (pgbench's own timing of each"
	echo "transaction: its UPDATE, SELECT, INSERT and COMMIT); hand: pgbench by hand's tps and latency average;"
	echo "ratio: 1000c/tps over the bound; ratio+: over bound + the primary's fsync; w/f/r lag: pg_stat_replication's"
	echo "write/flush/replay lag of s1 (each the primary's flush to the standby's reply, so RTT included), sampled twice"
	echo "a second, mean over the sweep's windows; p fs: the primary's WAL fsync ms; c/f: commits per WAL fsync."
	echo
	echo "reading (computed from the figures above):"
	# the bound: holds when the mean commit latency is at least the bound
	wb_awk -v sf="$sfsync_us" -v c="$clients" "$bound"'row() {
		b = bound(col("sc"), num("ping_idle_ms"), sf)
		if (b == 0) next
		little = 1000 * c / num("tps"); n++; k = col("rtt") "/" col("sc") "/" col("cd")
		if (little >= b) ok++; else { bad = bad sprintf(" %s (%.3f < %.3f)", k, little, b) }
		if (col("latency_avg_ms") != "" && num("latency_avg_ms") < b) { lbad = lbad sprintf(" %s (%.3f)", k, num("latency_avg_ms")) }
	}
	END {
		printf "- the bound (RTT + the standby'"'"'s fdatasync for on/remote_apply, RTT for remote_write): the mean commit latency\n"
		printf "  (1000c/tps) is at or above it in %d of %d configurations%s\n", ok, n, (ok == n) ? ", as physics demands" : ";  BELOW it:" bad
		if (lbad != "") printf "  pgbench'"'"'s latency average below it:%s\n", lbad
	}' "$table"
	# the standby's flush under load: flush lag - write lag, against pg_test_fsync
	wb_awk -v sf="$sfsync_us" 'row() && (col("sc") == "on" || col("sc") == "remote_apply") && col("write_lag_ms") != "" && col("flush_lag_ms") != "" {
		d[++n] = num("flush_lag_ms") - num("write_lag_ms")
	}
	END {
		if (n) printf "- the standby'"'"'s flush under load (flush lag - write lag, on and remote_apply): %.3f ms on average (%.3f-%.3f) against pg_test_fsync'"'"'s %.3f ms idle (%.1fx)\n",
			mean(d, n), minv(d, n), maxv(d, n), sf / 1000, mean(d, n) / (sf / 1000)
	}' "$table"
	# the round trip each level adds: latency at each level minus local, per RTT and delay, against the RTT
	wb_awk -v c="$clients" 'row() { r = col("rtt"); l[r, col("sc"), col("cd")] = 1000 * c / num("tps"); p[r] = num("ping_idle_ms"); if (!(r in seen)) { seen[r] = 1; order[++nr] = r } }
	END {
		for (i = 1; i <= nr; i++) {
			t = order[i]
			for (cd = 0; cd <= 1000; cd += 1000) {
				if (!((t, "local", cd) in l)) continue
				printf "- RTT %s ms (ping %s), commit_delay %d: the latency each level adds to local: remote_write %+.3f ms (%.2f RTT), on %+.3f (%.2f RTT), remote_apply %+.3f (%.2f RTT)\n",
					t, p[t], cd, l[t, "remote_write", cd] - l[t, "local", cd], (l[t, "remote_write", cd] - l[t, "local", cd]) / p[t],
					l[t, "on", cd] - l[t, "local", cd], (l[t, "on", cd] - l[t, "local", cd]) / p[t],
					l[t, "remote_apply", cd] - l[t, "local", cd], (l[t, "remote_apply", cd] - l[t, "local", cd]) / p[t]
			}
		}
	}' "$table"
	# commit_delay 1000 against 0 at each level: paired per repeat
	wb_awk 'row() && col("cd") == "1000" {
		R["n"] = 2; R["gm"] = num("cd_ratio_gm"); R["lo"] = col("cd_ratio_lo"); R["hi"] = col("cd_ratio_hi")
		if (!n++) printf "- commit_delay 1000 against 0, per RTT and level (run_sweep: tps paired per repeat, geometric mean (95%% interval); by hand):\n"
		v = paired_verdict(R)
		v = (v == "above 1") ? "helps" : (v == "below 1") ? "HURTS" : (v == "1 inside the interval") ? "within noise" : v
		printf "  RTT %-4s %-12s %-22s %-12s  by hand %.2fx\n", col("rtt"), col("sc"), iv(R, "gm", "%.2fx"), v, num("hand_cd_ratio")
	}' "$table"
	# run_sweep against pgbench by hand
	wb_awk 'row() && num("hand_tps") > 0 { d = (num("tps") / num("hand_tps") - 1) * 100; n++; a[n] = abs(d); if (abs(d) > m) { m = abs(d); mk = col("rtt") "/" col("sc") "/" col("cd") }
	                 if (num("hand_tps") >= num("ci_low") && num("hand_tps") <= num("ci_high")) nin++ }
	END { if (n) printf "- run_sweep against pgbench by hand (-M prepared): tps %.1f%% apart on average, at most %.1f%% (%s); by hand inside run_sweep'"'"'s interval in %d of %d\n", mean(a, n), m, mk, nin, n }' "$table"
	echo "- the sweeps: $(wb_awk 'FILENAME ~ /rtt.csv$/ { if (row()) r[col("sweep_id")] = col("rtt"); next }
		row() { printf "%sRTT %s: sweep %s %s (%s/%s steps)", (k++ ? "; " : ""), r[col("sweep_id")], col("sweep_id"), col("status"), col("steps_done"), col("steps_total") }' \
		"$(wb_csvf rtt)" "$(wb_csvf sweeps)")"

	echo
	if [ "$(wc -l <"$standby")" -gt 1 ]; then
		echo "walpressure's replication figures (medians over the steps; lags: means of step_replication's per-step means):"
		printf '%-5s %-12s %5s | %8s %9s %6s | %8s %9s %9s | %9s %9s %s\n' RTT sync_commit delay "sr wait%" "sr ms" "/RTT" \
			"f lag" "r lag" "ping" "stby MB/s" "stby IOPS" "source"
		wb_awk 'FILENAME ~ /table.csv$/ { if (row()) p[col("rtt")] = num("ping_idle_ms"); next }
			row() { r = col("rtt"); printf "%-5s %-12s %5s | %8s %9s %6s | %8s %9s %9s | %9s %9s %s\n", r, col("sc"), col("cd"), or_dash(col("syncrep_wait_pct")),
				or_dash(col("syncrep_wait_ms")), (col("syncrep_wait_ms") == "" ? "-" : sprintf("%.2f", num("syncrep_wait_ms") / p[r])), or_dash(col("flush_lag_ms")),
				or_dash(col("replay_lag_ms")), p[r], or_dash(col("standby_wal_mb_per_s")), or_dash(col("standby_write_iops")), or_dash(col("standby_source")) }' "$table" "$standby"
		echo "sr wait%, sr ms: steps.syncrep_wait_pct and syncrep_wait_ms; /RTT: sr ms over the idle ping median; f/r lag:"
		echo "step_replication's flush/replay lag; stby MB/s, stby IOPS, source: steps.standby_wal_mb_per_s (the WAL it"
		echo "received), standby_write_iops and standby_source over standby_conninfo (the standby shares the primary's disk:"
		echo "uncapped, its IOPS are the whole disk's)"
		wb_awk -v sf="$sfsync_us" 'FILENAME ~ /table.csv$/ { if (row()) p[col("rtt")] = num("ping_idle_ms"); next }
			row() && col("syncrep_wait_ms") != "" { r = col("rtt"); s = num("syncrep_wait_ms"); k = r "/" col("sc") "/" col("cd")
				if (col("sc") != "local") { n++; if (s >= p[r]) ok++; else bad = bad sprintf(" %s (%.3f < %.3f)", k, s, p[r]) }
				if (col("sc") == "on" || col("sc") == "remote_apply") { b = p[r] + sf / 1000; nf++; if (s >= b) okf++; else badf = badf sprintf(" %s (%.3f < %.3f)", k, s, b) }
				if (col("sc") == "local") { nl++; if (s > ml) ml = s } }
			END {
				if (n) printf "- syncrep_wait_ms against the RTT (remote_write, on, remote_apply): at or above it in %d of %d%s\n", ok, n, (ok == n) ? "" : ";  BELOW:" bad
				if (nf) printf "- syncrep_wait_ms against RTT + the standby'"'"'s fdatasync (on, remote_apply): at or above it in %d of %d%s\n", okf, nf, (okf == nf) ? "" : ";  below:" badf
				if (nl) printf "- local: syncrep_wait_ms at most %.3f (no wait expected)\n", ml
			}' "$table" "$standby"
		# the sampled wait against what the level adds to a transaction over
		# local at the same commit_delay (run_sweep's latency_avg_ms)
		wb_awk 'FILENAME ~ /table.csv$/ { if (row()) lat[col("rtt") "/" col("sc") "/" col("cd")] = num("latency_avg_ms"); next }
			row() && col("sc") != "local" && col("syncrep_wait_ms") != "" {
				add = lat[col("rtt") "/" col("sc") "/" col("cd")] - lat[col("rtt") "/local/" col("cd")]
				if (add > 0) { n++; q[n] = num("syncrep_wait_ms") / add; if (col("rtt") == "5") { n5++; s5 += q[n] } }
			}
			END {
				if (!n) exit
				printf "- syncrep_wait_ms over the latency the level adds to local (same RTT and commit_delay): median %.2f, %.2f to %.2f over %d configurations; at RTT 5 ms, where the wait dominates, %.2f on average\n",
					median(q, n), minv(q, n), maxv(q, n), n, (n5 ? s5 / n5 : 0)
			}' "$table" "$standby"
	else
		echo "walpressure's replication figures (steps.syncrep_wait_pct/_ms, step_replication, standby_conninfo): not in walpressure $version"
	fi
}
