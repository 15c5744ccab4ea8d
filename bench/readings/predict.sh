# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/predict sets before it calls these (cases, seconds, ...)
# bench/readings/predict.sh: how bench/predict reads its figures (sourced by
# it, which declares the cases and runs them): the model error the
# calibration set calls for (calibrate), the error, coverage and per-round
# tables from the staged CSV tables (predict_tables), and the text results
# with their reading (predict_text).  Every statistic is bench/lib/stats.awk's.

# calibrate FILE: the model error from the calibration set of a cover table
# (FILE: its lo_rounds, hi_rounds, meas_tps and set columns), and what it
# gives on the held-out set, which did not choose it.  Prints lines of text.
calibrate() {
	wb_awk '
		row() {
			if (col("covered") == "") next
			s = col("set"); n[s]++; lo[s, n[s]] = num("lo_rounds"); hi[s, n[s]] = num("hi_rounds"); m[s, n[s]] = num("meas_tps")
			if (col("err") != "") err = num("err")
			if (s == "calibration" && !((col("name")) in seen)) { seen[col("name")] = 1; names = names (names == "" ? "" : ", ") col("name") }
			if (s == "held-out" && !((col("name")) in seen)) { seen[col("name")] = 1; held = held (held == "" ? "" : ", ") col("name") }
		}
		function covered(s, e,    i, k) {
			k = 0
			for (i = 1; i <= n[s]; i++)
				if (m[s, i] >= lo[s, i] / (1 + e) * (1 - 1e-9) && m[s, i] <= hi[s, i] * (1 + e) * (1 + 1e-9)) k++
			return k
		}
		END {
			printf "calibration (from %s; the calibration set: %s):\n", FILENAME, (names == "" ? "none" : names)
			if (!n["calibration"]) { print "- no prediction of the calibration set has an interval and a measurement: no e"; exit }
			if (err != "")
				printf "- predict() ran with err = %.2f: its stated intervals held %d of %d of the calibration set\n", err,
					covered("calibration", err), n["calibration"]
			e = ""
			for (i = 0; i <= 30; i++)
				if (covered("calibration", i / 100) >= 0.95 * n["calibration"]) { e = i / 100; break }
			if (e == "") {
				printf "- no e from 0 to 30%% covers 95%%: at 30%% the rounds'"'"' intervals held %d of %d of the calibration set\n",
					covered("calibration", 0.30), n["calibration"]
				if (n["held-out"])
					printf "- held out (%s): at e = 0.30 %d of %d covered\n", held, covered("held-out", 0.30), n["held-out"]
				print "e > 0.30   (no err to set: the model misses by more than a widening of 30%; the model must change)"
				exit
			} else
				printf "- the smallest e (steps of 1%%, 0 to 30%%) for which the rounds'"'"' t intervals widened by ln(1 + e) each side hold at least 95%%: %d of %d at e = %.2f (%d of %d at e = 0)\n",
					covered("calibration", e), n["calibration"], e, covered("calibration", 0), n["calibration"]
			if (n["held-out"])
				printf "- held out (%s; not used to choose e): at e = %.2f %d of %d covered (%.0f%%): the 90%% goal %s\n", held, e,
					covered("held-out", e), n["held-out"], 100 * covered("held-out", e) / n["held-out"],
					(covered("held-out", e) >= 0.9 * n["held-out"]) ? "holds" : "does NOT hold"
			printf "e = %.2f   (set err := %.2f in _predict, sql/objects/predict/predict.sql)\n", e, e
		}' "$1"
}

# predict_tables: the error table (table.csv), the coverage table
# (cover.csv) and the per-round coverage ($one_round) from pred.csv,
# predm.csv and meas.csv; $order, the cases' order and sets, for the text.
predict_tables() {
	# the order of the cases and their sets, for the tables
	order=$(awk '{ printf "%s%s=%d:%s", (NR > 1 ? " " : ""), $1, NR, $2 }' <<<"$cases")

	# the error table: per case, value and other point, the prediction and the
	# measurement (geometric means over the rounds) and the error of each
	# figure, paired by round
	wb_awk -v order="$order" 'FILENAME ~ /\/pred\.csv$/ && row() {
			k = col("name") SUBSEP col("cap") SUBSEP col("value"); keys[k] = 1; r = col("round"); if (num("round") > R) R = num("round")
			if (col("tps") == "") { nref[k]++; why[k] = col("basis"); next }
			npred[k]++; pt[k, r] = num("tps"); pg[k, r] = num("commits_per_fsync"); pw[k, r] = num("commit_ms")
			bound[k] = col("bound"); next
		}
		FILENAME ~ /\/meas\.csv$/ && row() && col("role") == "measured" {
			k = col("name") SUBSEP col("cap") SUBSEP col("value"); r = col("round")
			mt[k, r] = num("tps"); mg[k, r] = num("commits_per_fsync"); mw[k, r] = num("commit_ms"); ncl[k] = col("clients")
		}
		END {
			split(order, o, " "); for (i in o) { split(o[i], y, "="); split(y[2], z, ":"); ord[y[1]] = z[1]; set[y[1]] = z[2] }
			print "ord,name,cap,clients,value,pred_tps,meas_tps,tps_err,tps_err_lo,tps_err_hi,pred_cf,meas_cf,cf_err,pred_commit_ms,meas_commit_ms,commit_err,rounds,refused_rounds,bound,set,refused"
			for (k in keys) {
				split(k, f, SUBSEP)
				delete a; delete b; delete c; delete d; delete e; delete g; delete m
				for (x in mt) { split(x, y, SUBSEP); if (y[1] SUBSEP y[2] SUBSEP y[3] == k) m[y[4]] = mt[x] }
				for (x in pt) {
					split(x, y, SUBSEP)
					if (y[1] SUBSEP y[2] SUBSEP y[3] != k) continue
					r = y[4]; a[r] = pt[x]; b[r] = mt[k, r]; c[r] = pg[k, r]; d[r] = mg[k, r]; e[r] = pw[k, r]; g[r] = mw[k, r]
				}
				paired(a, b, T); paired(c, d, G); paired(e, g, W)
				# refused: by every round (a round refused is counted, the others read)
				printf "%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d,%d,%s,%s,\"%s\"\n", ord[f[1]], f[1], f[2], ncl[k], f[3],
					fmt(gmean(a, R), "%.1f"), fmt(gmean(m, R), "%.1f"), fmt(T["gm"], "%.4f"), fmt(T["lo"], "%.4f"), fmt(T["hi"], "%.4f"),
					fmt(gmean(c, R), "%.2f"), fmt(gmean(d, R), "%.2f"), fmt(G["gm"], "%.4f"),
					fmt(gmean(e, R), "%.3f"), fmt(gmean(g, R), "%.3f"), fmt(W["gm"], "%.4f"), T["n"], nref[k],
					bound[k], set[f[1]], (npred[k] == 0 && nref[k] > 0) ? why[k] : ""
			}
		}
		function fmt(x, f) { return (x == "") ? "" : sprintf(f, x) }' \
		"$(wb_csvf pred)" "$(wb_csvf meas)" | { IFS= read -r h; echo "${h#ord,}"; sort -t, -k1,1n -k3,3n -k5,5n | cut -d, -f2-; } \
		>"$(wb_csvf table)"

	# the coverage table: per case, value and other point, predict() of the
	# merged sweep (its tps and stated 95% interval) against the geometric mean
	# of the rounds measured there; the interval's parts, for the calibration:
	# lo_rounds, hi_rounds the rounds' t interval before the widening by err
	# (tps_ci_low x (1 + err), tps_ci_high / (1 + err)); gm and h its geometric
	# mean and log half-width where it is one interval; where it spans two bounds
	# (the commits a flush carries held as measured, or grown with the clients)
	# each bound's geometric mean and log half-width over the rounds' own
	# predictions (each round's one-round interval is its bounds widened by err
	# alone); e_needed the least e whose widening would hold the measured.
	wb_awk -v order="$order" 'FILENAME ~ /\/predm\.csv$/ && row() {
			k = col("name") SUBSEP col("cap") SUBSEP col("value"); keys[k] = 1
			clients[k] = col("clients"); rounds[k] = col("rounds"); tps[k] = col("tps"); lo[k] = num("tps_ci_low")
			hi[k] = num("tps_ci_high"); basis[k] = col("basis"); bound[k] = col("bound")
			if (col("err") != "") err = num("err")
			next
		}
		FILENAME ~ /\/pred\.csv$/ && row() {
			if (col("tps") == "") next
			k = col("name") SUBSEP col("cap") SUBSEP col("value"); r = col("round"); if (r > R) R = r
			plo[k, r] = num("tps_ci_low"); phi[k, r] = num("tps_ci_high"); pt[k, r] = num("tps")
			# a one-round interval that does not span is the prediction widened by err alone
			if (col("basis") !~ /held as measured/ && num("tps") > 0) e1[++ne] = num("tps_ci_high") / num("tps") - 1
			next
		}
		FILENAME ~ /\/meas\.csv$/ && row() && col("role") == "measured" {
			k = col("name") SUBSEP col("cap") SUBSEP col("value"); r = col("round"); if (r > R) R = r
			mt[k, r] = num("tps")
		}
		END {
			split(order, o, " "); for (i in o) { split(o[i], y, "="); split(y[2], z, ":"); ord[y[1]] = z[1]; set[y[1]] = z[2] }
			if (err == "" && ne) err = sprintf("%.3f", median(e1, ne))
			print "ord,name,set,cap,clients,value,rounds,tps,tps_ci_low,tps_ci_high,err,meas_tps,meas_rounds,covered,miss,e_needed,lo_rounds,hi_rounds,gm,h,spans,low_gm,low_h,high_gm,high_h,rounds_gm,bound,refused"
			for (k in keys) {
				split(k, f, SUBSEP)
				delete x; n = 0
				for (r = 1; r <= R; r++) if (((k, r) in mt) && mt[k, r] > 0) x[++n] = mt[k, r]
				mg = gmean(x, n)
				cov = miss = need = lr = hr = gm = h = sp = lg = lh = hg = hh = rg = ""
				if (tps[k] != "") {
					lr = lo[k] * (1 + err); hr = hi[k] / (1 + err)
					sp = (basis[k] ~ /held as measured/) ? 1 : 0
					if (!sp) { gm = sqrt(lr * hr); h = log(hr / lr) / 2 }
					else { gm = tps[k] + 0; parts(k, "lo", L); parts(k, "hi", H); lg = L["gm"]; lh = L["h"]; hg = H["gm"]; hh = H["h"] }
					delete x; m = 0
					for (r = 1; r <= R; r++) if ((k, r) in pt) x[++m] = pt[k, r]
					rg = gmean(x, m)
					if (mg != "") {
						cov = (mg >= lo[k] && mg <= hi[k]) ? 1 : 0
						miss = (mg < lo[k]) ? mg / lo[k] - 1 : (mg > hi[k]) ? mg / hi[k] - 1 : 0
						need = (lr / mg > mg / hr) ? lr / mg : mg / hr; need = (need > 1) ? need - 1 : 0
					}
				}
				printf "%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,\"%s\"\n",
					ord[f[1]], f[1], set[f[1]], f[2], clients[k], f[3], rounds[k], tps[k],
					(tps[k] == "") ? "" : sprintf("%.1f", lo[k]), (tps[k] == "") ? "" : sprintf("%.1f", hi[k]), err,
					fmt(mg, "%.1f"), n, cov, fmt(miss, "%.4f"), fmt(need, "%.4f"), fmt(lr, "%.2f"), fmt(hr, "%.2f"),
					fmt(gm, "%.2f"), fmt(h, "%.5f"), sp, fmt(lg, "%.2f"), fmt(lh, "%.5f"), fmt(hg, "%.2f"), fmt(hh, "%.5f"),
					fmt(rg, "%.2f"), bound[k], (tps[k] == "") ? basis[k] : ""
			}
		}
		# the rounds bound (lo: the lower, hi: the higher) of a prediction that
		# spans two: each round'"'"'s one-round interval unwidened, their geometric
		# mean and the 95% t half-width of the mean log
		function parts(k, w, P,    r, y, n) {
			delete P; n = 0
			for (r = 1; r <= R; r++) if ((k, r) in plo) y[++n] = log((w == "lo") ? plo[k, r] * (1 + err) : phi[k, r] / (1 + err))
			P["gm"] = n ? exp(mean(y, n)) : ""; P["h"] = (n > 1) ? ci_half(y, n) : (n ? 0 : "")
		}
		function fmt(x, f) { return (x == "") ? "" : sprintf(f, x) }' \
		"$(wb_csvf predm)" "$(wb_csvf pred)" "$(wb_csvf meas)" |
		{ IFS= read -r h; echo "${h#ord,}"; sort -t, -k1,1n -k4,4n -k6,6n | cut -d, -f2-; } >"$(wb_csvf cover)"

	# the per-round coverage: each round's one-round prediction (its interval the
	# model's error alone) against that round's measurement, per set
	one_round=$(wb_awk -v order="$order" 'FILENAME ~ /\/pred\.csv$/ && row() && col("tps") != "" {
			k = col("name") SUBSEP col("cap") SUBSEP col("value") SUBSEP col("round"); lo[k] = num("tps_ci_low"); hi[k] = num("tps_ci_high")
			nm[k] = col("name"); next
		}
		FILENAME ~ /\/meas\.csv$/ && row() && col("role") == "measured" { mt[col("name") SUBSEP col("cap") SUBSEP col("value") SUBSEP col("round")] = num("tps") }
		END {
			split(order, o, " "); for (i in o) { split(o[i], y, "="); split(y[2], z, ":"); set[y[1]] = z[2] }
			for (k in lo) if (k in mt) { s = set[nm[k]]; n[s]++; if (mt[k] >= lo[k] && mt[k] <= hi[k]) c[s]++ }
			printf "%d of %d (calibration), %d of %d (held out)", c["calibration"], n["calibration"], c["held-out"], n["held-out"]
		}' "$(wb_csvf pred)" "$(wb_csvf meas)")
}

# predict_text: the text results, on stdout.
predict_text() {
	if [ "$WB_REPLAY" = 1 ]; then
		wb_header "predict() of this tree replayed on the sweeps of an earlier bench/predict run: nothing measured here"
		echo "# replayed: the run in ${replay_from#"$WB_TOP"/} ($replay_git); every figure but predict()'s is that run's"
		if [ "$replay_seen" = 1 ]; then
			echo "# every case in the calibration set (seen): a model chosen after reading that run is judged on new"
			echo "# cases only, by a new run of bash bench/predict"
		else
			echo "# the cases in the sets that run gave them: its held-out ones were not read before this tree's model"
			echo "# was fixed"
		fi
	else
		wb_header "predict() from a sweep at one cap (and clients) against the same sweep measured at two other points, on the paced disk"
	fi
	echo "# per round, each case's sweep at each of its points (the order rotating), $seconds s measured after"
	echo "# $warm s of warm-up per step, a CHECKPOINT before each; $rounds rounds; scale $scale prewarmed,"
	echo "# shared_buffers 3GB; pg_wal's disk paced at each cap (disk => 'paced': the server started with"
	echo "# walpressure_pacer.so, every write IO and flush its share of the cap).  The machine is shared with"
	echo "# other benchmarks and test runs: its load drifts, which pairing by round keeps out of each error."
	if [ -n "$settle" ]; then
		echo "# before round 1: $settle s of pgbench tpcb-like, 10 clients, uncapped, then a CHECKPOINT: the tables' first updates off the rounds"
	fi
	echo "# cases (name set setting values from-cap from-clients other-caps clients-there workload):"
	while IFS= read -r l; do echo "#   $l"; done <<<"$cases"
	echo "# the calibration set chooses the model error (err); the held-out set only judges it"
	echo
	echo "1. The error, per round"
	echo
	printf '%-12s %5s %4s %5s | %8s %8s %-24s | %5s %5s %7s | %7s %7s %7s | %s\n' case cap cl value "pred tps" "meas tps" \
		"error (95% interval)" "pred" "meas" "c/f err" "pred ms" "meas ms" "ms err" "bound / refused"
	wb_awk 'row() {
			if (col("refused") != "") {
				printf "%-12s %5s %4s %5s | %8s %8s %-24s | %5s %5s %7s | %7s %7s %7s | %s\n", col("name"), col("cap"), col("clients"),
					col("value"), "-", col("meas_tps"), "-", "-", col("meas_cf"), "-", "-", col("meas_commit_ms"), "-",
					"refused: " col("refused")
				next
			}
			note = col("bound") (num("refused_rounds") ? sprintf("; refused in %d round(s)", num("refused_rounds")) : "")
			if (col("tps_err") == "") {
				printf "%-12s %5s %4s %5s | %8s %8s %-24s | %5s %5s %7s | %7s %7s %7s | %s\n", col("name"), col("cap"), col("clients"),
					col("value"), col("pred_tps"), col("meas_tps"), "no round measured it", col("pred_cf"), col("meas_cf"), "-",
					col("pred_commit_ms"), col("meas_commit_ms"), "-", note
				next
			}
			printf "%-12s %5s %4s %5s | %8s %8s %-24s | %5s %5s %+6.1f%% | %7s %7s %+6.1f%% | %s\n", col("name"), col("cap"),
				col("clients"), col("value"), col("pred_tps"), col("meas_tps"),
				err_iv(),
				col("pred_cf"), col("meas_cf"), 100 * (num("cf_err") - 1), col("pred_commit_ms"), col("meas_commit_ms"),
				100 * (num("commit_err") - 1), note
		}
		function err_iv(   e) {
			e = sprintf("%+.1f%%", 100 * (num("tps_err") - 1))
			if (col("tps_err_lo") == "") return e " (one round)"
			return sprintf("%s (%+.1f%% to %+.1f%%)", e, 100 * (num("tps_err_lo") - 1), 100 * (num("tps_err_hi") - 1))
		}' "$(wb_csvf table)"
	echo
	echo "pred: predict() from the round's sweep at the case's first point; meas: the round's sweep at that"
	echo "point; both the geometric mean over the rounds.  cl: the clients measured there.  error: prediction"
	echo "over measurement - 1, the geometric mean of the rounds' ratios and its 95% interval (t on the"
	echo "logarithms).  c/f: commits per WAL fsync; ms: a commit's own time (steps.commit_avg_ms); bound: what"
	echo "the model says binds."
	echo
	echo "2. The coverage: predict() of the $rounds rounds at the first point, merged into one sweep"
	echo
	printf '%-11s %-12s %5s %4s %5s | %8s %-19s | %8s | %-7s %7s | %s\n' set case cap cl value "pred tps" \
		"stated 95% interval" "meas tps" covered "needs e" "spans / refused"
	wb_awk 'row() {
			if (col("refused") != "") {
				printf "%-11s %-12s %5s %4s %5s | %8s %-19s | %8s | %-7s %7s | %s\n", col("set"), col("name"), col("cap"),
					or_dash(col("clients")), col("value"), "-", "-", or_dash(col("meas_tps")), "-", "-", "refused: " why()
				next
			}
			printf "%-11s %-12s %5s %4s %5s | %8s %-19s | %8s | %-7s %7s | %s\n", col("set"), col("name"), col("cap"),
				or_dash(col("clients")), col("value"), col("tps"), col("tps_ci_low") " - " col("tps_ci_high"), or_dash(col("meas_tps")),
				(col("covered") == "") ? "-" : (num("covered") ? "yes" : sprintf("%+.1f%%", 100 * num("miss"))),
				(col("e_needed") == "") ? "-" : sprintf("%.0f%%", 100 * num("e_needed")),
				num("spans") ? sprintf("two bounds: %.0f and %.0f", num("low_gm"), num("high_gm")) : ""
		}
		function why(   w) { w = col("refused"); sub(/^not predicted: /, "", w); return w }' "$(wb_csvf cover)"
	echo
	echo "pred tps and its stated 95% interval: predict(the merged sweep, iops_cap => cap, clients => cl; - each"
	echo "value's own), the rounds' t interval widened by the model's error err; meas tps: the geometric mean of"
	echo "the rounds measured there (predict states an interval for the mean over its rounds, not for one"
	echo "round).  covered: yes, or by how much the measured lies outside.  needs e: the least model error whose"
	echo "widening would hold it.  two bounds: the interval spans two, the model's and the commits a flush"
	echo "carries held as measured (the lower with more clients, the higher with fewer or at a higher cap),"
	echo "each the geometric mean of the rounds' own."
	echo
	echo "reading (computed from the figures above):"
	wb_awk 'row() {
			k = col("name"); cases[k] = 1
			if (col("refused") != "") { ref[k]++; next }
			n[k]++
			if (num("refused_rounds")) partial[k]++
			if (col("tps_err") == "") { unpaired[k]++; next }
			e = 100 * (num("tps_err") - 1)
			if (paired_n[k]++ == 0 || abs(e) > abs(worst[k])) { worst[k] = e; wv[k] = col("value") " at " col("cap") }
			if (abs(e) <= 10) in10[k]++
			if (col("tps_err_lo") != "" && num("tps_err_lo") >= 0.9 && num("tps_err_hi") <= 1.1) ci10[k]++
			caps[k, col("cap")] = 1
			if (!(k in seen)) { seen[k] = 1; list[++nk] = k }
		}
		END {
			for (i = 1; i <= nk; i++) {
				k = list[i]
				printf "- error, %s: %d prediction(s) of tps, %d within 10%% of the measured (%d with the whole 95%% interval within 10%%)",
					k, n[k], in10[k], ci10[k]
				if (paired_n[k]) printf "; the largest error %+.1f%% (%s)", worst[k], wv[k]
				if (unpaired[k]) printf "; %d with no round measured at that cap", unpaired[k]
				if (partial[k]) printf "; %d refused in some rounds only (read over the others)", partial[k]
				if (ref[k]) printf "; %d value(s) refused in every round (the table says why)", ref[k]
				printf "\n"
			}
			for (k in cases) if (!(k in seen)) printf "- error, %s: every value refused in every round (the table says why)\n", k
			c = 0; for (x in caps) { split(x, y, SUBSEP); if (y[1] == "seed-000") c++ }
			ok = n["seed-000"] > 0 && in10["seed-000"] == n["seed-000"] && c == 2
			if (!("seed-000" in cases) && !n["seed-000"])
				print "- the goal (every tps predicted within 10% of the measured at both other caps on seed 000'"'"'s case): seed 000 is not in this run"
			else
				printf "- the goal (every tps predicted within 10%% of the measured at both other caps on seed 000'"'"'s case, by the geometric mean of the rounds'"'"' errors): %s\n",
					ok ? (ref["seed-000"] ? "met for the values predicted (" ref["seed-000"] " refused, as the table says)" : "met") : "NOT met"
		}' "$(wb_csvf table)"
	wb_awk -v one="$one_round" 'row() {
			k = col("name"); s = col("set")
			if (!(k in seen)) { seen[k] = 1; list[++nk] = k; cs[k] = s }
			if (col("refused") != "") { ref[k]++; rs[s]++; next }
			if (num("tps_ci_low") > 0) wd[s, ++nw[s]] = sqrt(num("tps_ci_high") / num("tps_ci_low")) - 1
			if (col("covered") == "") { unmeas[k]++; next }
			n[k]++; ns[s]++; err = col("err")
			if (num("covered")) { c[k]++; cc[s]++ }
			else if (!(k in worst) || abs(num("miss")) > abs(worst[k])) { worst[k] = num("miss"); wv[k] = col("value") " at " col("cap") }
		}
		END {
			for (i = 1; i <= nk; i++) {
				k = list[i]
				printf "- coverage, %s (%s): %d of %d predictions inside predict()'"'"'s stated 95%% interval", k, cs[k], c[k], n[k]
				if (k in worst) printf "; the largest miss %+.1f%% (%s)", 100 * worst[k], wv[k]
				if (unmeas[k]) printf "; %d not measured there", unmeas[k]
				if (ref[k]) printf "; %d refused (no interval stated)", ref[k]
				printf "\n"
			}
			split("calibration held-out", S, " ")
			for (i = 1; i <= 2; i++) {
				s = S[i]
				if (!ns[s]) { printf "- the coverage goal on the %s set: no prediction with an interval and a measurement\n", s; continue }
				binom_ci(cc[s], ns[s], B)
				delete w; for (j = 1; j <= nw[s]; j++) w[j] = wd[s, j]
				printf "- the coverage goal (the stated 95%% interval holds the measured tps in at least 90%% of the predictions), %s set, at err = %.2f: %d of %d, %.0f%% (95%% interval %.0f-%.0f%%): %s%s; a stated interval'"'"'s median width: the prediction times or over %.2f\n",
					s, err, cc[s], ns[s], 100 * B["p"], 100 * B["lo"], 100 * B["hi"], (cc[s] >= 0.9 * ns[s]) ? "met" : "NOT met",
					rs[s] ? sprintf(" (%d refused, not counted)", rs[s]) : "", 1 + median(w, nw[s])
			}
			printf "- each round alone (its one-round prediction, whose interval is the model'"'"'s error alone) held that round'"'"'s measured tps in %s\n", one
		}' "$(wb_csvf cover)"
	echo
	calibrate "$(wb_csvf cover)" | sed "s|from $(wb_csvf cover)|from this run's cover.csv|"
}
