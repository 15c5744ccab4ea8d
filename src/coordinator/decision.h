/*-------------------------------------------------------------------------
 *
 * decision.h
 *		One more round or the end (decision.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/decision.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_DECISION_H
#define WALPRESSURE_DECISION_H

#include "sweep/request.h"

extern bool wp_results_auto_decide(int64 sweep_id, const WpSweepRequest *req, int rounds,
								   double round_s, double elapsed_s);

#endif							/* WALPRESSURE_DECISION_H */
