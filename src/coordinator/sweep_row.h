/*-------------------------------------------------------------------------
 *
 * sweep_row.h
 *		A sweep's row in walpressure.sweeps (sweep_row.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/sweep_row.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_SWEEP_ROW_H
#define WALPRESSURE_SWEEP_ROW_H

#include "nodes/pg_list.h"

#include "sweep/request.h"

extern int64 wp_results_sweep_insert(const WpSweepRequest *req);
extern void wp_results_server_originals(int64 sweep_id, List *names);
extern void wp_results_sweep_close(int64 sweep_id, const char *status, const char *error,
								   const char *restored);

#endif							/* WALPRESSURE_SWEEP_ROW_H */
