/*-------------------------------------------------------------------------
 *
 * launch.h
 *		The caller's side of a job: start its worker, wait, cancel
 *		(launch.c).
 *
 * IDENTIFICATION
 *	  src/job/launch.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_LAUNCH_H
#define WALPRESSURE_LAUNCH_H

#include "job/slot.h"

/* A sweep started by this caller. */
typedef struct WpLaunch
{
	uint64		seq;			/* its launch */
	struct BackgroundWorkerHandle *handle;	/* its coordinator */
	int64		sweep_id;
	char		note[WP_MESSAGE_MAX];	/* what the worker found before step 1, "": none */
} WpLaunch;

extern void wp_job_start_sweep(const WpSweepRequest *req, bool wait, WpLaunch *launch);
extern void wp_job_wait_sweep(const WpLaunch *launch);
extern void wp_job_run_init(const WpInitRequest *req);
extern int64 wp_job_stop_role(Oid role);
extern bool wp_job_sweep_running(int64 id, uint64 *seq, Oid *owner);
extern int64 wp_job_sweep_here(void);
extern void wp_job_wait_finished(uint64 seq);

#endif							/* WALPRESSURE_LAUNCH_H */
