/*-------------------------------------------------------------------------
 *
 * slot.c
 *		The one-job slot.  run_sweep and init_pgbench claim it with their
 *		request (launch.c starts and watches the worker); the worker reads
 *		the request, reports its phase for walpressure.progress, and
 *		finishes with a status and, on failure, the error it met, SQLSTATE,
 *		detail and hint included, kept by launch number for its caller.
 *		The slot's layout and locking rules are in slot_layout.h.
 *
 * IDENTIFICATION
 *	  src/job/slot.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>

#include "access/htup_details.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_authid.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/proc.h"
#include "utils/builtins.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "job/slot.h"
#include "job/slot_layout.h"
#include "live/shmem.h"
#include "common/text_cut.h"


WpJob	   *wp_job = NULL;

static const char *const wp_phase_names[] = {
	"starting", "prewarm", "server settings", "checkpoint", "warm-up",
	"measured window", "stopping clients", "recording", "restoring"
};


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
		pg_atomic_init_u32(&wp_job->cancel, WP_CANCEL_NONE);
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
/*
 * What the worker found before the first step (the group-commit threshold),
 * for the caller's plan NOTICE: set before wp_job_started.
 */
void
wp_job_note(const char *note)
{
	LWLockAcquire(wp_job->lock, LW_EXCLUSIVE);
	wp_copy_text(wp_job->note, note, WP_MESSAGE_MAX);
	LWLockRelease(wp_job->lock);
}

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

/* An auto-repeats sweep added a round: its steps to come. */
void
wp_job_set_total(int steps_total)
{
	LWLockAcquire(wp_job->lock, LW_EXCLUSIVE);
	wp_job->steps_total = steps_total;
	LWLockRelease(wp_job->lock);
}

bool
wp_job_cancelled(void)
{
	return pg_atomic_read_u32(&wp_job->cancel) != WP_CANCEL_NONE;
}

/* Why the job was cancelled (WP_CANCEL_NONE: it was not). */
WpCancelWhy
wp_job_cancel_why(void)
{
	return (WpCancelWhy) pg_atomic_read_u32(&wp_job->cancel);
}

/* Cancel the job from its own worker (SIGTERM), keeping an earlier reason. */
void
wp_job_cancel_self(void)
{
	uint32		none = WP_CANCEL_NONE;

	(void) pg_atomic_compare_exchange_u32(&wp_job->cancel, &none, WP_CANCEL_ASKED);
}

/*
 * The worker says it runs: the process a cancel interrupts.
 */
void
wp_job_worker_begin(void)
{
	LWLockAcquire(wp_job->lock, LW_EXCLUSIVE);
	wp_job->worker_pid = MyProcPid;
	LWLockRelease(wp_job->lock);
}

/*
 * Cancel launch `seq` (not a later one): raise the flag the worker checks
 * between its steps, and interrupt what it is doing now (a checkpoint, a
 * prewarm, a wait) as pg_cancel_backend would: the worker treats that as
 * the cancel, puts back what it holds and ends.  The worker runs none of
 * the caller's code, so nothing can swallow the interrupt.  `why` is kept
 * in the flag, for the sweep's row.
 */
void
wp_job_cancel(uint64 seq, WpCancelWhy why)
{
	pid_t		pid = 0;

	LWLockAcquire(wp_job->lock, LW_SHARED);
	if (wp_job->launch_seq == seq &&
		(wp_job->state == WP_JOB_STARTING || wp_job->state == WP_JOB_RUNNING))
	{
		pg_atomic_write_u32(&wp_job->cancel, why);
		pid = wp_job->worker_pid;
	}
	LWLockRelease(wp_job->lock);
	if (pid > 0)
		(void) kill(pid, SIGINT);
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
	WpStepMessage *m = &wp_job->step_message[step % WP_STEP_MESSAGES];

	LWLockAcquire(wp_job->lock, LW_EXCLUSIVE);
	wp_job->steps_done = step;
	wp_job->last_done_at = GetCurrentTimestamp();
	m->step = step;
	wp_copy_text(m->text, message, WP_MESSAGE_MAX);
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
	out->pid = MyProcPid;
	wp_job->sweep_id = sweep_id;
	wp_job->finished_seq = wp_job->launch_seq;
	wp_job->state = WP_JOB_FINISHED;
	wp_job->worker_pid = 0;
	LWLockRelease(wp_job->lock);
	wp_job_wake_caller();
}

/* ---------- the caller's side ---------- */

/*
 * Claim the slot for a new job as the current role in this database, with
 * its request; ERROR if a job runs.  (Its caller refused it first if an
 * interrupted sweep is not closed yet: restore/restore.c.)
 */
uint64
wp_job_claim(WpJobKind kind, const void *req, Size len)
{
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
	seq = ++wp_job->launch_seq;
	wp_job->state = WP_JOB_STARTING;
	wp_job->kind = kind;
	wp_job->sweep_id = 0;
	wp_job->caller = MyProc;
	wp_job->caller_pid = MyProcPid;
	wp_job->worker_pid = 0;
	wp_job->dboid = MyDatabaseId;
	wp_job->roleoid = GetUserId();
	for (int i = 0; i < WP_STEP_MESSAGES; i++)
		wp_job->step_message[i].step = 0;
	wp_job->note[0] = '\0';
	wp_job->value[0] = '\0';
	wp_job->steps_total = 0;
	wp_job->steps_done = 0;
	wp_job->step = 0;
	wp_job->repeat = 0;
	wp_job->phase = WP_PHASE_STARTING;
	wp_job->started_at = wp_job->phase_at = GetCurrentTimestamp();
	wp_job->step_at = wp_job->first_step_at = wp_job->last_done_at = 0;
	pg_atomic_write_u32(&wp_job->cancel, WP_CANCEL_NONE);
	memcpy(&wp_job->req, req, len);
	LWLockRelease(wp_job->lock);
	return seq;
}

/*
 * Give the slot back when the worker could not be started or died.
 */
void
wp_job_unclaim(uint64 seq)
{
	LWLockAcquire(wp_job->lock, LW_EXCLUSIVE);
	if (wp_job->launch_seq == seq &&
		(wp_job->state == WP_JOB_STARTING || wp_job->state == WP_JOB_RUNNING))
		wp_job->state = WP_JOB_IDLE;
	LWLockRelease(wp_job->lock);
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
	const WpStepMessage *last;

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
		last = &wp_job->step_message[wp_job->steps_done % WP_STEP_MESSAGES];
		strlcpy(v->last_step, last->step == wp_job->steps_done && last->step > 0 ? last->text : "",
				WP_MESSAGE_MAX);
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
