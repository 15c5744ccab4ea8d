/*-------------------------------------------------------------------------
 *
 * sampler.h
 *		The sampler: a static worker that snapshots the live counters into
 *		the ring every walpressure.sample_interval (sampler.c).
 *
 * IDENTIFICATION
 *	  src/live/sampler.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_SAMPLER_H
#define WALPRESSURE_SAMPLER_H

#include "fmgr.h"

extern int	wp_sample_interval_ms;
extern void wp_sampler_register(void);
PGDLLEXPORT void wp_sampler_main(Datum main_arg);

#endif							/* WALPRESSURE_SAMPLER_H */
