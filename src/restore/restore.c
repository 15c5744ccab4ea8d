/*-------------------------------------------------------------------------
 *
 * restore.c
 *		What a sweep that did not end by itself left, put back in one
 *		place, from the one crash record (record.c).
 *
 * Two moments, like autoprewarm's start-up load and its leader:
 *
 *	- in the postmaster, from the shared-memory startup hook, at every start
 *	  and crash-restart, before recovery runs and before anyone connects:
 *	  the server-wide settings (no process of the new server life runs with
 *	  fsync = off) and the sync a step with fsync = off needs;
 *	- in the restore worker, a static background worker registered once by
 *	  _PG_init, once recovery is over and whenever it is woken (a
 *	  coordinator that left without putting everything back, a launch that
 *	  finds a record no sweep owns): when no job runs, it removes the IOPS
 *	  cap, the settings if still recorded, the programs' stale directories,
 *	  and closes the sweep's row through a short worker connected to the
 *	  sweep's database (a worker connects to one database in its life).
 *
 * Each part is tried on its own; what fails is logged and written into the
 * sweep's row, and the record goes all the same, so that a failure can
 * never lock sweeps out.
 *
 * IDENTIFICATION
 *	  src/restore/restore.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/snapmgr.h"

#include "common/program.h"
#include "common/worker.h"
#include "job/slot.h"
#include "restore/restore.h"
#include "restore/settings.h"
#include "system/alter_system.h"
#include "system/paced_disk.h"

/* How often the restore worker looks for a record no sweep owns, unwoken. */
#define WP_RESTORE_NAP_MS	60000

/* The restore worker's block: its latch, and what the row worker closes. */
typedef struct WpRestoreShared
{
	PGPROC	   *leader;			/* the restore worker, NULL when not running */
	int64		sweep_id;		/* for the row worker: the sweep */
	char		failed[512];	/* ... and what could not be done */
} WpRestoreShared;

static WpRestoreShared *wp_restore = NULL;

Size
wp_restore_shmem_size(void)
{
	return sizeof(WpRestoreShared);
}

void
wp_restore_shmem_init(void *block, bool found)
{
	wp_restore = block;
	if (!found)
		memset(wp_restore, 0, sizeof(WpRestoreShared));
}

/* Wake the restore worker: a record may be left that no sweep owns. */
void
wp_restore_wake(void)
{
	PGPROC	   *leader = wp_restore ? wp_restore->leader : NULL;

	if (leader != NULL)
		SetLatch(&leader->procLatch);
}

/*
 * Is a sweep's record left (the caller knows no job runs)?  Its sweep then,
 * and the restore worker is woken to put it back.
 */
bool
wp_restore_pending(int64 *sweep_id)
{
	WpCrashRecord rec;

	if (!wp_record_read(&rec))
		return false;
	*sweep_id = rec.sweep_id;
	wp_restore_wake();
	return true;
}

/*
 * Before a launch (when no job runs): a sweep a server stop interrupted,
 * not closed yet, refuses it; the restore worker is woken to close it.
 */
void
wp_restore_check_launch(void)
{
	int64		pending;

	if (wp_job_idle() && wp_restore_pending(&pending))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("sweep " INT64_FORMAT " was interrupted by a server stop and is still being closed",
						pending),
				 errhint("Try again in a few seconds; the server log says when it is done.")));
}

/* ---------- in the postmaster, at start ---------- */

/*
 * From the shared-memory startup hook, in the postmaster, at start and
 * after a crash-restart, no other process running: put back the settings
 * an interrupted sweep changed, reload, and sync after fsync = off.  The
 * rest of the record (its cap, its row) is the restore worker's.
 */
void
wp_restore_at_start(void)
{
	MemoryContext cxt = CurrentMemoryContext;
	WpCrashRecord rec;

	PG_TRY();
	{
		if (wp_record_read(&rec))
		{
			const char *how = wp_settings_put_back(&rec);

			if (how != NULL)
			{
				ProcessConfigFile(PGC_SIGHUP);
				if (rec.settings_unreadable)
					ereport(WARNING,
							(errmsg("walpressure: its record of a sweep's server settings, \"%s\", was unreadable",
									wp_record_file(&rec)),
							 errdetail("%s is %s.", PG_AUTOCONF_FILENAME, how)));
				else
					ereport(LOG,
							(errmsg("walpressure: the server settings interrupted sweep " INT64_FORMAT " changed are %s",
									rec.sweep_id, how)));
			}
			wp_settings_sync_done(&rec);
			/* the cap and the row are left for the restore worker */
			if (rec.unreadable || rec.sweep_id <= 0 || !OidIsValid(rec.dboid))
			{
				wp_record_remove(ERROR);
				if (rec.unreadable)
					ereport(LOG,
							(errmsg("walpressure: the record of an interrupted sweep was unreadable and is removed")));
			}
			else
				wp_record_write(&rec);	/* without the settings and the sync */
		}
	}
	PG_CATCH();
	{
		/* the postmaster must not fail to start on this: say so loudly */
		MemoryContextSwitchTo(cxt);
		EmitErrorReport();
		FlushErrorState();
		ereport(WARNING,
				(errmsg("walpressure could not restore the settings of an interrupted sweep"),
				 errdetail("\"walpressure.sweep\" in the data directory holds what to restore, postgresql.auto.conf as it was among it."),
				 errhint("Compare postgresql.auto.conf with the copy in that file, fix it, and delete the file.")));
	}
	PG_END_TRY();
}

/* ---------- the restore worker ---------- */

/* What a part of the restore could not do, for the sweep's row. */
static char wp_failed[512] = "";

/* Run one part of the restore; log its error, keep it for the row, go on. */
static void
wp_restore_try(void (*part) (WpCrashRecord *), WpCrashRecord *rec, const char *what)
{
	MemoryContext volatile cxt = CurrentMemoryContext;

	PG_TRY();
	{
		part(rec);
	}
	PG_CATCH();
	{
		ErrorData  *edata;
		size_t		used = strlen(wp_failed);

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		EmitErrorReport();
		FlushErrorState();
		snprintf(wp_failed + used, sizeof(wp_failed) - used, "%scould not %s: %s",
				 used > 0 ? "; " : "", what, edata->message ? edata->message : "?");
		if (IsTransactionState())
			AbortCurrentTransaction();
		ereport(LOG,
				(errmsg("walpressure: could not %s of interrupted sweep " INT64_FORMAT,
						what, rec->sweep_id)));
	}
	PG_END_TRY();
}

/*
 * Put back the IOPS limits the sweep's cap replaced, in the cgroup the
 * sweep capped: walpressure.cgroup may name another one since.
 */
static void
wp_restore_cap(WpCrashRecord *rec)
{
	char	   *setting = wp_cgroup_name;

	if (!rec->has_cap)
		return;
	PG_TRY();
	{
		wp_cgroup_name = rec->cap.cgroup;
		wp_cgroup_set_limits(wp_cgroup_check(), rec->cap.dev, rec->cap.prev_write_iops,
							 rec->cap.prev_read_iops);
	}
	PG_FINALLY();
	{
		wp_cgroup_name = setting;
	}
	PG_END_TRY();
	ereport(LOG,
			(errmsg("walpressure: the IOPS cap of interrupted sweep " INT64_FORMAT " is removed from %u:%u in cgroup %s",
					rec->sweep_id, rec->cap.dev.major, rec->cap.dev.minor, rec->cap.cgroup)));
}

/* Put back the server settings the sweep changed (a coordinator that left). */
static void
wp_restore_settings(WpCrashRecord *rec)
{
	const char *how = wp_settings_put_back(rec);

	if (how == NULL)
		return;
	wp_reload(WARNING);
	wp_settings_sync_done(rec);
	ereport(LOG,
			(errmsg("walpressure: the server settings of interrupted sweep " INT64_FORMAT " are %s",
					rec->sweep_id, how)));
}

/*
 * Close the sweep's row through a worker connected to its database, and
 * wait for it.
 */
static void
wp_restore_row(WpCrashRecord *rec)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;
	pid_t		pid;

	wp_restore->sweep_id = rec->sweep_id;
	strlcpy(wp_restore->failed, wp_failed, sizeof(wp_restore->failed));
	wp_dynamic_worker(&worker, "wp_restore_row_main", "walpressure recovery");
	worker.bgw_main_arg = ObjectIdGetDatum(rec->dboid);
	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not start the worker that closes sweep " INT64_FORMAT "'s row", rec->sweep_id),
				 errhint("Free a background worker slot (max_worker_processes).")));
	if (WaitForBackgroundWorkerStartup(handle, &pid) == BGWH_STARTED)
		(void) WaitForBackgroundWorkerShutdown(handle);
}

/*
 * One pass: a record that no running job owns is put back and forgotten.
 */
static void
wp_restore_pass(void)
{
	WpCrashRecord rec;

	if (!wp_job_idle() || !wp_record_read(&rec))
		return;
	wp_failed[0] = '\0';
	/* the cap the sweep set must not outlive it, nor its programs' files */
	wp_restore_try(wp_restore_cap, &rec, "remove the IOPS cap");
	wp_remove_stale_program_dirs();
	wp_restore_try(wp_restore_settings, &rec, "restore the server settings");
	if (!rec.unreadable && rec.sweep_id > 0)
		wp_restore_try(wp_restore_row, &rec, "mark the row aborted");
	/* never locks sweeps out: what failed is in the log and the row */
	wp_record_remove(LOG);
}

/*
 * The restore worker: a pass once recovery is over, then one whenever it
 * is woken (and every minute, for a record left while it was away).
 */
void
wp_restore_main(Datum main_arg)
{
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, SignalHandlerForShutdownRequest);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnection(NULL, NULL, 0);
	pgstat_report_appname("walpressure restore");
	/* its commits wait for no standby: the one the sweep lost may be gone still */
	wp_restore->leader = MyProc;

	while (!ShutdownRequestPending)
	{
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
		}
		wp_restore_pass();
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 WP_RESTORE_NAP_MS, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	wp_restore->leader = NULL;

	/*
	 * Asked to stop (the server shuts down, or it was terminated): a paced
	 * cap set by set_iops_cap goes off, unless a sweep runs, whose
	 * coordinator puts its caps back itself.  The shutdown checkpoint runs
	 * once every worker has exited, and must not wait a cap's share, up to
	 * 10 s, on each of its flushes; the cap belongs to the running server.
	 */
	if (wp_paced_available() && wp_job_idle())
	{
		WpPacedCap	off = {0};

		wp_paced_set(&off);
	}
	proc_exit(0);
}

/* Register the restore worker, from _PG_init. */
void
wp_restore_register(void)
{
	wp_static_worker("wp_restore_main", "walpressure restore", BgWorkerStart_RecoveryFinished, 5);
}

/* ---------- the row ---------- */

/*
 * Mark the sweep aborted in its row, if the extension is there, with what
 * the restore could not do.  A sweep the coordinator closed itself (it left
 * the record because it could not remove the cap) keeps its status; what
 * failed is added to its error.
 */
static void
wp_restore_mark_aborted(int64 id, const char *failed)
{
	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
	if (OidIsValid(get_extension_oid("walpressure", true)))
	{
		Oid			types[] = {INT8OID, TEXTOID};
		Datum		values[] = {Int64GetDatum(id), CStringGetTextDatum(failed)};
		const char *nulls = failed[0] ? "  " : " n";
		int			rc = SPI_execute_with_args(
											   "UPDATE walpressure.sweeps SET status = 'aborted', "
											   "finished_at = pg_catalog.now(), "
											   "error = 'interrupted: the server stopped or the coordinator exited (see the server log)' "
											   "|| coalesce('; the recovery ' || $2, '') "
											   "WHERE sweep_id = $1 AND status = 'running'",
											   2, types, values, nulls, false, 0);

		if (rc != SPI_OK_UPDATE)
			elog(ERROR, "could not mark sweep " INT64_FORMAT " aborted", id);
		if (SPI_processed > 0)
			ereport(LOG,
					(errmsg("walpressure: sweep " INT64_FORMAT " was interrupted and is marked aborted",
							id)));
		else if (failed[0] &&
				 SPI_execute_with_args("UPDATE walpressure.sweeps SET "
									   "error = coalesce(error || '; ', '') || 'the recovery ' || $2 "
									   "WHERE sweep_id = $1",
									   2, types, values, nulls, false, 0) != SPI_OK_UPDATE)
			elog(ERROR, "could not record in sweep " INT64_FORMAT " what its recovery could not do", id);
	}
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
}

/*
 * The row worker, in the sweep's database as the bootstrap superuser: a
 * superuser session with nothing of the database's settings that may run.
 */
void
wp_restore_row_main(Datum main_arg)
{
	char		failed[sizeof(wp_restore->failed)];

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnectionByOid(DatumGetObjectId(main_arg), BOOTSTRAP_SUPERUSERID,
											  BGWORKER_BYPASS_ALLOWCONN);
	pgstat_report_appname("walpressure recovery");
	SetConfigOption("search_path", "pg_catalog, pg_temp", PGC_SUSET, PGC_S_OVERRIDE);
	/* its commits wait for no standby: the one the sweep lost may be gone still */
	SetConfigOption("synchronous_commit", "local", PGC_SUSET, PGC_S_OVERRIDE);
	strlcpy(failed, wp_restore->failed, sizeof(failed));
	wp_restore_mark_aborted(wp_restore->sweep_id, failed);
	proc_exit(0);
}
