/*-------------------------------------------------------------------------
 *
 * launch.c
 *		The caller's side of a job: run_sweep and init_pgbench start the
 *		worker of the slot they claimed (slot.c) and wait for it, with a
 *		NOTICE per step and one at least every 10 s of a long step; Ctrl-C
 *		or cancel_sweep stops it; its outcome is raised as the caller's own
 *		error, SQLSTATE, detail and hint included.
 *
 * IDENTIFICATION
 *	  src/job/launch.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/plannodes.h"
#include "tcop/pquery.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "tcop/tcopprot.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/portal.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timeout.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "job/launch.h"
#include "job/slot_layout.h"
#include "live/shmem.h"
#include "common/worker.h"


/* How long a cancelled caller waits for its worker to wind down. */
#define WP_CANCEL_WAIT_MS	30000
/* How long a caller waits for a finished worker's process to be gone. */
#define WP_GONE_WAIT_MS 10000
/* A waiting caller hears at least this often during a long step. */
#define WP_NOTICE_EVERY_MS	10000

/*
 * Start the worker of launch `seq`.
 */
static BackgroundWorkerHandle *
wp_job_start_worker(uint64 seq, const char *function, const char *name)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;

	wp_dynamic_worker(&worker, function, name);
	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
	{
		wp_job_unclaim(seq);
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not start the %s: no free background worker slot", name),
				 errhint("Raise max_worker_processes (now %d) and restart the server.",
						 max_worker_processes)));
	}
	return handle;
}

/* What a caller learns of its worker. */
typedef struct WpOutcome
{
	bool		finished;
	int64		sweep_id;
	int			steps_done;
	char		status[WP_STATUS_LEN];
	int			sqlerrcode;
	char		message[WP_MESSAGE_MAX];
	char		detail[WP_MESSAGE_MAX];
	char		hint[WP_MESSAGE_MAX];
	WpStepMessage step_message[WP_STEP_MESSAGES];	/* step % WP_STEP_MESSAGES */
	char		note[WP_MESSAGE_MAX];	/* the worker's, before its first step */
	pid_t		pid;			/* the worker that finished it */
} WpOutcome;

static void
wp_job_read(uint64 seq, WpOutcome *o)
{
	const WpJobOutcome *out;

	LWLockAcquire(wp_job->lock, LW_SHARED);
	/* only our own launch: a later one may already have claimed the slot */
	if (wp_job->launch_seq == seq)
	{
		if (wp_job->sweep_id > 0)
			o->sweep_id = wp_job->sweep_id;
		o->steps_done = wp_job->steps_done;
		memcpy(o->step_message, wp_job->step_message, sizeof(o->step_message));
		strlcpy(o->note, wp_job->note, WP_MESSAGE_MAX);
	}
	o->finished = wp_job->finished_seq >= seq;
	out = &wp_job->outcome[seq % WP_OUTCOMES];
	if (out->seq == seq)
	{
		if (out->sweep_id > 0)
			o->sweep_id = out->sweep_id;
		strlcpy(o->status, out->status, WP_STATUS_LEN);
		o->sqlerrcode = out->sqlerrcode;
		strlcpy(o->message, out->message, WP_MESSAGE_MAX);
		strlcpy(o->detail, out->detail, WP_MESSAGE_MAX);
		strlcpy(o->hint, out->hint, WP_MESSAGE_MAX);
		o->pid = out->pid;
	}
	else if (o->finished)
	{
		/* eight launches came and went before this caller looked */
		strlcpy(o->status, "failed", WP_STATUS_LEN);
		o->sqlerrcode = ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE;
		strlcpy(o->message, "its outcome was overwritten by later launches before it was read",
				WP_MESSAGE_MAX);
		strlcpy(o->hint, "walpressure.sweeps has the sweep's status.", WP_MESSAGE_MAX);
	}
	LWLockRelease(wp_job->lock);
}

/*
 * A finished worker still has its last steps to take (its process, its
 * row in pg_stat_activity): wait, a few seconds at most, until it is gone,
 * so that what the caller sees next has no trace of it.
 */
static void
wp_job_wait_gone(const WpOutcome *o)
{
	for (int waited = 0; o->pid > 0 && waited < WP_GONE_WAIT_MS; waited += 10)
	{
		/* ESRCH: gone; EPERM: the pid is another user's process now */
		if (kill(o->pid, 0) != 0 && (errno == ESRCH || errno == EPERM))
			return;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * A NOTICE to the waiting caller, with interrupts held: sending it is how a
 * lost client is often first seen (ClientConnectionLost), and ereport's own
 * CHECK_FOR_INTERRUPTS would end this process there with a FATAL, before
 * the wait loop has stopped the worker.  The loop sees the loss next.
 */
static void
wp_job_notice(const char *text)
{
	HOLD_INTERRUPTS();
	ereport(NOTICE, (errmsg("%s", text)));
	RESUME_INTERRUPTS();
}

/*
 * A NOTICE for each step done since step "reported": the worker may have
 * done several before the caller woke (the slot keeps the last
 * WP_STEP_MESSAGES; a step it no longer holds, or that sent no message, is
 * passed over).
 */
static void
wp_job_notice_steps(const WpOutcome *o, int reported)
{
	for (int s = Max(reported + 1, o->steps_done - WP_STEP_MESSAGES + 1); s <= o->steps_done; s++)
	{
		const WpStepMessage *m = &o->step_message[s % WP_STEP_MESSAGES];

		if (m->step == s)
			wp_job_notice(m->text);
	}
}

/*
 * The launch a caller waits for, 0 when none: cancelled if the caller's
 * process ends while it waits (a FATAL raised anywhere, a lost client seen
 * outside the wait loop), so that no sweep outlives the session that waited
 * for it.  A cancelled or finished launch is left alone (wp_job_cancel
 * acts only on a running launch of that number).
 */
static uint64 wp_waiting_seq = 0;

static void
wp_job_caller_exit(int code, Datum arg)
{
	if (wp_waiting_seq != 0)
		wp_job_cancel(wp_waiting_seq, ClientConnectionLost ? WP_CANCEL_CALLER_GONE : WP_CANCEL_ASKED);
}

static void
wp_job_caller_begin(uint64 seq)
{
	static bool registered = false;

	if (!registered)
	{
		before_shmem_exit(wp_job_caller_exit, (Datum) 0);
		registered = true;
	}
	wp_waiting_seq = seq;
}

static void
wp_job_caller_end(void)
{
	wp_waiting_seq = 0;
}

/* The NOTICE of a long step: where it is. */
static void
wp_job_notice_phase(void)
{
	char	   *text = NULL;

	LWLockAcquire(wp_job->lock, LW_SHARED);
	if (wp_job->kind == WP_JOB_SWEEP && wp_job->state == WP_JOB_RUNNING && wp_job->step > 0)
	{
		const WpSweepRequest *req = &wp_job->req.sweep;
		double		total = wp_job->phase == WP_PHASE_WINDOW ? req->duration_s :
			wp_job->phase == WP_PHASE_WARMUP ? req->warmup_s : 0;
		long		spent = lrint((double) (GetCurrentTimestamp() - wp_job->phase_at) / USECS_PER_SEC);

		/* a timed phase: how far into it, of how long; else how long so far */
		text = psprintf("sweep " INT64_FORMAT " step %d/%d: %s = %s, %s: %s",
						wp_job->sweep_id, wp_job->step, wp_job->steps_total,
						req->setting, wp_job->value, wp_phase_name(wp_job->phase),
						total > 0 ?
						psprintf("%ld s of %s s", Min(spent, (long) ceil(total)),
								 total == floor(total) ? psprintf("%.0f", total) : psprintf("%.1f", total)) :
						psprintf("%ld s so far", spent));
	}
	LWLockRelease(wp_job->lock);
	if (text != NULL)
		wp_job_notice(text);
}

/*
 * May the waiting caller stop holding back the xmin horizon?
 *
 * A sweep takes minutes to hours, and the calling statement's snapshot would
 * hold back pruning and VACUUM of the very tables the clients update
 * (pgbench's own client holds no snapshot between transactions).  A C
 * function cannot release the snapshot of the statement that called it, and
 * the snapshot manager has no call that drops a registered snapshot's xmin,
 * so the only way is to clear this process's advertised xmin.  That is safe
 * only where nothing reads with that snapshot or an older one afterwards:
 * not in a transaction block (an open cursor could), and only when called
 * straight from a top-level SELECT of one row with nothing else to compute
 * (SELECT walpressure.run_sweep(...)): not from a function whose caller may
 * still scan, not from a query with FROM, subqueries or other columns.
 * Elsewhere the horizon is held for the sweep, and VACUUM waits.
 */
static bool
wp_job_may_release_snapshot(void)
{
	PlannedStmt *stmt;
	Plan	   *plan;

	if (IsTransactionBlock() || IsolationUsesXactSnapshot())
		return false;
	if (ActivePortal == NULL || ActivePortal->queryDesc == NULL ||
		list_length(ActivePortal->stmts) != 1 || !ActiveSnapshotSet() ||
		GetActiveSnapshot() != ActivePortal->queryDesc->snapshot)
		return false;
	stmt = linitial_node(PlannedStmt, ActivePortal->stmts);
	plan = stmt->planTree;
	return stmt->commandType == CMD_SELECT && stmt->subplans == NIL &&
		plan != NULL && IsA(plan, Result) && plan->lefttree == NULL &&
		plan->initPlan == NIL && ((Result *) plan)->resconstantqual == NULL &&
		list_length(plan->targetlist) == 1;
}

/*
 * Is the waiting caller's client gone?  A NOTICE that could not be sent
 * says so (ClientConnectionLost); and with client_connection_check_interval
 * set, its timer asks for a look at the socket, which is taken here as
 * ProcessInterrupts takes it (the wait runs no CHECK_FOR_INTERRUPTS while
 * the job runs, so that a cancel stops the worker before it raises): a
 * closed socket, or one whose TCP keepalives or tcp_user_timeout gave up
 * (a network cut), is a lost client.  The caller it waits for is then
 * nobody: the job is cancelled as a Ctrl-C cancels it, and the FATAL
 * "connection to client lost" follows.  walpressure's fleet sets that
 * interval and the keepalives on the sessions it starts sweeps from, so
 * that a sweep never outlives the central session that started it.
 */
static bool
wp_job_client_lost(void)
{
	if (ClientConnectionLost)
		return true;
	if (CheckClientConnectionPending)
	{
		CheckClientConnectionPending = false;
		if (whereToSendOutput == DestRemote && client_connection_check_interval > 0)
		{
			if (!pq_check_connection())
			{
				ClientConnectionLost = true;
				InterruptPending = true;
				return true;
			}
			enable_timeout_after(CLIENT_CONNECTION_CHECK_TIMEOUT, client_connection_check_interval);
		}
	}
	return false;
}

/*
 * Wait for the worker of launch `seq`.  With until_id, return as soon as it
 * has recorded its sweep id.  Sends a NOTICE per step done, and one at
 * least every 10 s of a long step; on a query cancel, a termination or a
 * lost client, cancels the worker, waits for it to stop, then lets the
 * cancel error (or the FATAL) through.
 */
static void
wp_job_wait(uint64 seq, BackgroundWorkerHandle *handle, bool until_id, WpOutcome *o)
{
	int			reported = 0;
	TimestampTz last_notice = GetCurrentTimestamp();

	if (!until_id && wp_job_may_release_snapshot())
	{
		InvalidateCatalogSnapshot();
		MyProc->xmin = InvalidTransactionId;
	}
	for (;;)
	{
		pid_t		pid;
		bool		lost = wp_job_client_lost();

		if (QueryCancelPending || ProcDiePending || lost)
		{
			/* stop our worker (not a later launch's), give it time to record that */
			wp_job_cancel(seq, lost ? WP_CANCEL_CALLER_GONE : WP_CANCEL_ASKED);
			for (int waited = 0; waited < WP_CANCEL_WAIT_MS; waited += 100)
			{
				wp_job_read(seq, o);
				if (o->finished ||
					GetBackgroundWorkerPid(handle, &pid) == BGWH_STOPPED)
					break;
				(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
								 100, PG_WAIT_EXTENSION);
				ResetLatch(MyLatch);
			}
			CHECK_FOR_INTERRUPTS();
		}

		wp_job_read(seq, o);
		if (!until_id && o->steps_done > reported)
		{
			wp_job_notice_steps(o, reported);
			reported = o->steps_done;
			last_notice = GetCurrentTimestamp();
		}
		if (o->finished)
		{
			wp_job_wait_gone(o);
			return;
		}
		if (until_id && o->sweep_id > 0)
			return;
		if (!until_id &&
			TimestampDifferenceExceeds(last_notice, GetCurrentTimestamp(), WP_NOTICE_EVERY_MS))
		{
			wp_job_notice_phase();
			last_notice = GetCurrentTimestamp();
		}
		if (GetBackgroundWorkerPid(handle, &pid) == BGWH_STOPPED)
		{
			/* it died without a word: a crash, or it could not connect */
			wp_job_read(seq, o);
			if (o->finished)
				return;
			wp_job_unclaim(seq);
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("the walpressure worker exited before finishing"),
					 errhint("See the server log.")));
		}

		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 1000, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/*
 * Raise the worker's error as the caller's, with its SQLSTATE, detail and
 * hint, prefixed by `prefix`.
 */
static void
wp_job_raise(const WpOutcome *o, const char *prefix, const char *fallback_detail)
{
	int			code = o->sqlerrcode ? o->sqlerrcode : ERRCODE_INTERNAL_ERROR;

	/* a worker's lost connection or shutdown is not this session's */
	if (ERRCODE_TO_CATEGORY(code) == ERRCODE_CONNECTION_EXCEPTION ||
		ERRCODE_TO_CATEGORY(code) == ERRCODE_OPERATOR_INTERVENTION)
		code = ERRCODE_EXTERNAL_ROUTINE_EXCEPTION;
	ereport(ERROR,
			(errcode(code),
			 errmsg("%s%s", prefix, o->message),
			 o->detail[0] ? errdetail("%s", o->detail) :
			 fallback_detail ? errdetail("%s", fallback_detail) : 0,
			 o->hint[0] ? errhint("%s", o->hint) : 0));
}

/*
 * Start a checked sweep request: claim the slot, copy the request in,
 * start the coordinator, and wait until it has recorded its sweep (its id
 * in *launch), or raise why it could not start.
 */
void
wp_job_start_sweep(const WpSweepRequest *req, bool wait, WpLaunch *launch)
{
	WpOutcome	o;

	if (wait && IsolationUsesXactSnapshot())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("run_sweep(wait => true) cannot run in a REPEATABLE READ or SERIALIZABLE transaction"),
				 errdetail("Its snapshot would hold back VACUUM of the tables the sweep updates for the whole sweep."),
				 errhint("Use READ COMMITTED, or wait => false and read walpressure.sweeps.")));
	launch->seq = wp_job_claim(WP_JOB_SWEEP, req, sizeof(WpSweepRequest));
	launch->handle = wp_job_start_worker(launch->seq, "wp_coordinator_main", "walpressure coordinator");
	if (wait)
		wp_job_caller_begin(launch->seq);

	memset(&o, 0, sizeof(o));
	wp_job_wait(launch->seq, launch->handle, true, &o);
	if (o.finished && o.sweep_id == 0)
		wp_job_raise(&o, "the sweep could not start: ", NULL);
	launch->sweep_id = o.sweep_id;
	strlcpy(launch->note, o.note, WP_MESSAGE_MAX);
}

/*
 * Wait for a started sweep to end, with a NOTICE per step: its failure is
 * raised as the caller's error, a cancel said with a WARNING.
 */
void
wp_job_wait_sweep(const WpLaunch *launch)
{
	WpOutcome	o;

	memset(&o, 0, sizeof(o));
	wp_job_wait(launch->seq, launch->handle, false, &o);
	wp_job_caller_end();
	if (strcmp(o.status, "failed") == 0)
		wp_job_raise(&o, psprintf("sweep " INT64_FORMAT " failed: ", o.sweep_id),
					 "The steps finished before the failure are in walpressure.steps.");
	if (strcmp(o.status, "cancelled") == 0)
		ereport(WARNING,
				(errmsg("sweep " INT64_FORMAT " was cancelled%s%s", o.sweep_id,
						o.message[0] ? ": " : "", o.message),
				 errdetail("The steps finished before the cancel are in walpressure.steps.")));
}

/*
 * Run init_pgbench's request and wait for it.
 */
void
wp_job_run_init(const WpInitRequest *req)
{
	uint64		seq;
	BackgroundWorkerHandle *handle;
	WpOutcome	o;

	seq = wp_job_claim(WP_JOB_INIT_PGBENCH, req, sizeof(WpInitRequest));
	handle = wp_job_start_worker(seq, "wp_init_pgbench_main", "walpressure init_pgbench");
	wp_job_caller_begin(seq);
	memset(&o, 0, sizeof(o));
	wp_job_wait(seq, handle, false, &o);
	wp_job_caller_end();
	if (strcmp(o.status, "done") != 0)
		wp_job_raise(&o, psprintf("init_pgbench %s: ", o.status), NULL);
}

/*
 * Cancel the job (sweep or init_pgbench) that runs as `role`, if one does,
 * and wait until it has stopped: revoke_sweeper, before the role's rights
 * go.  Refused as cancel_sweep refuses: a caller without the privileges of
 * that role, or a superuser's job by a non-superuser.  Returns the sweep's
 * id, -1 for an init_pgbench, 0 when none ran.
 */
int64
wp_job_stop_role(Oid role)
{
	uint64		seq;
	bool		running;
	int64		id;
	WpJobKind	kind;

	LWLockAcquire(wp_job->lock, LW_SHARED);
	running = (wp_job->state == WP_JOB_RUNNING || wp_job->state == WP_JOB_STARTING) &&
		wp_job->roleoid == role;
	seq = wp_job->launch_seq;
	kind = wp_job->kind;
	id = wp_job->sweep_id;
	LWLockRelease(wp_job->lock);
	if (!running)
		return 0;
	if ((superuser_arg(role) && !superuser()) || !has_privs_of_role(GetUserId(), role))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to cancel the sweep of role \"%s\"",
						GetUserNameFromId(role, false)),
				 errdetail("Its rights cannot be taken while it runs; only roles with its privileges may cancel it, and only superusers a superuser's.")));
	wp_job_cancel(seq, WP_CANCEL_ASKED);
	wp_job_wait_finished(seq);
	if (id == 0)
	{
		WpOutcome	o;

		memset(&o, 0, sizeof(o));
		wp_job_read(seq, &o);
		id = o.sweep_id;
	}
	return kind == WP_JOB_SWEEP ? id : -1;
}

/*
 * Is sweep `id` the one that runs, in this database?  Its launch and its
 * role then.
 */
bool
wp_job_sweep_running(int64 id, uint64 *seq, Oid *owner)
{
	bool		running;

	LWLockAcquire(wp_job->lock, LW_SHARED);
	running = wp_job->state == WP_JOB_RUNNING && wp_job->kind == WP_JOB_SWEEP &&
		id > 0 && wp_job->sweep_id == id && wp_job->dboid == MyDatabaseId;
	*seq = wp_job->launch_seq;
	*owner = running ? wp_job->roleoid : InvalidOid;
	LWLockRelease(wp_job->lock);
	return running;
}

/* The sweep that runs in this database, 0: none. */
int64
wp_job_sweep_here(void)
{
	int64		running = 0;

	if (wp_job == NULL)
		return 0;
	LWLockAcquire(wp_job->lock, LW_SHARED);
	if (wp_job->state == WP_JOB_RUNNING && wp_job->kind == WP_JOB_SWEEP &&
		wp_job->dboid == MyDatabaseId)
		running = wp_job->sweep_id;
	LWLockRelease(wp_job->lock);
	return running;
}

/* Wait until launch `seq` has finished and its process is gone. */
void
wp_job_wait_finished(uint64 seq)
{
	for (;;)
	{
		WpOutcome	o;

		memset(&o, 0, sizeof(o));
		wp_job_read(seq, &o);
		if (o.finished)
		{
			wp_job_wait_gone(&o);
			return;
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}
