# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/disk-models sets before it calls these (clients, fixed_iops, ...)
# bench/readings/disk-models.sh: how bench/disk-models reads its figures
# (sourced by it, which declares its disks and runs and runs them): the
# table of every part, disk and value (disk_models_table) and the text
# results with their reading (disk_models_text).  Every statistic is
# bench/lib/stats.awk's or the extension's (effects(), compare()).

# disk_models_table: table.csv, from the CSV tables the run staged.
disk_models_table() {
	# per part, disk and value: run_sweep's figures (results: tps, commits per
	# fsync, write IOPS; steps: a commit's own time, checkpoints in the windows,
	# write IOPS over the cap with its interval over the rounds), its effect
	# against 0 (effects()), by hand's tps and effect; the fixed-cost flush
	# against it (compare())
	wb_awk '
		FNR == 1 { file++ }
		file == 1 && row() { m = col("measurer"); sid[col("sweep_id")] = col("part") SUBSEP col("disk"); meas[col("sweep_id")] = m; next }
		file == 2 && row() { k = col("part") SUBSEP col("disk"); cap[k] = num("cap"); next }
		file == 3 && row() {
			s = col("sweep_id"); if (!(s in sid)) next
			k = sid[s] SUBSEP col("value"); m = meas[s]
			if (!(k in seen)) { seen[k] = 1; keys[++nk] = k; pos[k] = num("value_pos") }
			tps[k, m] = col("tps"); cf[k, m] = col("commits_per_fsync"); io[k, m] = col("write_iops"); next
		}
		file == 4 && row() {
			s = col("sweep_id"); if (!(s in sid) || col("discarded") != "") next
			k = sid[s] SUBSEP col("value"); m = meas[s]; if (m != "run_sweep") next
			n = ++ns[k]; y[k, n] = num("write_iops") / cap[sid[s]]; c[k, n] = num("commit_avg_ms")
			ck[k] += num("checkpoints_timed") + num("checkpoints_requested")
			next
		}
		file == 5 && row() {
			s = col("sweep_id"); if (!(s in sid)) next
			k = sid[s] SUBSEP col("value"); m = meas[s]
			r[k, m] = col("ratio"); lo[k, m] = col("ratio_ci_low"); hi[k, m] = col("ratio_ci_high"); v[k, m] = col("verdict"); next
		}
		file == 6 && row() { k = col("part") SUBSEP col("disk") SUBSEP col("value"); cr[k] = col("ratio"); clo[k] = col("ratio_ci_low"); chi[k] = col("ratio_ci_high"); next }
		END {
			print "part,disk,value,value_pos,tps,commits_per_fsync,write_iops,iops_share,iops_share_lo,iops_share_hi,commit_ms,checkpoints,steps,ratio,ratio_lo,ratio_hi,verdict,hand_tps,hand_cf,hand_write_iops,hand_ratio,hand_lo,hand_hi,vs_fixed,vs_fixed_lo,vs_fixed_hi"
			for (i = 1; i <= nk; i++) {
				k = keys[i]; split(k, f, SUBSEP); delete z; delete w
				for (j = 1; j <= ns[k]; j++) { z[j] = y[k, j]; w[j] = c[k, j] }
				summary(z, ns[k], S)
				printf "%s,%s,%s,%d,%s,%s,%s,%.4f,%s,%s,%.3f,%d,%d", f[1], f[2], f[3], pos[k], tps[k, "run_sweep"], cf[k, "run_sweep"],
					io[k, "run_sweep"], S["mean"], S["lo"], S["hi"], (ns[k] ? mean(w, ns[k]) : 0), ck[k], ns[k]
				printf ",%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", or1(r[k, "run_sweep"], pos[k]), lo[k, "run_sweep"], hi[k, "run_sweep"],
					(pos[k] == 1 ? "baseline" : v[k, "run_sweep"]), tps[k, "hand"], cf[k, "hand"], io[k, "hand"],
					or1(r[k, "hand"], pos[k]), lo[k, "hand"], hi[k, "hand"], cr[k], clo[k], chi[k]
			}
		}
		function or1(x, p) { return (p == 1) ? 1 : x }' \
		"$(wb_csvf merged)" "$(wb_csvf disks)" "$(wb_csvf results)" "$(wb_csvf steps)" "$(wb_csvf effects)" "$(wb_csvf compare)" \
		>"$(wb_csvf table)"
}

# disk_models_text: the text results, on stdout.
disk_models_text() {
	local disk_order="throttle paced-0 paced-0.5 paced-2 fixed"
	wb_header "bench/disk-models: commit_delay under the cgroup's throttle and under the paced disk"
	echo "# one cluster, the server started with walpressure_pacer.so; simple-update, $clients clients."
	echo "# disks: throttle, the cgroup's blk-throttle at the cap (100 ms slices); paced-F, the paced disk at the"
	echo "# cap, a flush taking at least F ms (flush_floor_ms); fixed, the paced disk at $fixed_iops write IOPS with"
	echo "# flush_floor_ms = paced-0's mean F0: a WAL flush of fixed cost (one at a time under WALWriteLock)."
	echo "# Every ratio and interval is the extension's: a disk's one-round sweeps merged into one sweep"
	echo "# (wb_sweep_merge) and its runs by hand imported as one (wb_hand_sweep), read by effects(), best"
	echo "# and compare().  The machine is shared with other builds and tests: rounds pair their drift."
	echo
	echo "## 1. The demo's case: commit_delay $demo_values us, scale 10, $demo_cap write IOPS"
	echo "# $rounds rounds (the disks' order rotating); in each, under each disk, run_sweep (repeats => 1: a"
	echo "# CHECKPOINT, $demo_warm s of warm-up and $demo_seconds s per value), then pgbench by hand at each value, the same way"
	echo "# (-b simple-update -c $clients -j 2)."
	echo
	echo "F0 under each disk (probe_fsync, 3 s):"
	printf '  %-10s %-9s %8s %8s %9s %8s %8s %8s\n' disk model cap floor ops/s mean_ms p50_ms p99/p50
	wb_awk 'row() && col("part") == "demo" { printf "  %-10s %-9s %8s %8s %9s %8s %8s %8.2f\n", col("disk"), col("model"), col("cap"),
		or_dash(col("floor_ms")), col("ops_per_s"), col("mean_ms"), col("p50_ms"), num("p99_ms") / num("p50_ms") }' "$(wb_csvf f0)"
	echo
	for d in $disk_order; do
		wb_awk -v d="$d" -v part=demo '
			FNR == 1 { file++ }
			file == 1 && row() && col("part") == part && col("disk") == d { ans = col("answer") }
			file == 2 && row() && col("part") == part && col("disk") == d {
				if (!hdr++) {
					printf "%s:\n  %6s | %8s %5s %5s %-26s %-10s | %8s %-26s | %-24s\n", d, "delay", "tps", "c/f", "IOPS", "against 0 (95%)", "verdict",
						"by hand", "against 0 (95%)", "tps / fixed (95%)"
				}
				printf "  %6s | %8.1f %5.2f %5.0f %-26s %-10s | %8.1f %-26s | %-24s\n", col("value"), num("tps"), num("commits_per_fsync"),
					num("write_iops"), rr(col("ratio"), col("ratio_lo"), col("ratio_hi")), col("verdict"), num("hand_tps"),
					rr(col("hand_ratio"), col("hand_lo"), col("hand_hi")), (d == "fixed") ? "-" : rr(col("vs_fixed"), col("vs_fixed_lo"), col("vs_fixed_hi"))
			}
			END { if (hdr) printf "  best: %s\n\n", ans }
			function rr(x, a, b) { if (x == "") return "-"; return (a == "") ? sprintf("%.3f", x) : sprintf("%.3f (%.3f-%.3f)", x, a, b) }' \
			"$(wb_csvf best)" "$(wb_csvf table)"
	done
	echo "tps, c/f (commits per WAL fsync), IOPS (write IOPS; under the paced disk the IOs it charged): run_sweep's,"
	echo "walpressure.results over the rounds.  against 0: effects(), the geometric mean of the per-round ratios"
	echo "and its paired 95% interval.  by hand: pgbench run by hand in the same rounds, imported as a sweep,"
	echo "its effects().  tps / fixed: compare() of the fixed disk's sweep and this one (Welch's interval:"
	echo "two sweeps).  best: walpressure.best of the disk's sweep."
	echo
	echo "## 2. Seed 000's table: the article's values at $seed_cap write IOPS, scale $seed_scale, checkpoint => false"
	echo "# shared_buffers 3GB, max_wal_size 100GB, checkpoint_timeout 15min (the article's, as bench/seed-000);"
	echo "# $seed_rounds rounds of run_sweep, $seed_hand_rounds of pgbench by hand, $seed_warm s of warm-up and ${seed_seconds} s windows"
	echo "# (bench/seed-000: 120 s; four disks in its time); the disks' order rotating from round to round."
	echo
	echo "F0 under each disk (probe_fsync, 3 s):"
	printf '  %-10s %-9s %8s %8s %9s %8s %8s %8s\n' disk model cap floor ops/s mean_ms p50_ms p99/p50
	wb_awk 'row() && col("part") == "seed" { printf "  %-10s %-9s %8s %8s %9s %8s %8s %8.2f\n", col("disk"), col("model"), col("cap"),
		or_dash(col("floor_ms")), col("ops_per_s"), col("mean_ms"), col("p50_ms"), num("p99_ms") / num("p50_ms") }' "$(wb_csvf f0)"
	echo
	printf '  %8s | %-13s | %-10s %-27s %5s %5s %3s | %-8s\n' "" "the article" "disk" "gain against 0 (95%)" "IOPS" "c/f" "ck" "by hand"
	wb_awk '
		FNR == 1 { file++ }
		file == 1 && row() { at[col("value")] = num("tps"); ai[col("value")] = num("write_iops"); next }
		file == 2 && row() && col("part") == "seed" {
			v = col("value"); if (!(v in sv)) { sv[v] = 1; vo[++nv] = v }
			d = col("disk"); if (!(d in sd)) { sd[d] = 1; dord[++nd] = d }
			g[v, d] = (col("ratio_lo") == "") ? sprintf("%.3f", num("ratio")) : sprintf("%.3f (%.3f-%.3f)", num("ratio"), num("ratio_lo"), num("ratio_hi"))
			io[v, d] = num("iops_share") * 2000; cf[v, d] = num("commits_per_fsync"); ck[v, d] = num("checkpoints"); h[v, d] = col("hand_ratio")
		}
		END {
			for (i = 1; i <= nv; i++) { v = vo[i]
				for (j = 1; j <= nd; j++) { d = dord[j]
					printf "  %8s | %s | %-10s %-27s %5.0f %5.2f %3d | %-8s\n", (j == 1 ? v " us" : ""),
						(j == 1 ? sprintf("%5d (%5.2f)", at[v], at[v] / at[0]) : sprintf("%13s", "")), d, g[v, d], io[v, d], cf[v, d], ck[v, d],
						(h[v, d] == "") ? "-" : sprintf("%.3f", h[v, d])
				}
			}
		}' "$(wb_csvf article)" "$(wb_csvf table)"
	echo
	echo "the article: its tps and gain against 0 us (capped at 1000 write IOPS, one IO a flush on its NVMe)."
	echo "gain: effects() of the disk's merged sweep (paired by round); IOPS, c/f: run_sweep's means; ck:"
	echo "checkpoints that started inside that value's windows; by hand: its gain, effects() of its sweep."
	echo
	echo "reading (computed from the figures above):"
	# part 1: the answer under each disk, and whether it reverses
	wb_awk '
		FNR == 1 { file++ }
		file == 1 && row() && col("part") == "demo" { d = col("disk"); bv[d] = col("value"); bg[d] = col("gain"); bl[d] = col("gain_ci_low"); bh[d] = col("gain_ci_high"); has[d] = 1 }
		file == 2 && row() && col("part") == "demo" && num("value_pos") == 1 { base[col("disk")] = col("value") }
		END {
			n = split("throttle paced-0 paced-0.5 paced-2 fixed", ds, " ")
			printf "- the demo'"'"'s answer (walpressure.best):"
			for (i = 1; i <= n; i++) if (has[ds[i]])
				printf "%s %s: %s", (i > 1 ? ";" : ""), ds[i], (bv[ds[i]] == base[ds[i]] || bv[ds[i]] == "") ? "keep " base[ds[i]] : sprintf("change to %s (%.2fx, %s-%s)", bv[ds[i]], bg[ds[i]], bl[ds[i]], bh[ds[i]])
			printf "\n"
			t = (bv["throttle"] == base["throttle"] || bv["throttle"] == "") ? base["throttle"] : bv["throttle"]
			for (i = 2; i <= 4; i++) { d = ds[i]; if (!has[d]) continue
				p = (bv[d] == base[d] || bv[d] == "") ? base[d] : bv[d]
				w = (p == t) ? "holds: both answer commit_delay = " t : \
					(t != base["throttle"] && p == base[d]) ? "REVERSES: the throttle changes commit_delay to " t ", the paced disk keeps " p : \
					"differs: the throttle answers " t ", the paced disk " p
				printf "  throttle against %s: the answer %s\n", d, w
			}
		}' "$(wb_csvf best)" "$(wb_csvf table)"
	# part 1: issue 44's acceptance figures on paced-0
	wb_awk -v cap="$demo_cap" '
		FNR == 1 { file++ }
		file == 1 && row() && col("part") == "demo" { m[col("disk")] = num("mean_ms"); p50[col("disk")] = num("p50_ms"); p99[col("disk")] = num("p99_ms"); next }
		file == 2 && row() && col("part") == "demo" {
			d = col("disk"); v = col("value")
			if (num("value_pos") == 1) { t0[d] = num("tps"); vf[d] = col("vs_fixed"); vfl[d] = col("vs_fixed_lo"); vfh[d] = col("vs_fixed_hi") }
			if (v == "1000") { r1[d] = num("ratio"); r1l[d] = col("ratio_lo"); r1h[d] = col("ratio_hi") }
		}
		END {
			d = "paced-0"; share = 2000 / cap
			if (!(d in m) || !("fixed" in t0)) { print "- issue 44'"'"'s acceptance figures: not measured (no paced-0 or fixed disk)"; exit }
			printf "- issue 44'"'"'s acceptance figures, on paced-0 at %d write IOPS against the fixed-cost flush of its mean F0 (%.3f ms):\n", cap, m[d]
			ok = (vf[d] != "" && abs(vf[d] - 1) <= 0.15)
			printf "  tps at commit_delay 0 within 15%% of the fixed-cost flush'"'"'s: %s: %.1f against %.1f, %.3fx (95%% interval %s-%s, compare())\n",
				ok ? "met" : "NOT met", t0[d], t0["fixed"], vf[d], or_dash(vfl[d]), or_dash(vfh[d])
			if ((d in r1) && ("fixed" in r1)) {
				q = r1[d] / r1["fixed"]; ok = abs(q - 1) <= 0.10
				printf "  the commit_delay 1000 ratio within 10%% of the fixed-cost flush'"'"'s: %s: %.3fx (%s-%s) against %.3fx (%s-%s), %+.1f%%\n",
					ok ? "met" : "NOT met", r1[d], or_dash(r1l[d]), or_dash(r1h[d]), r1["fixed"], or_dash(r1l["fixed"]), or_dash(r1h["fixed"]), 100 * (q - 1)
			} else
				printf "  the commit_delay 1000 ratio: not measured (1000 us not among the values)\n"
			k = p99[d] / p50[d]; e = m[d] / share - 1
			printf "  probe_fsync p99/p50 at most 3: %s (%.2f: p50 %.3f ms, p99 %.3f ms); its mean within 10%% of the budget'"'"'s share, 2 IOs at %d IOPS = %.3f ms: %s (%.3f ms, %+.1f%%)\n",
				k <= 3 ? "met" : "NOT met", k, p50[d], p99[d], cap, share, abs(e) <= 0.10 ? "met" : "NOT met", m[d], 100 * e
			printf "  (under the throttle: p99/p50 %.0f, mean %.3f ms)\n", p99["throttle"] / p50["throttle"], m["throttle"]
		}' "$(wb_csvf f0)" "$(wb_csvf table)"
	# part 1: does the closed loop group commits by itself?  Little's law: the
	# clients in a commit at a time are tps x a commit's mean time; with
	# flushes back to back, each carrying every commit that waits when it
	# starts, a commit waits for the flush under way (half of one, on
	# average) and its own, so a flush carries 2/3 of them.  Near that (at
	# least half of it) is read as grouping by itself.
	wb_awk -v clients="$clients" 'row() && col("part") == "demo" && num("value_pos") == 1 {
			d = col("disk"); cf[d] = num("commits_per_fsync"); w[d] = num("tps") * num("commit_ms") / 1000; has[d] = 1
		}
		END {
			n = split("paced-0 paced-0.5 paced-2 fixed throttle", ds, " ")
			printf "- commits per WAL fsync at commit_delay 0, of %d clients, against those in a commit at a time (tps x a commit'"'"'s\n", clients
			printf "  mean time), of whom a flush would carry 2/3 were every flush to carry all that wait when it starts:\n"
			for (i = 1; i <= n; i++) { d = ds[i]; if (!has[d]) continue
				s = (w[d] > 0) ? cf[d] / (w[d] * 2 / 3) : 0
				printf "  %-9s %.2f commits a flush (%.0f%% of the clients); %.1f in a commit, 2/3 of them %.2f: %.0f%% of that: %s\n",
					d, cf[d], 100 * cf[d] / clients, w[d], w[d] * 2 / 3, 100 * s,
					(s >= 0.5) ? "the closed loop groups commits by itself" : "NOT grouping by itself (under half of it)"
			}
		}' "$(wb_csvf table)"
	# part 1: the self-clocking paper's claim, under each disk
	wb_awk '
		FNR == 1 { file++ }
		file == 1 && row() && col("part") == "demo" { f0[col("disk")] = num("mean_ms"); next }
		file == 2 && row() && col("part") == "demo" {
			d = col("disk"); has[d] = 1
			if (num("value_pos") == 1) rate[d] = num("tps")
			else if (col("verdict") == "faster" && num("ratio") > g[d]) { g[d] = num("ratio"); gv[d] = col("value"); gl[d] = col("ratio_lo"); gh[d] = col("ratio_hi") }
		}
		END {
			n = split("throttle paced-0 paced-0.5 paced-2 fixed", ds, " ")
			printf "- the self-clocking paper (above lambda* = 2/F0, commit_delay 0 within 0.1%% of the best timer), F0 probe_fsync'"'"'s mean:\n"
			for (i = 1; i <= n; i++) { d = ds[i]; if (!has[d]) continue
				ls = 2000 / f0[d]; above = rate[d] >= ls
				printf "  %-9s lambda* %5.0f/s, %5.0f commits/s at 0: %s; ", d, ls, rate[d], above ? "above" : "below"
				if (gv[d] != "")
					printf "commit_delay %s beats 0, %.3fx (%s-%s): the claim %s\n", gv[d], g[d], gl[d], gh[d], above ? "FAILS" : "does not apply (below lambda*, closed loop)"
				else
					printf "no timer beats 0 beyond its 95%% interval: the claim %s\n", above ? "holds (within what these rounds resolve)" : "does not apply (below lambda*, closed loop)"
			}
		}' "$(wb_csvf f0)" "$(wb_csvf table)"
	# part 2: the peak under each disk against the article's, and the status
	# of seed 000's two tables on each paced disk, by bench/lib's rule with
	# bench/seed-000's effects (the gain at each value against 0; the peak
	# within one value of the article's 1000 us and the gain falling after
	# it; write IOPS over the cap at and after the article's optimum)
	wb_awk '
		FNR == 1 { file++ }
		file == 1 && row() { at[col("value")] = num("tps"); ai[col("value")] = num("write_iops") / 1000; next }
		file == 2 && row() && col("part") == "seed" {
			d = col("disk"); if (!(d in nv)) dord[++nd] = d
			i = ++nv[d]; v[d, i] = col("value"); g[d, i] = num("ratio"); lo[d, i] = col("ratio_lo"); hi[d, i] = col("ratio_hi")
			hg[d, i] = col("hand_ratio"); is[d, i] = num("iops_share"); il[d, i] = col("iops_share_lo"); ih[d, i] = col("iops_share_hi")
			his[d, i] = (col("hand_write_iops") == "") ? "" : num("hand_write_iops") / 2000; ck[d] += num("checkpoints"); st[d] += num("steps")
		}
		END {
			for (j = 1; j <= nd; j++) {
				d = dord[j]; n = nv[d]; delete G; delete I
				ab = sb = hb = 1
				for (i = 1; i <= n; i++) {
					a = at[v[d, i]] / at[0]; if (a > at[v[d, ab]] / at[0]) ab = i
					if (g[d, i] > g[d, sb]) sb = i; if (hg[d, i] > hg[d, hb]) hb = i
				}
				printf "- seed 000 under %s: peak %.3fx at %s us (%s), by hand %.3fx at %s us; the article %.2fx at %s us; %d checkpoints in %d windows\n",
					d, g[d, sb], v[d, sb], ivl(lo[d, sb], hi[d, sb], sb), hg[d, hb], v[d, hb], at[v[d, ab]] / at[0], v[d, ab], ck[d], st[d]
				if (d !~ /^paced/) continue
				lo_i = hi_i = 0
				for (i = 2; i <= n; i++) {
					R["gm"] = g[d, i]; R["lo"] = lo[d, i]; R["hi"] = hi[d, i]
					fid_effect(G, "gain at " v[d, i] " us", at[v[d, i]] / at[0], R, hg[d, i], 1)
				}
				for (i = 1; i <= n; i++) if (v[d, i] == 750) lo_i = i; else if (v[d, i] == 1250) hi_i = i
				if (!lo_i) { lo_i = ab; hi_i = ab }
				fid_order(G, sb >= lo_i && sb <= hi_i && g[d, n] < g[d, sb], "run_sweep peaks at " v[d, sb] " us (the article " v[d, ab] "), " sprintf("%.3fx", g[d, n]) " at " v[d, n] " us")
				fid_order(G, hb >= lo_i && hb <= hi_i && hg[d, n] < hg[d, hb], "by hand peaks at " v[d, hb] " us, " sprintf("%.3fx", hg[d, n]) " at " v[d, n] " us")
				below = ""
				for (i = 1; i <= n; i++) {
					if (il[d, i] != "" && ih[d, i] < 0.95) below = below (below == "" ? "" : ", ") v[d, i]
					if (v[d, i] + 0 >= v[d, ab] + 0) { R["gm"] = is[d, i]; R["lo"] = il[d, i]; R["hi"] = ih[d, i]
						fid_effect(I, "write IOPS at " v[d, i] " us (share of the cap)", ai[v[d, i]], R, his[d, i], 1) }
				}
				printf "  on %s, by bench/lib'"'"'s rule: the commit_delay table %s: %s\n", d, fid_status(G), fid_why(G)
				printf "  the headline (write IOPS below the cap at the optimum) %s: %s\n", fid_status(I), fid_why(I)
				fid_line_on(G, d " at 2000 write IOPS", "000", "commit_delay 0 to 2000 us, 10 clients, the article'"'"'s flush rate", \
					sprintf("peak %.2fx at %s us (%s), by hand %.2fx at %s us; the article %.2fx at %s us; %d checkpoints in %d windows", \
						g[d, sb], v[d, sb], ivl(lo[d, sb], hi[d, sb], sb), hg[d, hb], v[d, hb], at[v[d, ab]] / at[0], v[d, ab], ck[d], st[d]))
				fid_line_on(I, d " at 2000 write IOPS", "000", "headline: write IOPS below the cap at the optimum", \
					sprintf("at %s us %.0f%% of the cap (95%% interval %s-%s%%), by hand %s; the article %.0f%%; below 95%% of the cap: %s", \
						v[d, ab], 100 * is[d, ab], pc(il[d, ab]), pc(ih[d, ab]), (his[d, ab] == "") ? "-" : sprintf("%.0f%%", 100 * his[d, ab]), \
						100 * ai[v[d, ab]], (below == "" ? "no value" : below " us")))
			}
		}
		function pc(x) { return (x == "") ? "-" : sprintf("%.0f", 100 * x) }
		function ivl(a, b, i) { return (i == 1) ? "the baseline: no value above it" : (a == "") ? "no interval" : sprintf("95%% interval %s-%s", a, b) }' \
		"$(wb_csvf article)" "$(wb_csvf table)"
}
