/*-------------------------------------------------------------------------
 *
 * settings.c
 *		A sweep's server-wide settings, always put back: recorded in the
 *		crash record before the first change, restored when the sweep
 *		ends, by the restore worker if it could not, or by the postmaster
 *		at the next start.
 *
 * A session cannot set fsync, max_wal_size or wal_writer_delay; a sweep
 * changes them for the whole server with ALTER SYSTEM and a reload
 * (system/alter_system.c).  Before the first change the crash record
 * (record.c) gets postgresql.auto.conf as it is (or that there is none)
 * and the settings the sweep manages.  Restoring (autoconf.c):
 *
 *	- if the file differs from the copy only in the managed settings (the
 *	  usual case), the copy is put back byte for byte;
 *	- if someone else changed postgresql.auto.conf during the sweep, their
 *	  entries are kept and only the managed settings are put back, as ALTER
 *	  SYSTEM would write them, with a WARNING.
 *
 * The coordinator restores on success, error and cancel (the restore
 * worker, if the coordinator died).  After a crash the postmaster restores
 * in its shared-memory startup hook, before the startup process runs
 * recovery and before anyone connects: no process of the new server life
 * runs with fsync = off.  Restores are written durably even by a process
 * that still has fsync = off, and the settings leave the record as soon as
 * the file is back, so a stale record can never undo later changes.
 *
 * What was written while fsync was off is not on disk, and turning fsync
 * back on does not flush it.  So before fsync goes off the record says the
 * data directory needs a sync; when a later step turns fsync back on it is
 * synced, and once the sweep has ended (fsync on again everywhere) it is
 * synced again and the record says so no more.  If the sweep ends while the
 * server shuts down (the postmaster then ignores reloads, so its shutdown
 * checkpoint still runs without fsync), the record keeps it and the next
 * start syncs (sync(2) of every file system).
 *
 * IDENTIFICATION
 *	  src/restore/settings.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/guc.h"

#include "common/durable.h"
#include "restore/autoconf.h"
#include "restore/settings.h"
#include "system/alter_system.h"

/*
 * Before the sweep's first change of a server-wide setting: postgresql.
 * auto.conf as it is, and the settings the sweep manages, into the record,
 * written durably.
 */
void
wp_settings_record_begin(WpCrashRecord *rec, List *managed)
{
	Size		len;
	char	   *text = wp_read_whole(PG_AUTOCONF_FILENAME, &len);

	rec->has_settings = true;
	rec->had_autoconf = text != NULL;
	rec->autoconf = text;
	rec->autoconf_len = text ? len : 0;
	rec->managed = list_copy(managed);
	wp_record_write(rec);
}

/*
 * Before fsync goes off: the record says the data directory needs a sync.
 */
void
wp_settings_mark_needs_sync(WpCrashRecord *rec)
{
	if (rec->needs_sync)
		return;
	rec->needs_sync = true;
	wp_record_write(rec);
}

/*
 * A later step turned fsync back on: what was written with it off goes to
 * disk now.  The record keeps saying so until the sweep ends
 * (wp_settings_sync_done): a process that has not reloaded yet may still
 * write without fsync.
 */
void
wp_settings_sync_now(const WpCrashRecord *rec)
{
	if (!rec->needs_sync)
		return;
	ereport(LOG,
			(errmsg("walpressure: syncing the data directory: fsync is back on after a step with fsync = off")));
	sync();
}

/*
 * If the sweep ran with fsync = off, get what was written meanwhile to
 * disk, then the record says so no more.  sync(2), not
 * SyncDataDirectory(): that one belongs to the startup process (it reports
 * progress with the startup timeout), and this runs in the postmaster too;
 * sync also reaches a pg_wal or tablespace on another file system.
 * Linux's sync waits for the writes.  The caller writes the record.
 */
void
wp_settings_sync_done(WpCrashRecord *rec)
{
	if (!rec->needs_sync)
		return;
	ereport(LOG,
			(errmsg("walpressure: syncing the data directory: a sweep ran with fsync = off")));
	sync();
	rec->needs_sync = false;
}

/*
 * Put postgresql.auto.conf back as the record says (as a whole from the
 * copy of a release before 0.7.0 whose record was damaged, or without any
 * setting a sweep can change when nothing says what it changed); the
 * settings then leave the record (the caller writes it).  Returns how, for
 * the log and the sweep's row; the caller reloads.
 */
const char *
wp_settings_put_back(WpCrashRecord *rec)
{
	const char *how;

	if (!rec->has_settings)
		return NULL;
	if (!rec->settings_unreadable)
		how = wp_autoconf_restore(rec->autoconf, rec->autoconf_len, rec->had_autoconf, rec->managed);
	else if (rec->autoconf != NULL)
	{
		wp_autoconf_write(rec->autoconf, rec->autoconf_len);
		how = "restored whole from walpressure's copy (its record of the sweep was unreadable)";
	}
	else
		how = wp_autoconf_strip_sweepable();
	rec->has_settings = false;
	rec->managed = NIL;
	rec->autoconf = NULL;
	rec->autoconf_len = 0;
	return how;
}

/*
 * At the sweep's end: put back what it changed, forget it in the record,
 * and reload.  With `check`, wait until the restored values are in effect
 * (not while the server shuts down: no new process starts then), sync if a
 * step ran with fsync = off, and compare them with `originals` ("name=value
 * \n" lines, when known).  Returns how it was restored, NULL if there was
 * nothing to restore.
 */
const char *
wp_settings_restore(WpCrashRecord *rec, bool check_arg, const char *originals)
{
	List	   *managed = rec->managed;
	const char *volatile how;
	volatile bool check = check_arg;

	if (!rec->has_settings)
		return NULL;
	how = wp_settings_put_back(rec);
	wp_record_write(rec);

	/* the file is back and the record without it: from here on, only warnings */
	if (!check)
	{
		wp_reload(WARNING);
		return how;
	}
	PG_TRY();
	{
		wp_reload_and_check(managed);
		wp_settings_sync_done(rec);
		wp_record_write(rec);
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
		foreach(lc, managed)
			appendStringInfo(&now, "%s=%s\n", (char *) lfirst(lc),
							 GetConfigOption(lfirst(lc), false, false));
		if (strcmp(now.data, originals) != 0)
			ereport(WARNING,
					(errmsg("postgresql.auto.conf is as before sweep " INT64_FORMAT ", but the server's settings differ",
							rec->sweep_id),
					 errdetail("Before: %s; now: %s.", originals, now.data),
					 errhint("Another configuration file changed during the sweep.")));
	}
	if (strncmp(how, "restored byte", 13) != 0 || strstr(how, "not confirmed") != NULL)
		ereport(WARNING,
				(errmsg("walpressure: the server settings sweep " INT64_FORMAT " changed are %s",
						rec->sweep_id, how)));
	return how;
}
