/*-------------------------------------------------------------------------
 *
 * restore.c
 *		What survives a sweep that did not end by itself: the state file
 *		naming the sweep (and the cap limits to put back), and the
 *		recovery worker that closes such a sweep at the next start.
 *
 * While a sweep runs, a small file in the data directory names it, its
 * database, and the IOPS limits its cap replaced.  The coordinator removes
 * it when the sweep ends and everything is put back.  If the server stopped
 * or crashed instead, the sampler finds it at the next start and starts the
 * recovery worker, which marks the sweep aborted, restores the server
 * settings (server_settings.c) and the cap, and removes the file.  Each of
 * those is tried on its own; what fails is logged, and the file goes all
 * the same, so a failure can never lock sweeps out (the settings record and
 * the postmaster's start-up restore stay for the server settings).
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
#include "storage/fd.h"
#include "storage/ipc.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/snapmgr.h"

#include "restore/settings.h"
#include "common/program.h"
#include "restore/restore.h"
#include "system/alter_system.h"
#include "common/worker.h"

#define WP_STATE_FILE		"walpressure.sweep"
#define WP_STATE_FILE_TMP	"walpressure.sweep.tmp"

/* What the recovery could not do, for the sweep's row. */
static char wp_recovery_failed[512] = "";

/*
 * Record durably that sweep `id` runs in database `dboid`, and, when it
 * holds the IOPS cap, the limits to put back.
 */
void
wp_state_file_write(int64 id, Oid dboid, const WpCapRecord *cap)
{
	FILE	   *f = AllocateFile(WP_STATE_FILE_TMP, PG_BINARY_W);

	if (f == NULL)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", WP_STATE_FILE_TMP)));
	fprintf(f, INT64_FORMAT " %u\n", id, dboid);
	if (cap != NULL)
		fprintf(f, "cap %u:%u " INT64_FORMAT " " INT64_FORMAT " %s\n",
				cap->dev.major, cap->dev.minor, cap->prev_write_iops, cap->prev_read_iops,
				cap->cgroup);
	if (FreeFile(f) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", WP_STATE_FILE_TMP)));
	(void) durable_rename(WP_STATE_FILE_TMP, WP_STATE_FILE, ERROR);
}

/*
 * The cap line of the state file: false when the sweep held no cap.  The
 * cgroup is the one the sweep capped, whatever walpressure.cgroup says now
 * (a file written before it was recorded: the setting's).
 */
static bool
wp_state_file_cap(WpCapRecord *cap)
{
	FILE	   *f = AllocateFile(WP_STATE_FILE, PG_BINARY_R);
	char		line[512];
	bool		found = false;

	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f))
	{
		long long	w;
		long long	r;
		int			n;

		cap->cgroup[0] = '\0';
		n = sscanf(line, "cap %u:%u %lld %lld %255[^\n]", &cap->dev.major, &cap->dev.minor, &w, &r,
				   cap->cgroup);
		if (n >= 4)
		{
			cap->prev_write_iops = w;
			cap->prev_read_iops = r;
			if (n == 4)
				strlcpy(cap->cgroup, wp_cgroup_name, sizeof(cap->cgroup));
			found = true;
		}
	}
	FreeFile(f);
	return found;
}

/*
 * Read the state file: false when there is none (or it is unreadable).
 */
static bool
wp_state_file_read(int64 *id, Oid *dboid)
{
	FILE	   *f = AllocateFile(WP_STATE_FILE, PG_BINARY_R);
	bool		ok;

	if (f == NULL)
		return false;
	ok = fscanf(f, INT64_FORMAT " %u", id, dboid) == 2;
	FreeFile(f);
	return ok;
}

void
wp_state_file_remove(void)
{
	(void) durable_unlink(WP_STATE_FILE, LOG);
}

/*
 * Is a sweep the server stopped during still to be closed?  Its id if so.
 */
bool
wp_recovery_pending(int64 *id)
{
	Oid			dboid;

	return wp_state_file_read(id, &dboid);
}

/*
 * If a sweep's state file survived, start the recovery worker.  The caller
 * knows that no sweep runs: the sampler at its start, a coordinator leaving
 * unexpectedly.
 */
void
wp_recovery_start(void)
{
	int64		id;
	Oid			dboid;
	BackgroundWorker worker;

	if (!wp_state_file_read(&id, &dboid))
		return;
	wp_dynamic_worker(&worker, "wp_recovery_main", "walpressure recovery");
	worker.bgw_notify_pid = 0;	/* nobody waits for it */
	if (!RegisterDynamicBackgroundWorker(&worker, NULL))
		ereport(LOG,
				(errmsg("walpressure could not start the worker that closes sweep " INT64_FORMAT,
						id),
				 errhint("Free a background worker slot (max_worker_processes) and restart.")));
}

/*
 * Mark the sweep aborted in its row, if the extension is there, with what
 * the recovery could not do.  A sweep the coordinator closed itself (it ran
 * this recovery because it could not remove the cap) keeps its status; what
 * failed is added to its error.
 */
static void
wp_recovery_mark_aborted(int64 id)
{
	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
	if (OidIsValid(get_extension_oid("walpressure", true)))
	{
		Oid			types[] = {INT8OID, TEXTOID};
		Datum		values[] = {Int64GetDatum(id), CStringGetTextDatum(wp_recovery_failed)};
		const char *nulls = wp_recovery_failed[0] ? "  " : " n";
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
		else if (wp_recovery_failed[0] &&
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

/* Put back the server settings the sweep changed. */
static void
wp_recovery_settings(int64 id)
{
	const char *how = wp_server_settings_end(id, true, NULL);

	if (how != NULL)
		ereport(LOG,
				(errmsg("walpressure: the server settings of interrupted sweep " INT64_FORMAT " are %s",
						id, how)));
}

/*
 * Put back the IOPS limits the sweep's cap replaced, in the cgroup the
 * sweep capped: walpressure.cgroup may name another one since.
 */
static void
wp_recovery_cap(int64 id)
{
	WpCapRecord cap;
	char	   *setting = wp_cgroup_name;

	if (!wp_state_file_cap(&cap))
		return;
	PG_TRY();
	{
		wp_cgroup_name = cap.cgroup;
		wp_cgroup_set_limits(wp_cgroup_check(), cap.dev, cap.prev_write_iops, cap.prev_read_iops);
	}
	PG_FINALLY();
	{
		wp_cgroup_name = setting;
	}
	PG_END_TRY();
	ereport(LOG,
			(errmsg("walpressure: the IOPS cap of interrupted sweep " INT64_FORMAT " is removed from %u:%u in cgroup %s",
					id, cap.dev.major, cap.dev.minor, cap.cgroup)));
}

/* Run one part of the recovery; log its error, keep it for the row, go on. */
static void
wp_recovery_try(void (*part) (int64), int64 id, const char *what)
{
	MemoryContext volatile cxt = CurrentMemoryContext;

	PG_TRY();
	{
		part(id);
	}
	PG_CATCH();
	{
		ErrorData  *edata;
		size_t		used = strlen(wp_recovery_failed);

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		EmitErrorReport();
		FlushErrorState();
		snprintf(wp_recovery_failed + used, sizeof(wp_recovery_failed) - used, "%scould not %s: %s",
				 used > 0 ? "; " : "", what, edata->message ? edata->message : "?");
		if (IsTransactionState())
			AbortCurrentTransaction();
		ereport(LOG,
				(errmsg("walpressure: could not %s of interrupted sweep " INT64_FORMAT,
						what, id)));
	}
	PG_END_TRY();
}

/*
 * However the recovery worker leaves (a FATAL error while connecting to a
 * database that was dropped or no longer allows connections included), the
 * state file goes: it must never lock sweeps out.  What could not be done is
 * in the log; the server settings' own record stays for the next start.
 */
static void
wp_recovery_exit(int code, Datum arg)
{
	if (code != 0)
		ereport(LOG,
				(errmsg("walpressure: the worker closing interrupted sweep " INT64_FORMAT " did not finish; see the messages above",
						DatumGetInt64(arg))));
	wp_state_file_remove();
}

/*
 * The recovery worker: close the interrupted sweep, then forget it.  The
 * cap needs no database and goes first.
 */
void
wp_recovery_main(Datum main_arg)
{
	int64		id;
	Oid			dboid;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	if (!wp_state_file_read(&id, &dboid))
		proc_exit(0);
	before_shmem_exit(wp_recovery_exit, Int64GetDatum(id));

	/* the cap the sweep set must not outlive it, nor pgbench's logs */
	wp_recovery_try(wp_recovery_cap, id, "remove the IOPS cap");
	wp_remove_stale_program_dirs();

	BackgroundWorkerInitializeConnectionByOid(dboid, BOOTSTRAP_SUPERUSERID,
											  BGWORKER_BYPASS_ALLOWCONN);
	pgstat_report_appname("walpressure recovery");
	/* a superuser session: nothing the database's settings name may run */
	SetConfigOption("search_path", "pg_catalog, pg_temp", PGC_SUSET, PGC_S_OVERRIDE);
	/* its commits wait for no standby: the one the sweep lost may be gone still */
	SetConfigOption("synchronous_commit", "local", PGC_SUSET, PGC_S_OVERRIDE);

	/* the postmaster restored the settings if it restarted; else now */
	wp_recovery_try(wp_recovery_settings, id, "restore the server settings");
	/* last: the row says what could not be done */
	wp_recovery_try(wp_recovery_mark_aborted, id, "mark the row aborted");
	proc_exit(0);
}
