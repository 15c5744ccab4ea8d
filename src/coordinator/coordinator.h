/*-------------------------------------------------------------------------
 *
 * coordinator.h
 *		The worker that runs a sweep: value x repeat, interleaved
 *		(coordinator.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/coordinator.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_COORDINATOR_H
#define WALPRESSURE_COORDINATOR_H

#include "fmgr.h"

PGDLLEXPORT void wp_coordinator_main(Datum main_arg);

#endif							/* WALPRESSURE_COORDINATOR_H */
