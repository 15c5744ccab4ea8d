/*-------------------------------------------------------------------------
 *
 * arguments.h
 *		run_sweep's arguments: their positions, the bounds of what a sweep
 *		may ask, and decoding the ones typed "any" (arguments.c).
 *
 * IDENTIFICATION
 *	  src/api/arguments.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_ARGUMENTS_H
#define WALPRESSURE_ARGUMENTS_H

#include "fmgr.h"

#include "sweep/request.h"

/* Bounds of what a sweep may ask, so that nothing overflows later. */
#define WP_LOAD_MAX			100000	/* clients, batch_size, iops_cap */
#define WP_PGBENCH_BATCH_MAX 1000	/* batch_size with the pgbench engine */
#define WP_ROUND_TRIP_MAX	1000000 /* us */
#define WP_DURATION_MAX_S	86400.0 /* a step's window or warm-up */
#define WP_REPEATS_MAX		1000
#define WP_AUTO_MIN_REPEATS	3		/* repeats => 'auto': the fewest rounds */
#define WP_AUTO_MAX_REPEATS	20		/* ... and the most, without a budget */
#define WP_BUDGET_MAX_S		(7 * 86400.0)
#define WP_STEPS_MAX		10000

/* Argument positions of run_sweep. */
enum
{
	A_SETTING, A_VALS, A_CLIENTS, A_DURATION, A_WORKLOAD, A_IOPS_CAP, A_WARMUP,
	A_REPEATS, A_SETTINGS, A_PREWARM, A_LABEL, A_WAIT, A_ACCEPT_DATA_LOSS, A_ENGINE,
	A_SCRIPT, A_BUDGET, A_CHECKPOINT, A_ON_STANDBY_LOSS, A_STANDBY_CONNINFO, A_RATE,
	A_LATENCY_LIMIT, A_RANGE, A_SEARCH, A_RESOLUTION, A_DISK, A_FLUSH_FLOOR, A_NARGS
};

extern void wp_vals_as_text(FunctionCallInfo fcinfo, bool config, Datum **elems, bool **nulls, int *n);
extern char *wp_any_as_text(FunctionCallInfo fcinfo, int arg, const char *name);
extern double wp_seconds_arg(FunctionCallInfo fcinfo, int arg, const char *name);
extern void wp_repeats_arg(FunctionCallInfo fcinfo, WpSweepRequest *req);

#endif							/* WALPRESSURE_ARGUMENTS_H */
