/*-------------------------------------------------------------------------
 *
 * slot.h
 *		The one-job slot: a sweep or an init_pgbench, claimed by the
 *		caller, run by a worker, watched, cancelled and finished (slot.c).
 *
 * IDENTIFICATION
 *	  src/job/slot.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_JOB_H
#define WALPRESSURE_JOB_H

#include "datatype/timestamp.h"
#include "port/atomics.h"
#include "storage/lwlock.h"
#include "utils/elog.h"

#include "sweep/request.h"

typedef enum WpJobKind
{
	WP_JOB_SWEEP,
	WP_JOB_INIT_PGBENCH
} WpJobKind;

/* Where a running sweep step is, for walpressure.progress. */
typedef enum WpPhase
{
	WP_PHASE_STARTING = 0,
	WP_PHASE_PREWARM,
	WP_PHASE_SETTINGS,
	WP_PHASE_CHECKPOINT,
	WP_PHASE_WARMUP,
	WP_PHASE_WINDOW,
	WP_PHASE_STOPPING,
	WP_PHASE_RECORDING,
	WP_PHASE_RESTORE
} WpPhase;

/* Why a job was cancelled: the value of its cancel flag. */
typedef enum WpCancelWhy
{
	WP_CANCEL_NONE = 0,
	WP_CANCEL_ASKED,			/* cancel_sweep, the caller's Ctrl-C, a signal */
	WP_CANCEL_CALLER_GONE		/* the waiting caller's connection was lost */
} WpCancelWhy;

#define WP_STATUS_LEN 16
#define WP_MESSAGE_MAX 1024

/* Where the job is, for walpressure.progress. */
typedef struct WpJobView
{
	WpJobKind	kind;
	pid_t		caller_pid;
	int64		sweep_id;
	Oid			dboid;
	Oid			roleoid;
	int			step;
	int			steps_total;
	int			steps_done;
	int			repeat;
	WpPhase		phase;
	char		setting[WP_NAME_MAX];
	char		value[WP_VALUE_MAX];
	char		last_step[WP_MESSAGE_MAX];
	TimestampTz phase_at;
	TimestampTz step_at;
	TimestampTz first_step_at;
	TimestampTz last_done_at;
	double		step_plan_s;	/* a step's warm-up and window */
} WpJobView;

extern bool wp_job_view(WpJobView *view);
extern const char *wp_phase_name(WpPhase phase);

/* What a worker says of one step of its job. */
extern void wp_job_phase(WpPhase phase, int step, int repeat, const char *value);
extern void wp_job_step_done(int step, const char *message);

/* The worker's side. */
extern Oid	wp_job_database(void);
extern Oid	wp_job_role(void);
extern const WpSweepRequest *wp_job_sweep_request(void);
extern const WpInitRequest *wp_job_init_request(void);
extern void wp_job_note(const char *note);
extern void wp_job_started(int64 sweep_id, int steps_total);
extern void wp_job_set_total(int steps_total);
extern bool wp_job_cancelled(void);
extern WpCancelWhy wp_job_cancel_why(void);
extern void wp_job_cancel_self(void);
extern void wp_job_cancel(uint64 seq, WpCancelWhy why);
extern void wp_job_finish(const char *status, ErrorData *edata, int64 sweep_id);
extern int64 wp_job_sweep_id(void);
extern void wp_job_worker_begin(void);
extern bool wp_job_idle(void);

/* Shared memory (walpressure.c's hooks). */
extern Size wp_job_shmem_size(void);
extern void wp_job_shmem_init(void *block, bool found, LWLock *lock);

#endif							/* WALPRESSURE_JOB_H */
