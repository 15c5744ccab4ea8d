# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/fleet sets before it calls this (sweep, nmax)
# bench/readings/fleet.sh: how bench/fleet reads its figures (sourced by it,
# which declares its servers and fleet runs and runs them): the text results
# (fleet_text) from the staged CSV tables (runs, collect, limit,
# limit_settings).  Every statistic is bench/lib/stats.awk's.

# fleet_text: the text results, on stdout.
fleet_text() {
	wb_header "bench/fleet: one fleet_run over N servers on this machine, and what it costs the centre"
	echo "# the sweep on each server: $sweep (2 steps)"
	echo "# each server: a throwaway cluster (shared_buffers 32MB, fsync on), pgbench scale 1; all on this machine's CPUs and disk"
	echo
	echo "per run (seconds; start 1st / last: when the first and the last server's sweep began there, from the run's"
	echo "start; start step: the centre's time to start one server (its connections, questions and the call: the"
	echo "spacing of the members' starts); to rows: from a sweep's end there to its rows here, for the sweep that"
	echo "ended last and the longest of all; cpu: the central backend's user + system time over the call):"
	wb_awk '
		row() {
			n = num("n"); c = ++k[n]
			if (c == 1) order[++m] = n
			run[n, c] = num("run_s"); sf[n, c] = num("start_first_s"); sl[n, c] = num("start_last_s")
			ss[n, c] = num("start_step_s"); rl[n, c] = num("rows_last_s"); rm[n, c] = num("rows_max_s")
			cpu[n, c] = num("cpu_s")
		}
		function med(a, n, c,   i, v) { for (i = 1; i <= c; i++) v[i] = a[n, i]; return median(v, c) }
		END {
			printf "  %3s %4s | %6s | %9s %10s %10s | %10s %9s | %5s %9s %10s\n", "N", "runs", "run", "start 1st",
			       "start last", "start step", "rows, last", "rows, max", "cpu", "cpu per s", "per server"
			for (j = 1; j <= m; j++) {
				n = order[j]; c = k[n]
				r = med(run, n, c); u = med(cpu, n, c)
				printf "  %3d %4d | %6.2f | %9.3f %10.3f %10.4f | %10.3f %9.3f | %5.2f %9.4f %10.4f\n", n, c, r,
				       med(sf, n, c), med(sl, n, c), med(ss, n, c), med(rl, n, c), med(rm, n, c), u, u / r, u / r / n
			}
			print "  (medians of the runs; cpu per s: CPU seconds per second of the run; per server: that over N)"
			# what 50 and 500 would take, from the largest N measured
			n = order[m]; c = k[n]
			step = med(ss, n, c); per = med(cpu, n, c) / med(run, n, c) / n; gather = med(rm, n, c) / n
			print ""
			printf "scaled from N = %d (each figure grows with the servers; the servers themselves are not the centre'"'"'s load):\n", n
			printf "  %4s | %11s | %14s | %18s | %20s\n", "N", "connections", "start, last", "watching, CPU", "all end at once"
			for (i = 1; i <= 2; i++) {
				x = (i == 1) ? 50 : 500
				printf "  %4d | %11d | %12.1f s | %10.2f of a CPU | %12.1f s to rows\n", x, 2 * x, x * step, x * per, x * gather
			}
		}' "$(wb_csvf runs)"
	echo
	echo "a second fleet_collect() over the same servers (nothing new to gather), seconds:"
	wb_awk '
		row() { n = num("n"); c = ++k[n]; if (c == 1) order[++m] = n; v[n, c] = num("collect_s") }
		END { for (j = 1; j <= m; j++) { n = order[j]; c = k[n]; for (i = 1; i <= c; i++) w[i] = v[n, i]
		      printf "  N = %3d: %6.3f s, %6.3f s per server\n", n, median(w, c), median(w, c) / n } }' "$(wb_csvf collect)"
	echo
	echo "one central session with max_files_per_process = $(tail -n 1 "$(wb_csvf limit_settings)") over $nmax servers (each holds two"
	echo "connections; PostgreSQL lets a backend hold about a third of its file descriptors as such):"
	wb_awk 'row() { printf "  %-4s %-12s %-10s %s\n", col("server"), col("state"), col("sweep_status"), substr(col("detail"), 1, 100) }' "$(wb_csvf limit)"
}
