/*-------------------------------------------------------------------------
 *
 * worker.c
 *		What walpressure's dynamic background workers share: how one is
 *		described for registration, how a worker recovers from an error in
 *		its loop, how many can start now, and how text they share is cut.
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

/*
 * Make text from outside (a program's output) valid in the database's
 * encoding, in place: each byte that starts no valid character becomes '?'.
 */
void
wp_make_valid(char *text)
{
	int			enc = GetDatabaseEncoding();
	int			len = strlen(text);
	char	   *p = text;

	while (len > 0)
	{
		int			ok = pg_encoding_verifymbstr(enc, p, len);

		p += ok;
		len -= ok;
		if (len > 0)
		{
			*p++ = '?';
			len--;
		}
	}
}

/*
 * How many backends of this database have application_name `name` (the
 * connections of a program a sweep ran, while they exit).
 */
int
wp_backends_named(const char *name)
{
	int			n;
	int			count = 0;

	pgstat_clear_snapshot();
	n = pgstat_fetch_stat_numbackends();
	for (int i = 1; i <= n; i++)
	{
		LocalPgBackendStatus *local = wp_local_beentry(i);

		if (local != NULL && local->backendStatus.st_databaseid == MyDatabaseId &&
			strcmp(local->backendStatus.st_appname, name) == 0)
			count++;
	}
	return count;
}

/*
 * Copy text into a buffer of `size` bytes in shared memory, cut on a
 * character boundary: a cut in the middle of a character would be invalid
 * in the database's encoding when it is raised or stored.
 */
void
wp_copy_text(char *dst, const char *src, Size size)
{
	int			len = pg_mbcliplen(src, strlen(src), size - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

/*
 * The load's backends: its pgbench connections and in-server clients (by
 * application_name, in this database, as the sweep's role), with
 * `syncrep_only` those waiting in IPC:SyncRep.  With `terminate`, each is
 * sent SIGTERM, as pg_terminate_backend() does; its PGPROC is checked again
 * just before, so that a pid reused meanwhile is not signalled.  Returns
 * how many there are (were signalled).
 */
int
wp_load_backends(Oid roleid, bool syncrep_only, bool terminate)
{
	int			n;
	int			count = 0;

	pgstat_clear_snapshot();
	n = pgstat_fetch_stat_numbackends();
	for (int i = 1; i <= n; i++)
	{
		LocalPgBackendStatus *local = wp_local_beentry(i);
		PgBackendStatus *be;
		PGPROC	   *proc;

		if (local == NULL)
			continue;
		be = &local->backendStatus;
		if (be->st_databaseid != MyDatabaseId || be->st_userid != roleid ||
			(strcmp(be->st_appname, WP_LOAD_APPNAME_PGBENCH) != 0 &&
			 strcmp(be->st_appname, WP_LOAD_APPNAME_CLIENT) != 0))
			continue;
		proc = BackendPidGetProc(be->st_procpid);
		if (proc == NULL || proc->roleId != roleid || proc->databaseId != MyDatabaseId)
			continue;
		if (syncrep_only &&
			*((volatile uint32 *) &proc->wait_event_info) != WAIT_EVENT_SYNC_REP)
			continue;
		if (terminate && kill(be->st_procpid, SIGTERM) != 0)
			continue;
		count++;
	}
	return count;
}

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
