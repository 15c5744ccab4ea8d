# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/seed-002-crash sets before it calls this (delays, settings, ...)
# bench/readings/seed-002-crash.sh: how bench/seed-002-crash reads its
# figures (sourced by it, which declares its wal_writer_delay values and
# trials and runs them): the text results with their reading and the
# fidelity: line (crash_text).  Every statistic is bench/lib/stats.awk's.

# crash_text: the text results, on stdout.
crash_text() {
	wb_header "seed 002: the crash-loss window of synchronous_commit = off (process crash, kill -9)"
	echo "# settings: $settings; max_wal_size 4GB, checkpoint_timeout 1h"
	echo "# load: pgbench -n -c $clients -j 2 -l -f insert.sql, insert.sql = $insert_sql"
	echo "# each trial: wal_writer_delay by ALTER SYSTEM + reload; TRUNCATE, CHECKPOINT; pgbench; after"
	echo "# ${load} s, kill -9 of the postmaster and all its children in one call (the postmaster, then the"
	echo "# children newest first: the backends before the WAL writer); crash recovery (pg_ctl start);"
	echo "# rows counted.  $trials rounds, the three values interleaved (order rotating each round)."
	echo "# acknowledged: lines of pgbench's per-transaction logs (a commit whose result the client read)."
	echo "# lost: acknowledged commits absent after recovery, exact per client (a client's surviving rows are"
	echo "# the first it committed); extra: rows present whose acknowledgement the client never read."
	echo "# window: lost / (acknowledged / load s) * 1000 ms, load s = first to last acknowledgement;"
	echo "# bound: 3 x wal_writer_delay, PostgreSQL's documented maximum for asynchronous commit."
	echo "#"
	echo "# What this measures: kill -9 of the server processes loses only the WAL not yet written from"
	echo "# wal_buffers to the kernel.  WAL written but not yet fsynced survives in the page cache; an OS"
	echo "# crash or power loss would lose it too, and cannot be simulated safely on this machine.  So the"
	echo "# window below is the process-crash window, a LOWER BOUND of the power-loss window.  The WAL not"
	echo "# yet flushed (fsynced) at instants sampled every 100 ms, in ms of the trial's WAL rate, is shown as"
	echo "# an estimate of what a power loss at those instants would have put at risk; it is not a measured loss."
	echo
	printf '%-9s | %-24s | %-24s | %-16s | %-20s | %6s | %-12s | %s\n' "delay" "acknowledged" "survived" "lost" \
		"window ms" "bound" "within" "tps"
	wb_awk -v delays="$delays" '
		function mr(d, c, f,   i, x) { for (i = 1; i <= n[d]; i++) x[i] = v[d, c, i]
			return sprintf(f " (" f "-" f ")", median(x, n[d]), minv(x, n[d]), maxv(x, n[d])) }
		row() { d = col("delay_ms"); k = ++n[d]
			split("acknowledged survived lost window_ms tps", cs, " "); for (j in cs) v[d, cs[j], k] = num(cs[j])
			if (num("window_ms") <= 3 * d) y[d]++ }
		END {
			nd = split(delays, dl, " ")
			for (i = 1; i <= nd; i++) { d = dl[i]
				printf "%-9s | %-24s | %-24s | %-16s | %-20s | %6s | %-12s | %s\n", d "ms", mr(d, "acknowledged", "%d"), mr(d, "survived", "%d"),
					mr(d, "lost", "%d"), mr(d, "window_ms", "%.1f"), 3 * d, sprintf("%s (%d/%d)", (y[d] == n[d] ? "yes" : "no"), y[d], n[d]), mr(d, "tps", "%.0f") }
		}' "$(wb_csvf trials)"
	echo "median (range) over the trials; within: the largest window <= bound (trials within / trials)."
	echo
	echo "WAL not yet written / not yet fsynced at the sampled instants, as ms of the WAL rate"
	echo "(median of the trials' medians; largest sample of all trials):"
	printf '%-9s | %-10s | %-22s | %-22s | %s\n' "delay" "WAL MB/s" "unwritten ms med / max" "unflushed ms med / max" "bound"
	wb_awk -v delays="$delays" '
		row() { d = col("delay_ms"); k = ++n[d]; r[d, k] = num("wal_MBps"); wm[d, k] = num("wlag_med"); fm[d, k] = num("flag_med")
			if (num("wlag_max") > wx[d]) wx[d] = num("wlag_max"); if (num("flag_max") > fx[d]) fx[d] = num("flag_max") }
		END {
			nd = split(delays, dl, " ")
			for (i = 1; i <= nd; i++) { d = dl[i]
				printf "%-9s | %-10s | %-22s | %-22s | %s\n", d "ms", sprintf("%.2f", median_at(r, d, n[d])), sprintf("%.1f / %.1f", median_at(wm, d, n[d]), wx[d]),
					sprintf("%.1f / %.1f", median_at(fm, d, n[d]), fx[d]), 3 * d }
		}' "$(wb_csvf trials)"
	echo
	echo "every trial:"
	echo "  # $(head -n 1 "$(wb_csvf trials)" | tr , ' ')"
	tail -n +2 "$(wb_csvf trials)" | tr , ' ' | sed 's/^/  /'
	echo "  (after_kill: acknowledgements pgbench logged with a time after the kill; processed: pgbench's own"
	echo "  'transactions actually processed'; non_tx: log lines that are not a completed transaction;"
	echo "  clients_with_gaps: clients whose log count differs from their highest transaction number;"
	echo "  wlag/flag: unwritten / unflushed WAL in ms at the samples; last_ack_ms: the last acknowledgement's"
	echo "  time minus the kill instant, ms)"
	echo
	echo "reading (computed from the figures above):"
	wb_awk -v delays="$delays" -v fa="$flush_after" '
		row() { d = col("delay_ms"); k = ++n[d]; w[d, k] = num("window_ms"); rt[d, k] = num("wal_MBps")
			if (k == 1 || num("window_ms") > mx[d]) mx[d] = num("window_ms")
			if (num("lost") > 0) { pos[d]++; anypos++ } lost += num("lost"); tot++
			if (num("flag_max") > fmx[d]) fmx[d] = num("flag_max")
			ns += num("samples")
			chk += (col("acknowledged") != col("processed") && col("processed") != "") + num("non_tx") + num("clients_with_gaps")
			aft += num("after_kill"); if (num("last_ack_ms") > lam) lam = num("last_ack_ms") }
		END {
			split(delays, dl, " ")
			for (i = 1; i <= 3; i++) {
				d = dl[i]
				printf "- wal_writer_delay %dms: the largest process-crash window %.1f ms is %s the documented bound 3 x %d = %d ms; %d of %d trials lost acknowledged commits\n",
					d, mx[d], (mx[d] <= 3 * d ? "within" : "ABOVE"), d, 3 * d, pos[d] + 0, n[d]
			}
			m1 = median_at(w, dl[1], n[dl[1]]); m2 = median_at(w, dl[2], n[dl[2]]); m3 = median_at(w, dl[3], n[dl[3]])
			printf "- scaling: median window %.1f / %.1f / %.1f ms at %d / %d / %d ms; ", m1, m2, m3, dl[1], dl[2], dl[3]
			if (m1 > 0) {
				rr = m3 / m1
				printf "%dms / %dms = %.2fx for a %dx longer delay", dl[3], dl[1], rr, dl[3] / dl[1]
				if (rr >= 0.5 * dl[3] / dl[1]) print " (at least half in proportion to the delay)"
				else if (rr >= 2) print " (grows with the delay, far less than in proportion)"
				else print " (less than 2x: the window did not follow the delay in this load)"
			} else print "the median at " dl[1] "ms is 0, no ratio"
			printf "- the article (up to 200 ms lost in a crash at wal_writer_delay 200ms): the largest process-crash window at 200ms, %.1f ms, ", mx[200]
			if (mx[200] > 200) print "is ABOVE 200 ms even for a process crash"
			else print "is below 200 ms; being a lower bound of the power-loss window, it neither confirms nor refutes the article for a power loss"
			printf "- WAL not yet fsynced at the %d sampled instants, largest: %.1f / %.1f / %.1f ms at %d / %d / %d ms (bounds %d / %d / %d): %s\n",
				ns, fmx[dl[1]], fmx[dl[2]], fmx[dl[3]], dl[1], dl[2], dl[3], 3 * dl[1], 3 * dl[2], 3 * dl[3],
				(fmx[dl[1]] <= 3 * dl[1] && fmx[dl[2]] <= 3 * dl[2] && fmx[dl[3]] <= 3 * dl[3]) ? "all within the bound at these instants (an estimate, sampled, not a loss)" : "some ABOVE the bound at these instants (an estimate, sampled, not a loss)"
			printf "  for comparison, wal_writer_flush_after (%d kB) is %.0f / %.0f / %.0f ms of the median WAL rate at %d / %d / %d ms\n",
				fa / 1024, fa / (median_at(rt, dl[1], n[dl[1]]) * 1048576) * 1000, fa / (median_at(rt, dl[2], n[dl[2]]) * 1048576) * 1000,
				fa / (median_at(rt, dl[3], n[dl[3]]) * 1048576) * 1000, dl[1], dl[2], dl[3]
			printf "  the article says the WAL writer flushes within wal_writer_delay: at 200ms the largest unflushed sample, %.1f ms, is %s 200 ms\n",
				fmx[200], (fmx[200] <= 200 ? "within" : "ABOVE")
			if (anypos > 0)
				printf "- %d of %d trials lost acknowledged commits (%d in all) to a crash of the processes alone, which keeps every write() in the page cache: those commits returned before their WAL was written to the kernel; the article describes off as waiting for the WAL write (OS page cache) but not the fsync, which these losses contradict\n", anypos, tot, lost
			else
				printf "- no trial lost an acknowledged commit to a process crash (%d trials)\n", tot
			printf "- pgbench logged %d acknowledgements (in all trials) with a time after the instant the kill call began, the last %.1f ms after it: the log counts the results the client read, whenever it read them\n", aft, lam
			printf "- checks: %d trials where pgbench'"'"'s processed count, the log or a client'"'"'s transaction numbers disagree\n", chk
			# the status by bench/lib'"'"'s rule: the article'"'"'s loss is that of a crash that loses the WAL
			# written but not fsynced (an OS crash, a power loss), which cannot be staged here
			fid_not_run(F, "an OS crash or a power loss, which loses the WAL not yet fsynced, cannot be staged here; a kill -9 of the server loses only the WAL not yet written")
			printf "- the table, by bench/lib'"'"'s fidelity rule: %s: %s\n", fid_status(F), fid_why(F)
			fid_line(F, "002", "crash-loss window of synchronous_commit off", \
				sprintf("a process crash (kill -9) lost acknowledged commits in %d of %d trials, at most %.1f ms of them at wal_writer_delay 200ms (3 x 200 = 600 ms the bound); the WAL not yet fsynced reached %.1f ms at 200ms (sampled, an estimate of a power loss, not a loss); the article up to 200 ms", \
					anypos + 0, tot, mx[200], fmx[200]))
		}' "$(wb_csvf trials)"
}
