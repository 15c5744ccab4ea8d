/*-------------------------------------------------------------------------
 *
 * safe_spi.c
 *		SQL the extension runs through SPI in a caller's session: with
 *		search_path pinned to pg_catalog, pg_temp, and its rows handed to a
 *		set-returning call.
 *
 * IDENTIFICATION
 *	  src/common/safe_spi.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "funcapi.h"
#include "utils/guc.h"
#include "utils/tuplestore.h"

#include "common/safe_spi.h"

/*
 * SQL the extension runs in a caller's session resolves nothing in the
 * caller's search_path: a function or operator of a schema someone else
 * may write to would run with the caller's rights.  From here to
 * wp_safe_path_end the search_path is pg_catalog, pg_temp; every name of
 * the extension is qualified.
 */
int
wp_safe_path_begin(void)
{
	int			nest = NewGUCNestLevel();

	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET,
							 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	return nest;
}

void
wp_safe_path_end(int nest)
{
	AtEOXact_GUC(true, nest);
}

/*
 * Every row of SPI's last query into a set-returning call's tuplestore, its
 * columns in the call's order (the query returns the call's own columns).
 */
void
wp_spi_rows_out(ReturnSetInfo *rsinfo)
{
	int			natts = rsinfo->setDesc->natts;
	Datum	   *values = palloc(sizeof(Datum) * natts);
	bool	   *nulls = palloc(sizeof(bool) * natts);

	for (uint64 i = 0; i < SPI_processed; i++)
	{
		for (int c = 0; c < natts; c++)
			values[c] = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, c + 1, &nulls[c]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
}
