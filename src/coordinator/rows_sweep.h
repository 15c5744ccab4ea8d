/*-------------------------------------------------------------------------
 *
 * rows_sweep.h
 *		A sweep's row in walpressure.sweeps (rows_sweep.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/rows_sweep.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_ROWS_SWEEP_H
#define WALPRESSURE_ROWS_SWEEP_H

#include "nodes/pg_list.h"

#include "sweep/request.h"

extern int64 wp_results_sweep_insert(const WpSweepRequest *req);
extern void wp_results_server_originals(int64 sweep_id, List *names);
extern void wp_results_sweep_close(int64 sweep_id, const char *status, const char *error,
								   const char *restored);

#endif							/* WALPRESSURE_ROWS_SWEEP_H */
