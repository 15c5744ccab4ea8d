/*-------------------------------------------------------------------------
 *
 * job.c
 *		The one-job slot.  run_sweep and init_pgbench claim it, copy their
 *		request into it and start their worker; the caller waits with a
 *		NOTICE per step (and at least every 10 s), and Ctrl-C or
 *		cancel_sweep stops the worker.  The worker reports its phase for
 *		walpressure.progress, and finishes with a status and, on failure,
 *		the error it met, SQLSTATE, detail and hint included, which the
 *		caller raises as its own.
 *
 * Note about locking: everything in WpJob but the request and the cancel
 * flag is guarded by its lock.  The request is written by the caller after
 * the claim and before the worker starts, and read-only from then on until
 * the worker finishes.  The cancel flag is an atomic anyone may set.
 *
 * IDENTIFICATION
 *	  src/job.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_authid.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/plannodes.h"
#include "tcop/pquery.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/portal.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "job.h"
#include "recovery.h"
#include "shmem.h"
#include "worker.h"

PG_FUNCTION_INFO_V1(wp_cancel_sweep);

typedef enum WpJobState
{
	WP_JOB_IDLE = 0,			/* none: a caller may claim the slot */
	WP_JOB_STARTING,			/* claimed; the worker is not yet running */
	WP_JOB_RUNNING,				/* the worker recorded its sweep */
	WP_JOB_FINISHED				/* the worker ended; its caller reads why */
} WpJobState;

/*
 * How a launch ended.  Kept for the last few launches, so that a caller that
 * was slow to look (a blocked NOTICE) still finds its own after another
 * launch has claimed the slot.
 */
#define WP_OUTCOMES 8

typedef struct WpJobOutcome
{
	uint64		seq;			/* the launch, 0: none */
	int64		sweep_id;
	char		status[WP_STATUS_LEN];	/* done, cancelled, failed */
	int			sqlerrcode;
	char		message[WP_MESSAGE_MAX];
	char		detail[WP_MESSAGE_MAX];
	char		hint[WP_MESSAGE_MAX];
} WpJobOutcome;

typedef struct WpJob
{
	LWLock	   *lock;
	WpJobState	state;
	WpJobKind	kind;
	uint64		launch_seq;		/* bumped by each claim */
	uint64		finished_seq;	/* the launch whose worker last finished */
	int64		sweep_id;		/* 0 until the coordinator recorded it */
	PGPROC	   *caller;			/* to set its latch */
	pid_t		caller_pid;
	Oid			dboid;
	Oid			roleoid;

	/* the outcomes of the last launches, slot seq % WP_OUTCOMES */
	WpJobOutcome outcome[WP_OUTCOMES];

	/* progress */
	int			steps_total;
	int			steps_done;
	char		last_step[WP_MESSAGE_MAX];
	WpPhase		phase;
	int			step;
	int			repeat;
	char		value[WP_VALUE_MAX];
	TimestampTz started_at;
	TimestampTz phase_at;
	TimestampTz step_at;		/* when the current step started */
	TimestampTz first_step_at;
	TimestampTz last_done_at;

	pg_atomic_uint32 cancel;

	union
	{
		WpSweepRequest sweep;
		WpInitRequest init;
	}			req;
} WpJob;

static WpJob *wp_job = NULL;

static const char *const wp_phase_names[] = {
	"starting", "prewarm", "server settings", "checkpoint", "warm-up",
	"measured window", "stopping clients", "recording", "restoring"
};

/* How long a cancelled caller waits for its worker to wind down. */
#define WP_CANCEL_WAIT_MS	30000
/* A waiting caller hears at least this often during a long step. */
#define WP_NOTICE_EVERY_MS	10000

Size
wp_job_shmem_size(void)
{
	return sizeof(WpJob);
}

void
wp_job_shmem_init(void *block, bool found, LWLock *lock)
{
	wp_job = block;
	if (!found)
	{
		memset(wp_job, 0, sizeof(WpJob));
		wp_job->lock = lock;
		wp_job->state = WP_JOB_IDLE;
		pg_atomic_init_u32(&wp_job->cancel, 0);
	}
}

/* ---------- the worker's side ---------- */

Oid
wp_job_database(void)
{
	return wp_job->dboid;
}

Oid
wp_job_role(void)
{
	return wp_job->roleoid;
}

const WpSweepRequest *
wp_job_sweep_request(void)
{
	Assert(wp_job->kind == WP_JOB_SWEEP);
	return &wp_job->req.sweep;
}

const WpInitRequest *
wp_job_init_request(void)
{
	Assert(wp_job->kind == WP_JOB_INIT_PGBENCH);
	return &wp_job->req.init;
}

int64
wp_job_sweep_id(void)
{
	return wp_job->sweep_id;
}

/* Is no job claimed or running? */
bool
wp_job_idle(void)
{
	bool		idle;

	LWLockAcquire(wp_job->lock, LW_SHARED);
	idle = wp_job->state != WP_JOB_STARTING && wp_job->state != WP_JOB_RUNNING;
	LWLockRelease(wp_job->lock);
	return idle;
}

/* Tell the waiting caller that something changed. */
static void
wp_job_wake_caller(void)
{
	PGPROC	   *caller = wp_job->caller;

	if (caller != NULL)
		SetLatch(&caller->procLatch);
}

/*
 * The coordinator recorded its sweep: the caller may learn its id.
 */
void
wp_job_started(int64 sweep_id, int steps_total)
{
	LWLockAcquire(wp_job->lock, LW_EXCLUSIVE);
	wp_job->sweep_id = sweep_id;
	wp_job->steps_total = steps_total;
	wp_job->state = WP_JOB_RUNNING;
	wp_job->started_at = GetCurrentTimestamp();
	LWLockRelease(wp_job->lock);
	wp_job_wake_caller();
}

bool
wp_job_cancelled(void)
{
	return pg_atomic_read_u32(&wp_job->cancel) != 0;
}

/* Cancel the job from its own worker (SIGTERM). */
void
wp_job_cancel_self(void)
{
	pg_atomic_write_u32(&wp_job->cancel, 1);
}

/*
 * Where the job is now: its phase in step `step` (1-based; 0 before the
 * first), repeat and value.
 */
void
wp_job_phase(WpPhase phase, int step, int repeat, const char *value)
{
	TimestampTz now = GetCurrentTimestamp();

	LWLockAcquire(wp_job->lock, LW_EXCLUSIVE);
	if (step != wp_job->step)
	{
		wp_job->step_at = now;
		if (wp_job->first_step_at == 0)
			wp_job->first_step_at = now;
	}
	wp_job->phase = phase;
	wp_job->phase_at = now;
	wp_job->step = step;
	wp_job->repeat = repeat;
	if (value != NULL)
		wp_copy_text(wp_job->value, value, WP_VALUE_MAX);
	LWLockRelease(wp_job->lock);
}

/*
 * Step `step` is done; `message` is what the waiting caller is told.
 */
void
wp_job_step_done(int step, const char *message)
{
	LWLockAcquire(wp_job->lock, LW_EXCLUSIVE);
	wp_job->steps_done = step;
	wp_job->last_done_at = GetCurrentTimestamp();
	wp_copy_text(wp_job->last_step, message, WP_MESSAGE_MAX);
	LWLockRelease(wp_job->lock);
	wp_job_wake_caller();
}

/*
 * The worker is done: record its outcome for the caller (the error it met,
 * if any) and free the slot for the next job.
 */
void
wp_job_finish(const char *status, ErrorData *edata, int64 sweep_id)
{
	WpJobOutcome *out;

	LWLockAcquire(wp_job->lock, LW_EXCLUSIVE);
	out = &wp_job->outcome[wp_job->launch_seq % WP_OUTCOMES];
	out->seq = wp_job->launch_seq;
	out->sweep_id = sweep_id;
	strlcpy(out->status, status, WP_STATUS_LEN);
	out->sqlerrcode = edata ? edata->sqlerrcode : 0;
	wp_copy_text(out->message, edata && edata->message ? edata->message : "", WP_MESSAGE_MAX);
	wp_copy_text(out->detail, edata && edata->detail ? edata->detail : "", WP_MESSAGE_MAX);
	wp_copy_text(out->hint, edata && edata->hint ? edata->hint : "", WP_MESSAGE_MAX);
	wp_job->sweep_id = sweep_id;
	wp_job->finished_seq = wp_job->launch_seq;
	wp_job->state = WP_JOB_FINISHED;
	LWLockRelease(wp_job->lock);
	wp_job_wake_caller();
}

/* ---------- the caller's side ---------- */

/*
 * The workers connect as the current role: it must be able to log in.
 */
void
wp_job_check_role(void)
{
	HeapTuple	role;
	bool		can_login;

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
}

/*
 * Claim the slot for a new job as the current role in this database, with
 * its request; ERROR if a job runs or an interrupted sweep is not closed
 * yet.
 */
static uint64
wp_job_claim(WpJobKind kind, const void *req, Size len)
{
	int64		pending;
	uint64		seq;

	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("walpressure cannot run a sweep or init_pgbench on a server in recovery"),
				 errhint("Run them on the primary.")));
	LWLockAcquire(wp_job->lock, LW_EXCLUSIVE);
	if (wp_job->state == WP_JOB_STARTING || wp_job->state == WP_JOB_RUNNING)
	{
		int64		id = wp_job->sweep_id;
		pid_t		pid = wp_job->caller_pid;
		bool		here = wp_job->dboid == MyDatabaseId;

		LWLockRelease(wp_job->lock);
		if (id > 0 && here)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_IN_USE),
					 errmsg("sweep " INT64_FORMAT " is running; walpressure runs one sweep at a time", id),
					 errhint("Wait for it to finish, or stop it with SELECT walpressure.cancel_sweep(" INT64_FORMAT ");", id)));
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("a walpressure sweep or init_pgbench started by process %d is running", (int) pid),
				 errhint("Wait for it to finish; walpressure runs one at a time on the whole server.")));
	}
	/* none runs, but the one a server stop interrupted may not be closed yet */
	if (wp_recovery_pending(&pending))
	{
		LWLockRelease(wp_job->lock);
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("sweep " INT64_FORMAT " was interrupted by a server stop and is still being closed",
						pending),
				 errhint("Try again in a few seconds; the server log says when it is done.")));
	}
	seq = ++wp_job->launch_seq;
	wp_job->state = WP_JOB_STARTING;
	wp_job->kind = kind;
	wp_job->sweep_id = 0;
	wp_job->caller = MyProc;
	wp_job->caller_pid = MyProcPid;
	wp_job->dboid = MyDatabaseId;
	wp_job->roleoid = GetUserId();
	wp_job->last_step[0] = '\0';
	wp_job->value[0] = '\0';
	wp_job->steps_total = 0;
	wp_job->steps_done = 0;
	wp_job->step = 0;
	wp_job->repeat = 0;
	wp_job->phase = WP_PHASE_STARTING;
	wp_job->started_at = wp_job->phase_at = GetCurrentTimestamp();
	wp_job->step_at = wp_job->first_step_at = wp_job->last_done_at = 0;
	pg_atomic_write_u32(&wp_job->cancel, 0);
	memcpy(&wp_job->req, req, len);
	LWLockRelease(wp_job->lock);
	return seq;
}

/*
 * Give the slot back when the worker could not be started or died.
 */
static void
wp_job_unclaim(uint64 seq)
{
	LWLockAcquire(wp_job->lock, LW_EXCLUSIVE);
	if (wp_job->launch_seq == seq &&
		(wp_job->state == WP_JOB_STARTING || wp_job->state == WP_JOB_RUNNING))
		wp_job->state = WP_JOB_IDLE;
	LWLockRelease(wp_job->lock);
}

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
	char		last_step[WP_MESSAGE_MAX];
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
		strlcpy(o->last_step, wp_job->last_step, WP_MESSAGE_MAX);
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

/* The NOTICE of a long step: where it is. */
static void
wp_job_notice_phase(void)
{
	char	   *text = NULL;

	LWLockAcquire(wp_job->lock, LW_SHARED);
	if (wp_job->kind == WP_JOB_SWEEP && wp_job->state == WP_JOB_RUNNING && wp_job->step > 0)
		text = psprintf("sweep " INT64_FORMAT " step %d/%d: %s = %s, %s for %ld s",
						wp_job->sweep_id, wp_job->step, wp_job->steps_total,
						wp_job->req.sweep.setting, wp_job->value,
						wp_phase_names[wp_job->phase],
						(long) ((GetCurrentTimestamp() - wp_job->phase_at) / USECS_PER_SEC));
	LWLockRelease(wp_job->lock);
	if (text != NULL)
		ereport(NOTICE, (errmsg("%s", text)));
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
 * Wait for the worker of launch `seq`.  With until_id, return as soon as it
 * has recorded its sweep id.  Sends a NOTICE per step done, and one at
 * least every 10 s of a long step; on a query cancel, cancels the worker,
 * waits for it to stop, then lets the cancel error through.
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

		if (QueryCancelPending || ProcDiePending)
		{
			/* stop our worker (not a later launch's), give it time to record that */
			LWLockAcquire(wp_job->lock, LW_SHARED);
			if (wp_job->launch_seq == seq)
				pg_atomic_write_u32(&wp_job->cancel, 1);
			LWLockRelease(wp_job->lock);
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
			ereport(NOTICE, (errmsg("%s", o->last_step)));
			reported = o->steps_done;
			last_notice = GetCurrentTimestamp();
		}
		if (o->finished || (until_id && o->sweep_id > 0))
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
 * Run a checked sweep request: claim the slot, copy the request in, start
 * the coordinator, and wait for its sweep id, then (with wait) for its end.
 */
int64
wp_job_run_sweep(const WpSweepRequest *req, bool wait)
{
	uint64		seq;
	BackgroundWorkerHandle *handle;
	WpOutcome	o;

	if (wait && IsolationUsesXactSnapshot())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("run_sweep(wait => true) cannot run in a REPEATABLE READ or SERIALIZABLE transaction"),
				 errdetail("Its snapshot would hold back VACUUM of the tables the sweep updates for the whole sweep."),
				 errhint("Use READ COMMITTED, or wait => false and read walpressure.sweeps.")));
	seq = wp_job_claim(WP_JOB_SWEEP, req, sizeof(WpSweepRequest));
	handle = wp_job_start_worker(seq, "wp_coordinator_main", "walpressure coordinator");

	memset(&o, 0, sizeof(o));
	wp_job_wait(seq, handle, true, &o);
	if (o.finished && o.sweep_id == 0)
		wp_job_raise(&o, "the sweep could not start: ", NULL);
	if (!wait)
		return o.sweep_id;

	wp_job_wait(seq, handle, false, &o);
	if (strcmp(o.status, "failed") == 0)
		wp_job_raise(&o, psprintf("sweep " INT64_FORMAT " failed: ", o.sweep_id),
					 "The steps finished before the failure are in walpressure.steps.");
	if (strcmp(o.status, "cancelled") == 0)
		ereport(WARNING,
				(errmsg("sweep " INT64_FORMAT " was cancelled%s%s", o.sweep_id,
						o.message[0] ? ": " : "", o.message),
				 errdetail("The steps finished before the cancel are in walpressure.steps.")));
	return o.sweep_id;
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
	memset(&o, 0, sizeof(o));
	wp_job_wait(seq, handle, false, &o);
	if (strcmp(o.status, "done") != 0)
		wp_job_raise(&o, psprintf("init_pgbench %s: ", o.status), NULL);
}

/*
 * cancel_sweep(sweep_id bigint) returns boolean: stop a running sweep of
 * this database and wait until it has stopped.  The steps it finished are
 * kept.
 */
Datum
wp_cancel_sweep(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);
	uint64		seq;
	bool		running;

	Oid			owner = InvalidOid;

	wp_require_preload();
	LWLockAcquire(wp_job->lock, LW_SHARED);
	running = wp_job->state == WP_JOB_RUNNING && wp_job->kind == WP_JOB_SWEEP &&
		id > 0 && wp_job->sweep_id == id && wp_job->dboid == MyDatabaseId;
	seq = wp_job->launch_seq;
	if (running)
		owner = wp_job->roleoid;
	LWLockRelease(wp_job->lock);

	/* as pg_cancel_backend: one's own, or a member's; a superuser's only by one */
	if (running && ((superuser_arg(owner) && !superuser()) ||
					!has_privs_of_role(GetUserId(), owner)))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to cancel sweep " INT64_FORMAT, id),
				 errdetail("Only roles with the privileges of the role that runs a sweep may cancel it, and only superusers a superuser's.")));
	if (running)
	{
		LWLockAcquire(wp_job->lock, LW_SHARED);
		if (wp_job->launch_seq == seq)
			pg_atomic_write_u32(&wp_job->cancel, 1);
		LWLockRelease(wp_job->lock);
	}

	if (!running)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("sweep " INT64_FORMAT " is not running", id),
				 errhint("walpressure.sweeps shows the status of every sweep.")));

	for (;;)
	{
		WpOutcome	o;

		memset(&o, 0, sizeof(o));
		wp_job_read(seq, &o);
		if (o.finished)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	PG_RETURN_BOOL(true);
}

/* The name of a phase, as walpressure.progress shows it. */
const char *
wp_phase_name(WpPhase phase)
{
	return wp_phase_names[phase];
}

/*
 * A consistent copy of where the job is; false when none runs.
 */
bool
wp_job_view(WpJobView *v)
{
	bool		active;

	memset(v, 0, sizeof(WpJobView));
	LWLockAcquire(wp_job->lock, LW_SHARED);
	active = wp_job->state == WP_JOB_STARTING || wp_job->state == WP_JOB_RUNNING;
	if (active)
	{
		v->kind = wp_job->kind;
		v->caller_pid = wp_job->caller_pid;
		v->sweep_id = wp_job->sweep_id;
		v->dboid = wp_job->dboid;
		v->roleoid = wp_job->roleoid;
		v->step = wp_job->step;
		v->steps_total = wp_job->steps_total;
		v->steps_done = wp_job->steps_done;
		v->repeat = wp_job->repeat;
		v->phase = wp_job->phase;
		strlcpy(v->value, wp_job->value, WP_VALUE_MAX);
		strlcpy(v->last_step, wp_job->last_step, WP_MESSAGE_MAX);
		v->phase_at = wp_job->phase_at;
		v->step_at = wp_job->step_at;
		v->first_step_at = wp_job->first_step_at;
		v->last_done_at = wp_job->last_done_at;
		if (wp_job->kind == WP_JOB_SWEEP)
		{
			strlcpy(v->setting, wp_job->req.sweep.setting, WP_NAME_MAX);
			v->step_plan_s = wp_job->req.sweep.warmup_s + wp_job->req.sweep.duration_s;
		}
	}
	LWLockRelease(wp_job->lock);
	return active;
}
