/*-------------------------------------------------------------------------
 *
 * server_settings.c
 *		Server-wide settings in a sweep: changed with ALTER SYSTEM and a
 *		reload, checked in effect, and always put back.
 *
 * A session cannot set fsync, max_wal_size or wal_writer_delay; a sweep
 * changes them for the whole server with AlterSystemSetConfigFile() (what
 * ALTER SYSTEM runs; it cannot run through SPI) and a SIGHUP to the
 * postmaster.  A new value counts as in effect when a process the
 * postmaster forks after the change sees it: the clients of the step are
 * forked the same way, and the probe worker checks it before they start.
 *
 * Before the first change the sweep copies postgresql.auto.conf aside
 * (walpressure.auto.conf.orig in the data directory, or notes that there
 * was none) and writes walpressure.settings, naming the settings it
 * manages.  Restoring:
 *
 *	- if the file differs from the copy only in the managed settings (the
 *	  usual case), the copy is put back byte for byte;
 *	- if someone else changed postgresql.auto.conf during the sweep, their
 *	  entries are kept and only the managed settings are put back, as ALTER
 *	  SYSTEM would write them, with a WARNING.
 *
 * The coordinator restores on success, error and cancel (the recovery
 * worker, if the coordinator died).  After a crash the postmaster restores
 * in its shared-memory startup hook, before the startup process runs
 * recovery and before anyone connects: no process of the new server life
 * runs with fsync = off.  Restores are written durably even by a process
 * that still has fsync = off, and the record is removed as soon as the file
 * is back, so a stale record can never undo later changes.
 *
 * What was written while fsync was off is not on disk, and turning fsync
 * back on does not flush it.  So before fsync goes off the sweep writes a
 * marker, walpressure.needs_sync; when a later step turns fsync back on the
 * data directory is synced, and once the sweep has ended (fsync on again
 * everywhere) it is synced again and the marker removed.  If
 * the sweep ends while the server shuts down (the postmaster then ignores
 * reloads, so its shutdown checkpoint still runs without fsync), the marker
 * stays and the next start syncs (sync(2) of every file system).
 *
 * The files named here (the copy, the record, the sync marker) and the
 * restoring itself are settings_record.c's.
 *
 * IDENTIFICATION
 *	  src/server_settings.c
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

#include "policy.h"
#include "server_settings.h"
#include "settings_record.h"
#include "worker.h"


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
static void
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
static void
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
 * Before the sweep's first change: copy postgresql.auto.conf aside, then
 * record durably which settings the sweep manages.  If an earlier sweep's
 * record is still there (its restore failed), restore that first.
 */
void
wp_server_settings_begin(int64 sweep_id, List *managed)
{
	WpSettingsRecord old;

	/* a damaged record of an earlier sweep: its copy is the file as it was */
	if (wp_settings_record_unreadable())
	{
		const char *how = wp_settings_restore_unreadable();

		wp_reload(ERROR);
		ereport(WARNING,
				(errmsg("walpressure: the record of an earlier sweep's server settings was unreadable"),
				 errdetail("%s is %s.", PG_AUTOCONF_FILENAME, how)));
	}
	if (wp_settings_record_read(&old))
	{
		ListCell   *l;

		/* restoring it rewrites those settings: only for who may */
		StartTransactionCommand();
		foreach(l, old.managed)
			if (!superuser() &&
				pg_parameter_aclcheck(lfirst(l), GetUserId(), ACL_ALTER_SYSTEM) != ACLCHECK_OK)
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("the server settings sweep " INT64_FORMAT " changed are not restored yet, and restoring %s needs a right this role lacks",
								old.sweep_id, (char *) lfirst(l)),
						 errhint("Restart the server (it restores them at start), or run the sweep as a role that may ALTER SYSTEM them.")));
		CommitTransactionCommand();
		ereport(LOG,
				(errmsg("walpressure: restoring the settings of sweep " INT64_FORMAT " first",
						old.sweep_id)));
		(void) wp_server_settings_end(old.sweep_id, true, NULL);
	}

	wp_settings_record_write(sweep_id, managed);
}

/*
 * Apply name = value to the whole server, checked in effect.
 */
void
wp_server_settings_apply(List *names, List *values)
{
	ListCell   *ln;
	ListCell   *lv;

	/* before fsync goes off: the mark that the data directory needs a sync */
	forboth(ln, names, lv, values)
		if (strcmp(lfirst(ln), "fsync") == 0 && wp_data_loss("fsync", lfirst(lv)) != NULL)
			wp_settings_mark_needs_sync();

	StartTransactionCommand();
	forboth(ln, names, lv, values)
		wp_alter_system(lfirst(ln), lfirst(lv));
	CommitTransactionCommand();
	wp_reload_and_check(names);
	wp_check_source(names);

	/*
	 * fsync back on for a later step: what an earlier step wrote with fsync
	 * off goes to disk now, before this step is measured as safe
	 */
	if (enableFsync)
		wp_sync_now();
}

/*
 * Put back what the sweep changed and reload.  With `check`, wait until the
 * restored values are in effect (not while the server shuts down: no new
 * process starts then), and compare them with `originals` ("name=value\n"
 * lines, when known).  Returns how it was restored, NULL if there was
 * nothing to restore.
 */
const char *
wp_server_settings_end(int64 sweep_id, bool check_arg, const char *originals)
{
	WpSettingsRecord rec;
	const char *volatile how;
	volatile bool check = check_arg;

	if (!wp_settings_record_read(&rec))
	{
		if (!wp_settings_record_unreadable())
			return NULL;
		/* damaged: the copy of the file as it was, whole */
		how = wp_settings_restore_unreadable();
		wp_reload(WARNING);
		ereport(WARNING,
				(errmsg("walpressure: the record of sweep " INT64_FORMAT "'s server settings was unreadable", sweep_id),
				 errdetail("%s is %s.", PG_AUTOCONF_FILENAME, how)));
		return how;
	}
	how = wp_restore_and_forget(&rec);

	/* the file is back and the record gone: from here on, only warnings */
	if (!check)
	{
		wp_reload(WARNING);
		return how;
	}
	PG_TRY();
	{
		wp_reload_and_check(rec.managed);
		wp_sync_if_needed();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		EmitErrorReport();
		edata = CopyErrorData();
		FlushErrorState();
		how = psprintf("%s, but not confirmed in effect: %s", how, edata->message);
		check = false;
	}
	PG_END_TRY();
	if (check && originals != NULL)
	{
		StringInfoData now;
		ListCell   *lc;

		initStringInfo(&now);
		foreach(lc, rec.managed)
			appendStringInfo(&now, "%s=%s\n", (char *) lfirst(lc),
							 GetConfigOption(lfirst(lc), false, false));
		if (strcmp(now.data, originals) != 0)
			ereport(WARNING,
					(errmsg("postgresql.auto.conf is as before sweep " INT64_FORMAT ", but the server's settings differ",
							sweep_id),
					 errdetail("Before: %s; now: %s.", originals, now.data),
					 errhint("Another configuration file changed during the sweep.")));
	}
	if (strncmp(how, "restored byte", 13) != 0 || strstr(how, "not confirmed") != NULL)
		ereport(WARNING,
				(errmsg("walpressure: the server settings sweep " INT64_FORMAT " changed are %s",
						sweep_id, how)));
	return how;
}
