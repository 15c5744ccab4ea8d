# shellcheck shell=bash
# bench/lib/report.sh: the figures as CSV tables, the text results, and
# both written to the results directory.  Sourced by bench/lib/bench.sh.
#
# A bench keeps its figures in CSV tables staged in $WB_STAGE while it runs
# (wb_csv*), computes its text results and their readings from them
# (wb_awk over wb_csvf TABLE) into $WB_REPORT, and ends with wb_publish:
# bench/results/NAME.txt, and beside it bench/results/NAME.csv (a bench with
# one table) or bench/results/NAME/TABLE.csv (several), each CSV file
# starting with the provenance as '#' lines.

# one CSV line of the arguments, each field quoted when it holds a comma, a
# quote or a newline
wb_csv_line() {
	local f sep=""
	for f in "$@"; do
		case $f in *[,\"$'\n']*) f="\"${f//\"/\"\"}\"" ;; esac
		printf '%s%s' "$sep" "$f"
		sep=,
	done
	printf '\n'
}

# wb_csvf TABLE: the staged file of TABLE.
wb_csvf() {
	echo "$WB_STAGE/$1.csv"
}

# wb_csv TABLE COLUMN...: a new table with these columns.
wb_csv() {
	local t=$1
	shift
	wb_csv_line "$@" >"$(wb_csvf "$t")"
}

# wb_csv_add TABLE VALUE...: one row of TABLE.
wb_csv_add() {
	local t=$1
	shift
	wb_csv_line "$@" >>"$(wb_csvf "$t")"
}

# wb_csv_sql TABLE SQL: a new table of a query's columns and rows on the
# bench cluster (NULL: an empty field).  wb_csv_sql_add TABLE SQL: its rows
# added to TABLE (the same columns).
wb_csv_sql() {
	q --csv -P tuples_only=off -c "$2" >"$(wb_csvf "$1")"
}

wb_csv_sql_add() {
	q --csv -c "$2" >>"$(wb_csvf "$1")"
}

# wb_csv_sweeps IDS: the sweeps' rows as they are in the database, for
# every reading to be recomputed: sweeps.csv, steps.csv (every step, the
# discarded ones too, and wal_lsn_bytes: the WAL between wal_lsn_start and
# wal_lsn_end), results.csv (walpressure.results), for the sweep ids IDS (a
# comma-separated list).
wb_csv_sweeps() {
	wb_csv_sql sweeps "SELECT * FROM walpressure.sweeps WHERE sweep_id IN ($1) ORDER BY sweep_id"
	wb_csv_sql steps "SELECT *, pg_wal_lsn_diff(wal_lsn_end, wal_lsn_start) AS wal_lsn_bytes
	                  FROM walpressure.steps WHERE sweep_id IN ($1) ORDER BY sweep_id, step"
	wb_csv_sql results "SELECT * FROM walpressure.results WHERE sweep_id IN ($1) ORDER BY sweep_id, value_pos"
}

# wb_publish: the text results ($WB_REPORT) and the CSV tables written to
# the results directory, the CSV ones after the provenance; the text shown.
wb_publish() {
	local f t n dest
	# a smoke run's figures never go over the results, even written again by --report
	if grep -q '^# SMOKE RUN' "$WB_STAGE/provenance.txt" && [ -z "${WP_BENCH_RESULTS:-}" ]; then
		WB_RESULTS=$WB_TMP/walpressure-bench-quick
	fi
	install -d "$WB_RESULTS"
	cp "$WB_REPORT" "$WB_RESULTS/$WB_OUT.txt"
	n=$(find "$WB_STAGE" -maxdepth 1 -name '*.csv' | wc -l)
	rm -rf "${WB_RESULTS:?}/$WB_OUT" "$WB_RESULTS/$WB_OUT.csv"
	[ "$n" -gt 1 ] && install -d "$WB_RESULTS/$WB_OUT"
	for f in "$WB_STAGE"/*.csv; do
		[ -e "$f" ] || continue
		t=$(basename "$f" .csv)
		if [ "$n" = 1 ]; then dest=$WB_RESULTS/$WB_OUT.csv; else dest=$WB_RESULTS/$WB_OUT/$t.csv; fi
		{
			echo "# bench/$WB_NAME, table $t (the text results: $WB_OUT.txt)"
			cat "$WB_STAGE/provenance.txt"
			cat "$f"
		} >"$dest"
	done
	cat "$WB_REPORT"
	echo "written to $WB_RESULTS/$WB_OUT.txt and $n CSV table(s) beside it"
}

# wb_keep NAME...: keep these variables' values beside this run's figures;
# wb_kept: set them again, in a run that writes the report from the last
# run's figures (a script's --report), so that its text names that run's
# settings, not the defaults.
wb_keep() {
	local v
	for v in "$@"; do
		printf '%s=%q\n' "$v" "${!v}"
	done >>"$WB_STAGE/kept.sh"
}

wb_kept() {
	[ -f "$WB_STAGE/kept.sh" ] || wp_die "no figures of an earlier run in $dir (run bench/$WB_NAME first)"
	# shellcheck disable=SC1091
	. "$WB_STAGE/kept.sh"
}
