/*-------------------------------------------------------------------------
 *
 * settings.c
 *		A sweep's server-wide settings, always put back: recorded before
 *		the first change, restored when the sweep ends, by the restore
 *		worker if it could not, or by the postmaster at the next start.
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
 *	  src/restore/settings.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/guc.h"

#include "restore/record.h"
#include "restore/settings.h"
#include "system/alter_system.h"

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
