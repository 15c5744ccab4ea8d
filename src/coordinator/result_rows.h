/*-------------------------------------------------------------------------
 *
 * result_rows.h
 *		The rows a sweep leaves: walpressure.sweeps, steps, step_samples,
 *		written as the extension's owner, each in its own transaction
 *		(results.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/result_rows.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_RESULTS_H
#define WALPRESSURE_RESULTS_H

#include "nodes/pg_list.h"

#include "coordinator/step.h"

extern void wp_xact_begin(void);
extern void wp_xact_end(void);
extern int64 wp_results_sweep_insert(const WpSweepRequest *req);
extern void wp_results_server_originals(int64 sweep_id, List *names);
extern void wp_results_step_insert(int64 sweep_id, const WpSweepRequest *req, int step,
								   int pos, int repeat, const WpLoadSpec *spec,
								   const WpStepResult *r,
								   const WpStepSample *samples, int nsamples);
extern void wp_results_sweep_close(int64 sweep_id, const char *status, const char *error,
								   const char *restored);

extern bool wp_results_auto_decide(int64 sweep_id, const WpSweepRequest *req, int rounds,
										  double round_s, double elapsed_s);

#endif							/* WALPRESSURE_RESULTS_H */
