# shellcheck shell=bash
# bench/lib/stats.sh: the shell's way to the statistics of
# bench/lib/stats.awk.  Sourced by bench/lib/bench.sh.

# wb_awk [-v NAME=VALUE ...] PROGRAM [FILE...]: awk with stats.awk's
# functions (row, col, num, median, mean, stddev, t975, summary, paired, iv, ...)
# loaded before PROGRAM.
wb_awk() {
	local vars=() prog
	while [ "${1:-}" = -v ]; do
		vars+=(-v "$2")
		shift 2
	done
	prog=$1
	shift
	awk "${vars[@]}" -f "$WB_LIB/stats.awk" -f <(printf '%s\n' "$prog") "$@"
}

# wb_median: the median of the numbers on stdin, one a line; "-" for none.
wb_median() {
	wb_awk '$1 != "" { x[++n] = $1 } END { print (n ? median(x, n) : "-") }'
}

# wb_quantile P: the nearest-rank quantile P (0..1) of the numbers on stdin.
wb_quantile() {
	wb_awk -v p="$1" '$1 != "" { x[++n] = $1 } END { print (n ? quantile(x, n, p) : "-") }'
}
