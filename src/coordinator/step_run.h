/*-------------------------------------------------------------------------
 *
 * step_run.h
 *		One step of a sweep, whichever way its values are chosen (every
 *		value every round, or a search): run, recorded, told (step_run.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/step_run.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_STEP_RUN_H
#define WALPRESSURE_STEP_RUN_H

#include "coordinator/step_measure.h"

/* The steps of a sweep so far. */
typedef struct WpRun
{
	int64		id;				/* the sweep */
	const WpStepPlan *plan;
	MemoryContext step_cxt;		/* reset after each step */
	WpStepSample *samples;		/* one step's seconds */
	int			max_samples;
	int			step;			/* steps started */
	int			done;			/* steps recorded */
	int			total;			/* steps planned so far */
	char	   *untold;			/* a recorded step's NOTICE not sent yet, or NULL */
} WpRun;

typedef enum WpRunOutcome
{
	WP_RUN_RECORDED,			/* measured and recorded */
	WP_RUN_SKIPPED,				/* not run: its standby was not there */
	WP_RUN_STOPPED				/* the sweep was cancelled */
} WpRunOutcome;

extern void wp_run_begin(WpRun *run, int64 id, const WpStepPlan *plan, MemoryContext step_cxt);
extern WpRunOutcome wp_run_step(WpRun *run, int repeat, int pos, bool tell);
extern void wp_run_tell(WpRun *run, const char *more);

#endif							/* WALPRESSURE_STEP_RUN_H */
