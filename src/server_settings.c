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
 * marker, walpressure.needs_sync; once fsync is on again everywhere, the
 * data directory is synced and the marker removed.  If
 * the sweep ends while the server shuts down (the postmaster then ignores
 * reloads, so its shutdown checkpoint still runs without fsync), the marker
 * stays and the next start syncs (sync(2) of every file system).
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

#include "walpressure.h"

#define WP_SETTINGS_FILE		"walpressure.settings"
#define WP_SETTINGS_FILE_TMP	"walpressure.settings.tmp"
#define WP_AUTOCONF_COPY		"walpressure.auto.conf.orig"
#define WP_AUTOCONF_COPY_TMP	"walpressure.auto.conf.orig.tmp"
#define WP_AUTOCONF_TMP			PG_AUTOCONF_FILENAME ".walpressure.tmp"
#define WP_NEEDS_SYNC_FILE		"walpressure.needs_sync"

/* How long a change may take to reach the postmaster. */
#define WP_IN_EFFECT_WAIT_MS	10000

/* ---------- files ---------- */

/*
 * The whole of a file, or NULL if it does not exist.
 */
static char *
wp_read_whole(const char *path, Size *len)
{
	FILE	   *f = AllocateFile(path, PG_BINARY_R);
	StringInfoData buf;
	char		chunk[4096];
	size_t		n;

	if (f == NULL)
	{
		if (errno == ENOENT)
			return NULL;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\": %m", path)));
	}
	initStringInfo(&buf);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		appendBinaryStringInfo(&buf, chunk, n);
	if (ferror(f))
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", path)));
	FreeFile(f);
	*len = buf.len;
	return buf.data;
}

/*
 * Write `data` to `path` durably and atomically, through `tmp`.
 */
static void
wp_write_whole(const char *path, const char *tmp, const char *data, Size len)
{
	int			fd = OpenTransientFile(tmp, O_CREAT | O_WRONLY | O_TRUNC | PG_BINARY);

	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", tmp)));
	errno = 0;
	if (len > 0 && write(fd, data, len) != (ssize_t) len)
	{
		if (errno == 0)
			errno = ENOSPC;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", tmp)));
	}
	if (pg_fsync(fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not fsync file \"%s\": %m", tmp)));
	if (CloseTransientFile(fd) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not close file \"%s\": %m", tmp)));
	(void) durable_rename(tmp, path, ERROR);
}

/*
 * The entries of a configuration file's text, as ParseConfigFp reads them.
 */
static ConfigVariable *
wp_parse_conf(const char *text, Size len)
{
	ConfigVariable *head = NULL;
	ConfigVariable *tail = NULL;
	FILE	   *f;

	if (text == NULL || len == 0)
		return NULL;
	f = fmemopen((void *) text, len, "r");
	if (f == NULL)
		elog(ERROR, "fmemopen failed: %m");
	if (!ParseConfigFp(f, PG_AUTOCONF_FILENAME, 0, LOG, &head, &tail))
	{
		fclose(f);
		ereport(ERROR,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not parse the contents of \"%s\"", PG_AUTOCONF_FILENAME)));
	}
	fclose(f);
	return head;
}

static bool
wp_name_in(const char *name, List *names)
{
	ListCell   *lc;

	foreach(lc, names)
		if (pg_strcasecmp(name, (const char *) lfirst(lc)) == 0)
			return true;
	return false;
}

/*
 * Are the two entry lists equal once the `managed` settings are left out?
 */
static bool
wp_same_but_managed(ConfigVariable *a, ConfigVariable *b, List *managed)
{
	for (;;)
	{
		while (a && wp_name_in(a->name, managed))
			a = a->next;
		while (b && wp_name_in(b->name, managed))
			b = b->next;
		if (a == NULL || b == NULL)
			return a == b;
		if (pg_strcasecmp(a->name, b->name) != 0 || strcmp(a->value, b->value) != 0)
			return false;
		a = a->next;
		b = b->next;
	}
}

/*
 * The file ALTER SYSTEM would write for these entries (guc.c,
 * write_auto_conf_file).
 */
static void
wp_append_conf(StringInfo out, ConfigVariable *entries, List *skip)
{
	for (ConfigVariable *e = entries; e; e = e->next)
	{
		char	   *escaped;

		if (skip != NIL && wp_name_in(e->name, skip))
			continue;
		escaped = escape_single_quotes_ascii(e->value);
		if (escaped == NULL)
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
		appendStringInfo(out, "%s = '%s'\n", e->name, escaped);
		free(escaped);
	}
}

/* ---------- the record of what a sweep changes ---------- */

typedef struct WpSettingsRecord
{
	int64		sweep_id;
	bool		had_autoconf;
	List	   *managed;		/* setting names */
} WpSettingsRecord;

static bool
wp_settings_record_read(WpSettingsRecord *rec)
{
	Size		len;
	char	   *text = wp_read_whole(WP_SETTINGS_FILE, &len);
	char	   *save = NULL;
	bool		have_sweep = false;
	bool		have_autoconf = false;

	memset(rec, 0, sizeof(*rec));
	if (text == NULL)
		return false;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
	{
		long long	id;

		if (sscanf(line, "sweep %lld", &id) == 1)
		{
			rec->sweep_id = id;
			have_sweep = true;
		}
		else if (strcmp(line, "autoconf present") == 0 || strcmp(line, "autoconf absent") == 0)
		{
			rec->had_autoconf = strcmp(line, "autoconf present") == 0;
			have_autoconf = true;
		}
		else if (strncmp(line, "setting ", 8) == 0)
			rec->managed = lappend(rec->managed, pstrdup(line + 8));
	}
	if (!have_sweep || !have_autoconf)
	{
		ereport(LOG,
				(errmsg("walpressure: \"%s\" is incomplete and is ignored", WP_SETTINGS_FILE)));
		return false;
	}
	return true;
}

/*
 * Restore postgresql.auto.conf as recorded.  Called by the coordinator (with
 * AutoFileLock) and by the postmaster at startup (alone).  Returns what was
 * done, for the log and the sweep's row.
 */
static const char *
wp_restore_autoconf(const WpSettingsRecord *rec)
{
	Size		orig_len = 0;
	Size		cur_len = 0;
	char	   *orig = NULL;
	char	   *cur;
	bool		lock = IsUnderPostmaster && MyProc != NULL;
	const char *volatile how = NULL;

	if (rec->had_autoconf)
	{
		orig = wp_read_whole(WP_AUTOCONF_COPY, &orig_len);
		if (orig == NULL)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("walpressure's copy of %s, \"%s\", is missing",
							PG_AUTOCONF_FILENAME, WP_AUTOCONF_COPY)));
	}

	if (lock)
		LWLockAcquire(AutoFileLock, LW_EXCLUSIVE);
	PG_TRY();
	{
		cur = wp_read_whole(PG_AUTOCONF_FILENAME, &cur_len);

		if (wp_same_but_managed(wp_parse_conf(orig, orig_len), wp_parse_conf(cur, cur_len),
								rec->managed))
		{
			/* only the sweep changed it: the original, byte for byte */
			if (!rec->had_autoconf)
			{
				if (cur != NULL)
					(void) durable_unlink(PG_AUTOCONF_FILENAME, ERROR);
			}
			else if (cur == NULL || cur_len != orig_len || memcmp(cur, orig, orig_len) != 0)
				wp_write_whole(PG_AUTOCONF_FILENAME, WP_AUTOCONF_TMP, orig, orig_len);
			how = "restored byte for byte";
		}
		else
		{
			/* someone else changed it too: keep theirs, put the managed ones back */
			StringInfoData out;
			ConfigVariable *origvars = wp_parse_conf(orig, orig_len);

			initStringInfo(&out);
			appendStringInfoString(&out,
								   "# Do not edit this file manually!\n"
								   "# It will be overwritten by the ALTER SYSTEM command.\n");
			wp_append_conf(&out, wp_parse_conf(cur, cur_len), rec->managed);
			for (ConfigVariable *e = origvars; e; e = e->next)
				if (wp_name_in(e->name, rec->managed))
				{
					ConfigVariable one = *e;

					one.next = NULL;
					wp_append_conf(&out, &one, NIL);
				}
			wp_write_whole(PG_AUTOCONF_FILENAME, WP_AUTOCONF_TMP, out.data, out.len);
			how = "restored setting by setting (postgresql.auto.conf was also changed by someone else during the sweep)";
		}
	}
	PG_FINALLY();
	{
		if (lock)
			LWLockRelease(AutoFileLock);
	}
	PG_END_TRY();
	return how;
}

static void
wp_settings_files_remove(int elevel)
{
	(void) durable_unlink(WP_SETTINGS_FILE, elevel);
	if (unlink(WP_AUTOCONF_COPY) != 0 && errno != ENOENT)
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not remove file \"%s\": %m", WP_AUTOCONF_COPY)));
}

/*
 * Put postgresql.auto.conf back and forget the record, durably even if this
 * process still runs with fsync = off.
 */
static const char *
wp_restore_and_forget(const WpSettingsRecord *rec)
{
	bool		save = enableFsync;
	const char *volatile how = NULL;

	enableFsync = true;
	PG_TRY();
	{
		how = wp_restore_autoconf(rec);
		wp_settings_files_remove(ERROR);
	}
	PG_FINALLY();
	{
		enableFsync = save;
	}
	PG_END_TRY();
	return how;
}

/*
 * If the sweep ran with fsync = off, get what was written meanwhile to disk,
 * then drop the marker.  sync(2), not SyncDataDirectory(): that one belongs
 * to the startup process (it reports progress with the startup timeout), and
 * this runs in the postmaster too; sync also reaches a pg_wal or tablespace
 * on another file system.  Linux's sync waits for the writes.
 */
static void
wp_sync_if_needed(void)
{
	bool		save = enableFsync;

	if (access(WP_NEEDS_SYNC_FILE, F_OK) != 0)
		return;
	ereport(LOG,
			(errmsg("walpressure: syncing the data directory: a sweep ran with fsync = off")));
	sync();
	enableFsync = true;
	PG_TRY();
	{
		(void) durable_unlink(WP_NEEDS_SYNC_FILE, ERROR);
	}
	PG_FINALLY();
	{
		enableFsync = save;
	}
	PG_END_TRY();
}

/*
 * In the postmaster, from the shared-memory startup hook (server start and
 * crash restart, no other process running): put back what an interrupted
 * sweep changed, and reload.
 */
void
wp_server_settings_startup(void)
{
	WpSettingsRecord rec;

	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		if (wp_settings_record_read(&rec))
		{
			const char *how = wp_restore_and_forget(&rec);

			ProcessConfigFile(PGC_SIGHUP);
			ereport(LOG,
					(errmsg("walpressure: the server settings interrupted sweep " INT64_FORMAT " changed are %s",
							rec.sweep_id, how)));
		}
		else if (access(WP_SETTINGS_FILE, F_OK) != 0 && access(WP_AUTOCONF_COPY, F_OK) == 0)
			(void) unlink(WP_AUTOCONF_COPY);	/* copied, but nothing changed */
		wp_sync_if_needed();
	}
	PG_CATCH();
	{
		/* the postmaster must not fail to start on this: say so loudly */
		MemoryContextSwitchTo(cxt);
		EmitErrorReport();
		FlushErrorState();
		ereport(WARNING,
				(errmsg("walpressure could not restore the settings of an interrupted sweep"),
				 errdetail("\"%s\" and \"%s\" in the data directory hold what to restore.",
						   WP_SETTINGS_FILE, WP_AUTOCONF_COPY),
				 errhint("Compare postgresql.auto.conf with \"%s\", fix it, and delete both files.",
						 WP_AUTOCONF_COPY)));
	}
	PG_END_TRY();
}

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
	char	   *names = pstrdup(wp_sweep->probe_names);
	char	   *save = NULL;

	BackgroundWorkerUnblockSignals();
	initStringInfo(&out);
	for (char *name = strtok_r(names, "\n", &save); name; name = strtok_r(NULL, "\n", &save))
	{
		const char *v = GetConfigOption(name, true, false);

		appendStringInfo(&out, "%s=%s\n", name, v ? v : "");
	}
	strlcpy(wp_sweep->probe_values, out.data, WP_SETTINGS_MAX);
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

	strlcpy(wp_sweep->probe_names, names, WP_SETTINGS_MAX);
	wp_sweep->probe_values[0] = '\0';
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
	return pstrdup(wp_sweep->probe_values);
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
			(errmsg("the server did not take the new settings within %d s",
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
	StringInfoData rec;
	Size		len;
	char	   *text;
	ListCell   *lc;

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

	text = wp_read_whole(PG_AUTOCONF_FILENAME, &len);
	if (text != NULL)
		wp_write_whole(WP_AUTOCONF_COPY, WP_AUTOCONF_COPY_TMP, text, len);

	initStringInfo(&rec);
	appendStringInfo(&rec, "sweep " INT64_FORMAT "\nautoconf %s\n", sweep_id,
					 text != NULL ? "present" : "absent");
	foreach(lc, managed)
		appendStringInfo(&rec, "setting %s\n", (char *) lfirst(lc));
	wp_write_whole(WP_SETTINGS_FILE, WP_SETTINGS_FILE_TMP, rec.data, rec.len);
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
		if (strcmp(lfirst(ln), "fsync") == 0 && wp_data_loss("fsync", lfirst(lv)) != NULL &&
			access(WP_NEEDS_SYNC_FILE, F_OK) != 0)
			wp_write_whole(WP_NEEDS_SYNC_FILE, WP_NEEDS_SYNC_FILE ".tmp", "", 0);

	StartTransactionCommand();
	forboth(ln, names, lv, values)
		wp_alter_system(lfirst(ln), lfirst(lv));
	CommitTransactionCommand();
	wp_reload_and_check(names);
	wp_check_source(names);
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
		if (access(WP_SETTINGS_FILE, F_OK) == 0)
			ereport(WARNING,
					(errmsg("walpressure: \"%s\" is unreadable; the settings of sweep " INT64_FORMAT " were not restored",
							WP_SETTINGS_FILE, sweep_id)));
		return NULL;
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
