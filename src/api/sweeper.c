/*-------------------------------------------------------------------------
 *
 * sweeper.c
 *		grant_sweeper() and revoke_sweeper(): the caller's side.  The GRANTs
 *		themselves are _grant_sweeper's (sql/objects/sweep/sweepers.sql),
 *		which records each one it gives; _revoke_sweeper takes back exactly
 *		those.  Here: the pgbench tables as the caller's search_path finds
 *		them (as run_sweep will), and, before a revoke, the end of the
 *		role's running sweep, so that nothing goes on running as a role
 *		whose rights are being taken away.
 *
 * IDENTIFICATION
 *	  src/api/sweeper.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

#include "job/launch.h"
#include "job/slot.h"
#include "live/shmem.h"
#include "common/safe_spi.h"

PG_FUNCTION_INFO_V1(wp_grant_sweeper);
PG_FUNCTION_INFO_V1(wp_revoke_sweeper);

/* Run `sql` with `nargs` arguments; its rows of one text go to the result. */
static void
wp_text_rows(FunctionCallInfo fcinfo, const char *sql, int nargs, Oid *types, Datum *args)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int			nest;

	SPI_connect();
	nest = wp_safe_path_begin();
	if (SPI_execute_with_args(sql, nargs, types, args, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not run %s", sql);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;
		Datum		v = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull);

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &v, &isnull);
	}
	wp_safe_path_end(nest);
	SPI_finish();
}

/*
 * grant_sweeper(role regrole, engine text default 'backend') returns setof
 * text: every right a sweep needs that the role lacks, recorded.
 */
Datum
wp_grant_sweeper(PG_FUNCTION_ARGS)
{
	static const char *const tables[] = {
		"pgbench_accounts", "pgbench_branches", "pgbench_history", "pgbench_tellers"
	};
	Datum		oids[lengthof(tables)];
	int			n = 0;
	char	   *engine = text_to_cstring(PG_GETARG_TEXT_PP(1));

	if (strcmp(engine, "pgbench") != 0 && strcmp(engine, "backend") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown engine \"%s\"", engine),
				 errhint("Engines: backend (in-server clients; the default), pgbench (this server's pgbench, which needs pg_execute_server_program: it equals superuser).")));
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	/* the pgbench tables the caller's search_path finds */
	for (int i = 0; i < lengthof(tables); i++)
	{
		Oid			rel = RelnameGetRelid(tables[i]);

		if (OidIsValid(rel))
			oids[n++] = ObjectIdGetDatum(rel);
	}
	wp_text_rows(fcinfo, "SELECT * FROM walpressure._grant_sweeper($1, $2, $3)", 3,
				 (Oid[]) {REGROLEOID, TEXTOID, REGCLASSARRAYOID},
				 (Datum[]) {PG_GETARG_DATUM(0), PG_GETARG_DATUM(1),
				 PointerGetDatum(construct_array(oids, n, REGCLASSOID, sizeof(Oid), true,
												 TYPALIGN_INT))});
	return (Datum) 0;
}

/*
 * revoke_sweeper(role regrole) returns setof text: the role's running sweep
 * cancelled (and waited for), then what grant_sweeper gave it revoked.
 */
Datum
wp_revoke_sweeper(PG_FUNCTION_ARGS)
{
	Oid			role = PG_GETARG_OID(0);
	ReturnSetInfo *rsinfo;
	int64		cancelled;

	wp_require_preload();
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	cancelled = wp_job_stop_role(role);
	if (cancelled != 0)
	{
		Datum		line = CStringGetTextDatum(psprintf("-- cancelled %s, which ran as %s",
													   cancelled > 0 ? psprintf("sweep " INT64_FORMAT, cancelled) :
													   "init_pgbench",
													   GetUserNameFromId(role, false)));
		bool		isnull = false;

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &line, &isnull);
	}
	wp_text_rows(fcinfo, "SELECT * FROM walpressure._revoke_sweeper($1)", 1,
				 (Oid[]) {REGROLEOID}, (Datum[]) {ObjectIdGetDatum(role)});
	return (Datum) 0;
}
