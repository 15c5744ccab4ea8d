/*-------------------------------------------------------------------------
 *
 * launch.c
 *		The caller's side of long work done by a worker: run_sweep and
 *		init_pgbench claim the sweep block, start their worker, and wait
 *		with one NOTICE per step; cancel_sweep and Ctrl-C stop it.  Also
 *		the checks run_sweep makes before anything starts.
 *
 * The server runs one such worker at a time.  A launch claims the block
 * under wp_sweep_lock (refused while another runs), writes the request,
 * and starts the worker with bgw_notify_pid set to itself.  The worker
 * reports progress in the block and wakes the launcher's latch; when it
 * ends it records its outcome under the launch's sequence number and frees
 * the block.  Nothing flows back from the launcher but the cancel flag.
 *
 * IDENTIFICATION
 *	  src/launch.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "walpressure.h"

PG_FUNCTION_INFO_V1(wp_launch_sweep);
PG_FUNCTION_INFO_V1(wp_cancel_sweep);
PG_FUNCTION_INFO_V1(wp_free_worker_slots);
PG_FUNCTION_INFO_V1(wp_check_setting);
PG_FUNCTION_INFO_V1(wp_init_pgbench);
PG_FUNCTION_INFO_V1(wp_sweepable_settings);
PG_FUNCTION_INFO_V1(wp_sweepable_load);
PG_FUNCTION_INFO_V1(wp_sweepable_server_settings);
PG_FUNCTION_INFO_V1(wp_data_loss_sql);

/*
 * The settings a sweep may vary or fix.  The one list: run_sweep reads it
 * through sweepable_settings(), the coordinator checks against it.  First
 * those a session sets for itself, applied in each client worker; then the
 * server-wide (SIGHUP) WAL settings, applied with ALTER SYSTEM and a reload
 * and restored afterwards (server_settings.c).
 */
#define WP_N_SESSION 5
static const char *const wp_sweepable[] = {
	"commit_delay", "commit_siblings", "synchronous_commit",
	"backend_flush_after", "wal_compression",
	"fsync", "full_page_writes", "wal_writer_delay", "wal_writer_flush_after",
	"max_wal_size", "checkpoint_timeout", "checkpoint_completion_target",
	"wal_sync_method"
};

/*
 * The pseudo-parameters a sweep may vary: the load itself.  round_trip_us
 * may also be fixed in settings, like batch_size.
 */
static const char *const wp_load_params[] = {
	"clients", "batch_size", "iops_cap", "round_trip_us"
};

static bool
wp_in_list(const char *name, const char *const *list, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

bool
wp_is_sweepable(const char *name)
{
	return wp_in_list(name, wp_sweepable, lengthof(wp_sweepable));
}

bool
wp_is_server_setting(const char *name)
{
	return wp_in_list(name, wp_sweepable + WP_N_SESSION,
					  lengthof(wp_sweepable) - WP_N_SESSION);
}

/*
 * Parse "name=value" lines, the form a step's settings take in shared
 * memory and in the plan: returns the names, and the values in *values, in
 * order.  Lines without '=' are skipped.  The elements point into one copy
 * of `lines` in the current memory context: never pfree them one by one.
 */
List *
wp_setting_lines(const char *lines, List **values)
{
	List	   *names = NIL;
	char	   *copy = pstrdup(lines);
	char	   *save = NULL;

	*values = NIL;
	for (char *line = strtok_r(copy, "\n", &save); line != NULL;
		 line = strtok_r(NULL, "\n", &save))
	{
		char	   *eq = strchr(line, '=');

		if (eq == NULL)
			continue;
		*eq = '\0';
		names = lappend(names, line);
		*values = lappend(*values, eq + 1);
	}
	return names;
}

/*
 * The label of a setting's value that can lose data in a crash, or NULL:
 * fsync=off and full_page_writes=off can corrupt the cluster,
 * synchronous_commit=off loses the last commits.
 */
const char *
wp_data_loss(const char *name, const char *value)
{
	bool		on;

	if (strcmp(name, "fsync") != 0 && strcmp(name, "full_page_writes") != 0 &&
		strcmp(name, "synchronous_commit") != 0)
		return NULL;
	if (!parse_bool(value, &on) || on)
		return NULL;
	return psprintf("%s=off", name);
}

/*
 * _data_loss(setting, value) returns text: wp_data_loss.
 */
Datum
wp_data_loss_sql(PG_FUNCTION_ARGS)
{
	const char *label = wp_data_loss(text_to_cstring(PG_GETARG_TEXT_PP(0)),
									 text_to_cstring(PG_GETARG_TEXT_PP(1)));

	if (label == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(label));
}

bool
wp_is_load_param(const char *name)
{
	return wp_in_list(name, wp_load_params, lengthof(wp_load_params));
}

static Datum
wp_text_array(const char *const *list, int n)
{
	Datum	   *elems = palloc(sizeof(Datum) * n);

	for (int i = 0; i < n; i++)
		elems[i] = CStringGetTextDatum(list[i]);
	return PointerGetDatum(construct_array(elems, n, TEXTOID, -1, false, TYPALIGN_INT));
}

/*
 * sweepable_settings() returns text[].
 */
Datum
wp_sweepable_settings(PG_FUNCTION_ARGS)
{
	return wp_text_array(wp_sweepable, lengthof(wp_sweepable));
}

/*
 * sweepable_server_settings() returns text[]: those applied server-wide.
 */
Datum
wp_sweepable_server_settings(PG_FUNCTION_ARGS)
{
	return wp_text_array(wp_sweepable + WP_N_SESSION, lengthof(wp_sweepable) - WP_N_SESSION);
}

/*
 * sweepable_load() returns text[].
 */
Datum
wp_sweepable_load(PG_FUNCTION_ARGS)
{
	return wp_text_array(wp_load_params, lengthof(wp_load_params));
}

/* How long a cancelled launcher waits for its worker to wind down. */
#define WP_CANCEL_WAIT_MS	30000

/*
 * Claim the block for a new launch; ERROR if a worker runs.
 */
static uint64
wp_claim(const char *request)
{
	int64		pending;
	uint64		seq;

	HeapTuple	role;
	bool		can_login;

	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("walpressure cannot run sweeps on a server in recovery"),
				 errhint("Run them on the primary.")));
	role = SearchSysCache1(AUTHOID, ObjectIdGetDatum(GetUserId()));
	if (!HeapTupleIsValid(role))
		elog(ERROR, "cache lookup failed for role %u", GetUserId());
	can_login = ((Form_pg_authid) GETSTRUCT(role))->rolcanlogin;
	ReleaseSysCache(role);
	if (!can_login)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("role \"%s\" cannot log in, and walpressure's workers connect as the current role",
						GetUserNameFromId(GetUserId(), false)),
				 errhint("RESET ROLE, or run it as a role with LOGIN.")));
	if (strlen(request) >= WP_REQUEST_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("the sweep's arguments take %zu bytes, more than the %d walpressure can hold",
						strlen(request), WP_REQUEST_MAX - 1)));
	LWLockAcquire(wp_sweep_lock, LW_EXCLUSIVE);
	if (wp_sweep->state == WP_SWEEP_STARTING || wp_sweep->state == WP_SWEEP_RUNNING)
	{
		int64		id = wp_sweep->sweep_id;
		pid_t		pid = wp_sweep->launcher_pid;

		LWLockRelease(wp_sweep_lock);
		if (id > 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_IN_USE),
					 errmsg("sweep " INT64_FORMAT " is running; walpressure runs one sweep at a time", id),
					 errhint("Wait for it to finish, or stop it with SELECT walpressure.cancel_sweep(" INT64_FORMAT ");", id)));
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("a walpressure sweep or init_pgbench started by process %d is running", (int) pid),
				 errhint("Wait for it to finish; walpressure runs one at a time.")));
	}
	/* none runs, but the one a server stop interrupted may not be closed yet */
	if (wp_sweep_recovery_pending(&pending))
	{
		LWLockRelease(wp_sweep_lock);
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("sweep " INT64_FORMAT " was interrupted by a server stop and is still being closed",
						pending),
				 errhint("Try again in a few seconds; the server log says when it is done.")));
	}
	seq = ++wp_sweep->launch_seq;
	wp_sweep->state = WP_SWEEP_STARTING;
	wp_sweep->sweep_id = 0;
	wp_sweep->launcher_pid = MyProcPid;
	wp_sweep->launcher_procno = MyProc->pgprocno;
	wp_sweep->dboid = MyDatabaseId;
	wp_sweep->roleoid = GetUserId();
	wp_sweep->status[0] = '\0';
	wp_sweep->message[0] = '\0';
	wp_sweep->last_step[0] = '\0';
	wp_sweep->steps_total = 0;
	strlcpy(wp_sweep->request, request, WP_REQUEST_MAX);
	pg_atomic_write_u32(&wp_sweep->steps_done, 0);
	pg_atomic_write_u32(&wp_sweep->cancel, 0);
	LWLockRelease(wp_sweep_lock);
	return seq;
}

/*
 * Give the block back when the worker could not be started.
 */
static void
wp_unclaim(uint64 seq)
{
	LWLockAcquire(wp_sweep_lock, LW_EXCLUSIVE);
	if (wp_sweep->launch_seq == seq && wp_sweep->state == WP_SWEEP_STARTING)
		wp_sweep->state = WP_SWEEP_IDLE;
	LWLockRelease(wp_sweep_lock);
}

/*
 * Start the worker of a launch.
 */
static BackgroundWorkerHandle *
wp_start_worker(uint64 seq, const char *function, const char *name)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;

	wp_dynamic_worker(&worker, function, name);

	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
	{
		wp_unclaim(seq);
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not start the %s: no free background worker slot", name),
				 errhint("Raise max_worker_processes (now %d) and restart the server.",
						 max_worker_processes)));
	}
	return handle;
}

/* What a launcher learns of its worker. */
typedef struct WpProgress
{
	bool		finished;
	int64		sweep_id;
	char		status[WP_STATUS_LEN];
	char		message[WP_MESSAGE_MAX];
} WpProgress;

static void
wp_read_progress(uint64 seq, WpProgress *p)
{
	LWLockAcquire(wp_sweep_lock, LW_SHARED);
	p->finished = wp_sweep->finished_seq >= seq;
	if (p->finished || wp_sweep->launch_seq == seq)
		p->sweep_id = wp_sweep->sweep_id;
	if (wp_sweep->finished_seq == seq)
	{
		strlcpy(p->status, wp_sweep->status, WP_STATUS_LEN);
		strlcpy(p->message, wp_sweep->message, WP_MESSAGE_MAX);
	}
	LWLockRelease(wp_sweep_lock);
}

/*
 * Wait for the worker of launch `seq`.  With until_id, return as soon as it
 * has recorded its sweep id.  Sends a NOTICE per step done; on a query
 * cancel, cancels the worker, waits for it to stop, then lets the cancel
 * error through.
 */
static void
wp_wait(uint64 seq, BackgroundWorkerHandle *handle, bool until_id, WpProgress *p)
{
	uint32		reported = 0;

	memset(p, 0, sizeof(*p));

	/*
	 * A sweep takes minutes to hours, and this statement's snapshot would
	 * hold back pruning and VACUUM of the very tables the clients update
	 * (pgbench's own client holds no snapshot between transactions).  In
	 * READ COMMITTED nothing in this call reads with it again: let the
	 * horizon move.  (Repeatable read is refused by the caller.)
	 */
	if (!until_id && !IsolationUsesXactSnapshot())
	{
		InvalidateCatalogSnapshot();
		MyProc->xmin = InvalidTransactionId;
	}
	for (;;)
	{
		uint32		done;
		pid_t		pid;

		if (QueryCancelPending || ProcDiePending)
		{
			/* stop our worker (not a later launch's), give it time to record that */
			LWLockAcquire(wp_sweep_lock, LW_SHARED);
			if (wp_sweep->launch_seq == seq)
				pg_atomic_write_u32(&wp_sweep->cancel, 1);
			LWLockRelease(wp_sweep_lock);
			for (int waited = 0; waited < WP_CANCEL_WAIT_MS; waited += 100)
			{
				wp_read_progress(seq, p);
				if (p->finished ||
					GetBackgroundWorkerPid(handle, &pid) == BGWH_STOPPED)
					break;
				(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
								 100, PG_WAIT_EXTENSION);
				ResetLatch(MyLatch);
			}
			CHECK_FOR_INTERRUPTS();
		}

		wp_read_progress(seq, p);
		done = pg_atomic_read_u32(&wp_sweep->steps_done);
		if (done > reported && !until_id)
		{
			pg_read_barrier();
			ereport(NOTICE, (errmsg("%s", wp_sweep->last_step)));
			reported = done;
		}
		if (p->finished || (until_id && p->sweep_id > 0))
			return;
		if (GetBackgroundWorkerPid(handle, &pid) == BGWH_STOPPED)
		{
			/* it died without a word: a crash, or it could not connect */
			wp_read_progress(seq, p);
			if (p->finished)
				return;
			wp_unclaim(seq);
			LWLockAcquire(wp_sweep_lock, LW_EXCLUSIVE);
			if (wp_sweep->launch_seq == seq && wp_sweep->state == WP_SWEEP_RUNNING)
				wp_sweep->state = WP_SWEEP_IDLE;
			LWLockRelease(wp_sweep_lock);
			ereport(ERROR,
					(errmsg("the walpressure worker exited before finishing"),
					 errhint("See the server log.")));
		}

		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 1000, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/*
 * _launch_sweep(request text, wait bool) returns bigint: the C side of
 * run_sweep, called once its arguments are checked.
 */
Datum
wp_launch_sweep(PG_FUNCTION_ARGS)
{
	char	   *request = text_to_cstring(PG_GETARG_TEXT_PP(0));
	bool		wait = PG_GETARG_BOOL(1);
	uint64		seq;
	BackgroundWorkerHandle *handle;
	WpProgress	p;

	wp_require_preload();
	if (wait && IsolationUsesXactSnapshot())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("run_sweep(wait => true) cannot run in a REPEATABLE READ or SERIALIZABLE transaction"),
				 errdetail("Its snapshot would hold back VACUUM of the tables the sweep updates for the whole sweep."),
				 errhint("Use READ COMMITTED, or wait => false and read walpressure.sweeps.")));
	seq = wp_claim(request);
	handle = wp_start_worker(seq, "wp_coordinator_main", "walpressure coordinator");

	wp_wait(seq, handle, true, &p);
	if (p.finished && p.sweep_id == 0)
		ereport(ERROR,
				(errmsg("the sweep could not start: %s", p.message)));
	if (!wait)
		PG_RETURN_INT64(p.sweep_id);

	wp_wait(seq, handle, false, &p);
	if (strcmp(p.status, "failed") == 0)
		ereport(ERROR,
				(errmsg("sweep " INT64_FORMAT " failed: %s", p.sweep_id, p.message),
				 errdetail("The steps finished before the failure are in walpressure.steps.")));
	if (strcmp(p.status, "cancelled") == 0)
		ereport(WARNING,
				(errmsg("sweep " INT64_FORMAT " was cancelled%s%s", p.sweep_id,
						p.message[0] ? ": " : "", p.message),
				 errdetail("The steps finished before the cancel are in walpressure.steps.")));
	PG_RETURN_INT64(p.sweep_id);
}

/*
 * cancel_sweep(sweep_id bigint) returns boolean: stop a running sweep and
 * wait until it has stopped.  The steps it finished are kept.
 */
Datum
wp_cancel_sweep(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);
	uint64		seq;
	bool		running;

	wp_require_preload();
	LWLockAcquire(wp_sweep_lock, LW_SHARED);
	running = (wp_sweep->state == WP_SWEEP_STARTING ||
			   wp_sweep->state == WP_SWEEP_RUNNING) && wp_sweep->sweep_id == id;
	seq = wp_sweep->launch_seq;
	if (running)
		pg_atomic_write_u32(&wp_sweep->cancel, 1);
	LWLockRelease(wp_sweep_lock);

	if (!running)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("sweep " INT64_FORMAT " is not running", id),
				 errhint("walpressure.sweeps shows the status of every sweep.")));

	for (;;)
	{
		WpProgress	p;

		wp_read_progress(seq, &p);
		if (p.finished)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	PG_RETURN_BOOL(true);
}

/*
 * _free_worker_slots() returns int: background workers that can start now.
 * Every running background worker holds one of the max_worker_processes
 * PGPROCs set aside for them (procgloballist says which those are).  A
 * PGPROC is held while its latch is owned: before 17 an exited process
 * leaves its pid behind.  Read without a lock: a moment's view.
 */
Datum
wp_free_worker_slots(PG_FUNCTION_ARGS)
{
	int			in_use = 0;

	wp_require_preload();
	for (uint32 i = 0; i < ProcGlobal->allProcCount; i++)
	{
		PGPROC	   *proc = &ProcGlobal->allProcs[i];

		if ((void *) proc->procgloballist == (void *) &ProcGlobal->bgworkerFreeProcs &&
			proc->procLatch.owner_pid != 0)
			in_use++;
	}
	PG_RETURN_INT32(Max(max_worker_processes - in_use, 0));
}

/*
 * _check_setting(name text, value text): raise the GUC machinery's own
 * error if a session could not set `name` to `value`; change nothing.
 */
Datum
wp_check_setting(PG_FUNCTION_ARGS)
{
	char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *value = text_to_cstring(PG_GETARG_TEXT_PP(1));

	/* parsed and checked as a session or the configuration file would */
	if (wp_is_server_setting(name))
		(void) set_config_option(name, value, PGC_SIGHUP, PGC_S_FILE,
								 GUC_ACTION_SET, false, ERROR, false);
	else
		(void) set_config_option(name, value, PGC_SUSET, PGC_S_SESSION,
								 GUC_ACTION_SET, false, ERROR, false);
	PG_RETURN_VOID();
}

/*
 * init_pgbench(scale int): the pgbench tables, built by a worker (VACUUM
 * cannot run inside the caller's function call).
 */
Datum
wp_init_pgbench(PG_FUNCTION_ARGS)
{
	int32		scale = PG_GETARG_INT32(0);
	char	   *request;
	uint64		seq;
	BackgroundWorkerHandle *handle;
	WpProgress	p;

	wp_require_preload();
	if (scale < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("scale must be at least 1")));
	request = psprintf("%d\n%s", scale, GetConfigOption("search_path", false, false));
	seq = wp_claim(request);
	handle = wp_start_worker(seq, "wp_init_pgbench_main", "walpressure init_pgbench");
	wp_wait(seq, handle, false, &p);
	if (strcmp(p.status, "done") != 0)
		ereport(ERROR,
				(errmsg("init_pgbench %s: %s", p.status, p.message)));
	PG_RETURN_VOID();
}
