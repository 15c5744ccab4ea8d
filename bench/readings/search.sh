# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/search sets before it calls this (grid_rounds, confirm_rounds, ...)
# bench/readings/search.sh: how bench/search reads its figures (sourced by
# it, which declares its cases and runs them: the search, the grid, the
# head to head): the text results with their reading (search_text), from
# the staged CSV tables (cases, summary, search_rounds).  Every interval
# is the extension's (results, effects()).

# search_text: the text results, on stdout.
search_text() {
	wb_header "run_sweep's search against the full grid of the same values"
	echo "# per case: the search (run_sweep(setting, range => ..., the default resolution but in smoke"
	echo "# runs), then the grid of the range's values by the resolution in $grid_rounds interleaved rounds;"
	echo "# $seconds s measured after $warm s of warm-up per step, a CHECKPOINT before each; scale $scale prewarmed,"
	echo "# shared_buffers 3GB; pg_wal's disk capped (the cap's cgroup above).  The machine is shared with"
	echo "# other benchmarks and test runs: its load drifts, which the paired rounds keep out of each ratio."
	echo
	printf '%-11s %-13s %-11s %5s | %6s %6s %5s %6s | %7s %7s | %-9s %-9s %-26s | %s\n' case setting range res \
		search grid share found search_s grid_s "grid best" "in grid" "(95% interval, verdict)" "head to head (95% interval, verdict)"
	wb_awk 'FILENAME ~ /cases.csv$/ && row() { st[col("name")] = col("setting"); rg[col("name")] = col("range"); rs[col("name")] = col("resolution"); next }
		FILENAME ~ /summary.csv$/ && row() {
			k = col("name")
			if (col("found") == col("grid_best"))
				h = "none: the found value is the best"
			else if (col("h2h_ratio") == "")
				h = "no round measured both"
			else
				h = sprintf("%.3f (%.3f-%.3f, %s)", num("h2h_ratio"), num("h2h_ci_low"), num("h2h_ci_high"), col("h2h_verdict"))
			printf "%-11s %-13s %-11s %5s | %6d %6d %4.0f%% %6s | %6ds %6ds | %-9s %-9s %-26s | %s\n", k, st[k], rg[k], rs[k],
				num("search_steps"), num("grid_steps"), 100 * num("search_steps") / num("grid_steps"), col("found"),
				num("search_s"), num("grid_s"), col("grid_best"), sprintf("%.3f", num("ratio")),
				(col("ratio_ci_low") == "" ? "(" col("verdict") ")" : sprintf("(%.3f-%.3f, %s)", num("ratio_ci_low"), num("ratio_ci_high"), col("verdict"))), h
		}' "$(wb_csvf cases)" "$(wb_csvf summary)"
	echo
	echo "search, grid: steps; share: the search's steps over the grid's; found: the value the search"
	echo "found (what best starts from: _top of the search); grid best: the value with the most"
	echo "tps in the grid; in grid: the found value's tps over the best's in the grid, the geometric mean"
	echo "of the per-round ratios with its 95% interval (paired by the grid's rounds); head to head:"
	echo "the same ratio from a sweep of the two alone, $confirm_rounds interleaved rounds after the grid.  The grid's"
	echo "best is the most tps among its values in the grid's own rounds: where several lie within the"
	echo "noise of the peak, the one picked is the one the noise favoured, and the ratio in the grid leans"
	echo "against the found value; head to head the noise is new to both."
	echo
	echo "each search, round by round (search_rounds: the values it ran, in order, and what it did):"
	wb_awk 'FILENAME ~ /cases.csv$/ && row() { nm[col("search_id")] = col("name"); next }
		FILENAME ~ /search_rounds.csv$/ && row() {
			printf "  %-10s round %2s, pair %s [%s, %s]: ran %s: %s\n", nm[col("sweep_id")], col("round"), col("pair"),
				col("low"), col("high"), col("vals"), col("decision")
		}' "$(wb_csvf cases)" "$(wb_csvf search_rounds)"
	echo
	echo "reading (computed from the figures above):"
	wb_awk 'row() {
			k = col("name"); n++
			share = num("search_steps") / num("grid_steps")
			same = col("found") == col("grid_best")
			h2h = !same && col("h2h_ratio") != ""
			within = same || (h2h && num("h2h_ratio") >= 0.95)
			overlap = same || (h2h && num("h2h_found_ci_high") >= num("h2h_best_ci_low") && num("h2h_found_ci_low") <= num("h2h_best_ci_high"))
			ok = within && overlap && share <= 1 / 3
			good += ok
			why = within ? "" : (h2h || same ? "; below 95% of the best head to head" : "; no head-to-head round measured both")
			why = why (overlap || !h2h ? "" : "; its tps interval apart from the best'"'"'s head to head") (share <= 1 / 3 ? "" : "; more than a third of the grid'"'"'s steps")
			printf "- %s: the search found %s in %d steps (%.0f%% of the grid'"'"'s %d) and %ds (%.0f%% of the grid'"'"'s %ds); in the grid it has %.1f tps (95%% interval %s to %s) against the best, %s, %.1f tps (%s to %s): %.3fx%s", \
				k, col("found"), num("search_steps"), 100 * share, num("grid_steps"), num("search_s"), 100 * num("search_s") / num("grid_s"), num("grid_s"),
				num("found_tps"), col("found_ci_low"), col("found_ci_high"), col("grid_best"), num("best_tps"), col("best_ci_low"), col("best_ci_high"),
				num("ratio"), (col("ratio_ci_low") == "" ? "" : sprintf(" (%.3f-%.3f)", num("ratio_ci_low"), num("ratio_ci_high")))
			if (same)
				printf "; the found value is the grid'"'"'s best"
			else if (h2h)
				printf "; head to head in %d rounds it has %.1f tps (%s to %s) against %.1f (%s to %s): %.3fx (%.3f-%.3f, %s)",
					num("h2h_rounds"), num("h2h_found_tps"), col("h2h_found_ci_low"), col("h2h_found_ci_high"),
					num("h2h_best_tps"), col("h2h_best_ci_low"), col("h2h_best_ci_high"),
					num("h2h_ratio"), num("h2h_ci_low"), num("h2h_ci_high"), col("h2h_verdict")
			printf "; %s\n", ok ? "the goal is met" : "the goal is NOT met (" substr(why, 3) ")"
		}
		END { printf "- the goal (within 5%% of the grid'"'"'s best head to head, tps intervals overlapping, in at most a third of the grid'"'"'s steps) is met on %d of %d cases\n", good, n }' "$(wb_csvf summary)"
}
