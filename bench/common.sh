# Shared by the bench/ scripts, sourced after test/setup.sh and after the
# script sets $dir (the bench's directory), $data (its data directory) and
# $port.  Each bench runs one throwaway cluster there, as the postgres user.

# Stop the bench cluster if it runs.
stop_server() {
	[ -f "$data/postmaster.pid" ] && wp_as_postgres pg_ctl -D "$data" -m fast -w stop >/dev/null
	return 0
}

# A fresh cluster in $dir with walpressure's throwaway settings; the script
# appends its own to $data/postgresql.conf, then calls bench_start.
bench_new_cluster() {
	stop_server
	rm -rf "$dir"
	install -d -o postgres -g postgres "$dir"
	wp_as_postgres initdb -D "$data" -A trust --no-sync >/dev/null
	wp_cluster_conf "$data" "$dir" "$port"
}

bench_start() {
	wp_as_postgres pg_ctl -D "$data" -l "$dir/server.log" -w start >/dev/null
}

# psql on the bench cluster: unaligned, tuples only, stop at the first error.
q() { wp_as_postgres psql -X -A -t -q -h "$dir" -p "$port" -d postgres -v ON_ERROR_STOP=1 "$@"; }

# The median of the numbers on stdin, one a line; "-" when there are none.
median() {
	sort -g | awk '{ v[NR] = $1 }
		END { if (NR == 0) print "-"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
