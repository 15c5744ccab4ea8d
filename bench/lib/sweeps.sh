# shellcheck shell=bash
# bench/lib/sweeps.sh: sweeps a bench makes with walpressure.import(), so
# that every ratio and interval is read through the extension (results,
# effects(), best, compare()) and none is computed again here.  Sourced by
# bench/lib/bench.sh.
#
# A bench that interleaves run_sweep with other work (another disk, pgbench
# by hand) calls run_sweep once per round, with repeats => 1, and merges the
# rounds' sweeps into one (wb_sweep_merge): the same steps as one run_sweep
# with repeats => N would have made, one round after another, each round a
# repeat, so that effects() pairs them by round.  pgbench by hand, measured
# in the same rounds, becomes a sweep too (wb_hand_sweep): a copy of the
# run_sweep's row whose steps are by hand's figures, read by the same
# effects().  Both are labelled as what they are; their rows go into the
# CSV tables with the others (wb_csv_sweeps).

# wb_sweep_merge LABEL ID...: one sweep, labelled LABEL, made of the sweeps
# ID... (one round each, in that order; the same setting and values): their
# steps renumbered in order, the steps of the k-th sweep its repeat k, their
# samples and statements with them; the row of the first (its F0, its disk,
# its settings) with the rounds counted and the status 'done' when every one
# is done ('aborted' else).  Prints the new sweep's id.
wb_sweep_merge() {
	local label=$1 ids id
	shift
	ids=$(IFS=,; echo "$*")
	[ "$(q -c "SELECT count(DISTINCT (setting, vals, iops_cap, disk, flush_floor_ms)) FROM walpressure.sweeps
	           WHERE sweep_id IN ($ids)")" = 1 ] ||
		wp_die "wb_sweep_merge: sweeps $ids differ in their setting, values or disk"
	id=$(q -v "ids={$ids}" -v "label=$label" <<'SQL'
WITH p AS (
    SELECT o::int AS r, walpressure.export(u.id) AS d
    FROM unnest(:'ids'::bigint[]) WITH ORDINALITY AS u(id, o)
), st AS (
    SELECT p.r, e, (e->>'step')::int AS old, row_number() OVER (ORDER BY p.r, (e->>'step')::int) AS k
    FROM p, jsonb_array_elements(p.d->'steps') AS e
), f AS (
    SELECT d FROM p WHERE r = 1
)
SELECT walpressure.import(f.d || jsonb_build_object(
    'sweep', (f.d->'sweep') || jsonb_build_object(
        'label', :'label',
        'repeats', (SELECT count(*) FROM p),
        'steps_total', (SELECT sum((d->'sweep'->>'steps_total')::int) FROM p),
        'steps_done', (SELECT sum((d->'sweep'->>'steps_done')::int) FROM p),
        'status', CASE WHEN (SELECT bool_and(d->'sweep'->>'status' = 'done') FROM p) THEN 'done' ELSE 'aborted' END,
        'finished_at', (SELECT d->'sweep'->'finished_at' FROM p ORDER BY r DESC LIMIT 1)),
    'steps', (SELECT jsonb_agg(e || jsonb_build_object('step', k, 'repeat', r) ORDER BY k) FROM st),
    'step_samples', coalesce((SELECT jsonb_agg(x || jsonb_build_object('step', st.k) ORDER BY st.k, (x->>'second')::int)
                              FROM st JOIN p ON p.r = st.r, jsonb_array_elements(p.d->'step_samples') AS x
                              WHERE (x->>'step')::int = st.old), '[]'),
    'step_statements', coalesce((SELECT jsonb_agg(x || jsonb_build_object('step', st.k) ORDER BY st.k, (x->>'rank')::int)
                                 FROM st JOIN p ON p.r = st.r, jsonb_array_elements(p.d->'step_statements') AS x
                                 WHERE (x->>'step')::int = st.old), '[]'),
    'step_replication', '[]'::jsonb,
    'search_rounds', '[]'::jsonb))
FROM f
SQL
)
	case $id in '' | *[!0-9]*) wp_die "wb_sweep_merge: import() did not return a sweep id: $id" ;; esac
	echo "$id"
}

# wb_hand_sweep LIKE LABEL FILE [CONDITION]: pgbench by hand as a sweep
# labelled LABEL: sweep LIKE's row (its setting, values, clients, cap and
# disk; no F0: by hand measured none) with one step per row of the CSV
# table FILE that CONDITION (an awk expression over col()/num(), default
# every row) selects, its columns round, value (no quote in it), started_at, seconds,
# transactions, tps, latency_avg_ms, commits_per_fsync (empty: not
# measured) and write_iops (empty: not measured).  A step's commits are its
# transactions, and its WAL fsyncs those over commits_per_fsync, so that
# results' commits per fsync is by hand's.  Prints the new sweep's id;
# effects() of it is by hand's ratios, paired by round.
wb_hand_sweep() {
	local like=$1 label=$2 file=$3 cond=${4:-1} rows id
	rows=$(wb_awk 'row() && ('"$cond"') {
			printf "%s{\"repeat\": %d, \"value\": \"%s\", \"started_at\": \"%s\", \"seconds\": %.3f, \"transactions\": %d, ",
				(n++ ? ", " : ""), num("round"), col("value"), col("started_at"), num("seconds"), num("transactions")
			printf "\"tps\": %.3f, \"latency_avg_ms\": %s, \"commits_per_fsync\": %s, \"write_iops\": %s}",
				num("tps"), jnum(col("latency_avg_ms")), jnum(col("commits_per_fsync")), jnum(col("write_iops"))
		}
		function jnum(x) { return (x == "") ? "null" : sprintf("%.4f", x) }' "$file")
	[ -n "$rows" ] || wp_die "wb_hand_sweep: no rows of $file for $label"
	id=$(q -v "like=$like" -v "label=$label" -v "rows=[$rows]" <<'SQL'
WITH d AS (
    SELECT walpressure.export(:like) AS d
), h AS (
    SELECT e, row_number() OVER (ORDER BY (e->>'repeat')::int, (e->>'started_at')::timestamptz) AS k
    FROM jsonb_array_elements(:'rows'::jsonb) AS e
)
SELECT walpressure.import(d.d || jsonb_build_object(
    'sweep', (d.d->'sweep') || jsonb_build_object(
        'label', :'label', 'status', 'done',
        'repeats', (SELECT max((e->>'repeat')::int) FROM h),
        'steps_total', (SELECT count(*) FROM h), 'steps_done', (SELECT count(*) FROM h),
        'started_at', (SELECT min(e->>'started_at') FROM h), 'finished_at', (SELECT max(e->>'started_at') FROM h),
        'f0_ms', NULL, 'f0_p50_ms', NULL, 'f0_p99_ms', NULL, 'f0_source', NULL, 'threshold', NULL),
    'steps', (SELECT jsonb_agg(jsonb_build_object(
                  'step', k,
                  'value_pos', array_position(ARRAY(SELECT jsonb_array_elements_text(d.d->'sweep'->'vals')), e->>'value'),
                  'repeat', (e->>'repeat')::int, 'clients', (d.d->'sweep'->>'clients')::int, 'round_trip_us', 0,
                  'started_at', e->'started_at', 'seconds', e->'seconds', 'server_seconds', e->'seconds',
                  'transactions', e->'transactions', 'retries', 0, 'tps', e->'tps', 'latency_avg_ms', e->'latency_avg_ms',
                  'commits', e->'transactions', 'leaders', 0,
                  'wal_fsyncs', round((e->>'transactions')::numeric / nullif((e->>'commits_per_fsync')::numeric, 0)),
                  'commits_per_fsync', e->'commits_per_fsync', 'write_iops', e->'write_iops',
                  'iops_cap', d.d->'sweep'->'iops_cap', 'disk', d.d->'sweep'->'disk') ORDER BY k) FROM h),
    'step_samples', '[]'::jsonb, 'step_statements', '[]'::jsonb,
    'step_replication', '[]'::jsonb, 'search_rounds', '[]'::jsonb))
FROM d
SQL
)
	case $id in '' | *[!0-9]*) wp_die "wb_hand_sweep: import() did not return a sweep id: $id" ;; esac
	echo "$id"
}
