/*-------------------------------------------------------------------------
 *
 * prewarm.c
 *		prewarm(): the pgbench tables (or the relations named) read into shared
 *		buffers through pg_prewarm, as the caller, after a plain error where
 *		the tables are missing.
 *
 * IDENTIFICATION
 *	  src/api/prewarm.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "common/safe_spi.h"

PG_FUNCTION_INFO_V1(wp_prewarm);

/*
 * prewarm(relations regclass[] default NULL): with no relation named, the
 * pgbench tables, which must exist (a plain error when they do not); then
 * _prewarm, as the caller (pg_prewarm checks the right to read each one).
 */
Datum
wp_prewarm(PG_FUNCTION_ARGS)
{
	static const char *const tables[] = {
		"pgbench_accounts", "pgbench_branches", "pgbench_history", "pgbench_tellers"
	};
	ReturnSetInfo *rsinfo;
	Datum		rels = PG_ARGISNULL(0) ? (Datum) 0 : PG_GETARG_DATUM(0);
	int			nest;

	InitMaterializedSRF(fcinfo, 0);
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	/* the pgbench tables the caller's search_path finds */
	if (PG_ARGISNULL(0))
	{
		Datum		oids[lengthof(tables)];

		for (int i = 0; i < lengthof(tables); i++)
		{
			oids[i] = ObjectIdGetDatum(RelnameGetRelid(tables[i]));
			if (!OidIsValid(DatumGetObjectId(oids[i])))
				ereport(ERROR,
						(errcode(ERRCODE_UNDEFINED_TABLE),
						 errmsg("the pgbench tables are missing (no %s in the search_path)", tables[i]),
						 errhint("Create them with SELECT walpressure.init_pgbench(10); or name the relations to prewarm.")));
		}
		rels = PointerGetDatum(construct_array(oids, lengthof(tables), REGCLASSOID,
											   sizeof(Oid), true, TYPALIGN_INT));
	}
	SPI_connect();
	nest = wp_safe_path_begin();
	if (SPI_execute_with_args("SELECT * FROM walpressure._prewarm($1)", 1, (Oid[]) {REGCLASSARRAYOID},
							  &rels, " ", false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not prewarm");
	wp_spi_rows_out(rsinfo);
	wp_safe_path_end(nest);
	SPI_finish();
	return (Datum) 0;
}

