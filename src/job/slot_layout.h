/*-------------------------------------------------------------------------
 *
 * slot_layout.h
 *		The one-job slot's layout, shared by slot.c (the slot and the
 *		worker's side) and launch.c (the caller's side) only.
 *
 * Note about locking: everything in WpJob but the request and the cancel
 * flag is guarded by its lock.  The request is written under the lock when
 * the slot is claimed, and read-only from then on until the worker
 * finishes.  The cancel flag is an atomic anyone may set.
 *
 * IDENTIFICATION
 *	  src/job/slot_layout.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_JOB_SLOT_H
#define WALPRESSURE_JOB_SLOT_H

#include "storage/proc.h"

#include "job/slot.h"

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

/*
 * The messages of the last steps done, step % WP_STEP_MESSAGES: a caller
 * that wakes after two or more steps were done (a loaded machine, a quick
 * job such as init_pgbench's first steps) still tells each of them.
 */
#define WP_STEP_MESSAGES 8

typedef struct WpStepMessage
{
	int			step;			/* the step it tells of, 0: none */
	char		text[WP_MESSAGE_MAX];
} WpStepMessage;

typedef struct WpJobOutcome
{
	uint64		seq;			/* the launch, 0: none */
	int64		sweep_id;
	char		status[WP_STATUS_LEN];	/* done, cancelled, failed */
	int			sqlerrcode;
	char		message[WP_MESSAGE_MAX];
	char		detail[WP_MESSAGE_MAX];
	char		hint[WP_MESSAGE_MAX];
	pid_t		pid;			/* the worker that finished it */
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
	pid_t		worker_pid;		/* the running worker, 0 until it started */
	Oid			dboid;
	Oid			roleoid;

	/* the outcomes of the last launches, slot seq % WP_OUTCOMES */
	WpJobOutcome outcome[WP_OUTCOMES];

	/* progress */
	int			steps_total;
	int			steps_done;
	WpStepMessage step_message[WP_STEP_MESSAGES];	/* the last step's: steps_done's */
	char		note[WP_MESSAGE_MAX];	/* for the plan NOTICE, "": none */
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

extern WpJob *wp_job;

extern uint64 wp_job_claim(WpJobKind kind, const void *req, Size len);
extern void wp_job_unclaim(uint64 seq);

#endif							/* WALPRESSURE_JOB_SLOT_H */
