# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/seed-002-checkpoints sets before it calls these (small, large, ...)
# bench/readings/seed-002-checkpoints.sh: how bench/seed-002-checkpoints
# reads its figures (sourced by it, which declares its sweep and runs by
# hand and runs them): the means of every window (checkpoints_means) and
# the text results with their reading (checkpoints_text).  Every statistic
# is bench/lib/stats.awk's or the extension's (results).

# the throughput of the large value against the small, paired per round
# (run_sweep: per repeat), one line each: "gm lo hi"
paired_of() { # $1 who
	wb_awk -v who="$1" -v s="$small" -v l="$large" 'row() && col("who") == who && col("state") == "clean" {
			if (col("value") == l) a[col("round")] = num("tps"); if (col("value") == s) b[col("round")] = num("tps") }
		END { paired(a, b, R); printf "%s %s %s\n", R["gm"], or_dash(R["lo"]), or_dash(R["hi"]) }' "$(wb_csvf windows)"
}
trig() { # max_wal_size / (1 + checkpoint_completion_target), in MB
	awk -v s="$1" 'BEGIN { n = s + 0; u = toupper(s); sub(/^[0-9.]+/, "", u)
		mb = (u == "GB") ? n * 1024 : (u == "TB") ? n * 1048576 : (u == "KB") ? n / 1024 : n
		printf "%.0f", mb / 1.9 }'
}

# checkpoints_means: means.csv, from windows.csv.
checkpoints_means() {
	# the means over the clean windows of each figure (columns 4 to 18 of
	# windows.csv), per measurer and value, and the share of full-page images in
	# their WAL (fpi_pct weighted by wal_mb: the share of all the bytes)
	wb_awk 'row() && col("state") == "clean" {
			k = col("who") SUBSEP col("value"); if (!(k in n)) o[++no] = k; n[k]++
			for (i = 4; i <= 18; i++) { name[i] = NAME_[FILENAME, i]; if (ROW_[i] != "") { c[k, i]++; s[k, i, c[k, i]] = ROW_[i] } }
			if (col("fpi_pct") != "") { hf[k] += num("fpi_pct") * num("wal_mb"); hw[k] += num("wal_mb") }
		}
		END {
			printf "who,value"; for (i = 4; i <= 18; i++) printf ",%s", name[i]; print ",fpi_wal_pct,windows"
			for (j = 1; j <= no; j++) { k = o[j]; split(k, x, SUBSEP); printf "%s,%s", x[1], x[2]
				for (i = 4; i <= 18; i++) { delete y; for (j2 = 1; j2 <= c[k, i]; j2++) y[j2] = s[k, i, j2]; printf ",%s", mean(y, c[k, i] + 0) }
				printf ",%s,%d\n", (hw[k] > 0 ? hf[k] / hw[k] : ""), n[k] }
		}' "$(wb_csvf windows)" >"$(wb_csvf means)"
}

# checkpoints_text: the text results, on stdout.
checkpoints_text() {
	local means windows results
	means=$(wb_csvf means)
	windows=$(wb_csvf windows)
	results=$(wb_csvf results)

	wb_header "seed 002 (checkpoints against max_wal_size during a bulk ingestion) against the article"
	# shellcheck disable=SC2016 # $load$ is the dollar quote of the script, not a variable
	echo "# the sweep: $(wb_sweep_calls | tail -n 1 | sed 's/\$load\$.*\$load\$/$load$<load.sql>$load$/')"
	echo "# load.sql: BEGIN; $rows x INSERT INTO articles (external_id, title, body, category_id, source_id,"
	echo "#   published_at, word_count) VALUES (md5(random()::text), ..., repeat(md5(random()::text), 32), ...); END;"
	echo "#   articles: id identity primary key, external_id text UNIQUE (random), 1 kB body; autovacuum off;"
	echo "#   emptied (TRUNCATE, CHECKPOINT) before the sweep and before the rounds by hand."
	echo "# $clients clients; shared_buffers 4GB, checkpoint_timeout 15min, checkpoint_completion_target 0.9,"
	echo "# wal_keep_size 3GB, max_wal_size $small in postgresql.conf; the disk uncapped."
	echo "# Each step or run: ALTER SYSTEM max_wal_size + reload, a CHECKPOINT (counted before the window),"
	echo "# ${warmup} s of warm-up, a ${seconds} s window; $rounds interleaved rounds; figures are means over them."
	echo "# run_sweep: the pgbench engine (-j $jobs); rows/s and its 95% interval from walpressure.results, the"
	echo "# rest from walpressure.steps and step_samples.  pgbench by hand: -j $jobs, its -l log (on tmpfs) for"
	echo "# the window's rows/s and per-second p99; pg_stat_bgwriter and the WAL positions at the window's"
	echo "# edges; pg_walinspect's pg_get_wal_stats for the full-page image bytes."
	echo "# The article: 100,000 articles, 28 MB/s of WAL (its WAL rate of a bulk reindex), 16GB of"
	echo "# shared_buffers; time to load, checkpoints, I/O spikes; its FPI section: 7% of WAL bytes."
	echo
	printf '%-8s %-15s | %-26s | %5s %6s %5s | %7s %6s %7s %5s | %6s %5s | %7s %7s %5s\n' \
		"" "" "rows/s (95% interval)" "ckpts" "write" "sync" "ckpt MB" "clean" "backend" "bk fs" \
		"WAL/s" "FPI %" "p99 med" "p99 max" "spike"
	wb_awk -v s="$small" -v l="$large" -v r="$rows" '
		FILENAME ~ /results.csv$/ { if (row() && num("value_pos") > 0) { v = col("value"); rt[v] = num("tps"); rlo[v] = num("tps_ci_low"); rhi[v] = num("tps_ci_high"); rf[v] = col("fpi_bytes_pct") } next }
		FILENAME ~ /windows.csv$/ { if (row() && col("who") == "hand" && col("state") == "clean") { v = col("value"); t = num("tps")
				if (!(v in hlo) || t < hlo[v]) hlo[v] = t; if (t > hhi[v]) hhi[v] = t } next }
		FILENAME ~ /means.csv$/ { if (row()) { k = col("who") SUBSEP col("value"); for (i = 3; i <= 18; i++) M[k, NAME_[FILENAME, i]] = ROW_[i] } next }
		END {
			mb = 8192 / 1048576
			for (j = 1; j <= 2; j++) {
				v = (j == 1) ? s : l
				if (j == 1) printf "%-8s %-15s | %-26s | %5s %6s %5s | %7s %6s %7s %5s | %6s %5s | %7s %7s %5s\n", "", "article 1GB", "2381 (100,000 in 42 s)", 7, "-", "-", "-", "-", "-", "-", 28, 7, "-", "+200", 7
				else printf "%-8s %-15s | %-26s | %5s %6s %5s | %7s %6s %7s %5s | %6s %5s | %7s %7s %5s\n", "", "article 4GB", "3226 (100,000 in 31 s)", 1, "-", "-", "-", "-", "-", "-", 28, 7, "-", "+200", 1
				for (w = 1; w <= 2; w++) {
					who = (w == 1) ? "sweep" : "hand"; k = who SUBSEP v
					if (w == 1) { rps = sprintf("%.0f (%.0f-%.0f)", rt[v] * r, rlo[v] * r, rhi[v] * r); fpi = rf[v] }
					else { rps = sprintf("%.0f (%.0f-%.0f)", M[k, "tps"] * r, hlo[v] * r, hhi[v] * r); fpi = M[k, "fpi_wal_pct"] }
					printf "%-8s %-15s | %-26s | %5.1f %6.1f %5.2f | %7.0f %6.0f %7.0f %5.1f | %6.1f %5s | %7.1f %7.1f %5.1f\n",
						v, (w == 1 ? "run_sweep" : "pgbench by hand"), rps, M[k, "ckpts"], M[k, "ckpt_write_s"], M[k, "ckpt_sync_s"],
						M[k, "buffers_checkpoint"] * mb, M[k, "buffers_clean"] * mb, M[k, "buffers_backend"] * mb, M[k, "buffers_backend_fsync"],
						M[k, "wal_mb_s"], (fpi == "" ? "-" : sprintf("%.1f", fpi)), M[k, "p99_med_ms"], M[k, "p99_max_ms"], M[k, "spikes"]
				}
			}
		}' "$results" "$windows" "$means"
	echo
	echo "rows/s: rows committed a second over the window ($rows a transaction); run_sweep: the mean over"
	echo "its repeats and its 95% interval (walpressure.results); by hand: the mean and (the range of the"
	echo "rounds); the article's: 100,000 rows over its time.  ckpts: checkpoints started in the window"
	echo "(timed + requested).  write, sync: seconds the checkpoints that completed in the window spent"
	echo "writing and syncing (checkpoint_write_ms, checkpoint_sync_ms).  ckpt MB, clean, backend: MB of"
	echo "data-file buffers written over the window by the checkpointer, the background writer and the"
	echo "backends (buffers_checkpoint, buffers_clean, buffers_backend x 8 kB); bk fs:"
	echo "buffers_backend_fsync, the fsyncs backends had to do themselves.  On PostgreSQL 15"
	echo "(pg_stat_bgwriter) buffers_backend counts every write or extension by a backend that asks the"
	echo "checkpointer for an fsync, so each new page of a growing table too, and reaches the view only"
	echo "when the checkpointer takes those requests in: at a checkpoint (or when its queue is half full):"
	echo "a window without a checkpoint can read 0, its count arriving with the next CHECKPOINT, before"
	echo "the next window.  grew (the reading, by hand): MB the table and its indexes grew over the"
	echo "window.  WAL/s: MB of WAL a second from the window's start to the clients' exit (the WAL"
	echo "positions).  FPI %: full-page image bytes as a share of the WAL bytes (run_sweep:"
	echo "results.fpi_bytes_pct; by hand: pg_walinspect's fpi_size over the same positions, summed over"
	echo "the runs).  p99 med, p99 max: each second of the window has its p99 latency (ms; run_sweep:"
	echo "step_samples.latency_p99_ms; by hand: nearest rank over the transactions that ended in that"
	echo "second); per window the median and the max over its seconds.  spike: seconds of a window whose"
	echo "p99 was more than twice the window's median.  All but rows/s: means per window over the rounds."
	echo "The article's 28 MB/s is its WAL rate of a bulk reindex, 7% its FPI share during ingestion, and"
	echo "+200 its \"each causing 200ms latency increase\" per I/O spike (one a checkpoint).  Its own"
	echo "figures cannot give its 7 checkpoints: 28 MB/s x 42 s = 1176 MB of WAL, one checkpoint every"
	echo "539 MB at 1GB (max_wal_size / 1.9): 2."
	echo "Every step of the sweep, in order (value: rows/s, checkpoints, MB of WAL in the window, FPI %, p99 max ms):"
	wb_awk -v r="$rows" 'row() && col("who") == "sweep" { printf "  %s: %.0f, %d, %s, %s%%, %s%s\n", col("value"), num("tps") * r, num("ckpts"), or_dash(col("wal_mb")),
		or_dash(col("fpi_pct")), or_dash(col("p99_max_ms")), (col("state") == "clean" ? "" : " (discarded)") }' "$windows" | paste -d ' ' - -
	echo "Every run by hand, in order:"
	wb_awk -v r="$rows" 'row() && col("who") == "hand" { printf "  %s: %.0f, %d, %s, %s%%, %s\n", col("value"), num("tps") * r, num("ckpts"), col("wal_mb"),
		or_dash(col("fpi_pct")), col("p99_max_ms") }' "$windows" | paste -d ' ' - -
	echo "The sweep: $(wb_awk 'row() { print col("status") " (" col("steps_done") "/" col("steps_total") " steps)" }' "$(wb_csvf sweeps)");" \
		"max_wal_size after it: $after; postgresql.auto.conf: $(wb_awk 'row() { print or_dash(col("server_settings_restored")) }' "$(wb_csvf sweeps)")"
	echo
	echo "reading (computed from the figures above):"
	ts=$(trig "$small")
	tl=$(trig "$large")
	# the checkpoints: the trigger, the WAL a window's step wrote (warm-up included: the distance
	# runs from the step's CHECKPOINT), the checkpoints counted
	for who in sweep hand; do
		wb_awk -v who="$who" -v name="$([ "$who" = sweep ] && echo run_sweep || echo "pgbench by hand")" -v s="$small" -v l="$large" \
			-v ts="$ts" -v tl="$tl" -v w="$warmup" -v n="$seconds" 'row() && col("who") == who && col("state") == "clean" {
				c = num("ckpts"); r = num("wal_mb_s")
				if (col("value") == s) { ns++; cs[ns] = c; if (c < 1) s0++; if (ns == 1 || c < ms) ms = c; if (c > xs) xs = c; rs += r }
				if (col("value") == l) { nl++; cl[nl] = c; if (c > 0) l1++; rl[nl] = r; wl = r * (w + n); if (wl > wmax) wmax = wl }
			}
			END {
				printf "- checkpoints, %s: %s %.1f a window (%d-%d), %s %.1f; ", name, s, mean(cs, ns), ms, xs, l, mean(cl, nl)
				printf "%s starts one every %d MB of WAL, %s every %d MB; ", s, ts, l, tl
				printf "a %d s step (warm-up and window) at %s writes about %.0f MB at its mean %.1f MB/s, at most %.0f MB (%.0f%% of its trigger)\n",
					w + n, l, mean(rl, nl) * (w + n), mean(rl, nl), wmax, 100 * wmax / tl
				printf "  -> %s: %s\n", name, (s0 == 0 && l1 == 0) ? "the small value forced checkpoints in every window, the large one in none, as designed" : \
					sprintf("NOT as designed: %d window(s) at %s without a checkpoint, %d at %s with one (rescale: bash bench/seed-002-checkpoints ROUNDS SECONDS SMALL LARGE)", s0, s, l1, l)
			}' "$windows"
	done
	wb_awk -v s="$small" -v l="$large" 'row() { c[col("who"), col("value")] = num("ckpts") }
		END {
			sc = c["sweep", s]; lc = c["sweep", l]; sh = c["hand", s]; lh = c["hand", l]
			printf "- against the article (7 at 1GB, 1 at 4GB, at the end): run_sweep %.1f and %.1f, by hand %.1f and %.1f a window: more at the small value %s\n",
				sc, lc, sh, lh, (sc > lc && sh > lh) ? "with both, as in the article" : (sc > lc) ? "with run_sweep only" : (sh > lh) ? "by hand only" : "with neither, unlike the article"
		}' "$means"
	# the throughput: the large value against the small, paired per round, by hand, the article
	read -r sp lo hi <<<"$(paired_of sweep)"
	read -r h _ _ <<<"$(paired_of hand)"
	wb_awk -v s="$small" -v l="$large" -v sp="$sp" -v lo="$lo" -v hi="$hi" -v h="$h" -v r="$rows" \
		-v verdict="$(wb_awk -v l="$large" 'row() && col("value") == l && num("value_pos") > 0 { print col("verdict") }' "$results")" '
		FILENAME ~ /results.csv$/ { if (row() && num("value_pos") > 0) { v = col("value"); t[v] = num("tps"); tlo[v] = num("tps_ci_low"); thi[v] = num("tps_ci_high") } next }
		FILENAME ~ /means.csv$/ { if (row() && col("who") == "hand") ht[col("value")] = num("tps"); next }
		END {
			a = 42 / 31; R["n"] = 2; R["gm"] = sp; R["lo"] = (lo == "-") ? "" : lo; R["hi"] = (hi == "-") ? "" : hi
			printf "- throughput, %s against %s, paired per round: run_sweep %s (results'"'"' verdict: %s), pgbench by hand %.2fx, the article %.2fx (42 s -> 31 s)\n",
				l, s, iv(R, "gm", "%.2fx"), verdict, h, a
			if (R["lo"] == "") printf "  -> run_sweep has no interval (one repeat)\n"
			else {
				printf "  -> by hand is %s run_sweep'"'"'s interval (run_sweep %+.1f%% from by hand); the article'"'"'s %.2fx is %s it",
					inside(h, R) ? "inside" : "OUTSIDE", (sp / h - 1) * 100, a, inside(a, R) ? "inside" : (a < R["lo"] ? "below" : "above")
				printf "%s\n", (a > R["hi"]) ? sprintf(" (the article'"'"'s gain is %.0f%% above the interval'"'"'s top)", (a / R["hi"] - 1) * 100) : \
					(a < R["lo"]) ? sprintf(" (the article'"'"'s gain is %.0f%% below the interval'"'"'s bottom)", (1 - a / R["lo"]) * 100) : ""
			}
			printf "  -> rows/s by hand against run_sweep'"'"'s interval: %s %.0f (%s), %s %.0f (%s)\n",
				s, ht[s] * r, (ht[s] >= tlo[s] && ht[s] <= thi[s]) ? "inside" : sprintf("outside %.0f-%.0f", tlo[s] * r, thi[s] * r),
				l, ht[l] * r, (ht[l] >= tlo[l] && ht[l] <= thi[l]) ? "inside" : sprintf("outside %.0f-%.0f", tlo[l] * r, thi[l] * r)
		}' "$results" "$means"
	# the I/O spikes: the per-second p99
	for who in sweep hand; do
		wb_awk -v who="$who" -v name="$([ "$who" = sweep ] && echo run_sweep || echo "pgbench by hand")" -v s="$small" -v l="$large" '
			row() && col("who") == who { v = col("value"); mx[v] = num("p99_max_ms"); md[v] = num("p99_med_ms"); sp[v] = num("spikes"); ck[v] = num("ckpts") }
			END {
				printf "- I/O spikes, %s: the worst second'"'"'s p99 over the window'"'"'s median p99: %s %.1f ms over %.1f (+%.1f ms, %.1fx), %s %.1f over %.1f (+%.1f ms, %.1fx);",
					name, s, mx[s], md[s], mx[s] - md[s], (md[s] > 0 ? mx[s] / md[s] : 0), l, mx[l], md[l], mx[l] - md[l], (md[l] > 0 ? mx[l] / md[l] : 0)
				printf " seconds above twice the median: %.1f and %.1f a window (checkpoints %.1f and %.1f)\n", sp[s], sp[l], ck[s], ck[l]
				d = (mx[s] - md[s]) - (mx[l] - md[l])
				printf "  -> the article: +200 ms a spike, 7 against 1; here the worst second rises %+.1f ms above the median at %s and %+.1f ms at %s: %s\n",
					mx[s] - md[s], s, mx[l] - md[l], l, (mx[s] - md[s] > 200) ? "as large as the article'"'"'s" : \
					(d > 0 && md[s] > 0 && md[l] > 0 && mx[s] / md[s] > mx[l] / md[l]) ? sprintf("the small value spikes higher, but %.0f%% of the article'"'"'s 200 ms", 100 * (mx[s] - md[s]) / 200) : \
					"no larger spike at the small value"
			}' "$means"
	done
	# the writes: who wrote the data files, and the full-page images
	for who in sweep hand; do
		wb_awk -v who="$who" -v name="$([ "$who" = sweep ] && echo run_sweep || echo "pgbench by hand")" -v s="$small" -v l="$large" '
			FILENAME ~ /results.csv$/ { if (who == "sweep" && row() && num("value_pos") > 0) F[col("value")] = col("fpi_bytes_pct"); next }
			FILENAME ~ /means.csv$/ { if (row() && col("who") == who) { v = col("value"); for (i = 3; i <= 18; i++) M[v, NAME_[FILENAME, i]] = ROW_[i]
					if (who == "hand") F[v] = col("fpi_wal_pct") } next }
			END {
				mb = 8192 / 1048576; fs = F[s]; fl = F[l]
				printf "- writes, %s: %s: checkpointer %.0f MB (%.1f s writing, %.2f s syncing), bgwriter %.0f, backends %.0f MB (%.1f fsyncs of their own);",
					name, s, M[s, "buffers_checkpoint"] * mb, M[s, "ckpt_write_s"], M[s, "ckpt_sync_s"], M[s, "buffers_clean"] * mb, M[s, "buffers_backend"] * mb, M[s, "buffers_backend_fsync"]
				printf " %s: %.0f MB (%.1f s, %.2f s), %.0f, %.0f MB (%.1f)", l, M[l, "buffers_checkpoint"] * mb, M[l, "ckpt_write_s"], M[l, "ckpt_sync_s"],
					M[l, "buffers_clean"] * mb, M[l, "buffers_backend"] * mb, M[l, "buffers_backend_fsync"]
				if (M[s, "grew_mb"] != "") printf "; the table and its indexes grew %.0f and %.0f MB", M[s, "grew_mb"], M[l, "grew_mb"]
				printf "\n  -> WAL %.1f MB/s at %s, %.1f at %s: %.1fx and %.1fx the article'"'"'s 28; full-page images %s%% of its bytes at %s, %s%% at %s",
					M[s, "wal_mb_s"], s, M[l, "wal_mb_s"], l, M[s, "wal_mb_s"] / 28, M[l, "wal_mb_s"] / 28, p1(fs), s, p1(fl), l
				if (fs != "" && fl != "")
					printf " (%s; the article: 7%% during ingestion, %s and %s here)", (fs + 0 > fl + 0) ? sprintf("%.1f points more at the small value", fs - fl) : "not more at the small value",
						sprintf("%+.1f points", fs - 7), sprintf("%+.1f points", fl - 7)
				printf "\n"
			}
			function p1(x) { return (x == "") ? "-" : sprintf("%.1f", x) }' "$results" "$means"
	done
	# buffers_backend against what the backends extended the table by (by hand)
	wb_awk -v s="$small" -v l="$large" 'row() { k = col("who") SUBSEP col("value"); b[k] = num("buffers_backend") * 8192 / 1048576; g[k] = num("grew_mb") }
		END {
			printf "- buffers_backend against the growth: at %s the backends wrote %.0f MB (run_sweep) and %.0f (by hand) while the table grew %.0f MB (by hand);",
				s, b["sweep", s], b["hand", s], g["hand", s]
			printf " at %s %.0f and %.0f while it grew %.0f MB\n", l, b["sweep", l], b["hand", l], g["hand", l]
			if (g["hand", l] > 0 && b["hand", l] < 0.1 * g["hand", l] && g["hand", s] > 0 && b["hand", s] > 0.5 * g["hand", s])
				printf "  -> at %s, %.0f%% of the growth is counted, at %s %.0f%%: no checkpoint in the window, no backend write in its figures (see buffers_backend above)\n",
					s, 100 * b["hand", s] / g["hand", s], l, 100 * b["hand", l] / g["hand", l]
		}' "$means"
	# the drift: the table grows through the run, and with it what a checkpoint costs
	wb_awk -v s="$small" -v l="$large" -v r="$rows" 'row() && col("state") == "clean" {
			f = (col("who") == "hand") ? 2 : 1
			if (col("value") == s && col("fpi_pct") != "") { if (!(f in fs0)) fs0[f] = col("fpi_pct"); fs1[f] = col("fpi_pct") }
			if (col("value") == l) { if (!(f in rl0)) rl0[f] = num("tps") * r; rl1[f] = num("tps") * r }
			if (f == 2) grew += num("grew_mb")
		}
		END {
			printf "- drift: the table grows through each series (by hand %.1f GB over its windows); from the first round to the last,", grew / 1024
			printf " FPI %% at %s %s%% -> %s%% (run_sweep), %s%% -> %s%% (by hand); rows/s at %s %.0f -> %.0f, %.0f -> %.0f\n",
				s, fs0[1], fs1[1], fs0[2], fs1[2], l, rl0[1], rl1[1], rl0[2], rl1[2]
		}' "$windows"
	echo "- best: $(wb_awk 'row() { print col("answer") }' "$(wb_csvf best)")"
	# the status by bench/lib's rule: the throughput of the large value against the small (the
	# article 42 s -> 31 s), run_sweep's from walpressure.results (paired per repeat); the
	# checkpoints' order (more at the small value)
	wb_awk -v s="$small" -v l="$large" -v h="$h" '
		FILENAME ~ /results.csv$/ { if (row() && col("value") == l && num("value_pos") > 0) { R["gm"] = num("speedup"); R["lo"] = col("speedup_ci_low"); R["hi"] = col("speedup_ci_high") } next }
		FILENAME ~ /means.csv$/ { if (row()) c[col("who"), col("value")] = num("ckpts"); next }
		END {
			fid_effect(F, "rows/s at " l " against " s, 42 / 31, R, h, 1)
			fid_order(F, c["sweep", s] > c["sweep", l], sprintf("run_sweep %.1f checkpoints a window at %s, %.1f at %s", c["sweep", s], s, c["sweep", l], l))
			fid_order(F, c["hand", s] > c["hand", l], sprintf("by hand %.1f at %s, %.1f at %s", c["hand", s], s, c["hand", l], l))
			printf "- the table, by bench/lib'"'"'s fidelity rule: %s: %s\n", fid_status(F), fid_why(F)
			fid_line(F, "002", "checkpoints, max_wal_size 1GB against 4GB during a bulk load", \
				sprintf("%s against %s %.2fx (95%% interval %s-%s), by hand %.2fx, the article 1.35x; checkpoints %.1f and %.1f a window (the article 7 and 1); the small value %s for the article'"'"'s 1GB and %s s windows for its 42 s (not met: scaled to this machine'"'"'s WAL rate)", \
					l, s, R["gm"], fid_num(R["lo"]), fid_num(R["hi"]), h, c["sweep", s], c["sweep", l], s, N))
		}' N="$seconds" "$results" "$means"
}
