/*-------------------------------------------------------------------------
 *
 * alter_system.c
 *		Server-wide settings changed with ALTER SYSTEM and a reload, and
 *		checked in effect.
 *
 * A session cannot set fsync, max_wal_size or wal_writer_delay; a sweep
 * changes them for the whole server with AlterSystemSetConfigFile() (what
 * ALTER SYSTEM runs; it cannot run through SPI) and a SIGHUP to the
 * postmaster.  A new value counts as in effect when a process the
 * postmaster forks after the change sees it: the clients of the step are
 * forked the same way, and the probe worker checks it before they start.
 * What a sweep records so that they are always put back, and putting them
 * back, are restore/'s (see restore/settings.c for the whole design).
 *
 * IDENTIFICATION
 *	  src/system/alter_system.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/xact.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "nodes/value.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "system/alter_system.h"
#include "common/worker.h"


/*
 * The settings probe's exchange: the names asked, then the "name=value"
 * lines a newly forked process saw.  Written by the one coordinator (one
 * job runs at a time) before the probe starts, and by the probe before it
 * exits.  The names are those of policy.c's list, the values the server's.
 */
#define WP_PROBE_TEXT_MAX 8192

typedef struct WpSettingsProbe
{
	char		names[WP_PROBE_TEXT_MAX];
	char		values[WP_PROBE_TEXT_MAX];
} WpSettingsProbe;

static WpSettingsProbe *wp_probe = NULL;

Size
wp_settings_probe_shmem_size(void)
{
	return sizeof(WpSettingsProbe);
}

void
wp_settings_probe_shmem_init(void *block, bool found)
{
	wp_probe = block;
	if (!found)
		memset(wp_probe, 0, sizeof(WpSettingsProbe));
}

/* How long a change may take to reach the postmaster. */
#define WP_IN_EFFECT_WAIT_MS	10000

/* ---------- applying ---------- */

/*
 * ALTER SYSTEM SET name = value, or ALTER SYSTEM RESET name when value is
 * NULL, as the current role (whose privileges ALTER SYSTEM checks).
 */
static void
wp_alter_system(const char *name, const char *value)
{
	AlterSystemStmt stmt;
	VariableSetStmt set;

	memset(&stmt, 0, sizeof(stmt));
	memset(&set, 0, sizeof(set));
	stmt.type = T_AlterSystemStmt;
	stmt.setstmt = &set;
	set.type = T_VariableSetStmt;
	set.name = (char *) name;
	if (value != NULL)
	{
		A_Const    *arg = makeNode(A_Const);

		arg->val.sval.type = T_String;
		arg->val.sval.sval = pstrdup(value);
		arg->location = -1;
		set.kind = VAR_SET_VALUE;
		set.args = list_make1(arg);
	}
	else
		set.kind = VAR_RESET;
	AlterSystemSetConfigFile(&stmt);
}

/* The probe worker: report the settings the postmaster gives a new process. */
void
wp_settings_probe_main(Datum main_arg)
{
	StringInfoData out;
	char	   *names = pstrdup(wp_probe->names);
	char	   *save = NULL;

	BackgroundWorkerUnblockSignals();
	initStringInfo(&out);
	for (char *name = strtok_r(names, "\n", &save); name; name = strtok_r(NULL, "\n", &save))
	{
		const char *v = GetConfigOption(name, true, false);

		appendStringInfo(&out, "%s=%s\n", name, v ? v : "");
	}
	strlcpy(wp_probe->values, out.data, WP_PROBE_TEXT_MAX);
	proc_exit(0);
}

/*
 * What a process forked now sees for `names`: "name=value\n" lines.
 */
static char *
wp_probe_settings(const char *names)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;
	pid_t		pid;

	strlcpy(wp_probe->names, names, WP_PROBE_TEXT_MAX);
	wp_probe->values[0] = '\0';
	wp_dynamic_worker(&worker, "wp_settings_probe_main", "walpressure settings probe");
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS;
	worker.bgw_start_time = BgWorkerStart_PostmasterStart;
	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not start the worker that checks the server's settings"),
				 errhint("Free a background worker slot (max_worker_processes).")));
	if (WaitForBackgroundWorkerStartup(handle, &pid) == BGWH_STARTED)
		(void) WaitForBackgroundWorkerShutdown(handle);
	pfree(handle);
	return pstrdup(wp_probe->values);
}

/*
 * Reload the postmaster (and through it every process) and this process.
 */
void
wp_reload(int elevel)
{
	if (kill(PostmasterPid, SIGHUP) != 0)
		elog(elevel, "could not signal the postmaster: %m");
	ProcessConfigFile(PGC_SIGHUP);
}

/*
 * Reload (wp_reload), then wait until a process the postmaster forks sees
 * what this one sees for `names`.
 */
void
wp_reload_and_check(List *names)
{
	StringInfoData want;
	StringInfoData ask;
	ListCell   *lc;
	TimestampTz deadline;
	char	   *seen = NULL;

	wp_reload(ERROR);

	initStringInfo(&want);
	initStringInfo(&ask);
	foreach(lc, names)
	{
		const char *name = lfirst(lc);

		appendStringInfo(&ask, "%s\n", name);
		appendStringInfo(&want, "%s=%s\n", name, GetConfigOption(name, false, false));
	}

	deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), WP_IN_EFFECT_WAIT_MS);
	for (;;)
	{
		seen = wp_probe_settings(ask.data);
		if (strcmp(seen, want.data) == 0)
			return;
		if (GetCurrentTimestamp() >= deadline)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 20, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("the server did not take the new settings within %d s",
					WP_IN_EFFECT_WAIT_MS / 1000),
			 errdetail("Wanted: %s; a new process saw: %s.", want.data, seen)));
}

/*
 * After this process's reload, each setting must come from
 * postgresql.auto.conf: a value given on the server's command line hides
 * what ALTER SYSTEM writes (run_sweep refuses those; this catches a server
 * restarted so in between).
 */
static void
wp_check_source(List *names)
{
	ListCell   *lc;

	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
	foreach(lc, names)
	{
		int			rc = SPI_execute_with_args(
											   "SELECT source FROM pg_catalog.pg_settings WHERE name = $1",
											   1, (Oid[]) {TEXTOID},
											   (Datum[]) {CStringGetTextDatum(lfirst(lc))},
											   NULL, true, 1);
		char	   *source;

		if (rc != SPI_OK_SELECT || SPI_processed != 1)
			elog(ERROR, "could not read setting \"%s\"", (char *) lfirst(lc));
		source = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
		/* postgresql.auto.conf is read last: from a file, it is ours */
		if (source == NULL || strcmp(source, "configuration file") != 0)
			ereport(ERROR,
					(errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
					 errmsg("ALTER SYSTEM cannot change %s on this server: its value comes from the %s",
							(char *) lfirst(lc), source ? source : "?"),
					 errhint("Remove it from the server's command line or environment and restart.")));
	}
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
}

/*
 * Apply name = value (each list's) to the whole server with ALTER SYSTEM as
 * the current role, then reload and wait until a new process sees them, and
 * check that postgresql.auto.conf is where they come from.
 */
void
wp_alter_system_apply(List *names, List *values)
{
	ListCell   *ln;
	ListCell   *lv;

	StartTransactionCommand();
	forboth(ln, names, lv, values)
		wp_alter_system(lfirst(ln), lfirst(lv));
	CommitTransactionCommand();
	wp_reload_and_check(names);
	wp_check_source(names);
}
