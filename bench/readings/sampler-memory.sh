# shellcheck shell=bash
# shellcheck disable=SC2154 # the variables bench/sampler-memory sets before it calls these (minutes, pid, ...)
# bench/readings/sampler-memory.sh: how bench/sampler-memory reads its
# figures (sourced by it, which reads the sampler's memory each minute):
# the text results, the readings of memory.csv with whether it grew
# (sampler_memory_text).  Every statistic is bench/lib/stats.awk's.

# sampler_memory_text: the text results, on stdout.
sampler_memory_text() {
	wb_header "bench/sampler-memory: the sampler's memory over $minutes minute(s)"
	echo "# walpressure.sample_interval = $interval, cap set: $cap write IOPS, sampler pid $pid"
	echo
	printf '%8s  %13s  %13s\n' minute samples_taken sampler_bytes
	wb_awk 'row() { printf "%8.2f  %13s  %13s\n", num("elapsed_s") / 60, col("samples_taken"), col("sampler_bytes") }' \
		"$(wb_csvf memory)"
	echo
	wb_awk 'row() { b = num("sampler_bytes"); if (n++ == 0) f = b; l = b; if (b > mx) mx = b; m = num("elapsed_s") / 60 }
		END {
			printf "reading: %d bytes at minute 0, %d at minute %.2f (%+d, %+.2f%%), at most %d: ",
				f, l, m, l - f, 100 * (l - f) / f, mx
			print ((l - f) * 100 < f ? "flat (under 1% growth)" : "it grows")
		}' "$(wb_csvf memory)"
}
