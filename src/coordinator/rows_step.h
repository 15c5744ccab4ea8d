/*-------------------------------------------------------------------------
 *
 * rows_step.h
 *		A step's rows (rows_step.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/rows_step.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_ROWS_STEP_H
#define WALPRESSURE_ROWS_STEP_H

#include "coordinator/step_measure.h"

extern void wp_results_step_insert(int64 sweep_id, const WpSweepRequest *req, int step,
								   int pos, int repeat, const WpLoadSpec *spec,
								   const WpStepResult *r,
								   const WpStepSample *samples, int nsamples);

#endif							/* WALPRESSURE_ROWS_STEP_H */
