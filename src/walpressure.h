/*-------------------------------------------------------------------------
 *
 * walpressure.h
 *		The module's settings and its static parts: the GUCs (walpressure.c),
 *		the commit probe (probe.c) and the sampler (sampler.c).
 *
 * Each other file has its own header, named after it.
 *
 * IDENTIFICATION
 *	  src/walpressure.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_H
#define WALPRESSURE_H

#include "fmgr.h"

/* walpressure.c */
extern int	wp_sample_interval_ms;
extern int	wp_sample_history;

/* probe.c */
extern void wp_probe_register(void);

/* sampler.c */
extern void wp_sampler_register(void);
PGDLLEXPORT void wp_sampler_main(Datum main_arg);

#endif							/* WALPRESSURE_H */
