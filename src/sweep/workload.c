/*-------------------------------------------------------------------------
 *
 * workload.c
 *		The statements of the built-in workloads, once.  simple-update,
 *		tpcb-like and select-only are pgbench's built-in scripts: the
 *		backend engine's clients prepare the same statements (pgbench's
 *		builtin_script, src/bin/pgbench/pgbench.c) and draw the same
 *		uniform random values; the pgbench engine runs pgbench's own.
 *		insert-only and batch-insert are pgbench_history's INSERT, which the
 *		pgbench engine runs as a script written here; custom is the
 *		caller's SQL (or script).
 *
 * IDENTIFICATION
 *	  src/sweep/workload.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "sweep/workload.h"

const char *const wp_sql_update_account =
"UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2";
const char *const wp_sql_select_account =
"SELECT abalance FROM pgbench_accounts WHERE aid = $1";
const char *const wp_sql_update_teller =
"UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2";
const char *const wp_sql_update_branch =
"UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2";
const char *const wp_sql_insert_history =
"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)";

/*
 * The pgbench script of a workload that is not one of pgbench's built-ins
 * (NULL for those): the same statement and random values as the backend
 * engine's clients.
 */
char *
wp_workload_script(const WpLoadSpec *spec)
{
	StringInfoData s;
	const char *row =
		"\\set aid random(1, 100000 * :scale)\n"
		"\\set bid random(1, 1 * :scale)\n"
		"\\set tid random(1, 10 * :scale)\n"
		"\\set delta random(-5000, 5000)\n"
		"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) "
		"VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n";

	initStringInfo(&s);
	switch (spec->workload)
	{
		case WP_WORKLOAD_INSERT_ONLY:
			appendStringInfoString(&s, row);
			break;
		case WP_WORKLOAD_BATCH_INSERT:
			appendStringInfoString(&s, "BEGIN;\n");
			for (int i = 0; i < spec->batch_size; i++)
				appendStringInfoString(&s, row);
			appendStringInfoString(&s, "END;\n");
			break;
		case WP_WORKLOAD_CUSTOM:
			appendStringInfo(&s, "%s\n", spec->sql);
			break;
		default:
			return NULL;		/* a built-in */
	}
	return s.data;
}
