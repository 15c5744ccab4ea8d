/*-------------------------------------------------------------------------
 *
 * step_rows.h
 *		A step's rows (step_rows.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/step_rows.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_STEP_ROWS_H
#define WALPRESSURE_STEP_ROWS_H

#include "coordinator/step.h"

extern void wp_results_step_insert(int64 sweep_id, const WpSweepRequest *req, int step,
								   int pos, int repeat, const WpLoadSpec *spec,
								   const WpStepResult *r,
								   const WpStepSample *samples, int nsamples);

#endif							/* WALPRESSURE_STEP_ROWS_H */
