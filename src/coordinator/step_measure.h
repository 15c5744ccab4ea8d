/*-------------------------------------------------------------------------
 *
 * step_measure.h
 *		A step measured: prepared (settings, checkpoint, cap), its
 *		measured window run through a load engine, and its figures computed
 *		from the counters read at the window's edges (step_measure.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/step_measure.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_STEP_MEASURE_H
#define WALPRESSURE_STEP_MEASURE_H

#include "access/xlogdefs.h"

#include "engine/engine.h"
#include "coordinator/cap_hold.h"
#include "sweep/figures.h"

/* What every step of a sweep shares. */
typedef struct WpStepPlan
{
	const WpSweepRequest *req;
	const WpLoadEngine *engine;
	WpCap	   *cap;
	WpCrashRecord *record;		/* what to put back if the server stops */
	/* the server-wide settings the values change, and their values before */
	List	   *server_names;
	List	   *server_originals;
} WpStepPlan;

/* One second of a step's measured window. */
typedef struct WpStepSample
{
	TimestampTz at;				/* the second's end */
	double		tps;
	double		latency_p50_ms;
	double		latency_p99_ms;
	int64		commits;
	int64		wal_fsyncs;
	int64		wal_bytes;
} WpStepSample;

extern bool wp_step_run(const WpStepPlan *plan, int step, int repeat, int pos,
						WpLoadSpec *spec, WpStepResult *r,
						WpStepSample *samples, int max_samples, int *nsamples);
extern void wp_step_stop_load(const WpStepPlan *plan);

#endif							/* WALPRESSURE_STEP_MEASURE_H */
