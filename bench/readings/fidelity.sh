# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/fidelity sets before it calls these (rounds, seconds, ...)
# bench/readings/fidelity.sh: how bench/fidelity reads its figures (sourced
# by it, which declares its cases and measurers and runs them): each case's
# paired effect per measurer (fidelity_effects) and the text results with
# their reading (fidelity_text).  Every statistic is bench/lib/stats.awk's.

# fidelity_effects: effects.csv, from runs.csv.
fidelity_effects() {
	# per case and measurer: the paired effect B / A over the rounds, as the lines
	# "case measurer n gm lo hi median name" ("" for a missing figure)
	wb_awk 'row() { k = col("case") SUBSEP col("measurer"); f[k, col("round"), col("side")] = num("figure")
			name[col("case")] = col("name"); seen[k] = 1 }
		END {
			for (k in seen) {
				delete a; delete b
				for (x in f) { split(x, y, SUBSEP); if (y[1] SUBSEP y[2] == k) { if (y[4] == "B") a[y[3]] = f[x]; else b[y[3]] = f[x] } }
				paired(a, b, R); split(k, y, SUBSEP)
				printf "%s,%s,%d,%s,%s,%s,%s,\"%s\"\n", y[1], y[2], R["n"], R["gm"], R["lo"], R["hi"], R["median"], name[y[1]]
			}
		}' "$(wb_csvf runs)" | sort -t, -k1,1n >"$dir/effects.txt"
	{
		echo "case,measurer,rounds,effect_gm,effect_lo,effect_hi,effect_median,name"
		cat "$dir/effects.txt"
	} >"$(wb_csvf effects)"
}

# fidelity_text: the text results, on stdout.
fidelity_text() {
	wb_header "bench/fidelity: the effect run_sweep reports against pgbench run by hand"
	echo "# one cluster, scale $scale prewarmed (shared_buffers 512MB); ${seconds} s per run after a CHECKPOINT"
	echo "# and a $warm s warm-up; $rounds rounds, each measuring A and B with every measurer (order rotating);"
	echo "# effect = tps(B) / tps(A) per round (rows/s for batch-insert; for an open-loop case its latency p50 or p99, B over A); effects.csv is computed from runs.csv."
	echo
	printf '%-40s %-8s %8s %16s %8s %12s\n' case measurer effect "95% interval" median "error"
	wb_awk 'row() { k = num("case"); m = col("measurer"); g[k, m] = col("effect_gm"); lo[k, m] = col("effect_lo")
			hi[k, m] = col("effect_hi"); md[k, m] = col("effect_median"); nm[k] = col("name"); if (k > nc) nc = k }
		END {
			split("by_hand pgbench backend", ms, " ")
			for (k = 0; k <= nc; k++) for (i = 1; i <= 3; i++) {
				m = ms[i]
				if (!((k, m) in g)) continue
				ivs = (lo[k, m] == "") ? "n/a" : sprintf("%.2f-%.2f", lo[k, m], hi[k, m])
				err = (m == "by_hand") ? "(reference)" : pct(g[k, m], g[k, "by_hand"])
				printf "%-40s %-8s %7.2fx %16s %7.2fx %12s\n", nm[k], m, g[k, m], ivs, md[k, m], err
			}
		}' "$(wb_csvf effects)"
	echo
	echo "effect: the geometric mean of the rounds' effects, with its 95% t interval on their logarithms;"
	echo "error: an engine's effect against pgbench by hand's."
	echo
	echo "engine overhead: each run_sweep call's wall time (psql's, launch and preflight included) against"
	echo "its step's setup (the CHECKPOINT) + warm-up + window:"
	wb_awk 'row() { m = col("engine"); w[m] += num("wall_s"); s[m] += num("steps_s"); n[m]++ }
		END { split("pgbench backend", ms, " ")
			for (i = 1; i <= 2; i++) { m = ms[i]; if (n[m])
				printf "  %-8s %d sweeps, %.1f s wall against %.1f s of steps: %+.1f%%\n", m, n[m], w[m], s[m], 100 * (w[m] / s[m] - 1) } }' \
		"$(wb_csvf overhead)"
	echo
	echo "per-round figures (case measurer round figure_A figure_B):"
	wb_awk 'row() { k = col("case") " " col("measurer") " " col("round"); if (!(k in f)) o[++n] = k; f[k] = f[k] " " col("figure") }
		END { for (i = 1; i <= n; i++) printf "  %s%s\n", o[i], f[o[i]] }' "$(wb_csvf runs)"
	echo
	echo "reading (computed from the figures above):"
	wb_awk 'row() { k = num("case"); m = col("measurer"); g[k, m] = col("effect_gm"); lo[k, m] = col("effect_lo")
			hi[k, m] = col("effect_hi"); nm[k] = col("name"); if (k > nc) nc = k }
		END {
			split("pgbench backend", ms, " ")
			for (k = 0; k <= nc; k++) for (i = 1; i <= 2; i++) {
				m = ms[i]; if (!((k, m) in g) || g[k, m] == "") continue; h = g[k, "by_hand"]; e = 100 * (g[k, m] / h - 1)
				R["lo"] = lo[k, "by_hand"]; R["hi"] = hi[k, "by_hand"]
				printf "- %s, engine %s: %.2fx against %.2fx by hand, error %+.1f%%: %s%s\n", nm[k], m, g[k, m], h, e,
					(abs(e) <= 10) ? "within 10%" : "NOT within 10%",
					(R["lo"] == "") ? ", no by-hand interval (one round)" : inside(g[k, m], R) ? ", inside the by-hand interval" : ", outside the by-hand interval"
			}
		}' "$(wb_csvf effects)"
	wb_awk 'row() { m = col("engine"); w[m] += num("wall_s"); s[m] += num("steps_s"); n[m]++ }
		END { split("pgbench backend", ms, " ")
			for (i = 1; i <= 2; i++) { m = ms[i]; if (n[m]) { o = 100 * (w[m] / s[m] - 1)
				printf "- engine %s: a sweep takes %+.1f%% over its steps'"'"' setup + warm-up + window: %s\n", m, o,
					(o <= 3) ? "within 3%" : "NOT within 3%" } } }' "$(wb_csvf overhead)"
}
