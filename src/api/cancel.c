/*-------------------------------------------------------------------------
 *
 * cancel.c
 *		cancel_sweep(), and the trigger that keeps a running sweep's row:
 *		a sweep of this database stops (its finished steps kept) when the
 *		role that runs it, one with its privileges, or a superuser asks; a
 *		sweep that is not running is refused with what became of it.
 *
 * IDENTIFICATION
 *	  src/api/cancel.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/guc.h"

#include "job/launch.h"
#include "live/shmem.h"

PG_FUNCTION_INFO_V1(wp_cancel_sweep);
PG_FUNCTION_INFO_V1(wp_sweeps_keep_running);

/*
 * The trigger on walpressure.sweeps (BEFORE DELETE, each row, and BEFORE
 * TRUNCATE): the row of the sweep that runs in this database stays, since
 * its coordinator writes its steps to it until the end.  The rows of
 * sweeps that ended, or whose coordinator is gone (the next start closes
 * them), may go.
 */
Datum
wp_sweeps_keep_running(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	int64		running;

	if (!CALLED_AS_TRIGGER(fcinfo))
		elog(ERROR, "walpressure._sweeps_keep_running is a trigger");
	running = wp_job_sweep_here();
	if (TRIGGER_FIRED_BY_TRUNCATE(td->tg_event))
	{
		if (running > 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_IN_USE),
					 errmsg("walpressure.sweeps cannot be truncated while sweep " INT64_FORMAT " runs",
							running),
					 errhint("Cancel it first with SELECT walpressure.cancel_sweep(" INT64_FORMAT
							 "); or delete the sweeps that ended with walpressure.delete_sweeps().",
							 running)));
		return PointerGetDatum(NULL);
	}
	if (running > 0)
	{
		bool		isnull;
		Datum		id = heap_getattr(td->tg_trigtuple,
									  SPI_fnumber(td->tg_relation->rd_att, "sweep_id"),
									  td->tg_relation->rd_att, &isnull);

		if (!isnull && DatumGetInt64(id) == running)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_IN_USE),
					 errmsg("sweep " INT64_FORMAT " is running: its row cannot be deleted", running),
					 errdetail("Its coordinator records each step in it until the sweep ends."),
					 errhint("Cancel it first with SELECT walpressure.cancel_sweep(" INT64_FORMAT ");",
							 running)));
	}
	return PointerGetDatum(td->tg_trigtuple);
}

/*
 * Why sweep `id` cannot be cancelled when no sweep of that id runs: it does
 * not exist in this database, or it has ended (how and when).  The row is
 * read as the extension's owner: the caller needs no right on the table.
 */
static void
wp_refuse_not_running(int64 id)
{
	Oid			saved_user;
	int			saved_sec;
	char	   *status = NULL;
	char	   *steps = NULL;

	SPI_connect();
	if (SPI_execute("SELECT extowner FROM pg_catalog.pg_extension WHERE extname = 'walpressure'",
					true, 1) == SPI_OK_SELECT && SPI_processed == 1)
	{
		bool		isnull;
		Oid			owner = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0],
														   SPI_tuptable->tupdesc, 1, &isnull));

		int			nest;

		/*
		 * As the owner, with nothing of the caller's search_path: a function
		 * or operator of the caller's there would run with the owner's rights.
		 */
		GetUserIdAndSecContext(&saved_user, &saved_sec);
		SetUserIdAndSecContext(owner, saved_sec | SECURITY_LOCAL_USERID_CHANGE |
							   SECURITY_RESTRICTED_OPERATION);
		nest = NewGUCNestLevel();
		(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET,
								 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
		if (SPI_execute_with_args("SELECT status, pg_catalog.format('%s of %s steps', steps_done, steps_total) "
								  "FROM walpressure.sweeps "
								  "WHERE sweep_id OPERATOR(pg_catalog.=) $1",
								  1, (Oid[]) {INT8OID}, (Datum[]) {Int64GetDatum(id)},
								  NULL, true, 1) == SPI_OK_SELECT && SPI_processed == 1)
		{
			char	   *v = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
			char	   *f = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);

			status = SPI_palloc(strlen(v) + 1);
			strcpy(status, v);
			steps = SPI_palloc(strlen(f) + 1);
			strcpy(steps, f);
		}
		AtEOXact_GUC(false, nest);
		SetUserIdAndSecContext(saved_user, saved_sec);
	}
	SPI_finish();

	if (status == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_NO_DATA_FOUND),
				 errmsg("no sweep " INT64_FORMAT, id),
				 errhint("walpressure.sweeps lists the sweeps of this database.")));
	if (strcmp(status, "running") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("sweep " INT64_FORMAT " is not running", id),
				 errdetail("Its row still reads running, but no coordinator runs it: the server stopped during the sweep, and the next start closes it.")));
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("sweep " INT64_FORMAT " is not running", id),
			 errdetail("It has ended: %s after %s.", status, steps),
			 errhint("walpressure.sweeps shows its row.")));
}

/*
 * cancel_sweep(sweep_id bigint) returns boolean: stop a running sweep of
 * this database and wait until it has stopped.  The steps it finished are
 * kept.
 */
Datum
wp_cancel_sweep(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);
	uint64		seq;
	bool		running;

	Oid			owner;

	wp_require_preload();
	running = wp_job_sweep_running(id, &seq, &owner);

	/* as pg_cancel_backend: one's own, or a member's; a superuser's only by one */
	if (running && ((superuser_arg(owner) && !superuser()) ||
					!has_privs_of_role(GetUserId(), owner)))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to cancel sweep " INT64_FORMAT, id),
				 errdetail("Only roles with the privileges of the role that runs a sweep may cancel it, and only superusers a superuser's.")));
	if (running)
		wp_job_cancel(seq, WP_CANCEL_ASKED);

	if (!running)
		wp_refuse_not_running(id);
	wp_job_wait_finished(seq);
	PG_RETURN_BOOL(true);
}

