/*-------------------------------------------------------------------------
 *
 * backends.c
 *		The load's backends, found by application_name in this database: how
 *		many a program's connections still are, and the load's own (counted,
 *		those waiting for a standby, or terminated).
 *
 * IDENTIFICATION
 *	  src/common/backends.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>

#include "miscadmin.h"
#include "pgstat.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "utils/backend_status.h"
#include "utils/wait_event.h"

#include "compat.h"
#include "common/backends.h"

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
