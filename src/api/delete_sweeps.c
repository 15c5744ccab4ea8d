/*-------------------------------------------------------------------------
 *
 * delete_sweeps.c
 *		delete_sweeps(older_than): the sweeps that ended more than older_than
 *		ago deleted, with their rows; a running one never.
 *
 * IDENTIFICATION
 *	  src/api/delete_sweeps.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "common/safe_spi.h"

PG_FUNCTION_INFO_V1(wp_delete_sweeps);

/*
 * delete_sweeps(older_than interval) returns bigint: the sweeps that ended
 * more than older_than ago go, with their steps and samples (a running one
 * never: its trigger keeps it).  An interval that is not positive (which
 * would mean every sweep) is refused.
 */
Datum
wp_delete_sweeps(PG_FUNCTION_ARGS)
{
	Datum		older = PG_GETARG_DATUM(0);
	Interval	zero = {0};
	bool		isnull;
	int64		n;
	int			nest;

	if (DatumGetInt32(DirectFunctionCall2(interval_cmp, older, IntervalPGetDatum(&zero))) <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("older_than must be a positive interval, not %s",
						DatumGetCString(DirectFunctionCall1(interval_out, older))),
				 errhint("delete_sweeps('30 days') deletes the sweeps that ended more than 30 days ago.")));
	SPI_connect();
	nest = wp_safe_path_begin();
	if (SPI_execute_with_args("WITH gone AS (DELETE FROM walpressure.sweeps "
							  "WHERE status <> 'running' AND coalesce(finished_at, started_at) < now() - $1 "
							  "RETURNING 1) SELECT count(*) FROM gone",
							  1, (Oid[]) {INTERVALOID}, &older, NULL, false, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not delete the sweeps");
	n = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	wp_safe_path_end(nest);
	SPI_finish();
	PG_RETURN_INT64(n);
}
