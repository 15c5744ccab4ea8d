/*-------------------------------------------------------------------------
 *
 * worker.c
 *		What walpressure's dynamic background workers share: how one is
 *		described for registration, how a worker recovers from an error in
 *		its loop, how many can start now, and whether one runs.
 *
 * IDENTIFICATION
 *	  src/common/worker.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "mb/pg_wchar.h"
#include "postmaster/bgworker.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "utils/backend_status.h"
#include "utils/guc.h"
#include "utils/tuplestore.h"
#include "utils/wait_event.h"

#include "compat.h"
#include "common/worker.h"

/*
 * Describe a dynamic worker of ours: connected to a database, started once
 * recovery is over, never restarted, reporting to the registering process.
 */
void
wp_dynamic_worker(BackgroundWorker *worker, const char *function, const char *name)
{
	memset(worker, 0, sizeof(BackgroundWorker));
	worker->bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker->bgw_start_time = BgWorkerStart_RecoveryFinished;
	worker->bgw_restart_time = BGW_NEVER_RESTART;
	strcpy(worker->bgw_library_name, "walpressure");
	strlcpy(worker->bgw_function_name, function, BGW_MAXLEN);
	strlcpy(worker->bgw_name, name, BGW_MAXLEN);
	strlcpy(worker->bgw_type, name, BGW_MAXLEN);
	worker->bgw_notify_pid = MyProcPid;
}

/*
 * Register a static worker of ours, from _PG_init: connected to a database,
 * started at `start`, restarted `restart_s` seconds after it exits.
 */
void
wp_static_worker(const char *function, const char *name, int start,
				 int restart_s)
{
	BackgroundWorker worker;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = (BgWorkerStartTime) start;
	worker.bgw_restart_time = restart_s;
	strcpy(worker.bgw_library_name, "walpressure");
	strlcpy(worker.bgw_function_name, function, BGW_MAXLEN);
	strlcpy(worker.bgw_name, name, BGW_MAXLEN);
	strlcpy(worker.bgw_type, name, BGW_MAXLEN);
	RegisterBackgroundWorker(&worker);
}

/*
 * In a worker's PG_CATCH: take the error (copied into `cxt`), and leave the
 * failed transaction, so the worker can go on or report it.
 */
ErrorData *
wp_catch_error(MemoryContext cxt)
{
	ErrorData  *edata;

	MemoryContextSwitchTo(cxt);
	edata = CopyErrorData();
	FlushErrorState();
	AbortCurrentTransaction();
	return edata;
}

/*
 * Background workers that can start now: max_worker_processes less those
 * running, counted from the backend status array (what pg_stat_activity
 * shows).  A moment's estimate, for a clear error before anything starts;
 * a registration that fails all the same is an error with the same hint.
 */
int
wp_free_worker_slots(void)
{
	int			running = 0;
	int			n;

	n = pgstat_fetch_stat_numbackends();
	for (int i = 1; i <= n; i++)
	{
		LocalPgBackendStatus *local = wp_local_beentry(i);

		if (local != NULL && local->backendStatus.st_backendType == B_BG_WORKER)
			running++;
	}
	return Max(max_worker_processes - running, 0);
}

/*
 * The pid of a running background worker of type `type` ("walpressure
 * client"), 0 if none runs.
 */
pid_t
wp_worker_running(const char *type)
{
	int			n;

	pgstat_clear_snapshot();
	n = pgstat_fetch_stat_numbackends();
	for (int i = 1; i <= n; i++)
	{
		LocalPgBackendStatus *local = wp_local_beentry(i);
		const char *t;

		if (local == NULL || local->backendStatus.st_backendType != B_BG_WORKER)
			continue;
		t = GetBackgroundWorkerTypeByPid(local->backendStatus.st_procpid);
		if (t != NULL && strcmp(t, type) == 0)
			return local->backendStatus.st_procpid;
	}
	return 0;
}

